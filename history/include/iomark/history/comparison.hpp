// Comparing two stored runs figure by figure, with the run-to-run variation of repeated runs
// next to each delta, so that a change within the noise is not sold as a regression.
//
// The verdict: a delta "exceeds the variation" when its magnitude is more than twice the
// larger coefficient of variation of the two runs' repeat groups (runs with the same spec,
// queue depth and hosts); about a 95 % band if run results scatter normally. Deltas under
// kNegligibleDeltaPercent never exceed it, even against repeats that did not vary at all.
// Without at least two runs in either group there is no variation to judge by.
//
// Pure functions; thread-safe.
#pragma once

#include <optional>
#include <string_view>
#include <vector>

#include "iomark/history/history.hpp"

namespace iomark::history {

enum class Verdict : std::uint8_t { within_variation, exceeds_variation, no_repeats, no_figure };

// How many coefficients of variation a delta may span before it counts as a change.
inline constexpr double kVariationBand = 2.0;
// Below this, a change is rounding, not performance (the figures print with two decimals).
inline constexpr double kNegligibleDeltaPercent = 0.1;

struct FigureDelta {
  std::string_view figure;  // "IOPS", "MB/s", "avg ms", "p99 ms"
  std::optional<double> base;
  std::optional<double> other;
  std::optional<double> delta_percent;      // (other - base) / base * 100
  std::optional<double> variation_percent;  // the larger repeat-group CV in %, when known
  Verdict verdict{Verdict::no_figure};
  friend bool operator==(const FigureDelta&, const FigureDelta&) = default;
};

// One FigureDelta per figure, in the order IOPS, MB/s, avg ms, p99 ms.
[[nodiscard]] std::vector<FigureDelta> compare_runs(const RunRecord& base, const RunVariation& base_variation,
                                                    const RunRecord& other, const RunVariation& other_variation);

[[nodiscard]] std::string_view to_string(Verdict verdict) noexcept;

}  // namespace iomark::history
