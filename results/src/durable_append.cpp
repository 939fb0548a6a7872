#include "iomark/results/durable_append.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace iomark::results {
namespace {

tl::unexpected<Error> os_error(std::string_view action, const std::filesystem::path& path, int error) {
  return fail(ErrorCode::io_error, std::string(action) + " " + path.string() + ": " + std::strerror(error));
}

}  // namespace

Result<void> append_durably(const std::filesystem::path& path, std::string_view text) {
  const int fd = ::open(path.c_str(), O_WRONLY | O_APPEND | O_CREAT | O_CLOEXEC, 0644);
  if (fd < 0) return os_error("cannot open", path, errno);

  std::size_t written = 0;
  while (written < text.size()) {
    const ssize_t n = ::write(fd, text.data() + written, text.size() - written);
    if (n < 0) {
      if (errno == EINTR) continue;
      const int error = errno;
      ::close(fd);
      return os_error("cannot write", path, error);
    }
    written += static_cast<std::size_t>(n);
  }
  if (::fsync(fd) != 0) {
    const int error = errno;
    ::close(fd);
    return os_error("cannot sync", path, error);
  }
  // A failed close after a successful fsync can still mean lost data on some file systems (NFS).
  if (::close(fd) != 0) return os_error("cannot close", path, errno);
  return {};
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
