// The latency-against-IOPS chart of a --find-max-iops search: one point per step joined in
// IOPS order, the bound across the chart, the chosen run marked, the verdict while searching,
// once done and when cut short, a logarithmic latency axis once a run passes ten times the
// bound, and nothing left after clear().
#include <gtest/gtest.h>

#include <QAbstractAxis>
#include <QChart>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QScatterSeries>
#include <QValueAxis>

#include "iomark/gui/charts/max_iops_chart.hpp"

namespace iomark::gui {
namespace {

QXYSeries* series(const MaxIopsChart& chart, int index) {
  return qobject_cast<QXYSeries*>(chart.chart()->series().at(index));
}

// A search within p99 <= 2 ms: QD 1 to 16 doubled, QD 16 broke the bound, then its rate
// bisected; run 8 (69010 IOPS at p99 1.95 ms) is the most within it.
results::MaxIopsRecord searched_to_qd_16() {
  return {.figure = "p99",
          .limit_ms = 2,
          .steps = {{.run = 1, .outstanding_ios = 1, .iops = 9850, .latency_ms = 0.21, .within = true},
                    {.run = 2, .outstanding_ios = 2, .iops = 18900, .latency_ms = 0.27, .within = true},
                    {.run = 3, .outstanding_ios = 4, .iops = 35200, .latency_ms = 0.48, .within = true},
                    {.run = 4, .outstanding_ios = 8, .iops = 61000, .latency_ms = 1.12, .within = true},
                    {.run = 5, .outstanding_ios = 16, .iops = 82500, .latency_ms = 3.85, .within = false},
                    {.run = 6, .outstanding_ios = 16, .rate_iops = 71750, .iops = 71702, .latency_ms = 2.31},
                    {.run = 7, .outstanding_ios = 16, .rate_iops = 66375, .iops = 66351, .latency_ms = 1.62, .within = true},
                    {.run = 8, .outstanding_ios = 16, .rate_iops = 69062, .iops = 69010, .latency_ms = 1.95, .within = true},
                    {.run = 9, .outstanding_ios = 16, .rate_iops = 70406, .iops = 70366, .latency_ms = 2.12},
                    {.run = 10, .outstanding_ios = 16, .rate_iops = 69734, .iops = 69690, .latency_ms = 2.04}},
          .chosen = 7,
          .finished = true,
          .conclusion = "69010 IOPS at QD 16, rate 69062 (p99 1.950 ms within p99 <= 2 ms)"};
}

// The first `steps` of the search, as search_step() reports them while it goes on.
results::MaxIopsRecord first_steps(std::size_t steps) {
  auto record = searched_to_qd_16();
  record.steps.resize(steps);
  record.chosen = static_cast<std::uint32_t>(std::min<std::size_t>(steps, 4) - 1);  // the deepest within, up to QD 8
  record.finished = false;
  record.conclusion = "so far";
  return record;
}

// Whether the legend names the chosen run (the chart must be shown: a hidden chart's legend
// shows nothing).
bool chosen_in_legend(const MaxIopsChart& chart) {
  const auto markers = chart.chart()->legend()->markers(series(chart, 2));
  return !markers.isEmpty() && markers.front()->isVisible();
}

TEST(MaxIopsChart, DrawsEachStepInIopsOrderTheBoundAndTheChosenRun) {
  MaxIopsChart chart;
  chart.show();
  chart.set_record(searched_to_qd_16());
  ASSERT_EQ(chart.chart()->series().size(), 3);
  EXPECT_EQ(chart.step_count(), 10U);
  const auto* runs = series(chart, 0);
  ASSERT_EQ(runs->count(), 10);
  for (int i = 1; i < runs->count(); ++i) EXPECT_LT(runs->at(i - 1).x(), runs->at(i).x()) << "joined in IOPS order";
  EXPECT_EQ(runs->at(0), QPointF(9850, 0.21));
  EXPECT_EQ(runs->at(9), QPointF(82500, 3.85));

  // The bound: across the whole IOPS axis at the limit.
  const auto* bound = series(chart, 1);
  EXPECT_EQ(bound->name(), "bound: p99 ≤ 2 ms") << "rich text: \"<=\" would open a tag";
  ASSERT_EQ(bound->count(), 2);
  const auto* iops_axis = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Horizontal).front());
  ASSERT_NE(iops_axis, nullptr);
  EXPECT_EQ(bound->at(0), QPointF(iops_axis->min(), 2.0));
  EXPECT_EQ(bound->at(1), QPointF(iops_axis->max(), 2.0));
  EXPECT_EQ(iops_axis->min(), 0.0);
  EXPECT_GE(iops_axis->max(), 82500.0);

  // The chosen run alone, named in the legend.
  const auto* chosen = qobject_cast<QScatterSeries*>(series(chart, 2));
  ASSERT_NE(chosen, nullptr);
  ASSERT_EQ(chosen->count(), 1);
  EXPECT_EQ(chosen->at(0), QPointF(69010, 1.95));
  EXPECT_EQ(chosen->name(), "chosen: 69010 IOPS at QD 16");
  EXPECT_TRUE(chosen_in_legend(chart));

  EXPECT_FALSE(chart.logarithmic()) << "3.85 ms is under ten times the bound";
  const auto* latency_axis = qobject_cast<QValueAxis*>(chart.chart()->axes(Qt::Vertical).front());
  ASSERT_NE(latency_axis, nullptr);
  EXPECT_EQ(latency_axis->min(), 0.0);
  EXPECT_GE(latency_axis->max(), 3.85);
  EXPECT_EQ(latency_axis->titleText(), "99th percentile response time (ms)");
  EXPECT_EQ(chart.chart()->title(), "Latency against IOPS (p99 ≤ 2 ms)");
  EXPECT_EQ(chart.verdict_text(),
            "Search done after 10 runs: 69010 IOPS at QD 16, rate 69062 (p99 1.950 ms within p99 <= 2 ms)");
}

TEST(MaxIopsChart, GrowsOnePointPerStepAndSaysItIsSearching) {
  MaxIopsChart chart;
  for (std::size_t steps = 1; steps <= 6; ++steps) {
    chart.set_record(first_steps(steps));
    EXPECT_EQ(chart.step_count(), steps);
    EXPECT_EQ(series(chart, 2)->count(), 1) << steps;
  }
  EXPECT_EQ(series(chart, 2)->at(0), QPointF(61000, 1.12)) << "QD 8, the most within so far";
  EXPECT_EQ(chart.verdict_text(), "Searching... 6 runs so far: so far");
  chart.set_record(first_steps(1));
  EXPECT_EQ(chart.verdict_text(), "Searching... 1 run so far: so far");
}

TEST(MaxIopsChart, SaysWhenTheSeriesCutTheSearchShort) {
  MaxIopsChart chart;
  chart.show();
  chart.set_final_record(first_steps(3));
  EXPECT_EQ(chart.step_count(), 3U);
  EXPECT_EQ(chart.verdict_text(), "The search was cut short after 3 runs: so far");

  // Stopped before its first run: the bound alone.
  chart.set_final_record({.figure = "avg", .limit_ms = 0.5});
  EXPECT_EQ(chart.step_count(), 0U);
  EXPECT_EQ(series(chart, 1)->count(), 2);
  EXPECT_EQ(series(chart, 1)->at(0).y(), 0.5);
  EXPECT_EQ(series(chart, 2)->count(), 0);
  EXPECT_FALSE(chosen_in_legend(chart));
  EXPECT_EQ(chart.verdict_text(), "The search was cut short before its first run (avg <= 0.5 ms).");

  // A finished search reads as done however the series reports it.
  chart.set_final_record(searched_to_qd_16());
  EXPECT_TRUE(chart.verdict_text().startsWith("Search done after 10 runs: ")) << chart.verdict_text().toStdString();
}

TEST(MaxIopsChart, TurnsTheLatencyAxisLogarithmicPastTenTimesTheBound) {
  // Not even the first depth kept p99.9 <= 1 ms: its rate halved and halved again.
  const results::MaxIopsRecord never_within{
      .figure = "p99.9",
      .limit_ms = 1,
      .steps = {{.run = 1, .outstanding_ios = 1, .iops = 800, .latency_ms = 40},
                {.run = 2, .outstanding_ios = 1, .rate_iops = 400, .iops = 400, .latency_ms = 12},
                {.run = 3, .outstanding_ios = 1, .rate_iops = 200, .iops = 200, .latency_ms = 3}},
      .finished = true,
      .conclusion = "no run kept p99.9 <= 1 ms"};
  MaxIopsChart chart;
  chart.show();
  chart.set_record(never_within);
  ASSERT_TRUE(chart.logarithmic());
  const auto vertical = chart.chart()->axes(Qt::Vertical);
  ASSERT_EQ(vertical.size(), 1);
  EXPECT_EQ(vertical.front()->type(), QAbstractAxis::AxisTypeLogValue);
  for (int index = 0; index < 3; ++index) {
    EXPECT_EQ(series(chart, index)->attachedAxes().size(), 2) << "every series on the log axis and the IOPS axis";
  }
  EXPECT_EQ(vertical.front()->titleText(), "99.9th percentile response time (ms)");
  EXPECT_EQ(series(chart, 2)->count(), 0) << "no run was chosen";
  EXPECT_FALSE(chosen_in_legend(chart));

  // Back to a linear axis for a search within ten times its bound.
  chart.set_record(searched_to_qd_16());
  EXPECT_FALSE(chart.logarithmic());
  ASSERT_EQ(chart.chart()->axes(Qt::Vertical).size(), 1);
  EXPECT_EQ(chart.chart()->axes(Qt::Vertical).front()->type(), QAbstractAxis::AxisTypeValue);
  EXPECT_TRUE(chosen_in_legend(chart));
}

TEST(MaxIopsChart, ClearLeavesNoStep) {
  MaxIopsChart chart;
  EXPECT_TRUE(chart.verdict_text().startsWith("No search")) << chart.verdict_text().toStdString();
  chart.set_record(searched_to_qd_16());
  chart.clear();
  EXPECT_EQ(chart.step_count(), 0U);
  EXPECT_FALSE(chart.record().has_value());
  for (int index = 0; index < 3; ++index) EXPECT_EQ(series(chart, index)->count(), 0) << index;
  EXPECT_EQ(chart.chart()->title(), "Latency against IOPS");
  EXPECT_TRUE(chart.verdict_text().startsWith("No search")) << chart.verdict_text().toStdString();
}

}  // namespace
}  // namespace iomark::gui
