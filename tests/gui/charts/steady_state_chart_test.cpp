// The steady-state chart: one point per round, the window's lines only once it is full, the
// verdict in words under it, and nothing left after clear().
#include <gtest/gtest.h>

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include "iomark/gui/charts/steady_state_chart.hpp"

namespace iomark::gui {
namespace {

QLineSeries* line(const SteadyStateChart& chart, int index) {
  return qobject_cast<QLineSeries*>(chart.chart()->series().at(index));
}

// Rounds 1-2 settle from 1500, rounds 3-7 (the window) rise evenly from 980 to 1020.
results::SteadyStateRecord settled_in_round_seven() {
  return {.figure = "iops",
          .max_rounds = 25,
          .window = 5,
          .rounds = {1500, 1200, 980, 990, 1000, 1010, 1020},
          .steady = true,
          .window_first = 2,
          .average = 1000,
          .data_excursion = 0.04,
          .slope_excursion = 0.04,
          .slope = 10,
          .reason = {}};
}

TEST(SteadyStateChart, DrawsEachRoundAndTheWindowsLines) {
  SteadyStateChart chart;
  chart.set_record(settled_in_round_seven());
  ASSERT_EQ(chart.chart()->series().size(), 5);
  EXPECT_EQ(chart.round_count(), 7U);
  EXPECT_EQ(line(chart, 0)->at(0), QPointF(1.0, 1500.0));
  EXPECT_EQ(line(chart, 0)->at(6), QPointF(7.0, 1020.0));
  // Average, 110% and 90% of it, and the least-squares line, over rounds 3-7.
  const std::vector<std::pair<QPointF, QPointF>> expected{{{3.0, 1000.0}, {7.0, 1000.0}},
                                                          {{3.0, 1100.0}, {7.0, 1100.0}},
                                                          {{3.0, 900.0}, {7.0, 900.0}},
                                                          {{3.0, 980.0}, {7.0, 1020.0}}};
  for (int index = 1; index <= 4; ++index) {
    const auto* drawn = line(chart, index);
    ASSERT_EQ(drawn->count(), 2) << drawn->name().toStdString();
    const auto& [first, last] = expected[static_cast<std::size_t>(index - 1)];
    EXPECT_DOUBLE_EQ(drawn->at(0).x(), first.x());
    EXPECT_NEAR(drawn->at(0).y(), first.y(), 1e-9) << drawn->name().toStdString();
    EXPECT_DOUBLE_EQ(drawn->at(1).x(), last.x());
    EXPECT_NEAR(drawn->at(1).y(), last.y(), 1e-9) << drawn->name().toStdString();
  }
  EXPECT_EQ(chart.chart()->title(), "Steady state: IOPS per round");
  EXPECT_EQ(chart.verdict_text(),
            "Steady in round 7: average 1000 IOPS over rounds 3-7 (range 4.0%, slope 4.0% of the average)");
  // The axes hold every round and the highest value.
  const auto* rounds_axis = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).front());
  const auto* figure_axis = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).front());
  EXPECT_EQ(rounds_axis->min(), 1.0);
  EXPECT_EQ(rounds_axis->max(), 7.0);
  EXPECT_GE(figure_axis->max(), 1500.0);
}

TEST(SteadyStateChart, DrawsNoWindowLinesBeforeTheWindowIsFull) {
  SteadyStateChart chart;
  chart.set_record({.figure = "avg", .max_rounds = 25, .window = 5, .rounds = {0.5, 0.6},
                    .average = 0.55, .reason = "2 of 5 rounds; 3 more needed"});
  EXPECT_EQ(chart.round_count(), 2U);
  for (int index = 1; index <= 4; ++index) EXPECT_EQ(line(chart, index)->count(), 0) << index;
  EXPECT_EQ(chart.verdict_text(), "Round 2 of at most 25: not steady yet (2 of 5 rounds; 3 more needed)");
  EXPECT_EQ(chart.chart()->title(), "Steady state: average response time (ms) per round");
}

TEST(SteadyStateChart, SaysWhyWhenTheLastRoundIsNotSteady) {
  auto record = settled_in_round_seven();
  record.max_rounds = 7;
  record.steady = false;
  record.reason = "range 31.2% of the average (limit 20%)";
  SteadyStateChart chart;
  chart.set_record(record);
  EXPECT_EQ(chart.verdict_text(),
            "Not steady after 7 rounds, the most asked for: range 31.2% of the average (limit 20%)");
}

TEST(SteadyStateChart, ClearLeavesNoRound) {
  SteadyStateChart chart;
  chart.set_record(settled_in_round_seven());
  chart.clear();
  EXPECT_FALSE(chart.record().has_value());
  for (int index = 0; index <= 4; ++index) EXPECT_EQ(line(chart, index)->count(), 0) << index;
  EXPECT_EQ(chart.round_count(), 0U);
  EXPECT_TRUE(chart.verdict_text().startsWith("No steady-state rounds")) << chart.verdict_text().toStdString();
}

}  // namespace
}  // namespace iomark::gui
