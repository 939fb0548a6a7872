// Scratch resources for the targets tests: temporary directories, small RAM file systems and
// loop devices over temporary files. Each is created by the test and removed in its destructor;
// nothing here touches a device or mount the test did not create.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace iomark::targets::test {

bool is_root();

// Runs a shell command; returns its exit status and puts stdout+stderr in `output`.
int run(const std::string& command, std::string* output = nullptr);

// Whether `program` is on PATH.
bool have_program(const std::string& program);

void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes);
std::vector<std::uint8_t> read_file(const std::string& path);

// A directory from mkdtemp, removed recursively on destruction.
class TempDir {
 public:
  TempDir();
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir();
  [[nodiscard]] const std::string& path() const { return path_; }
  [[nodiscard]] std::string operator/(const std::string& name) const { return path_ + "/" + name; }

 private:
  std::string path_;
};

// A file system (`tmpfs` or `ramfs`) mounted on a fresh mkdtemp directory; unmounted on
// destruction. Needs root: check `mounted()` and skip otherwise.
class ScratchMount {
 public:
  ScratchMount(const std::string& type, const std::string& options);
  ScratchMount(const ScratchMount&) = delete;
  ScratchMount& operator=(const ScratchMount&) = delete;
  ~ScratchMount();
  [[nodiscard]] bool mounted() const { return mounted_; }
  [[nodiscard]] const std::string& path() const { return dir_.path(); }
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  TempDir dir_;
  bool mounted_{false};
  std::string error_;
};

// A loop device over a sparse temporary file (losetup -f --show). On destruction: unmounts
// what this object mounted, then detaches the device. Never touches other devices.
class LoopDevice {
 public:
  struct Options {
    std::uint64_t size_bytes{64ULL << 20};
    std::uint32_t logical_block_bytes{512};
    bool with_partition{false};  // an MBR with one partition, scanned with losetup -P / partx
  };
  explicit LoopDevice(Options options);
  LoopDevice(const LoopDevice&) = delete;
  LoopDevice& operator=(const LoopDevice&) = delete;
  ~LoopDevice();

  [[nodiscard]] bool attached() const { return !device_.empty(); }
  [[nodiscard]] const std::string& error() const { return error_; }
  [[nodiscard]] const std::string& device() const { return device_; }  // "/dev/loopN"
  [[nodiscard]] std::string name() const { return device_.substr(5); }  // "loopN"
  [[nodiscard]] std::string partition() const { return device_ + "p1"; }

  // mkfs.ext4 -q on the device or its partition; mount it on a scratch directory.
  bool format_ext4(const std::string& node);
  std::optional<std::string> mount(const std::string& node);

 private:
  TempDir dir_;
  std::string device_;
  std::string error_;
  std::vector<std::string> mounts_;
};

}  // namespace iomark::targets::test
