#include "iomark/targets/beneath.hpp"

#include <fcntl.h>
#include <linux/openat2.h>
#include <sys/stat.h>
#include <sys/syscall.h>

#include <atomic>
#include <cerrno>
#include <vector>

#include "posix.hpp"

namespace iomark::targets {
namespace {

// Debian 12's glibc has no openat2 wrapper; the system call is stable since Linux 5.6.
int raw_openat2(int directory_fd, const char* path, int flags, mode_t mode) {
  open_how how{};
  how.flags = static_cast<std::uint64_t>(flags);
  how.mode = (flags & (O_CREAT | O_TMPFILE)) != 0 ? mode : 0;
  how.resolve = RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS;
  return static_cast<int>(::syscall(SYS_openat2, directory_fd, path, &how, sizeof how));
}

// 1 = has it, 0 = lacks it, -1 = not asked yet.
std::atomic<int> openat2_known{-1};

std::vector<std::string_view> components(std::string_view relative) {
  std::vector<std::string_view> parts;
  while (!relative.empty()) {
    const auto slash = relative.find('/');
    const auto part = relative.substr(0, slash);
    if (!part.empty() && part != ".") parts.push_back(part);
    if (slash == std::string_view::npos) break;
    relative.remove_prefix(slash + 1);
  }
  return parts;
}

Error leaves(std::string_view shown) {
  return Error(ErrorCode::validation_error,
               std::string(shown) +
                   " leads out of its allowed directory (a symbolic link, \"..\" or a path changed while it was "
                   "opened); the agent does not follow it")
      .in_field("--allow");
}

Error failure(std::string_view shown, int error) {
  if (error == EXDEV || error == ELOOP) return leaves(shown);
  return detail::os_error(ErrorCode::io_error, std::string(shown), error);
}

// O_NOFOLLOW on every component; intermediate ones as O_PATH directories, so a link there
// fails with ENOTDIR or ELOOP instead of being followed.
Result<Fd> walk(int directory_fd, const std::vector<std::string_view>& parts, int flags, mode_t mode,
                std::string_view shown, int* last_errno) {
  Fd current;
  int at = directory_fd;
  for (std::size_t i = 0; i + 1 < parts.size(); ++i) {
    const std::string name(parts[i]);
    Fd next(::openat(at, name.c_str(), O_PATH | O_DIRECTORY | O_NOFOLLOW | O_CLOEXEC));
    if (!next.valid()) {
      const int error = errno;
      if (last_errno != nullptr) *last_errno = error;
      // A symbolic link in the middle: ENOTDIR from O_DIRECTORY on the link itself.
      struct stat st {};
      if (error == ENOTDIR && ::fstatat(at, name.c_str(), &st, AT_SYMLINK_NOFOLLOW) == 0 && S_ISLNK(st.st_mode)) {
        return fail(leaves(shown));
      }
      return fail(failure(shown, error));
    }
    current = std::move(next);
    at = current.get();
  }
  const std::string last = parts.empty() ? std::string(".") : std::string(parts.back());
  Fd opened(::openat(at, last.c_str(), flags | O_NOFOLLOW | O_CLOEXEC, mode));
  if (!opened.valid()) {
    const int error = errno;
    if (last_errno != nullptr) *last_errno = error;
    return fail(failure(shown, error));
  }
  // O_PATH | O_NOFOLLOW opens a link itself instead of failing: refuse it here.
  struct stat st {};
  if (::fstat(opened.get(), &st) != 0 || S_ISLNK(st.st_mode)) return fail(leaves(shown));
  return opened;
}

}  // namespace

bool kernel_has_openat2() noexcept {
  int known = openat2_known.load(std::memory_order_relaxed);
  if (known < 0) {
    const int fd = raw_openat2(AT_FDCWD, ".", O_PATH | O_CLOEXEC, 0);
    known = fd >= 0 || errno != ENOSYS ? 1 : 0;
    if (fd >= 0) ::close(fd);
    openat2_known.store(known, std::memory_order_relaxed);
  }
  return known == 1;
}

Result<Fd> open_beneath(int directory_fd, std::string_view relative, int flags, mode_t mode, std::string_view shown,
                        Resolution resolution, int* last_errno) {
  if (last_errno != nullptr) *last_errno = 0;
  if (relative.starts_with('/')) return fail(leaves(shown));
  const auto parts = components(relative);
  for (const auto part : parts) {
    if (part == "..") return fail(leaves(shown));
  }
  if (resolution == Resolution::automatic && kernel_has_openat2()) {
    std::string path;
    for (const auto part : parts) {
      if (!path.empty()) path += '/';
      path += part;
    }
    if (path.empty()) path = ".";
    Fd opened(raw_openat2(directory_fd, path.c_str(), flags | O_CLOEXEC, mode));
    if (opened.valid()) return opened;
    const int error = errno;
    if (last_errno != nullptr) *last_errno = error;
    return fail(failure(shown, error));
  }
  return walk(directory_fd, parts, flags, mode, shown, last_errno);
}

}  // namespace iomark::targets
