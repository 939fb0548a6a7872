// The rounds of a steady-state series (`--steady-state`, Test Setup's "Steady state") as
// SNIA's PTS plots them: the tracked figure of every round and, once the rule's window is
// full, the window's average, 110% and 90% of it and the least-squares line over the window;
// under the chart, the verdict in words (steady, or why not). It is fed the rounds so far
// after every round, so it grows while the series runs.
//
// The lines are drawn from a results::SteadyStateRecord, as the HTML report draws them
// (report/report_model.hpp, SteadyStateView): the least-squares line passes through the
// window's average at the window's middle round with the record's slope.
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
class QValueAxis;

namespace iomark::gui {

class SteadyStateChart : public QWidget {
  Q_OBJECT

 public:
  explicit SteadyStateChart(QWidget* parent = nullptr);

  // Five series in this order: the rounds, the window's average, 110% of it, 90% of it and
  // the least-squares line; the last four have two points (the window's first and last
  // rounds) once the window is full, none before.
  [[nodiscard]] QChart* chart() const noexcept { return chart_; }
  // The rounds drawn: one point per round judged since the last clear().
  [[nodiscard]] std::size_t round_count() const noexcept;
  [[nodiscard]] const std::optional<results::SteadyStateRecord>& record() const noexcept { return record_; }
  // What the label under the chart says.
  [[nodiscard]] QString verdict_text() const;

 public slots:
  // Draws the rounds so far and their verdict, replacing what was drawn.
  void set_record(const iomark::results::SteadyStateRecord& record);
  // Back to no rounds (a new series starts).
  void clear();

 private:
  void redraw();

  std::optional<results::SteadyStateRecord> record_;
  QChart* chart_;
  QLineSeries* rounds_;
  QLineSeries* average_;
  QLineSeries* above_;  // 110% of the average
  QLineSeries* below_;  // 90% of the average
  QLineSeries* trend_;  // the least-squares line
  QValueAxis* rounds_axis_;
  QValueAxis* figure_axis_;
  QLabel* verdict_;
};

}  // namespace iomark::gui
