#include "iomark/common/text_file.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

#include "iomark/common/units.hpp"

namespace iomark {

namespace {

Error failure(const std::filesystem::path& path, const char* what, int error_number) {
  return Error(ErrorCode::io_error, std::string(what) + ": " + std::strerror(error_number)).at({path.string(), 0});
}

}  // namespace

Result<std::string> read_text_file(const std::filesystem::path& path, std::uint64_t max_bytes) {
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return fail(failure(path, "cannot open", errno));
  // Regular files announce their size; /proc and /sys files say 0 (or a page) and are read
  // to their end like pipes.
  struct stat status {};
  if (::fstat(fd, &status) == 0 && S_ISREG(status.st_mode) && static_cast<std::uint64_t>(status.st_size) > max_bytes) {
    ::close(fd);
    return fail(Error(ErrorCode::invalid_argument, "larger than " + format_size(Bytes(max_bytes))).at({path.string(), 0}));
  }
  std::string text;
  if (S_ISREG(status.st_mode) && status.st_size > 0) text.reserve(static_cast<std::size_t>(status.st_size));
  char buffer[1 << 16];
  for (;;) {
    const ssize_t got = ::read(fd, buffer, sizeof buffer);
    if (got == 0) break;
    if (got < 0) {
      if (errno == EINTR) continue;
      const int error_number = errno;
      ::close(fd);
      return fail(failure(path, "cannot read", error_number));
    }
    text.append(buffer, static_cast<std::size_t>(got));
    if (text.size() > max_bytes) {
      ::close(fd);
      return fail(Error(ErrorCode::invalid_argument, "larger than " + format_size(Bytes(max_bytes))).at({path.string(), 0}));
    }
  }
  ::close(fd);
  return text;
}

}  // namespace iomark
