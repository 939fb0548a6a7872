#include "iomark/steady_state/steady_state.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>
#include <vector>

// The expected figures are worked by hand in the comments. Over a window of 5 rounds
// x = 0..4, so x̄ = 2, x - x̄ = -2, -1, 0, 1, 2 and Σ(x - x̄)² = 4 + 1 + 0 + 1 + 4 = 10;
// b = Σ(x - x̄)(y - ȳ) / 10 and a = ȳ - 2b.

namespace iomark::steady_state {
namespace {

constexpr double kExact = 1e-9;

void expect_all_finite(const Verdict& verdict) {
  for (const double figure : {verdict.average, verdict.minimum, verdict.maximum, verdict.slope, verdict.intercept,
                              verdict.data_excursion, verdict.slope_excursion}) {
    EXPECT_TRUE(std::isfinite(figure)) << figure;
  }
}

TEST(SteadyState, FlatSeriesIsSteady) {
  // y = 100, 101, 99, 100, 100
  // ȳ = 500 / 5 = 100; min 99, max 101: range 2, 2 / 100 = 2% <= 20%.
  // y - ȳ = 0, 1, -1, 0, 0; Σ(x - x̄)(y - ȳ) = (-1)(1) = -1, so b = -1 / 10 = -0.1
  // and a = 100 - (-0.1)(2) = 100.2; slope excursion |b|·4 / ȳ = 0.4 / 100 = 0.4% <= 10%.
  const std::vector<double> rounds{100, 101, 99, 100, 100};
  const auto verdict = judge(rounds);
  EXPECT_TRUE(verdict.steady) << verdict.reason;
  EXPECT_EQ(verdict.reason, "");
  EXPECT_EQ(verdict.window_first, 0U);
  EXPECT_EQ(verdict.window_rounds, 5U);
  EXPECT_NEAR(verdict.average, 100.0, kExact);
  EXPECT_NEAR(verdict.minimum, 99.0, kExact);
  EXPECT_NEAR(verdict.maximum, 101.0, kExact);
  EXPECT_NEAR(verdict.slope, -0.1, kExact);
  EXPECT_NEAR(verdict.intercept, 100.2, kExact);
  EXPECT_NEAR(verdict.data_excursion, 0.02, kExact);
  EXPECT_NEAR(verdict.slope_excursion, 0.004, kExact);
}

TEST(SteadyState, BothLimitsAreInclusive) {
  // y = 90, 110, 100, 100, 100: ȳ = 500 / 5 = 100, range 20, 20 / 100 = 20% exactly.
  // y - ȳ = -10, 10, 0, 0, 0; Σ(x - x̄)(y - ȳ) = (-2)(-10) + (-1)(10) = 10, b = 1,
  // slope excursion 1·4 / 100 = 4%.
  const std::vector<double> at_range_limit{90, 110, 100, 100, 100};
  const auto range = judge(at_range_limit);
  EXPECT_TRUE(range.steady) << range.reason;
  EXPECT_NEAR(range.data_excursion, 0.20, kExact);
  EXPECT_NEAR(range.slope, 1.0, kExact);

  // y = 95, 97.5, 100, 102.5, 105: ȳ = 500 / 5 = 100, range 10 (10%).
  // y - ȳ = -5, -2.5, 0, 2.5, 5; Σ(x - x̄)(y - ȳ) = 10 + 2.5 + 0 + 2.5 + 10 = 25, b = 2.5,
  // a = 100 - 2.5·2 = 95; slope excursion 2.5·4 / 100 = 10% exactly.
  const std::vector<double> at_slope_limit{95, 97.5, 100, 102.5, 105};
  const auto slope = judge(at_slope_limit);
  EXPECT_TRUE(slope.steady) << slope.reason;
  EXPECT_NEAR(slope.slope, 2.5, kExact);
  EXPECT_NEAR(slope.intercept, 95.0, kExact);
  EXPECT_NEAR(slope.slope_excursion, 0.10, kExact);
}

TEST(SteadyState, RisingSeriesWithinTheRangeFailsOnItsSlope) {
  // y = 100, 103, 106, 109, 112
  // ȳ = 530 / 5 = 106; range 112 - 100 = 12, 12 / 106 = 11.3% <= 20%: the range alone passes.
  // y - ȳ = -6, -3, 0, 3, 6; Σ(x - x̄)(y - ȳ) = 12 + 3 + 0 + 3 + 12 = 30, b = 30 / 10 = 3,
  // a = 106 - 3·2 = 100; slope excursion 3·4 / 106 = 12 / 106 = 11.3% > 10%: not steady.
  const std::vector<double> rounds{100, 103, 106, 109, 112};
  const auto verdict = judge(rounds);
  EXPECT_FALSE(verdict.steady);
  EXPECT_NEAR(verdict.average, 106.0, kExact);
  EXPECT_NEAR(verdict.slope, 3.0, kExact);
  EXPECT_NEAR(verdict.intercept, 100.0, kExact);
  EXPECT_NEAR(verdict.data_excursion, 12.0 / 106.0, kExact);
  EXPECT_NEAR(verdict.slope_excursion, 12.0 / 106.0, kExact);
  EXPECT_EQ(verdict.reason, "slope moves 11.3% of the average across 5 rounds (limit 10%)");

  // Only the slope decides it: allow 12% and the same rounds are steady.
  const auto looser = judge(rounds, Rule{.window = 5, .max_data_excursion = 0.20, .max_slope_excursion = 0.12});
  EXPECT_TRUE(looser.steady) << looser.reason;
}

TEST(SteadyState, WideRangeWithoutTrendFailsOnItsRange) {
  // y = 100, 125, 100, 125, 100
  // ȳ = 550 / 5 = 110; range 125 - 100 = 25, 25 / 110 = 22.7% > 20%: not steady.
  // y - ȳ = -10, 15, -10, 15, -10; Σ(x - x̄)(y - ȳ) = 20 - 15 + 0 + 15 - 20 = 0, b = 0,
  // a = 110; slope excursion 0.
  const std::vector<double> rounds{100, 125, 100, 125, 100};
  const auto verdict = judge(rounds);
  EXPECT_FALSE(verdict.steady);
  EXPECT_NEAR(verdict.average, 110.0, kExact);
  EXPECT_NEAR(verdict.slope, 0.0, kExact);
  EXPECT_NEAR(verdict.intercept, 110.0, kExact);
  EXPECT_NEAR(verdict.data_excursion, 25.0 / 110.0, kExact);
  EXPECT_NEAR(verdict.slope_excursion, 0.0, kExact);
  EXPECT_EQ(verdict.reason, "range 22.7% of the average (limit 20%)");
}

TEST(SteadyState, FewerRoundsThanTheWindowAreNotSteadyYet) {
  // Three identical rounds would pass both checks; they are simply too few.
  const std::vector<double> rounds{100, 100, 100};
  const auto verdict = judge(rounds);
  EXPECT_FALSE(verdict.steady);
  EXPECT_EQ(verdict.window_first, 0U);
  EXPECT_EQ(verdict.window_rounds, 3U);
  EXPECT_NEAR(verdict.average, 100.0, kExact);
  EXPECT_EQ(verdict.reason, "3 of 5 rounds; 2 more needed");
  EXPECT_EQ(first_steady_round(rounds), 0U);

  const auto none = judge({});
  EXPECT_FALSE(none.steady);
  EXPECT_EQ(none.window_rounds, 0U);
  EXPECT_EQ(none.reason, "0 of 5 rounds; 5 more needed");
  expect_all_finite(none);
}

TEST(SteadyState, TheWindowIsTheLastRounds) {
  // A device warming up (300, 200, 150), then the flat rounds of FlatSeriesIsSteady.
  // The first five, 300, 200, 150, 100, 101: ȳ = 851 / 5 = 170.2, range 200 (117.5%): not
  // steady, so a window taken from the start would fail this test.
  // The first six end on 200, 150, 100, 101, 99: ȳ = 650 / 5 = 130, range 101 (77.7%).
  // The first seven end on 150, 100, 101, 99, 100: ȳ = 550 / 5 = 110, range 51 (46.4%).
  // All eight end on 100, 101, 99, 100, 100: ȳ = 100, b = -0.1 (as in FlatSeriesIsSteady).
  const std::vector<double> rounds{300, 200, 150, 100, 101, 99, 100, 100};
  const auto verdict = judge(rounds);
  EXPECT_TRUE(verdict.steady) << verdict.reason;
  EXPECT_EQ(verdict.window_first, 3U);
  EXPECT_EQ(verdict.window_rounds, 5U);
  EXPECT_NEAR(verdict.average, 100.0, kExact);
  EXPECT_NEAR(verdict.slope, -0.1, kExact);
  EXPECT_NEAR(verdict.intercept, 100.2, kExact);

  const auto first_five = judge(std::span<const double>(rounds).first(5));
  EXPECT_FALSE(first_five.steady);
  EXPECT_NEAR(first_five.average, 170.2, kExact);
  EXPECT_NEAR(first_five.data_excursion, 200.0 / 170.2, kExact);
  EXPECT_EQ(first_steady_round(rounds), 8U);
}

TEST(SteadyState, FallingDeviceIsSteadyOnlyOnEachSideOfItsCliff) {
  // Ten rounds at 1000, then the device falls to 400 and stays there.
  std::vector<double> rounds(10, 1000.0);
  rounds.insert(rounds.end(), 5, 400.0);
  const std::span<const double> all(rounds);

  // Steady on the flat part before the cliff, after its first five rounds.
  EXPECT_EQ(first_steady_round(all), 5U);
  EXPECT_TRUE(judge(all.first(10)).steady);

  // Windows straddling the cliff (the first n rounds, n = 11..14):
  //   n = 11: 1000, 1000, 1000, 1000, 400: ȳ = 4400 / 5 = 880, range 600 / 880 = 68.2%;
  //           y - ȳ = 120, 120, 120, 120, -480, Σ(x - x̄)(y - ȳ) = -240 - 120 + 0 + 120 - 960
  //           = -1200, b = -120, slope excursion 480 / 880 = 54.5%.
  //   n = 12: 1000, 1000, 1000, 400, 400: ȳ = 3800 / 5 = 760, range 600 / 760 = 78.9%;
  //           y - ȳ = 240, 240, 240, -360, -360, Σ = -480 - 240 + 0 - 360 - 720 = -1800,
  //           b = -180, a = 760 + 360 = 1120, slope excursion 720 / 760 = 94.7%.
  //   n = 13: 1000, 1000, 400, 400, 400: ȳ = 640, range 93.75%; Σ = -720 - 360 + 0 - 240 - 480
  //           = -1800, b = -180, slope excursion 720 / 640 = 112.5%.
  //   n = 14: 1000, 400, 400, 400, 400: ȳ = 520, range 115.4%; Σ = -960 + 120 + 0 - 120 - 240
  //           = -1200, b = -120, slope excursion 480 / 520 = 92.3%.
  const double expected_slope[] = {-120, -180, -180, -120};
  const double expected_average[] = {880, 760, 640, 520};
  for (std::size_t n = 11; n <= 14; ++n) {
    const auto verdict = judge(all.first(n));
    EXPECT_FALSE(verdict.steady) << n << " rounds";
    EXPECT_EQ(verdict.window_first, n - 5);
    EXPECT_NEAR(verdict.average, expected_average[n - 11], kExact) << n << " rounds";
    EXPECT_NEAR(verdict.slope, expected_slope[n - 11], kExact) << n << " rounds";
    EXPECT_NEAR(verdict.data_excursion, 600.0 / expected_average[n - 11], kExact) << n << " rounds";
  }
  const auto straddling = judge(all.first(12));
  EXPECT_NEAR(straddling.intercept, 1120.0, kExact);
  EXPECT_NEAR(straddling.slope_excursion, 720.0 / 760.0, kExact);
  EXPECT_EQ(straddling.reason,
            "range 78.9% of the average (limit 20%); slope moves 94.7% of the average across 5 rounds (limit 10%)");

  // Five rounds at the new level: steady again, at 400.
  const auto after = judge(all);
  EXPECT_TRUE(after.steady) << after.reason;
  EXPECT_EQ(after.window_first, 10U);
  EXPECT_NEAR(after.average, 400.0, kExact);
  EXPECT_NEAR(after.slope, 0.0, kExact);
  // Judged from the cliff on, the new level is steady after its own five rounds.
  EXPECT_EQ(first_steady_round(all.subspan(10)), 5U);
}

TEST(SteadyState, SteadilyFallingDeviceIsNeverSteady) {
  // y_k = 1000 - 30k for k = 0..11: every window is a line with b = -30, so its slope
  // excursion is 30·4 / ȳ = 120 / ȳ, and ȳ is at most 940 (the first window, 1000..880):
  // 120 / 940 = 12.8% > 10%. Its range is the same 120, 12.8% .. 16.4% (last window
  // 790..670, ȳ = 730): within 20%, so only the slope check keeps it from being steady.
  std::vector<double> rounds;
  for (int k = 0; k < 12; ++k) rounds.push_back(1000.0 - 30.0 * k);
  EXPECT_EQ(first_steady_round(rounds), 0U);
  const auto last = judge(rounds);
  EXPECT_FALSE(last.steady);
  EXPECT_NEAR(last.average, 730.0, kExact);
  EXPECT_NEAR(last.slope, -30.0, kExact);
  EXPECT_NEAR(last.data_excursion, 120.0 / 730.0, kExact);
  EXPECT_EQ(last.reason, "slope moves 16.4% of the average across 5 rounds (limit 10%)");
}

TEST(SteadyState, IdleDeviceIsNotSteady) {
  const std::vector<double> zeros{0, 0, 0, 0, 0};
  const auto verdict = judge(zeros);
  EXPECT_FALSE(verdict.steady);
  EXPECT_EQ(verdict.reason, "average 0, not above 0: nothing to be steady at");
  EXPECT_EQ(verdict.data_excursion, 0.0);
  EXPECT_EQ(verdict.slope_excursion, 0.0);
  expect_all_finite(verdict);

  const std::vector<double> negative{-100, -100, -100, -100, -100};
  const auto below = judge(negative);
  EXPECT_FALSE(below.steady);
  EXPECT_EQ(below.reason, "average -100, not above 0: nothing to be steady at");
  EXPECT_EQ(below.data_excursion, 0.0);
  expect_all_finite(below);
  EXPECT_EQ(first_steady_round(zeros), 0U);
}

TEST(SteadyState, RoundsThatAreNotNumbersAreRefusedWithoutNaN) {
  constexpr double kNaN = std::numeric_limits<double>::quiet_NaN();
  constexpr double kInfinity = std::numeric_limits<double>::infinity();

  const std::vector<double> with_nan{100, 100, kNaN, 100, 100};
  const auto nan = judge(with_nan);
  EXPECT_FALSE(nan.steady);
  EXPECT_EQ(nan.reason, "round 3 is not a finite number");
  expect_all_finite(nan);

  const std::vector<double> with_infinity{100, 100, 100, 100, 100, -kInfinity};
  const auto infinite = judge(with_infinity);
  EXPECT_FALSE(infinite.steady);
  EXPECT_EQ(infinite.reason, "round 6 is not a finite number");
  expect_all_finite(infinite);

  // Finite rounds whose sums overflow a double.
  constexpr double kHuge = std::numeric_limits<double>::max();
  const std::vector<double> huge{kHuge, kHuge, kHuge, kHuge, kHuge};
  const auto overflow = judge(huge);
  EXPECT_FALSE(overflow.steady);
  EXPECT_EQ(overflow.reason, "the rounds are too large to judge");
  expect_all_finite(overflow);

  // Only the window counts: a bad round before it does not matter.
  const std::vector<double> nan_before{kNaN, 100, 100, 100, 100, 100};
  EXPECT_TRUE(judge(nan_before).steady);
}

TEST(SteadyState, CheckedRuleRefusesWhatCannotBeJudged) {
  const auto defaults = checked_rule(5, 0.20, 0.10);
  ASSERT_TRUE(defaults.has_value()) << defaults.error().describe();
  EXPECT_EQ(defaults->window, Rule{}.window);
  EXPECT_EQ(defaults->max_data_excursion, Rule{}.max_data_excursion);
  EXPECT_EQ(defaults->max_slope_excursion, Rule{}.max_slope_excursion);
  EXPECT_TRUE(checked_rule(2, 1.0, 1.0).has_value()) << "the bounds 2 and 1 are allowed";

  const auto expect_refused = [](const Result<Rule>& rule, const char* field) {
    ASSERT_FALSE(rule.has_value()) << field;
    EXPECT_EQ(rule.error().code(), ErrorCode::invalid_argument);
    EXPECT_EQ(rule.error().field(), field);
  };
  expect_refused(checked_rule(1, 0.20, 0.10), "window");
  expect_refused(checked_rule(0, 0.20, 0.10), "window");
  expect_refused(checked_rule(5, 0.0, 0.10), "data excursion");
  expect_refused(checked_rule(5, 1.5, 0.10), "data excursion");
  expect_refused(checked_rule(5, -0.2, 0.10), "data excursion");
  expect_refused(checked_rule(5, 0.20, 0.0), "slope excursion");
  expect_refused(checked_rule(5, 0.20, 1.01), "slope excursion");
  expect_refused(checked_rule(5, 0.20, std::numeric_limits<double>::quiet_NaN()), "slope excursion");
  EXPECT_EQ(checked_rule(1, 0.20, 0.10).error().describe(), "window: must be at least 2 rounds (a slope needs two), not 1");
}

TEST(SteadyState, BadRuleGivesAVerdictNotACrash) {
  const std::vector<double> rounds{100, 100, 100, 100, 100};
  const auto zero_window = judge(rounds, Rule{.window = 0});
  EXPECT_FALSE(zero_window.steady);
  EXPECT_EQ(zero_window.reason, "bad rule: window: must be at least 2 rounds (a slope needs two), not 0");
  expect_all_finite(zero_window);
  EXPECT_EQ(first_steady_round(rounds, Rule{.window = 0}), 0U);

  const auto no_slack = judge(rounds, Rule{.window = 5, .max_data_excursion = 0.0});
  EXPECT_FALSE(no_slack.steady);
  EXPECT_NE(no_slack.reason.find("data excursion"), std::string::npos) << no_slack.reason;
}

TEST(SteadyState, WindowOfTheRulesChoosing) {
  // Window 3 over 50, 80, 100, 100, 101: the last three, ȳ = 301 / 3 = 100.33..;
  // x̄ = 1, Σ(x - x̄)² = 2, Σ(x - x̄)(y - ȳ) = -(100 - ȳ) + (101 - ȳ) = 1, b = 0.5;
  // range 1 / 100.33 = 1.0%, slope excursion 0.5·2 / 100.33 = 1.0%: steady after 5 rounds.
  const std::vector<double> rounds{50, 80, 100, 100, 101};
  const Rule three{.window = 3};
  const auto verdict = judge(rounds, three);
  EXPECT_TRUE(verdict.steady) << verdict.reason;
  EXPECT_EQ(verdict.window_first, 2U);
  EXPECT_EQ(verdict.window_rounds, 3U);
  EXPECT_NEAR(verdict.average, 301.0 / 3.0, kExact);
  EXPECT_NEAR(verdict.slope, 0.5, kExact);
  EXPECT_NEAR(verdict.slope_excursion, 1.0 / (301.0 / 3.0), kExact);
  EXPECT_EQ(first_steady_round(rounds, three), 5U);
}

}  // namespace
}  // namespace iomark::steady_state
