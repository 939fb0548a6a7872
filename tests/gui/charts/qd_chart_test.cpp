// QD curves: one series per curve in scope, points in queue-depth order, a log2 depth axis.
#include <gtest/gtest.h>

#include <QChart>
#include <QFile>
#include <QLineSeries>
#include <QLogValueAxis>

#include "corpus.hpp"
#include "iomark/gui/charts/qd_chart.hpp"

namespace iomark::gui {
namespace {

using namespace std::chrono_literals;
using test_support::run_at;

std::vector<results::QdCurve> curves_of(const QString& path) {
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::ReadOnly));
  const QByteArray bytes = file.readAll();
  auto points = results::read_run_points(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())));
  EXPECT_TRUE(points) << points.error().describe();
  return points ? results::qd_curves(*points) : std::vector<results::QdCurve>{};
}

QLineSeries* line(QChart* chart, int index) { return qobject_cast<QLineSeries*>(chart->series().at(index)); }

TEST(QdChart, OwnCyclingSeriesGivesOneCurveOfTwoDepths) {
  QdChart chart;
  chart.set_curves(curves_of(test_support::data_path(test_support::kOwn110Results)));
  EXPECT_EQ(chart.curves().size(), 2u);  // ALL and manager `vm`
  ASSERT_EQ(chart.iops_chart()->series().size(), 1);
  const QLineSeries* all = line(chart.iops_chart(), 0);
  EXPECT_EQ(all->name(), "4K random read");
  ASSERT_EQ(all->count(), 2);
  EXPECT_EQ(all->at(0), QPointF(1.0, 10874.766519));
  EXPECT_EQ(all->at(1), QPointF(4.0, 27583.048032));
}

TEST(QdChart, SqlServerIoCyclingSeriesGivesEightCurvesOfEightDepths) {
  IOMARK_SKIP_WITHOUT_ICF_CORPUS();
  QdChart chart;
  chart.set_curves(curves_of(test_support::corpus_path(test_support::kSqlServerIo)));
  EXPECT_EQ(chart.curves().size(), 16u);
  ASSERT_EQ(chart.iops_chart()->series().size(), 8);
  ASSERT_EQ(chart.response_chart()->series().size(), 8);  // no p99 in results.csv
  for (int s = 0; s < 8; ++s) {
    EXPECT_EQ(line(chart.iops_chart(), s)->count(), 8);
    EXPECT_EQ(line(chart.response_chart(), s)->count(), 8);
  }
  const QLineSeries* first = line(chart.iops_chart(), 0);
  EXPECT_EQ(first->name(), "8k 0% Read; 100% Random 8k");
  EXPECT_EQ(first->at(0), QPointF(1.0, 1196.489673));
  EXPECT_EQ(first->at(7).x(), 128.0);
  EXPECT_DOUBLE_EQ(line(chart.response_chart(), 0)->at(7).y(), 6.550814);

  const auto axes = chart.iops_chart()->axes(Qt::Horizontal);
  ASSERT_EQ(axes.size(), 1);
  const auto* depth = qobject_cast<QLogValueAxis*>(axes.front());
  ASSERT_NE(depth, nullptr);
  EXPECT_EQ(depth->base(), 2.0);
  EXPECT_EQ(depth->min(), 1.0);
  EXPECT_EQ(depth->max(), 128.0);

  chart.set_scope(CurveScope::managers);
  ASSERT_EQ(chart.iops_chart()->series().size(), 8);
  EXPECT_EQ(line(chart.iops_chart(), 0)->name(), "8k 0% Read; 100% Random 8k @ JUDE1OLD");
}

TEST(QdChart, LiveRunsAddPointsAndP99Curves) {
  QdChart chart;
  for (const std::uint32_t qd : {4u, 1u, 2u}) {
    const auto run = run_at(qd, 1000 * qd, 100us * qd);
    chart.add_run(run, results::summarize_run(run));
  }
  ASSERT_EQ(chart.iops_chart()->series().size(), 1);
  ASSERT_EQ(chart.response_chart()->series().size(), 2);  // average, then p99
  const QLineSeries* iops = line(chart.iops_chart(), 0);
  ASSERT_EQ(iops->count(), 3);
  EXPECT_EQ(iops->at(0), QPointF(1.0, 1000.0));
  EXPECT_EQ(iops->at(2), QPointF(4.0, 4000.0));
  const QLineSeries* p99 = line(chart.response_chart(), 1);
  EXPECT_EQ(p99->name(), "4K read (p99)");
  ASSERT_EQ(p99->count(), 3);
  EXPECT_NEAR(p99->at(2).y(), 0.4, 0.004);

  chart.clear();
  EXPECT_TRUE(chart.curves().empty());
  EXPECT_TRUE(chart.iops_chart()->series().empty());
}

}  // namespace
}  // namespace iomark::gui
