// A --find-max-iops search (Test Setup's "Find max IOPS") as latency against IOPS: every run
// the search made, joined in IOPS order rather than the order they ran in, so the curve reads
// as the device's; the bound as a horizontal line across the chart; the chosen run, the most
// IOPS within the bound, as a larger dot; under the chart, the conclusion in words. It is fed
// every step so far after each run, so it grows while the series runs.
//
// Drawn as the HTML report draws it (report/report_model.hpp, MaxIopsView): once a run's
// latency passes ten times the bound, the latency axis turns logarithmic, or the bound and
// every run within it would be squeezed onto the floor of the chart.
//
// GUI thread only.
#pragma once

#include <cstddef>
#include <optional>

#include <QString>
#include <QWidget>

#include "iomark/results/run_results.hpp"

class QChart;
class QLabel;
class QLineSeries;
class QLogValueAxis;
class QScatterSeries;
class QValueAxis;

namespace iomark::gui {

class MaxIopsChart : public QWidget {
  Q_OBJECT

 public:
  explicit MaxIopsChart(QWidget* parent = nullptr);

  // Three series in this order: the runs (a line), the bound (a line of two points) and the
  // chosen run (a scatter of one point, none while no run kept the bound).
  [[nodiscard]] QChart* chart() const noexcept { return chart_; }
  // The runs drawn: one point per step since the last clear().
  [[nodiscard]] std::size_t step_count() const noexcept;
  [[nodiscard]] const std::optional<results::MaxIopsRecord>& record() const noexcept { return record_; }
  // Whether the latency axis is logarithmic (a run passed ten times the bound).
  [[nodiscard]] bool logarithmic() const noexcept;
  // What the label under the chart says.
  [[nodiscard]] QString verdict_text() const;

 public slots:
  // Draws the steps so far, replacing what was drawn; the search is still going on.
  void set_record(const iomark::results::MaxIopsRecord& record);
  // Draws the search as the series left it: a search that did not reach its own end was cut
  // short (stopped, or a run failed), which the verdict says rather than "searching".
  void set_final_record(const iomark::results::MaxIopsRecord& record);
  // Back to no search (a new series starts).
  void clear();

 private:
  void redraw();
  void use_latency_axis(bool logarithmic);

  std::optional<results::MaxIopsRecord> record_;
  bool series_ended_{false};
  QChart* chart_;
  QLineSeries* runs_;
  QLineSeries* bound_;
  QScatterSeries* chosen_;
  QValueAxis* iops_axis_;
  QValueAxis* linear_axis_;
  QLogValueAxis* log_axis_;
  QLabel* verdict_;
};

}  // namespace iomark::gui
