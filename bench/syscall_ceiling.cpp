// iomark-syscall-ceiling: the fastest a tool that makes one system call per I/O can go on this
// target, for bench/engine-vs-fio's QD 1 cases. One pread or pwrite per I/O at a random aligned
// offset, O_DIRECT, nothing else: no timestamps, no statistics, no queue. Any benchmark at
// QD 1 pays this much; what a tool measures above it is the tool's own cost.
//
//   iomark-syscall-ceiling TARGET BLOCK_BYTES READ_PERCENT RAMP_S MEASURE_S
// prints {"iops": N, "avg_us": M} for the measured seconds; at depth 1 the average latency is
// the time per I/O. The target is written to when READ_PERCENT < 100: the bench only passes
// targets it made itself.
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <chrono>
#include <cstdint>
#include <cstdio>
#include <cstdlib>
#include <cstring>
#include <memory>
#include <string>

namespace {

std::uint64_t xorshift(std::uint64_t& state) {
  state ^= state << 13;
  state ^= state >> 7;
  state ^= state << 17;
  return state;
}

int fail(const std::string& what) {
  std::fprintf(stderr, "iomark-syscall-ceiling: %s: %s\n", what.c_str(), std::strerror(errno));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 6) {
    std::fprintf(stderr, "usage: %s TARGET BLOCK_BYTES READ_PERCENT RAMP_S MEASURE_S\n", argv[0]);
    return 2;
  }
  const std::string target = argv[1];
  const std::uint64_t block = std::strtoull(argv[2], nullptr, 10);
  const std::uint64_t read_percent = std::strtoull(argv[3], nullptr, 10);
  const auto ramp = std::chrono::seconds(std::atoi(argv[4]));
  const auto measure = std::chrono::seconds(std::atoi(argv[5]));
  if (block == 0 || block % 512 != 0 || read_percent > 100 || measure.count() <= 0) {
    std::fprintf(stderr, "iomark-syscall-ceiling: bad arguments\n");
    return 2;
  }
  const int fd = ::open(target.c_str(), (read_percent == 100 ? O_RDONLY : O_RDWR) | O_DIRECT);
  if (fd < 0) return fail("cannot open " + target);
  std::uint64_t size = 0;
  struct stat status {};
  if (::fstat(fd, &status) != 0) return fail("cannot stat " + target);
  if (S_ISBLK(status.st_mode)) {
    if (::ioctl(fd, BLKGETSIZE64, &size) != 0) return fail("cannot size " + target);
  } else {
    size = static_cast<std::uint64_t>(status.st_size);
  }
  const std::uint64_t blocks = size / block;
  if (blocks == 0) {
    std::fprintf(stderr, "iomark-syscall-ceiling: %s is smaller than one block\n", target.c_str());
    return 1;
  }
  void* memory = nullptr;
  if (::posix_memalign(&memory, 4096, block) != 0) return fail("cannot allocate the buffer");
  const std::unique_ptr<void, decltype(&std::free)> buffer(memory, &std::free);
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;
  for (std::uint64_t i = 0; i < block / 8; ++i) static_cast<std::uint64_t*>(memory)[i] = xorshift(state);

  using Clock = std::chrono::steady_clock;
  const auto start = Clock::now();
  auto measured_from = start + ramp;
  std::uint64_t done = 0;
  bool measuring = ramp.count() == 0;
  for (;;) {
    for (int i = 0; i < 256; ++i) {
      const auto offset = static_cast<off_t>(xorshift(state) % blocks * block);
      const bool read = xorshift(state) % 100 < read_percent;
      const auto moved = read ? ::pread(fd, memory, block, offset) : ::pwrite(fd, memory, block, offset);
      if (moved != static_cast<ssize_t>(block)) return fail(std::string(read ? "read" : "write") + " failed");
    }
    const auto now = Clock::now();
    if (!measuring) {
      if (now >= measured_from) {
        measuring = true;
        measured_from = now;
      }
      continue;
    }
    done += 256;
    if (now - measured_from >= measure) {
      const double seconds = std::chrono::duration<double>(now - measured_from).count();
      const double iops = static_cast<double>(done) / seconds;
      std::printf("{\"iops\": %.1f, \"avg_us\": %.3f}\n", iops, 1e6 / iops);
      return 0;
    }
  }
}
