// Test helpers shared by the engine tests: a temp file of known data, quick calibrations.
#pragma once

#include <fcntl.h>
#include <unistd.h>

#include <cstddef>
#include <cstdlib>
#include <string>
#include <vector>

#include "iomark/engine/engine_trial.hpp"

namespace iomark::engine::test_support {

// A calibration short enough for unit tests: one round of 10 ms after 1 ms of warm-up.
inline TrialOptions quick(std::uint32_t queue_depth) {
  TrialOptions options;
  options.queue_depth = queue_depth;
  options.warm_up = std::chrono::milliseconds(1);
  options.measured = std::chrono::milliseconds(10);
  options.rounds = 1;
  return options;
}

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
