#include "iomark/results/steady_state_lines.hpp"

#include <gtest/gtest.h>

namespace iomark::results {
namespace {

SteadyStateRecord seven_rounds_window_of_five() {
  return {.figure = "iops",
          .max_rounds = 25,
          .window = 5,
          .rounds = {1500, 1100, 1000, 1010, 990, 1000, 1000},
          .steady = true,
          .window_first = 2,
          .average = 1000,
          .data_excursion = 0.02,
          .slope_excursion = 0.0,
          .slope = 0,
          .reason = ""};
}

TEST(SteadyStateLines, SpanTheWindowWithTheBandAroundItsAverage) {
  const auto lines = steady_state_lines(seven_rounds_window_of_five());
  ASSERT_TRUE(lines);
  EXPECT_DOUBLE_EQ(lines->first_round, 3);
  EXPECT_DOUBLE_EQ(lines->last_round, 7);
  EXPECT_DOUBLE_EQ(lines->average, 1000);
  EXPECT_DOUBLE_EQ(lines->above, 1100);
  EXPECT_DOUBLE_EQ(lines->below, 900);
  EXPECT_DOUBLE_EQ(lines->trend_at_first, 1000) << "slope 0: flat";
  EXPECT_DOUBLE_EQ(lines->trend_at_last, 1000);
}

TEST(SteadyStateLines, TheLeastSquaresLinePassesThroughTheAverageAtTheWindowsMiddle) {
  auto record = seven_rounds_window_of_five();
  record.slope = -2.5;  // falls 10 over the 4 steps of the window
  const auto lines = steady_state_lines(record);
  ASSERT_TRUE(lines);
  EXPECT_DOUBLE_EQ(lines->trend_at_first, 1005);
  EXPECT_DOUBLE_EQ(lines->trend_at_last, 995);
}

TEST(SteadyStateLines, NoneBeforeTheWindowIsFull) {
  auto record = seven_rounds_window_of_five();
  record.rounds.resize(4);
  EXPECT_FALSE(steady_state_lines(record));
  record.rounds.resize(5);
  EXPECT_TRUE(steady_state_lines(record));
  record.average = 0;  // nothing measured: no band around it
  EXPECT_FALSE(steady_state_lines(record));
}

}  // namespace
}  // namespace iomark::results
