// Measuring the candidates of `auto` (engine_choice.hpp): each engine reads from the target
// for a moment at the queue depth the worker will use, and reports IOPS and CPU per I/O.
//
// How: every trial runs on a fresh thread (so the io-wq workers it starts are its own and
// can be counted, as in calibration.hpp), sets its engine up as a worker does (target and
// buffers registered), keeps `queue_depth` random aligned reads in flight for a warm-up and
// then for the measured interval. CPU is the whole process's (CLOCK_PROCESS_CPUTIME_ID), so
// io-wq and threadpool helper threads count, and so does the kernel time of every syscall;
// call it while no other worker of this process does I/O. Reads only: calibration never
// writes. Measure once the target holds real data: never-written zram pages and file holes
// are served without touching the driver.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "iomark/engine/engine_choice.hpp"
#include "iomark/engine/engines.hpp"
#include "iomark/engine/ring_setup.hpp"

namespace iomark::engine {

struct TrialTarget {
  int fd{-1};                       // opened by the caller, kept open through the trial
  std::uint64_t readable_bytes{};   // reads stay below this
  std::uint32_t logical_block_size{512};
};

struct TrialOptions {
  std::uint32_t queue_depth{1};
  // Read size: max(this, the target's buffer alignment).
  std::uint32_t block_bytes{4096};
  std::chrono::milliseconds warm_up{20};
  std::chrono::milliseconds measured{80};
  // Every engine is tried this many times, the engines taking turns, and keeps its best
  // round (highest IOPS, lowest CPU per I/O, fewest io-wq threads): on a shared machine a
  // neighbour's burst then spoils one round, not the choice, and a cold file's one-off
  // blocking extent lookup does not brand io_uring as punting.
  std::uint32_t rounds{2};
  // The CPU the worker will be pinned to: trials run pinned there. Where the driver hands
  // each I/O to a kernel thread (loop, and file systems on it), where that thread runs
  // relative to the submitter sets the IOPS, so an unpinned trial measures another placement
  // than the worker gets, and near-equal engines swap places from one calibration to the next.
  std::optional<std::uint32_t> cpu;
};

// One engine's trial (io_uring's with the given ring set-up). Never throws; a failure (setup
// refused, a set-up's flags not granted, a read failed or took over 10 s, no thread could be
// started or pinned to options.cpu) is a trial that did not run, with its reason.
[[nodiscard]] EngineTrial measure_engine_reads(EngineKind kind, const TrialTarget& target, const TrialOptions& options,
                                               RingSetup setup = RingSetup::standard);

// A trial of every candidate: each engine of kProbeOrder, io_uring once per ring set-up,
// `rounds` times in turn, each candidate's best round kept. Not run, each with its reason:
// engines `probes` found unavailable, and io_uring set-ups unsupported_ring_setup() rules out
// under `facts`. Takes about rounds x (warm_up + measured) per candidate that runs.
[[nodiscard]] std::vector<EngineTrial> measure_engines(const TrialTarget& target, const TrialOptions& options,
                                                       std::span<const EngineProbe> probes, const RingSetupFacts& facts);
// The same with this host's facts for the target (ring_setup_facts of its descriptor).
[[nodiscard]] std::vector<EngineTrial> measure_engines(const TrialTarget& target, const TrialOptions& options,
                                                       std::span<const EngineProbe> probes);

}  // namespace iomark::engine
