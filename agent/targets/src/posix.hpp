// Small POSIX helpers shared by the targets sources (private to this library).
#pragma once

#include <unistd.h>

#include <optional>
#include <string>
#include <utility>

#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"

namespace iomark::targets::detail {

// Owns a file descriptor; closes it on destruction.
class UniqueFd {
 public:
  UniqueFd() = default;
  explicit UniqueFd(int fd) noexcept : fd_(fd) {}
  UniqueFd(UniqueFd&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  UniqueFd& operator=(UniqueFd&& other) noexcept {
    if (this != &other) reset(std::exchange(other.fd_, -1));
    return *this;
  }
  UniqueFd(const UniqueFd&) = delete;
  UniqueFd& operator=(const UniqueFd&) = delete;
  ~UniqueFd() { reset(); }

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

// strerror for `error` (thread-safe).
[[nodiscard]] std::string errno_text(int error);

// "<what>: <strerror>" as an Error; ENOENT becomes not_found, everything else `code`.
[[nodiscard]] Error os_error(ErrorCode code, const std::string& what, int error);

// "an ext4" / "a gpt": the article English wants before `word`.
[[nodiscard]] std::string with_article(const std::string& word);

// "4 MiB (4194304 bytes)" for messages.
[[nodiscard]] std::string describe_bytes(std::uint64_t bytes);

}  // namespace iomark::targets::detail
