// Opening a path beneath a directory descriptor, so that nothing on the way (a symbolic
// link, "..", a directory swapped for a link between a check and the open) can lead out of
// it: the mechanism behind the agent's write scope (docs/write-scope.md).
//
// Where the kernel has openat2(2) (Linux 5.6), the kernel resolves the path with
// RESOLVE_BENEATH | RESOLVE_NO_MAGICLINKS: symbolic links that stay beneath the directory are
// followed, anything that would leave it fails. Elsewhere the path is walked one component at
// a time with O_NOFOLLOW, which refuses every symbolic link, even one that stays inside: the
// fallback is stricter, never looser. Either way a ".." component is refused before anything
// is opened (the paths given here come from canonical paths, which have none).
//
// Thread-safe; no state but the cached answer to "does this kernel have openat2".
#pragma once

#include <sys/types.h>
#include <unistd.h>

#include <cstdint>
#include <string>
#include <string_view>
#include <utility>

#include "iomark/common/result.hpp"

namespace iomark::targets {

// Owns a file descriptor; closes it on destruction. Move-only.
class Fd {
 public:
  Fd() = default;
  explicit Fd(int fd) noexcept : fd_(fd) {}
  Fd(Fd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Fd& operator=(Fd&& other) noexcept {
    if (this != &other) reset(std::exchange(other.fd_, -1));
    return *this;
  }
  Fd(const Fd&) = delete;
  Fd& operator=(const Fd&) = delete;
  ~Fd() { reset(); }

  [[nodiscard]] int get() const noexcept { return fd_; }
  [[nodiscard]] bool valid() const noexcept { return fd_ >= 0; }
  [[nodiscard]] int release() noexcept { return std::exchange(fd_, -1); }
  void reset(int fd = -1) noexcept {
    if (fd_ >= 0) ::close(fd_);
    fd_ = fd;
  }

 private:
  int fd_{-1};
};

enum class Resolution : std::uint8_t {
  automatic,  // openat2 where the kernel has it, else the walk
  walk,       // always the component walk (tests use it to cover the fallback on any kernel)
};

// Opens `relative` ("a/b/file", no leading '/'; "" or "." is the directory itself) beneath
// `directory_fd` with open(2) `flags` (O_CLOEXEC is added) and `mode` for O_CREAT.
//
// Errors: validation_error naming `shown` when the path leaves the directory (an absolute
// path, a ".." component, a symbolic link out of it or, in the walk, any symbolic link, a
// magic link such as /proc/self/fd/N); not_found when a component does not exist; io_error
// (with strerror) for anything else. The errno of the failure is kept in `last_errno` when
// not null (EEXIST for O_CREAT | O_EXCL on an existing name, say).
[[nodiscard]] Result<Fd> open_beneath(int directory_fd, std::string_view relative, int flags, mode_t mode,
                                      std::string_view shown, Resolution resolution = Resolution::automatic,
                                      int* last_errno = nullptr);

// Whether this kernel resolves with openat2 (probed once).
[[nodiscard]] bool kernel_has_openat2() noexcept;

}  // namespace iomark::targets
