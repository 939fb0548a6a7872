#include "iomark/engine/ring_setup.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <charconv>
#include <fstream>

namespace iomark::engine {
namespace {

namespace fs = std::filesystem;

// "6.1.0-18-amd64" -> (6, 1); nullopt when it does not start with MAJOR.MINOR.
std::optional<std::pair<int, int>> kernel_version(std::string_view release) {
  int major = 0;
  int minor = 0;
  const char* end = release.data() + release.size();
  auto [after_major, major_error] = std::from_chars(release.data(), end, major);
  if (major_error != std::errc() || after_major == end || *after_major != '.') return std::nullopt;
  auto [after_minor, minor_error] = std::from_chars(after_major + 1, end, minor);
  if (minor_error != std::errc()) return std::nullopt;
  return std::pair{major, minor};
}

std::optional<std::string> first_line(const fs::path& path) {
  std::ifstream in(path);
  std::string line;
  if (!in || !std::getline(in, line)) return std::nullopt;
  return line;
}

}  // namespace

std::string candidate_name(EngineKind kind, RingSetup setup) {
  std::string name(to_string(kind));
  if (kind != EngineKind::io_uring) return name;
  switch (setup) {
    case RingSetup::standard:
      return name;
    case RingSetup::single_issuer:
      return name + " (SINGLE_ISSUER|DEFER_TASKRUN)";
    case RingSetup::polled:
      return name + " (IOPOLL)";
  }
  return name;
}

EngineOptions candidate_options(EngineKind kind, RingSetup setup, std::uint32_t queue_depth) {
  EngineOptions options;
  options.queue_depth = queue_depth;
  if (kind == EngineKind::io_uring && setup == RingSetup::single_issuer) options.calling_threads = CallingThreads::single;
  if (kind == EngineKind::io_uring && setup == RingSetup::polled) options.completion_polling = CompletionPolling::polled;
  return options;
}

RingSetupFacts ring_setup_facts(int fd, std::string_view kernel_release, const fs::path& sysfs_root) {
  RingSetupFacts facts;
  facts.kernel_release = kernel_release;
  const int flags = ::fcntl(fd, F_GETFL);
  facts.direct_io = flags != -1 && (flags & O_DIRECT) != 0;
  struct stat status {};
  if (::fstat(fd, &status) != 0) {
    facts.device = "the target cannot be looked at (fstat failed)";
    return facts;
  }
  const dev_t device = S_ISBLK(status.st_mode) ? status.st_rdev : status.st_dev;
  const fs::path node = sysfs_root / "dev" / "block" / (std::to_string(major(device)) + ":" + std::to_string(minor(device)));
  facts.device = node.string();
  // A partition's queue is its disk's, one directory up from the partition's.
  for (const fs::path& queue : {node / "queue", node / ".." / "queue"}) {
    if (const auto line = first_line(queue / "io_poll")) {
      facts.device_polls = *line == "1";
      return facts;
    }
  }
  return facts;
}

std::optional<std::string> unsupported_ring_setup(RingSetup setup, const RingSetupFacts& facts) {
  switch (setup) {
    case RingSetup::standard:
      return std::nullopt;
    case RingSetup::single_issuer: {
      const auto version = kernel_version(facts.kernel_release);
      if (version && *version >= std::pair{6, 1}) return std::nullopt;
      return "SINGLE_ISSUER|DEFER_TASKRUN needs Linux 6.1 or later (this kernel: " +
             (facts.kernel_release.empty() ? std::string("unknown") : facts.kernel_release) + ")";
    }
    case RingSetup::polled:
      if (!facts.direct_io) return "IOPOLL needs a target opened with O_DIRECT (this one is buffered)";
      if (!facts.device_polls) return "IOPOLL needs the device's queue/io_poll, which " + facts.device + " does not have";
      if (!*facts.device_polls) {
        return "IOPOLL needs polled completions: " + facts.device + "/queue/io_poll is 0 (no poll queues)";
      }
      return std::nullopt;
  }
  return std::nullopt;
}

}  // namespace iomark::engine
