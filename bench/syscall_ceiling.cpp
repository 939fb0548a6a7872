// iomark-syscall-ceiling: the most random reads a tool that makes one system call per I/O can
// do on this target, for bench/engine-vs-fio's QD 1 read case. One pread per I/O at a random
// aligned offset, O_DIRECT, nothing else: no timestamps, no statistics, no queue. Any
// benchmark at QD 1 pays this much; what a tool measures above it is the tool's own cost.
// Reads only: a write's cost depends on where its data comes from (one hot buffer here, a
// scrambled one in fio, a large random pattern in iomark), so no write loop is like for like.
//
//   iomark-syscall-ceiling TARGET BLOCK_BYTES RAMP_S MEASURE_S
// prints {"iops": N, "avg_us": M} for the measured seconds; at depth 1 the average latency is
// the time per I/O. The target is opened read-only.
#include <fcntl.h>
#include <linux/fs.h>
#include <sys/ioctl.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cerrno>
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

int fail(const std::string& what, int error_number) {
  std::fprintf(stderr, "iomark-syscall-ceiling: %s: %s\n", what.c_str(), std::strerror(error_number));
  return 1;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 5) {
    std::fprintf(stderr, "usage: %s TARGET BLOCK_BYTES RAMP_S MEASURE_S\n", argv[0]);
    return 2;
  }
  const std::string target = argv[1];
  const std::uint64_t block = std::strtoull(argv[2], nullptr, 10);
  const auto ramp = std::chrono::seconds(std::atoi(argv[3]));
  const auto measure = std::chrono::seconds(std::atoi(argv[4]));
  if (block == 0 || block % 512 != 0 || measure.count() <= 0) {
    std::fprintf(stderr, "iomark-syscall-ceiling: bad arguments\n");
    return 2;
  }
  const int fd = ::open(target.c_str(), O_RDONLY | O_DIRECT);
  if (fd < 0) return fail("cannot open " + target, errno);
  std::uint64_t size = 0;
  struct stat status {};
  if (::fstat(fd, &status) != 0) return fail("cannot stat " + target, errno);
  if (S_ISBLK(status.st_mode)) {
    if (::ioctl(fd, BLKGETSIZE64, &size) != 0) return fail("cannot size " + target, errno);
  } else {
    size = static_cast<std::uint64_t>(status.st_size);
  }
  const std::uint64_t blocks = size / block;
  if (blocks == 0) {
    std::fprintf(stderr, "iomark-syscall-ceiling: %s is smaller than one block\n", target.c_str());
    return 1;
  }
  void* memory = nullptr;
  if (const int error_number = ::posix_memalign(&memory, 4096, block); error_number != 0) {
    return fail("cannot allocate the buffer", error_number);
  }
  const std::unique_ptr<void, decltype(&std::free)> buffer(memory, &std::free);
  std::uint64_t state = 0x9E3779B97F4A7C15ULL;

  using Clock = std::chrono::steady_clock;
  auto measured_from = Clock::now() + ramp;
  std::uint64_t done = 0;
  bool measuring = ramp.count() == 0;
  for (;;) {
    for (int i = 0; i < 256; ++i) {
      const auto offset = static_cast<off_t>(xorshift(state) % blocks * block);
      const auto moved = ::pread(fd, memory, block, offset);
      if (moved < 0) return fail("a read at " + std::to_string(offset) + " failed", errno);
      if (moved != static_cast<ssize_t>(block)) {
        std::fprintf(stderr, "iomark-syscall-ceiling: a read at %lld returned %zd of %llu bytes\n",
                     static_cast<long long>(offset), moved, static_cast<unsigned long long>(block));
        return 1;
      }
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
