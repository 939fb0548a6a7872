// The latency view: 21 bins as bars, seven percentiles as a line when a histogram exists.
#include <gtest/gtest.h>

#include <chrono>

#include <QBarSeries>
#include <QChart>
#include <QBarSet>
#include <QLineSeries>

#include "iomark/gui/charts/latency_chart.hpp"

namespace iomark::gui {
namespace {

using namespace std::chrono_literals;

TEST(LatencyChart, HistogramGivesBinsAndPercentiles) {
  CompactLatencyHistogram histogram;
  for (int i = 0; i < 900; ++i) histogram.record(80us);     // bin 1: 50-100 us
  for (int i = 0; i < 100; ++i) histogram.record(3ms);      // bin 6: 2-5 ms
  LatencyChart chart;
  chart.set_histogram(histogram, "run 1");

  ASSERT_EQ(chart.bins_chart()->series().size(), 1);
  const auto* bars = qobject_cast<QBarSeries*>(chart.bins_chart()->series().front());
  ASSERT_NE(bars, nullptr);
  ASSERT_EQ(bars->count(), 1);
  const QBarSet* set = bars->barSets().front();
  ASSERT_EQ(set->count(), 21);
  EXPECT_DOUBLE_EQ(set->at(1), 90.0);
  EXPECT_DOUBLE_EQ(set->at(6), 10.0);
  EXPECT_EQ(chart.bins_chart()->title(), "Latency histogram: run 1");

  ASSERT_EQ(chart.percentile_chart()->series().size(), 1);
  const auto* line = qobject_cast<QLineSeries*>(chart.percentile_chart()->series().front());
  ASSERT_EQ(line->count(), 7);
  EXPECT_NEAR(line->at(0).y(), 0.08, 0.001);  // p50
  EXPECT_NEAR(line->at(6).y(), 3.0, 0.03);    // p99.99
}

TEST(LatencyChart, BinsOnlyProfileHasNoPercentileLine) {
  results::LatencyProfile profile;
  profile.bins[0] = 3;
  profile.bins[20] = 1;
  LatencyChart chart;
  chart.set_profile(profile, "legacy");
  const auto* bars = qobject_cast<QBarSeries*>(chart.bins_chart()->series().front());
  EXPECT_DOUBLE_EQ(bars->barSets().front()->at(20), 25.0);
  EXPECT_TRUE(chart.percentile_chart()->series().empty());

  chart.clear("nothing here");
  EXPECT_TRUE(chart.bins_chart()->series().empty());
  EXPECT_EQ(chart.bins_chart()->title(), "nothing here");
}

}  // namespace
}  // namespace iomark::gui
