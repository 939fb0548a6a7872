// The latency distribution of one run (or one manager of it): the share of I/Os in each of
// IOmeter's 21 latency bins as bars, and the percentiles p50 .. p99.99 as a line on a log
// scale, each point labelled. Results without a histogram (results.csv) show the bins only.
//
// GUI thread only.
#pragma once

#include <QString>
#include <QWidget>

#include "iomark/common/compact_latency_histogram.hpp"
#include "iomark/results/run_points.hpp"

class QChart;
class QChartView;

namespace iomark::gui {

class LatencyChart : public QWidget {
  Q_OBJECT

 public:
  explicit LatencyChart(QWidget* parent = nullptr);

  // One QBarSeries with one set of 21 values (% of I/Os).
  [[nodiscard]] QChart* bins_chart() const noexcept { return bins_; }
  // One QLineSeries with one point per percentile; no series without percentiles.
  [[nodiscard]] QChart* percentile_chart() const noexcept { return percentiles_; }

 public slots:
  void set_profile(const iomark::results::LatencyProfile& profile, const QString& title);
  void set_histogram(const iomark::CompactLatencyHistogram& histogram, const QString& title);
  // Shows nothing; with a `title` (e.g. why there is nothing to show) that one chart only.
  void clear(const QString& title = {});

 private:
  QChart* bins_;
  QChart* percentiles_;
  QChartView* percentile_view_;
};

}  // namespace iomark::gui
