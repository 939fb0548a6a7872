#include "iomark/engine/calibration.hpp"

#include <dirent.h>
#include <fcntl.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstring>
#include <system_error>
#include <thread>
#include <vector>

#include "iomark/engine/buffer_pool.hpp"

namespace iomark::engine {
namespace {

constexpr std::uint32_t kMaxCalibrationReads = 64;
constexpr Nanoseconds kReadTimeout = std::chrono::seconds(10);

// The first line of /proc/self/task/<tid>/comm, or "" when the thread has gone.
std::string thread_name(const char* tid) {
  const std::string path = std::string("/proc/self/task/") + tid + "/comm";
  const int fd = ::open(path.c_str(), O_RDONLY | O_CLOEXEC);
  if (fd < 0) return {};
  std::array<char, 64> text{};
  const ssize_t length = ::read(fd, text.data(), text.size() - 1);
  ::close(fd);
  if (length <= 0) return {};
  std::string name(text.data(), static_cast<std::size_t>(length));
  if (!name.empty() && name.back() == '\n') name.pop_back();
  return name;
}

// One round of depth-1 reads on the calling thread, counting the io-wq workers it starts.
Result<ReadPuntMeasurement> read_round(int fd, std::uint32_t logical_block_size,
                                       std::size_t block_bytes,
                                       const std::vector<std::uint64_t>& offsets) {
  const auto self = static_cast<std::int32_t>(::gettid());
  auto before = count_io_uring_workers(self);
  if (!before) return tl::unexpected(before.error());

  auto pool = BufferPool::create(1, block_bytes, logical_block_size);
  if (!pool) return tl::unexpected(pool.error());
  EngineOptions options;
  options.queue_depth = 1;
  auto engine = make_prepared_engine(EngineKind::io_uring, options);
  if (!engine) return tl::unexpected(engine.error());
  const std::array<int, 1> fds{fd};
  if (auto ok = (*engine)->register_targets(fds); !ok) return tl::unexpected(ok.error());
  // As the worker will; punting does not depend on it, and failure is harmless.
  (void)(*engine)->register_buffers(std::array<BufferRegion, 1>{pool->region()});

  for (std::size_t i = 0; i < offsets.size(); ++i) {
    const IoRequest read{
        i, 0, IoOp::read, offsets[i], static_cast<std::uint32_t>(block_bytes), pool->slot(0)};
    const auto submitted = (*engine)->submit(std::span(&read, 1));
    if (submitted.accepted != 1) {
      return fail(ErrorCode::io_error, "io_uring calibration: submit failed: " +
                                           std::string(std::strerror(submitted.error)));
    }
    std::array<IoCompletion, 1> done{};
    const auto reaped = (*engine)->reap(done, 1, kReadTimeout);
    const std::string where = "io_uring calibration read of " + std::to_string(block_bytes) +
                              " bytes at offset " + std::to_string(offsets[i]);
    if (reaped.count != 1) return fail(ErrorCode::io_error, where + " did not complete in 10 s");
    if (done[0].failed()) {
      return fail(ErrorCode::io_error,
                  where + " failed: " + std::strerror(static_cast<int>(-done[0].result)));
    }
  }
  auto after = count_io_uring_workers(self);
  if (!after) return tl::unexpected(after.error());
  return ReadPuntMeasurement{static_cast<std::uint32_t>(offsets.size()),
                             *after > *before ? *after - *before : 0};
}

// io-wq workers belong to the thread that queued work, and linger for seconds once idle,
// so every round runs on a thread of its own: what it counts, it started.
Result<ReadPuntMeasurement> read_round_on_fresh_thread(int fd, std::uint32_t logical_block_size,
                                                       std::size_t block_bytes,
                                                       const std::vector<std::uint64_t>& offsets) {
  Result<ReadPuntMeasurement> outcome = fail(ErrorCode::internal, "calibration round did not run");
  try {
    std::thread round([&] { outcome = read_round(fd, logical_block_size, block_bytes, offsets); });
    round.join();
  } catch (const std::system_error& error) {
    return fail(ErrorCode::unsupported,
                std::string("io_uring calibration: cannot start a thread: ") + error.what());
  }
  return outcome;
}

bool is_available(std::span<const EngineProbe> probes, EngineKind kind) {
  return std::any_of(probes.begin(), probes.end(), [kind](const EngineProbe& probe) {
    return probe.kind == kind && probe.available;
  });
}

std::string unavailable_reason(std::span<const EngineProbe> probes, EngineKind kind) {
  for (const EngineProbe& probe : probes) {
    if (probe.kind == kind && !probe.available) return probe.reason;
  }
  return "not probed";
}

}  // namespace

Result<std::uint32_t> count_io_uring_workers(std::int32_t owner_thread_id) {
  const std::string wanted = "iou-wrk-" + std::to_string(owner_thread_id);
  DIR* tasks = ::opendir("/proc/self/task");
  if (tasks == nullptr) {
    return fail(ErrorCode::unsupported,
                std::string("cannot list /proc/self/task: ") + std::strerror(errno));
  }
  std::uint32_t count = 0;
  while (const dirent* entry = ::readdir(tasks)) {
    if (entry->d_name[0] == '.') continue;
    if (thread_name(entry->d_name) == wanted) ++count;
  }
  ::closedir(tasks);
  return count;
}

Result<ReadPuntMeasurement> measure_io_uring_read_punting(int fd, std::uint64_t readable_bytes,
                                                          std::uint32_t logical_block_size,
                                                          std::uint32_t reads) {
  auto alignment = buffer_alignment(logical_block_size);
  if (!alignment) return tl::unexpected(alignment.error());
  if (reads == 0 || reads > kMaxCalibrationReads) {
    return fail(Error(ErrorCode::invalid_argument,
                      "calibration reads must be 1.." + std::to_string(kMaxCalibrationReads))
                    .in_field("reads"));
  }
  const std::size_t block_bytes = *alignment;
  const std::uint64_t blocks = readable_bytes / block_bytes;
  if (blocks == 0) {
    return fail(ErrorCode::invalid_argument,
                "io_uring calibration needs at least " + std::to_string(block_bytes) +
                    " readable bytes, the target has " + std::to_string(readable_bytes));
  }
  // Spread over the target, so a device with uneven regions is sampled across them.
  std::vector<std::uint64_t> offsets(reads);
  const std::uint64_t step = std::max<std::uint64_t>(1, blocks / reads);
  for (std::uint32_t i = 0; i < reads; ++i) offsets[i] = (i * step % blocks) * block_bytes;

  // The warm-up round loads a cold file's extent map, whose lookup may block (and so punt)
  // once; only the second round says what steady-state I/O does.
  if (auto warm = read_round_on_fresh_thread(fd, logical_block_size, block_bytes, offsets); !warm) {
    return warm;
  }
  return read_round_on_fresh_thread(fd, logical_block_size, block_bytes, offsets);
}

TargetEngineChoice choose_engine_for_target(std::span<const EngineProbe> probes,
                                            const std::optional<ReadPuntMeasurement>& measurement) {
  if (!is_available(probes, EngineKind::io_uring)) {
    const std::string why =
        "io_uring unavailable (" + unavailable_reason(probes, EngineKind::io_uring) + ")";
    for (const EngineKind kind : kProbeOrder) {
      if (is_available(probes, kind)) {
        return {kind,
                why + "; " + std::string(to_string(kind)) + " is the first engine that runs here"};
      }
    }
    return {EngineKind::sync, why + " and no other engine probed available; falling back to sync"};
  }
  if (!measurement) return {EngineKind::io_uring, "io_uring (read punting not measured)"};

  const std::string seen = "io_uring started " + std::to_string(measurement->io_worker_threads) +
                           " io-wq worker thread(s) for " +
                           std::to_string(measurement->reads_issued) + " reads at depth 1";
  if (!measurement->punted()) {
    return {EngineKind::io_uring, "io_uring: completed " +
                                      std::to_string(measurement->reads_issued) +
                                      " reads at depth 1 without io-wq worker threads"};
  }
  if (is_available(probes, EngineKind::linux_aio)) {
    return {EngineKind::linux_aio,
            "linux-aio: " + seen +
                " (the driver cannot complete reads without blocking); linux-aio completes them "
                "inside io_submit"};
  }
  return {EngineKind::io_uring, "io_uring: " + seen + ", but linux-aio is unavailable (" +
                                    unavailable_reason(probes, EngineKind::linux_aio) + ")"};
}

TargetEngineChoice calibrate_target(int fd, std::uint64_t readable_bytes,
                                    std::uint32_t logical_block_size,
                                    std::span<const EngineProbe> probes) {
  if (!is_available(probes, EngineKind::io_uring)) return choose_engine_for_target(probes, {});
  auto measured = measure_io_uring_read_punting(fd, readable_bytes, logical_block_size);
  if (measured) return choose_engine_for_target(probes, *measured);
  TargetEngineChoice choice = choose_engine_for_target(probes, {});
  choice.reason += "; measuring failed: " + measured.error().message();
  return choice;
}

}  // namespace iomark::engine
