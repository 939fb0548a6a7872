// The two curves of a cycling series, as storage reviews draw them: IOPS versus outstanding
// I/Os and response time (average solid, p99 dashed where known) versus outstanding I/Os,
// one curve per access spec, on a log2 axis of outstanding I/Os. A scope switch shows the
// ALL curves or one curve per manager; a shared legend below toggles curves on and off.
//
// GUI thread only.
#pragma once

#include <cstddef>
#include <cstdint>
#include <vector>

#include <QWidget>

#include "iomark/results/run_points.hpp"
#include "iomark/results/run_results.hpp"
#include "iomark/results/summary.hpp"

class QChart;
class QComboBox;
class QListWidget;

namespace iomark::gui {

enum class CurveScope : std::uint8_t {
  totals,    // the ALL curves (one per spec)
  managers,  // one curve per spec and manager
};

class QdChart : public QWidget {
  Q_OBJECT

 public:
  explicit QdChart(QWidget* parent = nullptr);

  [[nodiscard]] QChart* iops_chart() const noexcept { return iops_; }
  // One series per shown curve, then one p99 series per shown curve that has p99 values.
  [[nodiscard]] QChart* response_chart() const noexcept { return response_; }
  [[nodiscard]] const std::vector<results::QdCurve>& curves() const noexcept { return curves_; }
  [[nodiscard]] CurveScope scope() const noexcept { return scope_; }

 public slots:
  // Replaces what is drawn with these curves (e.g. from results::qd_curves).
  void set_curves(std::vector<results::QdCurve> curves);
  // Adds the run a live series just finished (SeriesObserver::run_finished) and redraws
  // the curves of every run added since the last clear().
  void add_run(const iomark::results::RunResults& run, const iomark::results::RunSummary& summary);
  void set_scope(iomark::gui::CurveScope scope);
  void clear();

 protected:
  void resizeEvent(QResizeEvent* event) override;

 private:
  void redraw();
  void fit_legend();

  std::vector<results::RunPoint> live_points_;
  std::size_t live_runs_{};
  std::vector<results::QdCurve> curves_;
  CurveScope scope_{CurveScope::totals};
  QChart* iops_;
  QChart* response_;
  QComboBox* scope_box_;
  QListWidget* legend_;
};

}  // namespace iomark::gui
