#include "iomark/results/pts_iops_table.hpp"

#include <gtest/gtest.h>

#include "fixtures.hpp"
#include "iomark/results/run_points.hpp"

namespace iomark::results {
namespace {

// Two mixes by two block sizes: a round is four runs, at positions 4k+1..4k+4.
const PtsIopsRecord kTwoByTwo{.read_percents = {100, 0}, .block_bytes = {8192, 4096}};

// Every run of `rounds` rounds, each cell's IOPS = 1000 x (cell + 1) + the round.
std::vector<PtsRunFigure> rounds_of_two_by_two(std::uint32_t rounds) {
  std::vector<PtsRunFigure> figures;
  for (std::uint32_t position = 1; position <= rounds * 4; ++position) {
    const auto cell = (position - 1) % 4;
    const auto round = (position - 1) / 4 + 1;
    figures.push_back({.position = position, .iops = 1000.0 * (cell + 1) + round});
  }
  return figures;
}

TEST(PtsIopsTable, ASteadySeriesAveragesEachCellOverTheWindow) {
  const SteadyStateRecord steady{.figure = "iops", .max_rounds = 25, .window = 5, .rounds = {}, .steady = true,
                                 .window_first = 2};
  const auto table = pts_iops_table(kTwoByTwo, rounds_of_two_by_two(7), steady);
  EXPECT_TRUE(table.steady);
  EXPECT_EQ(table.first_round, 3U);
  EXPECT_EQ(table.last_round, 7U);
  ASSERT_EQ(table.iops.size(), 2U);
  // Rounds 3..7 average 5: cell 0 (100/0, 8 KiB) 1005, cell 3 (0/100, 4 KiB) 4005.
  EXPECT_DOUBLE_EQ(table.iops[0][0].value_or(0), 1005);
  EXPECT_DOUBLE_EQ(table.iops[0][1].value_or(0), 2005);
  EXPECT_DOUBLE_EQ(table.iops[1][0].value_or(0), 3005);
  EXPECT_DOUBLE_EQ(table.iops[1][1].value_or(0), 4005);
}

TEST(PtsIopsTable, ASeriesNeverSteadyAveragesItsLastFiveRoundsAndACellWithNoRunIsEmpty) {
  auto figures = rounds_of_two_by_two(8);
  // Round 8 was cut after its first run; the 8 KiB write cell failed in every round.
  figures.resize(29);
  std::erase_if(figures, [](const PtsRunFigure& run) { return (run.position - 1) % 4 == 2; });
  const auto table = pts_iops_table(kTwoByTwo, figures, std::nullopt);
  EXPECT_FALSE(table.steady);
  EXPECT_EQ(table.first_round, 4U);
  EXPECT_EQ(table.last_round, 8U);
  EXPECT_DOUBLE_EQ(table.iops[0][0].value_or(0), 1006) << "rounds 4..8: 1004..1008";
  EXPECT_DOUBLE_EQ(table.iops[0][1].value_or(0), 2005.5) << "rounds 4..7";
  EXPECT_FALSE(table.iops[1][0]);
  EXPECT_DOUBLE_EQ(table.iops[1][1].value_or(0), 4005.5);
}

TEST(PtsIopsTable, NoRunNoRounds) {
  const auto table = pts_iops_table(kTwoByTwo, {}, std::nullopt);
  EXPECT_EQ(table.first_round, 0U);
  EXPECT_EQ(table.last_round, 0U);
  ASSERT_EQ(table.iops.size(), 2U);
  EXPECT_FALSE(table.iops[0][0]);
}

TEST(PtsIopsTable, TheCompletedRunsOfASeriesKeepTheirPositionsAroundFailedOnes) {
  SeriesResults series;
  series.runs = {test_support::example_run(), test_support::example_run(), test_support::example_run()};
  series.failed_runs = {FailedRun{.position = 2, .info = {}, .error = "lost"}};
  const auto figures = pts_run_figures(series);
  ASSERT_EQ(figures.size(), 3U);
  EXPECT_EQ(figures[0].position, 1U);
  EXPECT_EQ(figures[1].position, 3U);
  EXPECT_EQ(figures[2].position, 4U);
  EXPECT_DOUBLE_EQ(figures[1].iops, run_points(series).front().iops);
}

}  // namespace
}  // namespace iomark::results
