#include "iomark/cli_text/steady_state_text.hpp"

#include <gtest/gtest.h>

namespace iomark::cli_text {
namespace {

controller::SteadyStateProgress progress_of(std::vector<double> rounds, access_specs::SteadyFigure figure) {
  controller::SteadyStateProgress progress{.figure = figure, .max_rounds = 25, .window = 5, .rounds = std::move(rounds)};
  progress.verdict = steady_state::judge(progress.rounds);
  return progress;
}

TEST(SteadyStateText, ARoundLineCarriesTheFigureTheWindowAndTheVerdict) {
  const auto steady = progress_of({900, 1000, 1010, 990, 1000, 1000}, access_specs::SteadyFigure::iops);
  // Rounds 2-6: average 1000, range 20/1000 = 2%, slope -1 per round: 4/1000 = 0.4%.
  EXPECT_EQ(round_line(steady), "round 6/25: 1000 IOPS; rounds 2-6: range 2.0%, slope 0.4% of the average: steady");
  EXPECT_EQ(verdict_line(steady), "steady state (iops): reached in round 6, average 1000 IOPS over rounds 2-6");
}

TEST(SteadyStateText, BeforeTheWindowIsFullTheLineSaysHowManyMoreRounds) {
  const auto early = progress_of({2.5}, access_specs::SteadyFigure::p99_ms);
  EXPECT_EQ(round_line(early), "round 1/25: 2.500 ms p99: not steady (1 of 5 rounds; 4 more needed)");
  EXPECT_EQ(verdict_line(early), "steady state (p99): not reached in 1 round(s): 1 of 5 rounds; 4 more needed");
}

TEST(SteadyStateText, ARisingFigureIsNotSteadyAndTheLineSaysWhy) {
  const auto rising = progress_of({100, 103, 106, 109, 112}, access_specs::SteadyFigure::mb_per_s);
  const auto line = round_line(rising);
  EXPECT_EQ(line.rfind("round 5/25: 112.00 MB/s; rounds 1-5: range 11.3%, slope 11.3% of the average: not steady (", 0),
            0U)
      << line;
  EXPECT_NE(line.find("slope"), std::string::npos);
}

}  // namespace
}  // namespace iomark::cli_text
