// The live chart draws what it is fed and keeps only the newest samples.
#include <gtest/gtest.h>

#include <QChart>
#include <QLineSeries>
#include <QValueAxis>

#include "iomark/gui/charts/live_chart.hpp"

namespace iomark::gui {
namespace {

QLineSeries* line(QChart* chart, int index) { return qobject_cast<QLineSeries*>(chart->series().at(index)); }

LiveSample sample(double t) { return LiveSample{t, 1000.0 * t, 4.0 * t, 0.5, 2.0 + t}; }

TEST(LiveChart, DrawsEverySampleInFourSeries) {
  LiveChart chart;
  for (int t = 1; t <= 10; ++t) chart.add_sample(sample(t));
  EXPECT_EQ(chart.sample_count(), 10u);
  ASSERT_EQ(chart.throughput_chart()->series().size(), 2);
  ASSERT_EQ(chart.latency_chart()->series().size(), 2);
  for (QChart* c : {chart.throughput_chart(), chart.latency_chart()}) {
    for (int s = 0; s < 2; ++s) EXPECT_EQ(line(c, s)->count(), 10);
  }
  EXPECT_EQ(line(chart.throughput_chart(), 0)->at(9), QPointF(10.0, 10000.0));
  EXPECT_EQ(line(chart.latency_chart(), 1)->at(0), QPointF(1.0, 3.0));
  // Axes cover what is drawn.
  const auto axes = chart.throughput_chart()->axes(Qt::Vertical);
  ASSERT_FALSE(axes.empty());
  EXPECT_GE(qobject_cast<QValueAxis*>(axes.front())->max(), 10000.0);
}

TEST(LiveChart, KeepsOnlyTheNewestCapacitySamples) {
  LiveChart chart(nullptr, 5);
  for (int t = 1; t <= 12; ++t) chart.add_sample(sample(t));
  EXPECT_EQ(chart.sample_count(), 5u);
  const QLineSeries* iops = line(chart.throughput_chart(), 0);
  ASSERT_EQ(iops->count(), 5);
  EXPECT_EQ(iops->at(0).x(), 8.0);
  EXPECT_EQ(iops->at(4).x(), 12.0);
  EXPECT_EQ(line(chart.latency_chart(), 1)->count(), 5);
  const auto time = chart.throughput_chart()->axes(Qt::Horizontal);
  ASSERT_FALSE(time.empty());
  EXPECT_EQ(qobject_cast<QValueAxis*>(time.front())->min(), 8.0);

  chart.clear();
  EXPECT_EQ(chart.sample_count(), 0u);
  EXPECT_EQ(line(chart.throughput_chart(), 0)->count(), 0);
}

}  // namespace
}  // namespace iomark::gui
