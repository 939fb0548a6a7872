// A test helper shared by the engine tests: a temp file of known data.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

namespace iomark::engine::test_support {

// A temp file holding `size` bytes of data, opened buffered.
class DataFile {
 public:
  explicit DataFile(std::size_t size) {
    const char* dir = std::getenv("TMPDIR");
    std::string path =
        std::string(dir != nullptr && *dir != '\0' ? dir : "/tmp") + "/iomark-calibration-XXXXXX";
    fd_ = ::mkstemp(path.data());
    if (fd_ < 0) return;
    ::unlink(path.c_str());
    const std::vector<char> data(size, 'x');
    if (::pwrite(fd_, data.data(), data.size(), 0) != static_cast<ssize_t>(size)) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  DataFile(const DataFile&) = delete;
  DataFile& operator=(const DataFile&) = delete;
  ~DataFile() {
    if (fd_ >= 0) ::close(fd_);
  }
  [[nodiscard]] int fd() const { return fd_; }

 private:
  int fd_{-1};
};

}  // namespace iomark::engine::test_support
