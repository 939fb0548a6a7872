// The Results Display tab: live meters (IOPS, MB/s, average/maximum/p99 response time,
// CPU %, errors) of the row selected in the live tree (all managers, a manager, a worker or
// a target), refreshed at the chosen update interval, and the finished runs of the series.
// At fleet scale the tree opens managers only (beyond expand_limit() managers) and a filter
// box narrows it to the managers whose name holds its text; the selection stays.
#pragma once

#include <QElapsedTimer>
#include <QWidget>
#include <chrono>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "iomark/controller/preparing_rate.hpp"
#include "iomark/gui/live_figures_model.hpp"
#include "iomark/gui/run_models.hpp"
#include "iomark/gui/session.hpp"

class QComboBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableView;
class QTreeView;

namespace iomark::gui {

class ManagerFilter;

// "preparing /dev/sdb: 1.2 GiB of 8.0 GiB, 812.4 MB/s, ETA 9 s"; without an estimate, the bytes only.
[[nodiscard]] QString preparing_text(const controller::PrepareFigures& figures,
                                     const std::optional<controller::PreparingRate::Estimate>& estimate);

class ResultsPage : public QWidget {
  Q_OBJECT

 public:
  explicit ResultsPage(QWidget* parent = nullptr);

  void begin_series();
  // Shown when the update interval has passed since the last update shown.
  void show_live(const LiveUpdate& update);
  void add_run(std::size_t index, const results::RunResults& run, const results::RunSummary& summary);
  // The series ended; `text` says how.
  void end_series(const QString& text);

  // IOmeter's update frequencies: 1, 2, 3, 4, 5, 10, 15, 30, 45 or 60 s; another value shows
  // the largest of them below it (1 s below 1). Showing a plan's value is no choice of the
  // user's: update_interval_changed is not emitted.
  void set_update_interval_s(int seconds);
  [[nodiscard]] int update_interval_s() const;
  // Up to how many managers the live tree opens fully when its rows change (a setting on
  // the page; kDefaultExpandLimit to start with).
  [[nodiscard]] int expand_limit() const;
  // Shows only the managers whose name contains `text` (the filter box's text).
  void set_manager_filter(const QString& text);

  [[nodiscard]] const LiveFiguresModel& live_figures() const noexcept { return *live_; }
  // What the live tree shows: the filtered rows, opened as far as the expand limit says.
  [[nodiscard]] QTreeView& live_view() noexcept { return *live_view_; }
  // The row of live_figures().rows() the meters show.
  [[nodiscard]] std::size_t metered_row() const;
  [[nodiscard]] const FiguresModel& run_figures() const noexcept { return *runs_; }
  // The line above the meters: the run, its phase and progress, or how the series ended.
  [[nodiscard]] QString phase_text() const;

 signals:
  // The user picked another update interval: the plan's Results Display keeps it.
  void update_interval_changed(int seconds);
  void expand_limit_changed(int managers);

 private:
  void show_meters();
  void select_live_row(std::size_t row);

  LiveFiguresModel* live_{};
  ManagerFilter* live_filter_{};
  FiguresModel* runs_{};
  QTreeView* live_view_{};
  QLineEdit* filter_box_{};
  QSpinBox* expand_limit_{};
  QTableView* runs_view_{};
  QComboBox* interval_{};
  QLabel* phase_{};
  QLabel* selected_{};
  std::vector<QLabel*> meters_;  // one per figure column after the name
  QElapsedTimer since_shown_;
  controller::PreparingRate preparing_rate_;
  // The row the meters show, by place and by level and name: a filter hiding it or rows
  // changing under it keep it.
  std::size_t metered_{};
  std::optional<FigureRow> metered_key_;
};

}  // namespace iomark::gui
