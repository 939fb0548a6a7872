// `auto`'s decision, pure: given what every candidate engine did in a short read calibration
// on one target at one queue depth (engine_trial.hpp measures it), which engine runs.
//
// Why measure rather than rank: no fixed order is right everywhere. At depth 1 with
// a synchronous driver (zram) pread is one syscall per I/O where linux-aio needs two and
// io_uring punts every read to a worker thread; at depth the batched engines win; on a file
// with O_DIRECT io_uring completes reads itself. So each candidate reads for a moment and the
// numbers decide.
//
// Candidates are engines and, for io_uring, each of its ring set-ups (ring_setup.hpp), so
// "io_uring" below means any of them.
//
// Rule (choose_measured_engine):
//   1. Candidates that failed to run are skipped, each with its reason.
//   2. io_uring that punted reads to io-wq worker threads is skipped while any other
//      candidate ran: punting costs a thread wake-up per I/O at depth 1 and a second core
//      at depth, which a short calibration under-weights.
//   3. Of the rest, those spending at most kCpuAllowance (1.25x) the lowest CPU time per I/O
//      measured compete on IOPS: more helper threads buy IOPS on a synchronous device only by
//      burning more cores, which a benchmark should not hide behind.
//   4. Among those, the ones within kIopsTolerance (10%) of the highest IOPS are equals, and
//      the one with the lowest CPU time per I/O wins (at depth 1 that is normally sync: one
//      syscall per I/O). Ties in CPU go to the higher IOPS.
//   5. At depth 1, sync (one syscall per I/O) stays when the winner of 4 spends more CPU per
//      I/O than sync did, however many IOPS it measured. At depth 1 every engine waits for the
//      same one I/O, so what separates them is the syscalls around it; where the driver hands
//      each I/O to a kernel thread (loop, file systems on it), 100 ms trials swing by more than
//      10% with that thread's placement, and a rule on IOPS then swaps engines from one
//      calibration to the next. An engine as fast as sync at less CPU (io_uring on a device
//      that completes reads without punting) still wins.
//   6. Nothing ran: the first available engine of the probe order, unmeasured.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "iomark/engine/engine_kind.hpp"
#include "iomark/engine/engines.hpp"
#include "iomark/engine/ring_setup.hpp"

namespace iomark::engine {

// Candidates within this fraction of the best IOPS count as equally fast: a short calibration
// on a shared machine varies by a few percent, and 10% more IOPS rarely pays for double the
// CPU (threadpool's helper threads against linux-aio at depth on zram).
inline constexpr double kIopsTolerance = 0.10;
// An engine costing more than this many times the lowest CPU per I/O measured is not chosen.
inline constexpr double kCpuAllowance = 1.25;

// What one engine did in the calibration (or why it could not run).
struct EngineTrial {
  EngineKind kind{EngineKind::sync};
  RingSetup setup{RingSetup::standard};  // io_uring's; standard for every other engine
  bool ran{};
  std::string failure;          // why not, when !ran
  std::uint64_t reads{};        // reads completed in the measured interval
  double iops{};                // reads per second of wall-clock time
  double cpu_ns_per_io{};       // process CPU time (all threads, kernel included) per read
  std::uint32_t io_worker_threads{};  // io_uring only: io-wq threads the trial started
  [[nodiscard]] bool punted() const noexcept { return io_worker_threads > 0; }
};

struct EngineDecision {
  EngineKind engine{EngineKind::sync};
  RingSetup setup{RingSetup::standard};  // how to set io_uring up (candidate_options)
  // One line for logs, results and the inventory: the winner's numbers, then every other
  // candidate's numbers or reason ("sync at depth 1: 310 K IOPS, 3.1 µs CPU/IO; ...").
  std::string reason;
  // The engines that completed reads on the target in the calibration, in probe order
  // (io_uring included even where it punted): what the agent's inventory lists as working
  // there. Empty when nothing was measured.
  std::vector<EngineKind> usable;
  friend bool operator==(const EngineDecision&, const EngineDecision&) = default;
};

// The rule above. `trials` in any order; `probes` (probe_engines()) only decide rule 6.
[[nodiscard]] EngineDecision choose_measured_engine(std::span<const EngineTrial> trials,
                                                    std::uint32_t queue_depth,
                                                    std::span<const EngineProbe> probes);

// "310 K IOPS, 3.10 µs CPU/IO" or "did not run: <why>", for reasons and logs.
[[nodiscard]] std::string describe_trial(const EngineTrial& trial);

}  // namespace iomark::engine
