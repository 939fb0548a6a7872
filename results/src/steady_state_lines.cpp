#include "iomark/results/steady_state_lines.hpp"

namespace iomark::results {

namespace {

// The band SNIA draws: the rule allows a data excursion of 20% of the average, shown as 110%
// and 90% of it.
constexpr double kBandAbove = 1.1;
constexpr double kBandBelow = 0.9;

}  // namespace

std::optional<SteadyStateLines> steady_state_lines(const SteadyStateRecord& record) noexcept {
  if (record.window < 2 || record.rounds.size() < record.window || !(record.average > 0)) return std::nullopt;
  const double first = static_cast<double>(record.window_first + 1);
  const double last = static_cast<double>(record.rounds.size());
  // The recorded slope is per round, and the line passes through the average at the window's middle.
  const double half_rise = record.slope * (last - first) / 2;
  return SteadyStateLines{.first_round = first,
                          .last_round = last,
                          .average = record.average,
                          .above = record.average * kBandAbove,
                          .below = record.average * kBandBelow,
                          .trend_at_first = record.average - half_rise,
                          .trend_at_last = record.average + half_rise};
}

}  // namespace iomark::results
