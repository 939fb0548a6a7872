#include "posix.hpp"

#include <algorithm>
#include <bit>
#include <cerrno>
#include <cstring>

namespace iomark::targets::detail {

std::string errno_text(int error) {
  char buffer[256];
  // GNU strerror_r returns the message, which may or may not live in `buffer`.
  return ::strerror_r(error, buffer, sizeof buffer);
}

Error os_error(ErrorCode code, const std::string& what, int error) {
  return Error(error == ENOENT ? ErrorCode::not_found : code, what + ": " + errno_text(error));
}

std::string with_article(const std::string& word) {
  const bool vowel = !word.empty() && std::strchr("aeiouAEIOU", word.front()) != nullptr;
  return (vowel ? "an " : "a ") + word;
}

std::string describe_bytes(std::uint64_t bytes) {
  return format_size(Bytes(bytes)) + " (" + std::to_string(bytes) + " bytes)";
}

AlignedBuffer direct_io_buffer(std::uint64_t sector, std::uint64_t bytes) {
  const std::size_t alignment = std::max<std::size_t>(4096, std::bit_ceil(static_cast<std::size_t>(sector)));
  const auto rounded = static_cast<std::size_t>((bytes + alignment - 1) / alignment * alignment);
  return AlignedBuffer(static_cast<std::byte*>(std::aligned_alloc(alignment, rounded)));
}

std::pair<std::size_t, int> write_fully(int fd, std::span<const std::byte> buffer, std::uint64_t offset) {
  std::size_t done = 0;
  while (done < buffer.size()) {
    const ssize_t written = ::pwrite(fd, buffer.data() + done, buffer.size() - done, static_cast<off_t>(offset + done));
    if (written < 0) {
      if (errno == EINTR) continue;
      return {done, errno};
    }
    if (written == 0) return {done, EIO};
    done += static_cast<std::size_t>(written);
  }
  return {done, 0};
}

}  // namespace iomark::targets::detail
