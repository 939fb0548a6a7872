#include "iomark/steady_state/steady_state.hpp"

#include <algorithm>
#include <array>
#include <cmath>
#include <cstdarg>
#include <cstdio>
#include <string_view>

namespace iomark::steady_state {
namespace {

// printf into a std::string, its arguments checked against the format by the compiler; the
// reasons are short, so a fixed buffer is enough.
__attribute__((format(printf, 1, 2))) std::string printed(const char* format, ...) {
  std::array<char, 160> buffer{};
  va_list args;
  va_start(args, format);
  std::vsnprintf(buffer.data(), buffer.size(), format, args);
  va_end(args);
  return buffer.data();
}

void add_reason(std::string& reason, std::string_view why) {
  if (!reason.empty()) reason += "; ";
  reason += why;
}

// Written so that NaN fails too: every comparison with NaN is false.
bool is_fraction(double value) { return value > 0 && value <= 1; }

Result<Rule> refuse_excursion(std::string_view field, double value) {
  return fail(Error(ErrorCode::invalid_argument,
                    printed("must be above 0 and at most 1 (a fraction of the average), not %g", value))
                  .in_field(std::string(field)));
}

// Averages, extremes and the least-squares line of `window` (finite values, at least one).
// Deviations from the means rather than sums of squares: the rounds are large and alike
// (IOPS in the hundred thousands), where Σx·y - n·x̄·ȳ would cancel away the slope.
void describe_window(std::span<const double> window, Verdict& verdict) {
  const auto n = static_cast<double>(window.size());
  double sum = 0;
  for (const double y : window) sum += y;
  verdict.average = sum / n;
  const auto [lowest, highest] = std::minmax_element(window.begin(), window.end());
  verdict.minimum = *lowest;
  verdict.maximum = *highest;
  const double x_mean = (n - 1) / 2;
  double sxy = 0;
  double sxx = 0;
  for (std::size_t i = 0; i < window.size(); ++i) {
    const double dx = static_cast<double>(i) - x_mean;
    sxy += dx * (window[i] - verdict.average);
    sxx += dx * dx;
  }
  // One round fits no line: it is flat as far as anyone can tell.
  verdict.slope = sxx > 0 ? sxy / sxx : 0;
  verdict.intercept = verdict.average - verdict.slope * x_mean;
  if (verdict.average > 0) {
    verdict.data_excursion = (verdict.maximum - verdict.minimum) / verdict.average;
    verdict.slope_excursion = std::abs(verdict.slope) * (n - 1) / verdict.average;
  }
}

// Rounds near the limits of a double (1e308) overflow the sums; such a verdict says so
// rather than carrying infinities or NaN to a console or a results file.
bool all_finite(const Verdict& verdict) {
  for (const double figure : {verdict.average, verdict.minimum, verdict.maximum, verdict.slope, verdict.intercept,
                              verdict.data_excursion, verdict.slope_excursion}) {
    if (!std::isfinite(figure)) return false;
  }
  return true;
}

void clear_figures(Verdict& verdict) {
  verdict.average = verdict.minimum = verdict.maximum = 0;
  verdict.slope = verdict.intercept = 0;
  verdict.data_excursion = verdict.slope_excursion = 0;
}

}  // namespace

Result<Rule> checked_rule(std::size_t window, double max_data_excursion, double max_slope_excursion) {
  if (window < 2) {
    return fail(Error(ErrorCode::invalid_argument,
                      printed("must be at least 2 rounds (a slope needs two), not %zu", window))
                    .in_field("window"));
  }
  if (!is_fraction(max_data_excursion)) return refuse_excursion("data excursion", max_data_excursion);
  if (!is_fraction(max_slope_excursion)) return refuse_excursion("slope excursion", max_slope_excursion);
  return Rule{window, max_data_excursion, max_slope_excursion};
}

Verdict judge(std::span<const double> rounds, const Rule& rule) {
  Verdict verdict;
  if (auto checked = checked_rule(rule.window, rule.max_data_excursion, rule.max_slope_excursion); !checked) {
    verdict.reason = "bad rule: " + checked.error().describe();
    return verdict;
  }
  verdict.window_rounds = std::min(rounds.size(), rule.window);
  verdict.window_first = rounds.size() - verdict.window_rounds;
  const auto window = rounds.subspan(verdict.window_first, verdict.window_rounds);

  for (std::size_t i = 0; i < window.size(); ++i) {
    if (!std::isfinite(window[i])) {
      verdict.reason = printed("round %zu is not a finite number", verdict.window_first + i + 1);
      return verdict;
    }
  }
  if (!window.empty()) describe_window(window, verdict);
  if (!all_finite(verdict)) {
    clear_figures(verdict);
    verdict.reason = "the rounds are too large to judge";
    return verdict;
  }

  if (verdict.window_rounds < rule.window) {
    verdict.reason = printed("%zu of %zu rounds; %zu more needed", verdict.window_rounds, rule.window,
                             rule.window - verdict.window_rounds);
    return verdict;
  }
  if (!(verdict.average > 0)) {
    verdict.reason = printed("average %g, not above 0: nothing to be steady at", verdict.average);
    return verdict;
  }
  if (verdict.data_excursion > rule.max_data_excursion) {
    add_reason(verdict.reason, printed("range %.1f%% of the average (limit %g%%)", verdict.data_excursion * 100,
                                       rule.max_data_excursion * 100));
  }
  if (verdict.slope_excursion > rule.max_slope_excursion) {
    add_reason(verdict.reason, printed("slope moves %.1f%% of the average across %zu rounds (limit %g%%)",
                                       verdict.slope_excursion * 100, verdict.window_rounds,
                                       rule.max_slope_excursion * 100));
  }
  verdict.steady = verdict.reason.empty();
  return verdict;
}

std::size_t first_steady_round(std::span<const double> rounds, const Rule& rule) {
  if (!checked_rule(rule.window, rule.max_data_excursion, rule.max_slope_excursion)) return 0;
  for (std::size_t n = rule.window; n <= rounds.size(); ++n) {
    if (judge(rounds.first(n), rule).steady) return n;
  }
  return 0;
}

}  // namespace iomark::steady_state
