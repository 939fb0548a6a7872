// Per-target engine choice: does io_uring complete this target's reads itself, or does it
// hand each one to an io-wq worker thread?
//
// Why it matters (issue 3): io_uring first tries every read without blocking. A driver that
// cannot promise that (zram and other bio-based drivers without nowait support) makes the
// kernel punt the read to an io-wq worker thread: at queue depth 1 that adds a thread wake-up
// to every I/O (17 K IOPS instead of 240 K on zram), and at depth it burns a second core.
// linux-aio has no such path: a synchronous driver completes the I/O inside io_submit.
//
// How it is measured: io-wq workers are threads of our own process named "iou-wrk-<tid>",
// after the thread whose ring queued work to them, and they are started only when work is
// punted. A fresh thread issues a few reads at depth 1 through the io_uring engine (a warm-up
// round first, on another fresh thread, so that a cold file's extent lookups, which may
// legitimately block once, do not count), then counts its own iou-wrk threads. Reads only:
// calibration never writes. Measure once the target holds real data, since never-written
// zram pages and file holes are served without touching the driver.
//
// Decision rule (choose_engine_for_target):
//   1. io_uring unavailable -> the first available engine in probe order.
//   2. io_uring punted reads (any worker thread seen) and linux-aio available -> linux-aio.
//   3. otherwise (no punting, or no measurement) -> io_uring.
// It cannot see a device that blocks inside the non-blocking attempt, or punting that only
// starts at higher depths; the benchmark (bench/engine-vs-fio) is the final judge.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "iomark/common/result.hpp"
#include "iomark/engine/engine_kind.hpp"
#include "iomark/engine/engines.hpp"

namespace iomark::engine {

struct ReadPuntMeasurement {
  std::uint32_t reads_issued{};       // in the measured round, all successful
  std::uint32_t io_worker_threads{};  // io-wq threads the measured round started
  [[nodiscard]] bool punted() const noexcept { return io_worker_threads > 0; }
};

struct TargetEngineChoice {
  EngineKind engine{EngineKind::sync};
  std::string reason;  // one sentence for logs, naming what was measured
};

// How many io-wq worker threads ("iou-wrk-<owner_thread_id>") of this process serve the
// io_uring contexts of the given thread (a Linux tid). Reads /proc/self/task.
[[nodiscard]] Result<std::uint32_t> count_io_uring_workers(std::int32_t owner_thread_id);

// Reads `reads` blocks (at most 64) of max(4096, logical_block_size) bytes spread over the
// first `readable_bytes` of `fd` at depth 1, as described above. Blocks the calling thread
// (milliseconds on a healthy target; each read may wait up to 10 s). Errors: io_uring
// unavailable, fewer than one block readable, a read that failed or never completed, /proc
// unreadable.
[[nodiscard]] Result<ReadPuntMeasurement> measure_io_uring_read_punting(
    int fd, std::uint64_t readable_bytes, std::uint32_t logical_block_size,
    std::uint32_t reads = 16);

// The decision rule above, pure: `probes` as returned by probe_engines(); `measurement`
// absent when it could not be taken.
[[nodiscard]] TargetEngineChoice choose_engine_for_target(
    std::span<const EngineProbe> probes, const std::optional<ReadPuntMeasurement>& measurement);

// Measures when io_uring is available, then applies the rule; a failed measurement is named
// in the reason and the rule proceeds without it.
[[nodiscard]] TargetEngineChoice calibrate_target(int fd, std::uint64_t readable_bytes,
                                                  std::uint32_t logical_block_size,
                                                  std::span<const EngineProbe> probes);

}  // namespace iomark::engine
