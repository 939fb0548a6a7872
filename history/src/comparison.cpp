#include "iomark/history/comparison.hpp"

#include <algorithm>
#include <cmath>

namespace iomark::history {

namespace {

FigureDelta delta_of(std::string_view figure, std::optional<double> base, std::optional<double> other,
                     const Variation& base_variation, const Variation& other_variation) {
  FigureDelta delta{figure, base, other, std::nullopt, std::nullopt, Verdict::no_figure};
  if (!base || !other || *base == 0.0) return delta;
  delta.delta_percent = (*other - *base) / std::abs(*base) * 100.0;
  std::optional<double> coefficient;
  for (const auto* variation : {&base_variation, &other_variation}) {
    if (variation->runs >= 2) coefficient = std::max(coefficient.value_or(0.0), variation->coefficient);
  }
  if (!coefficient) {
    delta.verdict = Verdict::no_repeats;
    return delta;
  }
  delta.variation_percent = *coefficient * 100.0;
  delta.verdict = std::abs(*delta.delta_percent) > std::max(kVariationBand * *delta.variation_percent,
                                                              kNegligibleDeltaPercent)
                      ? Verdict::exceeds_variation
                      : Verdict::within_variation;
  return delta;
}

}  // namespace

std::vector<FigureDelta> compare_runs(const RunRecord& base, const RunVariation& base_variation,
                                      const RunRecord& other, const RunVariation& other_variation) {
  return {delta_of("IOPS", base.iops, other.iops, base_variation.iops, other_variation.iops),
          delta_of("MB/s", base.mb_per_s, other.mb_per_s, base_variation.mb_per_s, other_variation.mb_per_s),
          delta_of("avg ms", base.average_ms, other.average_ms, base_variation.average_ms, other_variation.average_ms),
          delta_of("p99 ms", base.p99_ms, other.p99_ms, base_variation.p99_ms, other_variation.p99_ms)};
}

std::string_view to_string(Verdict verdict) noexcept {
  switch (verdict) {
    case Verdict::within_variation: return "within run-to-run variation";
    case Verdict::exceeds_variation: return "exceeds run-to-run variation";
    case Verdict::no_repeats: return "no repeated runs to judge by";
    case Verdict::no_figure: return "";
  }
  return "";
}

}  // namespace iomark::history
