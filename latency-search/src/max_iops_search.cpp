#include "iomark/latency_search/max_iops_search.hpp"

#include <algorithm>
#include <cmath>

namespace iomark::latency_search {

MaxIopsSearch::MaxIopsSearch(double limit_ms, SearchLimits limits)
    : limit_ms_(limit_ms), limits_(limits), depth_(std::clamp<std::uint32_t>(limits.first_outstanding_ios, 1, std::max<std::uint32_t>(1, limits.max_outstanding_ios))) {}

std::optional<Step> MaxIopsSearch::next() const {
  if (end_ != SearchEnd::searching) return std::nullopt;
  if (!rate_phase_) return Step{.outstanding_ios = depth_, .rate_iops = std::nullopt};
  // With nothing within the bound yet, halve: the bound may hold only far below the ceiling.
  const double rate = low_ > 0 ? (low_ + high_) / 2 : high_ / 2;
  return Step{.outstanding_ios = depth_, .rate_iops = rate};
}

void MaxIopsSearch::record(double iops, double latency_ms) {
  const auto step = next();
  if (!step) return;
  const bool within = std::isfinite(latency_ms) && latency_ms <= limit_ms_;
  const MeasuredStep measured{.step = *step, .iops = std::isfinite(iops) ? std::max(0.0, iops) : 0.0,
                              .latency_ms = latency_ms, .within = within};
  steps_.push_back(measured);
  if (rate_phase_) {
    record_rate(measured);
  } else {
    record_depth(measured);
  }
}

void MaxIopsSearch::record_depth(const MeasuredStep& measured) {
  if (measured.within) {
    low_ = std::max(low_, measured.iops);
    if (depth_ > limits_.max_outstanding_ios / 2) {
      end_ = SearchEnd::held_at_max_depth;
    } else {
      depth_ *= 2;
    }
    return;
  }
  // This depth broke the bound: what it gave unrated is as much as any rate at it can give.
  rate_phase_ = true;
  high_ = measured.iops;
  first_broken_iops_ = measured.iops;
  end_rate_phase_if_closed();
}

void MaxIopsSearch::record_rate(const MeasuredStep& measured) {
  ++rate_steps_;
  const double asked = measured.step.rate_iops.value_or(0);
  if (measured.within) {
    low_ = std::max(low_, asked);
  } else {
    high_ = std::min(high_, asked);
  }
  end_rate_phase_if_closed();
  if (end_ == SearchEnd::searching && rate_steps_ >= limits_.max_rate_steps) end_ = SearchEnd::out_of_steps;
}

void MaxIopsSearch::end_rate_phase_if_closed() {
  if (low_ > 0 && high_ <= low_ * (1 + limits_.tolerance)) {
    end_ = SearchEnd::bracketed;
  } else if (low_ <= 0 && high_ / 2 < first_broken_iops_ * limits_.min_rate_fraction) {
    end_ = SearchEnd::never_within;
  }
}

std::optional<std::size_t> MaxIopsSearch::chosen() const noexcept {
  std::optional<std::size_t> best;
  for (std::size_t i = 0; i < steps_.size(); ++i) {
    if (steps_[i].within && (!best || steps_[i].iops > steps_[*best].iops)) best = i;
  }
  return best;
}

std::size_t MaxIopsSearch::steps_left_at_most() const noexcept {
  if (end_ != SearchEnd::searching) return 0;
  std::size_t depth_runs = 0;
  if (!rate_phase_) {
    for (std::uint64_t depth = depth_; depth <= limits_.max_outstanding_ios; depth *= 2) ++depth_runs;
  }
  return depth_runs + (limits_.max_rate_steps - rate_steps_);
}

}  // namespace iomark::latency_search
