// The Test Setup tab: description, run and ramp-up times, what is recorded, the cycling test
// type with its parameters (input limits from the field descriptors), and a preview of the
// runs the plan expands into. Also where results.csv is appended, whether the series is
// repeated in rounds until a figure is steady (`iomark run --steady-state`), and whether its
// one run is the start of a search for the most IOPS within a latency bound (`iomark run
// --find-max-iops`), whether every target is preconditioned first (`iomark run --precondition`),
// and whether the run is SNIA's PTS IOPS test (`iomark pts iops`), which an .icf cannot hold:
// like the results file, they stay on the page for every later Start. The search excludes
// steady state (a search is not run in rounds): turning it on turns steady state off. The PTS
// IOPS test is its own steady state (the IOPS of 4 KiB random writes) and is always
// preconditioned: turning it on locks steady state, the search and preconditioning, and turning
// it off gives them back as they were.
#pragma once

#include <QWidget>

#include <cstddef>
#include <cstdint>
#include <optional>

#include "iomark/access_specs/field_descriptors.hpp"
#include "iomark/access_specs/pts_iops.hpp"
#include "iomark/access_specs/run_request.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"

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
  // The rounds the next Start runs (RunRequest::steady_state): with the PTS IOPS test, its
  // own (IOPS of the 4 KiB random writes, at most the test's max rounds); nullopt: each run once.
  [[nodiscard]] std::optional<access_specs::SteadyStateRequest> steady_state() const;
  void set_steady_state(const std::optional<access_specs::SteadyStateRequest>& rounds);
  // The bound the next Start searches within (RunRequest::find_max_iops); nullopt: no search.
  [[nodiscard]] std::optional<access_specs::LatencyBound> find_max_iops() const;
  void set_find_max_iops(const std::optional<access_specs::LatencyBound>& bound);
  // How many times the next Start writes every target whole first
  // (RunRequest::precondition_passes); 0: not at all. The PTS IOPS test always does.
  [[nodiscard]] std::uint32_t precondition_passes() const;
  void set_precondition_passes(std::uint32_t passes);
  // The spec whose writes make those passes (RunRequest::precondition_spec); empty: 128 KiB
  // sequential writes, or no preconditioning.
  [[nodiscard]] std::string precondition_spec() const;
  void set_precondition_spec(const std::string& name);
  // The matrix the next Start runs the plan's one run over (RunRequest::pts_iops); nullopt: no
  // PTS IOPS test. Errors: the block sizes or mixes as typed (parse_pts_block_sizes,
  // parse_pts_mixes, check_pts_matrix), which Start refuses.
  [[nodiscard]] Result<std::optional<access_specs::PtsIopsMatrix>> pts_iops() const;
  // Ticks the test with `matrix`, run in at most `max_rounds` rounds; nullopt unticks it.
  void set_pts_iops(const std::optional<access_specs::PtsIopsMatrix>& matrix, std::uint32_t max_rounds);
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
  // What the PTS IOPS test makes the other choices: locked while it is ticked, given back after.
  void apply_pts_locks(bool pts_on);
  [[nodiscard]] Result<access_specs::PtsIopsMatrix> typed_pts_matrix() const;
  void show_pts_error();
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
  QCheckBox* precondition_{};
  QSpinBox* precondition_passes_{};
  QComboBox* precondition_spec_{};
  QCheckBox* pts_{};
  QLineEdit* pts_block_sizes_{};
  QLineEdit* pts_mixes_{};
  QSpinBox* pts_max_rounds_{};
  QLabel* pts_error_{};
  // The user's steady-state choice and preconditioning while the PTS IOPS test overrides them.
  struct BeforePts {
    int steady_index{};
    bool precondition{};
  };
  std::optional<BeforePts> before_pts_;
  QLabel* preview_summary_{};
  QTableView* preview_view_{};
  RunPreviewModel* preview_{};
};

}  // namespace iomark::gui
