#include "support.hpp"

#include <stdlib.h>
#include <sys/mount.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstring>
#include <cstdio>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <stdexcept>

namespace iomark::targets::test {

bool is_root() { return ::geteuid() == 0; }

int run(const std::string& command, std::string* output) {
  FILE* pipe = ::popen((command + " 2>&1").c_str(), "r");
  if (pipe == nullptr) return -1;
  std::array<char, 4096> buffer{};
  std::string text;
  while (const std::size_t n = std::fread(buffer.data(), 1, buffer.size(), pipe)) text.append(buffer.data(), n);
  const int status = ::pclose(pipe);
  if (output != nullptr) *output = text;
  return WIFEXITED(status) ? WEXITSTATUS(status) : -1;
}

bool have_program(const std::string& program) { return run("command -v " + program) == 0; }

void write_file(const std::string& path, const std::vector<std::uint8_t>& bytes) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  out.write(reinterpret_cast<const char*>(bytes.data()), static_cast<std::streamsize>(bytes.size()));
}

std::vector<std::uint8_t> read_file(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
}

TempDir::TempDir() {
  std::string pattern = std::filesystem::temp_directory_path().string() + "/iomark-targets-XXXXXX";
  if (::mkdtemp(pattern.data()) == nullptr) throw std::runtime_error("mkdtemp failed");
  path_ = pattern;
}

TempDir::~TempDir() {
  std::error_code ignored;
  std::filesystem::remove_all(path_, ignored);
}

ScratchMount::ScratchMount(const std::string& type, const std::string& options) {
  if (::mount(type.c_str(), dir_.path().c_str(), type.c_str(), 0, options.c_str()) == 0) {
    mounted_ = true;
  } else {
    error_ = "mount -t " + type + " failed: " + std::strerror(errno);
  }
}

ScratchMount::~ScratchMount() {
  if (mounted_) ::umount2(dir_.path().c_str(), MNT_DETACH);
}

LoopDevice::LoopDevice(Options options) {
  if (!is_root()) {
    error_ = "needs root to attach loop devices";
    return;
  }
  if (!have_program("losetup")) {
    error_ = "losetup is not installed";
    return;
  }
  const std::string backing = dir_ / "backing.img";
  {
    std::ofstream create(backing, std::ios::binary);
  }
  std::filesystem::resize_file(backing, options.size_bytes);
  if (options.with_partition) {
    // One primary Linux partition from sector 2048 to the end, and the boot signature.
    std::vector<std::uint8_t> mbr(512, 0);
    const std::uint32_t first = 2048;
    const auto count = static_cast<std::uint32_t>(options.size_bytes / 512 - first);
    mbr[446 + 4] = 0x83;
    for (int i = 0; i < 4; ++i) {
      mbr[446 + 8 + i] = static_cast<std::uint8_t>(first >> (8 * i));
      mbr[446 + 12 + i] = static_cast<std::uint8_t>(count >> (8 * i));
    }
    mbr[510] = 0x55;
    mbr[511] = 0xAA;
    std::fstream out(backing, std::ios::binary | std::ios::in | std::ios::out);
    out.write(reinterpret_cast<const char*>(mbr.data()), static_cast<std::streamsize>(mbr.size()));
  }
  std::string output;
  const std::string command = "losetup -f --show" + std::string(options.with_partition ? " -P" : "") +
                              " --sector-size " + std::to_string(options.logical_block_bytes) + " " + backing;
  if (run(command, &output) != 0) {
    error_ = "losetup failed: " + output;
    return;
  }
  device_ = output.substr(0, output.find('\n'));
  if (options.with_partition && !std::filesystem::exists(partition())) {
    run("partx -a " + device_);  // the partition scan of losetup -P does not run everywhere
    if (!std::filesystem::exists(partition())) error_ = "the kernel did not create " + partition();
  }
}

LoopDevice::~LoopDevice() {
  for (auto it = mounts_.rbegin(); it != mounts_.rend(); ++it) ::umount2(it->c_str(), 0);
  if (!device_.empty()) run("losetup -d " + device_);
}

bool LoopDevice::format_ext4(const std::string& node) { return run("mkfs.ext4 -q -F " + node) == 0; }

std::optional<std::string> LoopDevice::mount(const std::string& node) {
  const std::string where = dir_ / ("mnt" + std::to_string(mounts_.size()));
  std::filesystem::create_directory(where);
  if (run("mount " + node + " " + where) != 0) return std::nullopt;
  mounts_.push_back(where);
  return where;
}

}  // namespace iomark::targets::test
