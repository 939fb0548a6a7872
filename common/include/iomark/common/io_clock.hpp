// The clock a worker stamps its I/Os with: CLOCK_MONOTONIC nanoseconds, read through the
// CPU's time-stamp counter where that is safe.
//
// Why not clock_gettime for every stamp: on a kvm-clock guest, two CLOCK_MONOTONIC reads per
// I/O cost 3-5% of a 4 KiB zram read at QD 1 (each read right after a system call is several
// times slower than in a tight loop), where two TSC reads cost nothing measurable. Dynamo and
// fio stamp their I/Os with the TSC for the same reason.
#pragma once

#include <time.h>

#include <cstdint>
#include <limits>

#if defined(__x86_64__)
#include <x86intrin.h>
#endif

namespace iomark {

// `clock` (clock_gettime) in nanoseconds.
[[nodiscard]] std::uint64_t clock_now_ns(clockid_t clock) noexcept;

// CLOCK_MONOTONIC in nanoseconds, from clock_gettime: what every thread that is not a worker
// stamping its own I/Os uses (start and stop of recording, deadlines).
[[nodiscard]] inline std::uint64_t monotonic_now_ns() noexcept { return clock_now_ns(CLOCK_MONOTONIC); }

// Whether this CPU's time-stamp counter runs at a constant rate through frequency changes and
// idle states (x86 "invariant TSC"). False on other architectures.
[[nodiscard]] bool has_invariant_tsc() noexcept;

// The real time sources of BasicIoClock.
struct SystemTimeSources {
  static std::uint64_t ticks() noexcept {
#if defined(__x86_64__)
    // A plain rdtsc, as Dynamo and fio read it: out of order it may run a few instructions
    // early, nanoseconds on a stamp. An lfence before it, which waits for every load of the
    // worker's planning, cost 3% of a QD 1 zram read (two stamps per I/O).
    return __rdtsc();
#else
    return 0;  // never read: has_invariant_tsc() is false
#endif
  }
  static std::uint64_t monotonic_ns() noexcept { return monotonic_now_ns(); }
};

// CLOCK_MONOTONIC nanoseconds for one thread. With `use_ticks` it reads Sources::ticks() and
// converts: the rate comes from pairs of (ticks, CLOCK_MONOTONIC) read together, over a
// baseline that grows as the clock runs (at least 10 ms before ticks are trusted; until then
// every call reads CLOCK_MONOTONIC), and every 10 ms the conversion is re-anchored on a fresh
// pair. A time that strays from CLOCK_MONOTONIC by more than 50 µs at a re-anchoring (ticks
// that jumped: a migrated virtual machine, a suspend) restarts the calibration. Times never go
// backwards. Ticks are only safe from a thread pinned to one CPU: counters of different CPUs
// need not agree.
//
// Sources: `static std::uint64_t ticks() noexcept` and `static std::uint64_t monotonic_ns()
// noexcept` (tests fake both). Not thread-safe: one thread owns an instance.
template <typename Sources>
class BasicIoClock {
 public:
  explicit BasicIoClock(bool use_ticks) noexcept : use_ticks_(use_ticks) {}

  [[nodiscard]] std::uint64_t now_ns() noexcept {
    if (!use_ticks_) return never_back(Sources::monotonic_ns());
    const auto ticks = Sources::ticks();
    if (ns_per_tick_q32_ == 0 || ticks < anchor_.ticks || ticks - anchor_.ticks >= reanchor_ticks_) {
      return reanchor();
    }
    return never_back(anchor_.ns + to_ns(ticks - anchor_.ticks));
  }

  // Whether times come from ticks now (calibrated), rather than from CLOCK_MONOTONIC.
  [[nodiscard]] bool reads_ticks() const noexcept { return use_ticks_ && ns_per_tick_q32_ != 0; }

  static constexpr std::uint64_t kCalibrationNs = 10'000'000;
  static constexpr std::uint64_t kReanchorNs = 10'000'000;
  static constexpr std::uint64_t kStrayLimitNs = 50'000;

 private:
  struct Pair {
    std::uint64_t ticks{};
    std::uint64_t ns{};
    std::uint64_t spread{};  // ticks between the reads around ns: its uncertainty
  };

  // A rate is trusted once the pairs' uncertainty is at most 1/kPrecision of the baseline.
  static constexpr std::uint64_t kPrecision = 10'000;
  static constexpr int kPairAttempts = 3;

  __extension__ using Wide = unsigned __int128;

  [[nodiscard]] std::uint64_t to_ns(std::uint64_t ticks) const noexcept {
    return static_cast<std::uint64_t>((static_cast<Wide>(ticks) * ns_per_tick_q32_) >> 32);
  }

  [[nodiscard]] std::uint64_t never_back(std::uint64_t ns) noexcept {
    if (ns > last_ns_) last_ns_ = ns;
    return last_ns_;
  }

  // The tightest of a few (ticks, ns) pairs: a pair the scheduler interrupted shows a wide
  // spread and loses. Spread max: the ticks went backwards every time.
  [[nodiscard]] static Pair read_pair() noexcept {
    Pair best{0, 0, std::numeric_limits<std::uint64_t>::max()};
    for (int attempt = 0; attempt < kPairAttempts; ++attempt) {
      const auto before = Sources::ticks();
      const auto ns = Sources::monotonic_ns();
      const auto after = Sources::ticks();
      if (after < before || after - before >= best.spread) continue;
      best = {before + (after - before) / 2, ns, after - before};
    }
    return best;
  }

  std::uint64_t reanchor() noexcept {
    const Pair pair = read_pair();
    if (pair.spread == std::numeric_limits<std::uint64_t>::max()) {
      use_ticks_ = false;  // ticks that only go backwards are no clock
      return never_back(Sources::monotonic_ns());
    }
    const bool calibrated = ns_per_tick_q32_ != 0;
    if (calibrated && (pair.ticks < anchor_.ticks || strays(pair))) {
      ns_per_tick_q32_ = 0;
      has_baseline_ = false;
    }
    if (!has_baseline_ || pair.ticks <= baseline_.ticks || pair.ns <= baseline_.ns) {
      baseline_ = pair;
      has_baseline_ = true;
    } else if (pair.ns - baseline_.ns >= kCalibrationNs &&
               (baseline_.spread + pair.spread) * kPrecision <= pair.ticks - baseline_.ticks) {
      ns_per_tick_q32_ = static_cast<std::uint64_t>((static_cast<Wide>(pair.ns - baseline_.ns) << 32) /
                                                    (pair.ticks - baseline_.ticks));
      if (ns_per_tick_q32_ == 0) ns_per_tick_q32_ = 1;
      reanchor_ticks_ = static_cast<std::uint64_t>((static_cast<Wide>(kReanchorNs) << 32) / ns_per_tick_q32_);
    }
    anchor_ = pair;
    return never_back(pair.ns);
  }

  [[nodiscard]] bool strays(const Pair& pair) const noexcept {
    const auto predicted = anchor_.ns + to_ns(pair.ticks - anchor_.ticks);
    const auto distance = predicted > pair.ns ? predicted - pair.ns : pair.ns - predicted;
    return distance > kStrayLimitNs;
  }

  bool use_ticks_;
  std::uint64_t ns_per_tick_q32_{};  // 0: not calibrated
  std::uint64_t reanchor_ticks_{};
  Pair anchor_{};
  Pair baseline_{};
  bool has_baseline_{};
  std::uint64_t last_ns_{};
};

using IoClock = BasicIoClock<SystemTimeSources>;

}  // namespace iomark
