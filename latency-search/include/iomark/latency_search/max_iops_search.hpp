// The most IOPS a device gives while a latency figure stays within a bound
// (docs/characterize.md#find-max-iops), found the way arrays are sized by hand, in two phases:
//   1. outstanding I/Os doubled from the first depth, each run as fast as the depth allows,
//      until the latency breaks the bound (or the deepest depth allowed keeps it);
//   2. at the depth that broke it, the rate bisected (open loop: latencies count from each
//      I/O's scheduled time) between the most IOPS seen within the bound and the least that
//      broke it, until the two are within `tolerance` of each other.
// The answer is the run with the most IOPS within the bound, with its depth and rate.
//
// The caller runs each step the search names and records what the run measured; the search
// holds no clock and does no I/O. Not thread-safe; cheap to copy.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace iomark::latency_search {

// One run of the search: its outstanding I/Os per target and, in the rate phase, the rate of
// every manager together.
struct Step {
  std::uint32_t outstanding_ios{};
  std::optional<double> rate_iops{};  // unset: as fast as the depth allows
  friend bool operator==(const Step&, const Step&) = default;
};

struct MeasuredStep {
  Step step{};
  double iops{};        // achieved
  double latency_ms{};  // the bound's figure
  bool within{false};   // latency_ms <= the limit
  friend bool operator==(const MeasuredStep&, const MeasuredStep&) = default;
};

struct SearchLimits {
  std::uint32_t first_outstanding_ios{1};
  std::uint32_t max_outstanding_ios{1024};
  double tolerance{0.02};  // the rate phase ends once (high - low) <= tolerance x low
  std::size_t max_rate_steps{12};
  // With no run within the bound yet, the rate is halved from what the first depth gave, down
  // to this fraction of it: a device that keeps the bound only slower than that is not one
  // the bound was meant for, and a few I/Os a second give no percentile worth the name.
  double min_rate_fraction{1.0 / 64};
};

// How the search ended (or that it has not).
enum class SearchEnd : std::uint8_t {
  searching,
  bracketed,        // the most IOPS within the bound is known to within the tolerance
  held_at_max_depth,  // the deepest depth allowed kept the bound: the device gives no more
  never_within,     // no rate down to min_rate_fraction of the first depth's IOPS kept the bound
  out_of_steps,     // max_rate_steps rate runs did not close the bracket
};

class MaxIopsSearch {
 public:
  // limits.first_outstanding_ios >= 1, <= max_outstanding_ios; limit_ms > 0.
  MaxIopsSearch(double limit_ms, SearchLimits limits = {});

  // The next run to make; nullopt once the search has ended.
  [[nodiscard]] std::optional<Step> next() const;
  // What the run of next() measured. A latency that is not a finite number counts as outside
  // the bound.
  void record(double iops, double latency_ms);

  [[nodiscard]] const std::vector<MeasuredStep>& steps() const noexcept { return steps_; }
  // Index into steps(): the most IOPS within the bound (the earliest among equals); unset
  // while no run kept the bound.
  [[nodiscard]] std::optional<std::size_t> chosen() const noexcept;
  [[nodiscard]] SearchEnd end() const noexcept { return end_; }
  // Runs the search may still make, at most (for a progress estimate).
  [[nodiscard]] std::size_t steps_left_at_most() const noexcept;

 private:
  void record_depth(const MeasuredStep& measured);
  void record_rate(const MeasuredStep& measured);
  void end_rate_phase_if_closed();

  double limit_ms_;
  SearchLimits limits_;
  std::vector<MeasuredStep> steps_;
  SearchEnd end_{SearchEnd::searching};
  std::uint32_t depth_;          // phase 1: the depth to run next; phase 2: the depth that broke the bound
  bool rate_phase_{false};
  double low_{};   // the most IOPS seen within the bound (0: none yet)
  double high_{};  // the least rate (or unrated IOPS) that broke it
  double first_broken_iops_{};  // what the depth that broke the bound gave unrated
  std::size_t rate_steps_{};
};

}  // namespace iomark::latency_search
