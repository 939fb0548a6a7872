#include "iomark/results/durable_append.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstdint>
#include <cstring>
#include <optional>

namespace iomark::results {
namespace {

tl::unexpected<Error> os_error(std::string_view action, const std::filesystem::path& path, int error) {
  return fail(ErrorCode::io_error, std::string(action) + " " + path.string() + ": " + std::strerror(error));
}

// Writes all of `text` to `fd` (at `offset` and cutting the file off after it, or appending),
// fsyncs and closes it.
Result<void> write_sync_close(int fd, const std::filesystem::path& path, std::string_view text,
                              std::optional<std::uint64_t> offset) {
  auto failed = [&](std::string_view action) {
    const int error = errno;
    ::close(fd);
    return os_error(action, path, error);
  };
  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = offset ? ::pwrite(fd, text.data() + written, text.size() - written,
                                        static_cast<off_t>(*offset + written))
                             : ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      return failed("cannot write");
    }
    written += static_cast<std::size_t>(n);
  }
  if (offset && ::ftruncate(fd, static_cast<off_t>(*offset + text.size())) != 0) return failed("cannot truncate");
  if (::fsync(fd) != 0) return failed("cannot sync");
  // A failed close after a successful fsync can still mean lost data on some file systems (NFS).
  if (::close(fd) != 0) return os_error("cannot close", path, errno);
  return {};
}

}  // namespace

Result<void> append_durably(const std::filesystem::path& path, std::string_view text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return os_error("cannot open", path, errno);
  return write_sync_close(fd, path, text, std::nullopt);
}

Result<void> rewrite_from_durably(const std::filesystem::path& path, std::uint64_t offset, std::string_view text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_CLOEXEC);
  if (fd < 0) return os_error("cannot open", path, errno);
  return write_sync_close(fd, path, text, offset);
}

Result<void> replace_durably(const std::filesystem::path& path, std::string_view text) {
  auto partial = path;
  partial += ".partial";
  std::error_code ignored;
  std::filesystem::remove(partial, ignored);
  if (auto written = append_durably(partial, text); !written) {
    std::filesystem::remove(partial, ignored);
    return written;
  }
  if (::rename(partial.c_str(), path.c_str()) != 0) {
    const int error = errno;
    std::filesystem::remove(partial, ignored);
    return os_error("cannot replace", path, error);
  }
  return {};
}

}  // namespace iomark::results
