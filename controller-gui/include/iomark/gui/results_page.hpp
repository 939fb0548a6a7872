// The Results Display tab: live meters (IOPS, MB/s, average/maximum/p99 response time,
// CPU %, errors) of the row selected in the live table (all managers, a manager, a worker or
// a target), refreshed at the chosen update interval, and the finished runs of the series.
#pragma once

#include <QElapsedTimer>
#include <QWidget>
#include <cstddef>
#include <vector>

#include "iomark/gui/run_models.hpp"
#include "iomark/gui/session.hpp"

class QComboBox;
class QLabel;
class QTableView;

namespace iomark::gui {

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

  // IOmeter's update frequencies: 1, 2, 3, 4, 5, 10, 15, 30, 45 or 60 s.
  void set_update_interval_s(int seconds);
  [[nodiscard]] int update_interval_s() const;
  [[nodiscard]] const FiguresModel& live_figures() const noexcept { return *live_; }
  [[nodiscard]] const FiguresModel& run_figures() const noexcept { return *runs_; }

 signals:
  void update_interval_changed(int seconds);

 private:
  void show_meters();

  FiguresModel* live_{};
  FiguresModel* runs_{};
  QTableView* live_view_{};
  QTableView* runs_view_{};
  QComboBox* interval_{};
  QLabel* phase_{};
  QLabel* selected_{};
  std::vector<QLabel*> meters_;  // one per figure column after the name
  QElapsedTimer since_shown_;
};

}  // namespace iomark::gui
