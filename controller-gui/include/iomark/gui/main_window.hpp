// iomark-gui's main window, laid out as IOmeter's: the topology (managers -> workers) on the
// left; Disk Targets, Network Targets, Access Specifications, Results Display and Test Setup
// tabs; a toolbar with the green Start flag; a log pane instead of modal error boxes; the run,
// its ETA and the managers in the status bar.
//
// It owns the plan document and the session (the bridge to controller_core) and wires them
// to the pages; what runs is decided by the core (plan_series, run_series), never here.
#pragma once

#include <QMainWindow>
#include <QString>
#include <QStringList>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "iomark/access_specs/run_request.hpp"
#include "iomark/gui/run_models.hpp"
#include "iomark/gui/topology_model.hpp"
#include "iomark/protocol/auth.hpp"
#include "iomark/transport/tls.hpp"

class QAction;
class QDockWidget;
class QLabel;
class QLineEdit;
class QTabWidget;
class QTableView;
class QTreeView;

namespace iomark::gui {

class AccessSpecsPage;
class DiskTargetsPage;
class ManagerFilter;
class NetworkTargetsPage;
class PlanDocument;
class ResultsPage;
class Session;
class TestSetupPage;

struct MainWindowOptions {
  // The pre-shared key agents must prove; nullopt with `insecure` runs without one.
  std::optional<protocol::AuthKey> key;
  bool insecure{false};
  // Mutual TLS with the agents (--tls-cert/--tls-key/--tls-ca); null for plain TCP.
  std::shared_ptr<const transport::TlsCredentials> tls;
  // Where agents log in ("[ADDR:]PORT"); empty: not listening until asked.
  QString listen;
  // Where Dynamo 1.1.0 logs in: "[ADDR:]PORT" a port apart from `listen`, empty the agents'
  // port; nullopt: not accepted until the Managers menu's checkbox asks.
  std::optional<QString> legacy_dynamo;
};

// What iomark-gui's command line sets over the plan: the run flags `iomark run` takes, where
// they make sense in the window (run_options' one table; see command_line.hpp). Unset fields
// leave the plan's and the pages' own.
struct RunSettings {
  std::optional<std::uint32_t> run_time_s;  // Test Setup
  std::optional<std::uint32_t> ramp_up_s;   // Test Setup
  std::optional<std::string> description;   // Test Setup
  std::optional<std::string> results_csv;   // Test Setup: results.csv each run is appended to
  std::string results_json;                 // each series' iomark JSON results; empty: none
  std::string engine;                       // empty: each agent probes (`--engine auto`)
  bool buffered{false};                     // the page cache where O_DIRECT is refused
  std::optional<std::uint64_t> test_file_bytes;  // Disk Targets: iobw.tst where the maximum size is 0
  std::optional<access_specs::SteadyStateRequest> steady_state{};  // Test Setup: the series in rounds
  std::optional<access_specs::LatencyBound> find_max_iops{};  // Test Setup: the search for the most IOPS
  std::optional<std::uint32_t> precondition_passes{};  // Test Setup: every target written whole first
  std::optional<std::string> precondition_spec{};      // Test Setup: in this spec's writes
  // Test Setup: the PTS IOPS test, in the rounds steady_state says (its tracked 4 KiB writes).
  std::optional<access_specs::PtsIopsMatrix> pts_iops{};
};

class MainWindow : public QMainWindow {
  Q_OBJECT

 public:
  explicit MainWindow(MainWindowOptions options, QWidget* parent = nullptr);
  ~MainWindow() override;

  // Applies the command line's settings over the plan opened so far (so call it after
  // open_plan(), as `iomark run PLAN --time` overrides the plan's); they hold for every later
  // series, and the pages show them.
  void apply(const RunSettings& settings);
  [[nodiscard]] const RunSettings& run_settings() const noexcept { return run_settings_; }

  // The actions behind menus and toolbar; each reports problems in the log pane.
  bool open_plan(const QString& path);
  bool save_plan(const QString& path);
  bool save_results(const QString& path);
  void start();
  void stop();
  void start_local_agent();
  void connect_agent(const QString& address);
  // Accepts Dynamo 1.1.0 logins on `address` ("[ADDR:]PORT"; empty: on the agents' port), as
  // the Managers menu's checkbox does, warning once that the legacy protocol has no
  // authentication.
  void accept_legacy_dynamo(const QString& address);
  void stop_legacy_dynamo();
  void add_worker();
  // Adds a network (TCP) worker to the selected manager and selects it; its partner is
  // ticked on the Network Targets tab.
  void add_network_worker();
  void remove_selected();
  void disconnect_selected();
  // Selects a row of the topology (a manager, or one of its workers), when the filter shows it.
  void select(const TopologyModel::Position& position);
  // Shows only the managers whose name contains `text` in the topology (its filter box's
  // text); the row selected stays selected, or is selected again when it shows again.
  void set_manager_filter(const QString& text);
  // Adds a view of results (a chart) to the Charts tab, which appears with the first one.
  void add_chart(QWidget* chart, const QString& title);
  // Brings a chart added with add_chart() to the front.
  void show_chart(QWidget* chart);

  [[nodiscard]] PlanDocument& document() noexcept { return *document_; }
  [[nodiscard]] Session& session() noexcept { return *session_; }
  [[nodiscard]] ResultsPage& results_page() noexcept { return *results_page_; }
  [[nodiscard]] TestSetupPage& test_setup_page() noexcept { return *setup_page_; }
  [[nodiscard]] DiskTargetsPage& disk_targets_page() noexcept { return *targets_page_; }
  [[nodiscard]] NetworkTargetsPage& network_targets_page() noexcept { return *network_page_; }
  [[nodiscard]] AccessSpecsPage& access_specs_page() noexcept { return *specs_page_; }
  [[nodiscard]] LogModel& log() noexcept { return *log_; }
  [[nodiscard]] TopologyModel& topology() noexcept { return *topology_; }
  // The topology as shown: filtered, opened fully up to the Results Display's expand limit.
  [[nodiscard]] const QTreeView& topology_view() const noexcept { return *topology_view_; }
  [[nodiscard]] QTabWidget& tabs() noexcept { return *tabs_; }

 protected:
  void closeEvent(QCloseEvent* event) override;

 private:
  void build_actions();
  void build_menus_and_toolbar();
  void refresh_topology();
  void selection_changed();
  void adopt_new_managers();
  void update_title();
  void update_actions();
  // The plan manager the selected topology row stands for (adding it to the plan when it is
  // a connected manager the plan does not have yet, with the one worker that brings).
  [[nodiscard]] std::optional<std::size_t> selected_plan_manager();
  // The plan worker a topology row stands for: its own, or a client's server.
  [[nodiscard]] std::optional<PlanWorkerIndex> plan_worker(const TopologyModel::Position& position) const;
  void report(Severity severity, const QString& text);
  // Paths the embedded agent must be allowed before the plan can run on it; empty when it
  // already may touch every device and file of the plan's managers it runs.
  [[nodiscard]] std::vector<std::string> embedded_paths_missing() const;
  [[nodiscard]] std::optional<TopologyModel::Position> selected() const;
  bool maybe_save();

  bool authenticated_{false};  // a key, or --insecure, was given
  RunSettings run_settings_;   // the engine, buffering and JSON path every series uses
  PlanDocument* document_{};
  Session* session_{};
  LogModel* log_{};
  TopologyModel* topology_{};
  ManagerFilter* topology_filter_{};
  QLineEdit* topology_filter_box_{};
  QTreeView* topology_view_{};
  QTabWidget* tabs_{};
  DiskTargetsPage* targets_page_{};
  NetworkTargetsPage* network_page_{};
  AccessSpecsPage* specs_page_{};
  ResultsPage* results_page_{};
  TestSetupPage* setup_page_{};
  QTabWidget* charts_{};  // the Charts tab, once a chart is added
  QDockWidget* log_dock_{};
  QTableView* log_view_{};
  QLabel* run_status_{};
  QLabel* managers_status_{};
  std::optional<TopologyModel::Position> last_selection_;
  bool start_when_ready_{false};
  bool warned_legacy_dynamo_{false};
  QString legacy_dynamo_address_;  // offered when the checkbox is ticked; empty: the agents' port

  QAction* new_{};
  QAction* open_{};
  QAction* save_{};
  QAction* save_as_{};
  QAction* save_results_{};
  QAction* quit_{};
  QAction* start_{};
  QAction* stop_{};
  QAction* local_agent_{};
  QAction* connect_{};
  QAction* listen_{};
  QAction* legacy_dynamo_{};
  QAction* disconnect_{};
  QAction* add_worker_{};
  QAction* add_network_worker_{};
  QAction* remove_{};
};

}  // namespace iomark::gui
