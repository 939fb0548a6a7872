#include "iomark/history/comparison.hpp"

#include <gtest/gtest.h>

namespace iomark::history {
namespace {

RunRecord run_with(double iops, std::optional<double> p99) {
  RunRecord record;
  record.iops = iops;
  record.mb_per_s = iops / 100.0;
  record.average_ms = 1.0;
  record.p99_ms = p99;
  return record;
}

RunVariation repeats(std::size_t runs, double coefficient) {
  const Variation variation{runs, 1.0, coefficient};
  return {variation, variation, variation, variation};
}

TEST(Comparison, ThreePercentWithinFivePercentNoiseIsNoRegression) {
  const auto deltas = compare_runs(run_with(1000, 2.0), repeats(5, 0.05), run_with(970, 2.0), repeats(5, 0.05));
  ASSERT_EQ(deltas.size(), 4U);
  EXPECT_EQ(deltas[0].figure, "IOPS");
  EXPECT_NEAR(deltas[0].delta_percent.value(), -3.0, 1e-9);
  EXPECT_NEAR(deltas[0].variation_percent.value(), 5.0, 1e-9);
  EXPECT_EQ(deltas[0].verdict, Verdict::within_variation);
}

TEST(Comparison, DeltaBeyondTwiceTheVariationExceedsIt) {
  const auto deltas = compare_runs(run_with(1000, 2.0), repeats(4, 0.01), run_with(970, 2.0), repeats(3, 0.012));
  EXPECT_NEAR(deltas[0].variation_percent.value(), 1.2, 1e-9);  // the larger of the two groups
  EXPECT_EQ(deltas[0].verdict, Verdict::exceeds_variation);     // 3 % > 2 x 1.2 %
}

TEST(Comparison, RoundingAgainstRepeatsThatNeverVariedIsNoChange) {
  const auto deltas =
      compare_runs(run_with(1000, 2.0), repeats(3, 0.0), run_with(1000.0001, 2.0), repeats(3, 0.0));
  EXPECT_EQ(deltas[0].verdict, Verdict::within_variation);
  const auto real = compare_runs(run_with(1000, 2.0), repeats(3, 0.0), run_with(1002, 2.0), repeats(3, 0.0));
  EXPECT_EQ(real[0].verdict, Verdict::exceeds_variation);  // 0.2 % against no variation at all
}

TEST(Comparison, OneRepeatedGroupIsEnoughToJudge) {
  const auto deltas = compare_runs(run_with(1000, 2.0), repeats(1, 0.0), run_with(1100, 2.0), repeats(3, 0.02));
  EXPECT_NEAR(deltas[0].variation_percent.value(), 2.0, 1e-9);
  EXPECT_EQ(deltas[0].verdict, Verdict::exceeds_variation);
}

TEST(Comparison, WithoutRepeatsThereIsNothingToJudgeBy) {
  const auto deltas = compare_runs(run_with(1000, 2.0), repeats(1, 0.0), run_with(500, 2.0), repeats(1, 0.0));
  EXPECT_NEAR(deltas[0].delta_percent.value(), -50.0, 1e-9);
  EXPECT_FALSE(deltas[0].variation_percent);
  EXPECT_EQ(deltas[0].verdict, Verdict::no_repeats);
}

TEST(Comparison, MissingFigureHasNoDelta) {
  const auto deltas = compare_runs(run_with(1000, std::nullopt), repeats(3, 0.01), run_with(1000, 2.0),
                                   repeats(3, 0.01));
  EXPECT_EQ(deltas[3].figure, "p99 ms");
  EXPECT_FALSE(deltas[3].delta_percent);
  EXPECT_EQ(deltas[3].verdict, Verdict::no_figure);
}

}  // namespace
}  // namespace iomark::history
