// A descriptor closed on every return path: the files named on command lines (keys,
// certificates) are checked and read through one descriptor, so the file checked is the
// file read.
#pragma once

#include <unistd.h>

namespace iomark::transport::detail {

class FileDescriptor {
 public:
  explicit FileDescriptor(int fd) noexcept : fd_(fd) {}
  FileDescriptor(const FileDescriptor&) = delete;
  FileDescriptor& operator=(const FileDescriptor&) = delete;
  ~FileDescriptor() {
    if (fd_ >= 0) ::close(fd_);
  }
  [[nodiscard]] int get() const noexcept { return fd_; }

 private:
  int fd_;
};

}  // namespace iomark::transport::detail
