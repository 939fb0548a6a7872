// The Test Setup tab: description, run and ramp-up times, what is recorded, the cycling test
// type with its parameters (input limits from the field descriptors), and a preview of the
// runs the plan expands into. Also where results.csv is appended, whether the series is
// repeated in rounds until a figure is steady (`iomark run --steady-state`), and whether its
// one run is the start of a search for the most IOPS within a latency bound (`iomark run
// --find-max-iops`), which an .icf cannot hold: like the results file, they stay on the page
// for every later Start. The two exclude each other (a search is not run in rounds): turning
// the search on turns steady state off.
#pragma once

#include <QWidget>

#include <cstddef>
#include <optional>

#include "iomark/access_specs/field_descriptors.hpp"
#include "iomark/access_specs/run_request.hpp"
#include "iomark/access_specs/test_plan.hpp"

class QCheckBox;
class QComboBox;
class QDoubleSpinBox;
class QGroupBox;
class QLabel;
class QLineEdit;
class QSpinBox;
class QTableView;

namespace iomark::gui {

class PlanDocument;
class RunPreviewModel;

class TestSetupPage : public QWidget {
  Q_OBJECT

 public:
  explicit TestSetupPage(PlanDocument& document, QWidget* parent = nullptr);

  // results.csv to append each run to; empty: results are kept for "Save results as" only.
  [[nodiscard]] QString results_file() const;
  void set_results_file(const QString& path);
  // The SQLite run history every run is recorded in, and the [ADDR:]PORT live Prometheus
  // metrics are served on while a series runs; empty: none.
  [[nodiscard]] QString history_database() const;
  void set_history_database(const QString& path);
  [[nodiscard]] QString metrics_listen() const;
  void set_metrics_listen(const QString& address);
  // The rounds the next Start runs (RunRequest::steady_state); nullopt: each run once.
  [[nodiscard]] std::optional<access_specs::SteadyStateRequest> steady_state() const;
  void set_steady_state(const std::optional<access_specs::SteadyStateRequest>& rounds);
  // The bound the next Start searches within (RunRequest::find_max_iops); nullopt: no search.
  [[nodiscard]] std::optional<access_specs::LatencyBound> find_max_iops() const;
  void set_find_max_iops(const std::optional<access_specs::LatencyBound>& bound);
  // How many runs the plan makes (the preview's), 0 when it cannot be expanded.
  [[nodiscard]] int preview_run_count() const;

 private:
  struct CyclingEditors {
    QGroupBox* box{};
    QSpinBox* start{};
    QSpinBox* end{};  // queue depth only
    QSpinBox* step{};
    QComboBox* type{};
  };

  void load();
  void store();
  void refresh_preview();
  CyclingEditors make_cycling(const QString& title, access_specs::FieldId start, std::optional<access_specs::FieldId> end,
                              access_specs::FieldId step);

  PlanDocument& document_;
  bool loading_{false};
  QLineEdit* description_{};
  QSpinBox* run_time_{};
  QSpinBox* ramp_up_{};
  QComboBox* record_{};
  QComboBox* test_type_{};
  CyclingEditors workers_;
  CyclingEditors targets_;
  CyclingEditors queue_depth_;
  QLineEdit* results_file_{};
  QLineEdit* history_database_{};
  QLineEdit* metrics_listen_{};
  QComboBox* steady_figure_{};
  QSpinBox* max_rounds_{};
  QCheckBox* search_{};
  QWidget* search_bound_{};  // the figure and the limit, enabled while search_ is checked
  QComboBox* search_figure_{};
  QDoubleSpinBox* search_limit_{};  // ms
  QLabel* preview_summary_{};
  QTableView* preview_view_{};
  RunPreviewModel* preview_{};
};

}  // namespace iomark::gui
