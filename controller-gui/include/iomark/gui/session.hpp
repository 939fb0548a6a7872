// The bridge between controller_core and the UI thread: it owns the manager registry
// (agents logging in, agents dialled, the embedded agent) and the thread a series runs on,
// and turns every core event into a signal emitted on the UI thread. Nothing here blocks the
// UI thread: dialling, starting the embedded agent and running a series happen on threads of
// their own, whose events are posted back (queued) to this object.
//
// Threading: create, call and destroy on the UI thread. Its signals are emitted on the UI
// thread. Destruction stops a running series (abort within about a second), then closes
// every manager.
#pragma once

#include <QObject>
#include <QString>
#include <cstddef>
#include <memory>
#include <functional>
#include <optional>
#include <stop_token>
#include <string>
#include <thread>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/dynamo_adapter/dynamo_acceptor.hpp"
#include "iomark/controller/manager_registry.hpp"
#include "iomark/controller/series_runner.hpp"
#include "iomark/gui/managers.hpp"
#include "iomark/gui/run_models.hpp"
#include "iomark/results/run_results.hpp"

namespace iomark::series_outputs {
class SeriesOutputs;
}

namespace iomark::gui {

// What the Results Display and the status bar show while a run goes on.
struct LiveUpdate {
  std::size_t run_index{};  // 0-based
  std::size_t run_count{};
  std::string label;  // "'Database' QD 4"
  controller::LivePhase phase{controller::LivePhase::ramp_up};
  double elapsed_s{};
  double phase_s{};
  double remaining_s{};
  std::vector<FigureRow> rows;  // ALL, managers, workers, targets from the latest samples
  controller::PrepareFigures preparing{};  // while phase is preparing
};

// Writes `series` to `path`, replacing it: iomark's JSON when the name ends in ".json",
// otherwise IOmeter's results.csv (1.1.0 layout).
[[nodiscard]] Result<void> write_results_file(const results::SeriesResults& series, const std::string& path);

// Where a series goes besides results.csv (`iomark run --history` and `--metrics-listen`).
struct SeriesOutputs {
  std::string history_database;  // the SQLite run history; empty: none
  std::string metrics_listen;    // "[ADDR:]PORT" to serve Prometheus metrics on; empty: none
  std::string results_json{};    // iomark JSON results, brought up to date after every run; empty: none
};

// What runs a series on the session's series thread, reporting through the observer from
// that thread: controller::run_series unless set_series_runner() says otherwise.
using SeriesRunner = std::function<controller::SeriesOutcome(
    const std::vector<controller::ManagerLink*>& links, const controller::SeriesPlan& series,
    controller::SeriesObserver& observer, controller::ResultsRecorder& recorder, std::stop_token stop)>;

class Session : public QObject {
  Q_OBJECT

 public:
  explicit Session(controller::RegistryOptions options, QObject* parent = nullptr);
  ~Session() override;

  // The registered managers, in the registry's order (the indices disconnect() takes).
  [[nodiscard]] const std::vector<LiveManager>& managers() const noexcept { return managers_; }
  [[nodiscard]] bool series_running() const noexcept { return running_; }
  // "0.0.0.0:1066" while listening, else empty.
  [[nodiscard]] const QString& listening() const noexcept { return listening_; }
  // "0.0.0.0:1067" while Dynamo 1.1.0 logins are accepted, else empty.
  [[nodiscard]] const QString& accepting_dynamo() const noexcept { return dynamo_endpoint_; }
  // The series last run (or running): what "Save results as" writes.
  [[nodiscard]] const results::SeriesResults& last_results() const noexcept { return last_results_; }

  // Accepts agents logging in on `address` ("[ADDR:]PORT"; port 0 picks one). Failures and
  // refused logins are reported through message().
  void listen(const QString& address);
  void stop_listening();
  // Accepts Dynamo 1.1.0 logins on `address` ("[ADDR:]PORT"; port 0 picks one), a port of
  // their own, or, when `address` is empty, on the agents' port (listen()'s, now or later):
  // each Dynamo becomes a manager like any other. False, with a message, when the address is
  // bad or taken. The legacy protocol has no authentication (the caller warns).
  bool accept_dynamo(const QString& address);
  // Stops accepting Dynamo logins; the Dynamos already registered stay.
  void stop_accepting_dynamo();
  // Dials an agent started with --listen ("HOST[:PORT]") on a thread of its own.
  void dial(const QString& address);
  // Starts the in-process agent, allowed to touch `allowed_paths` (and the test files it
  // creates), on a thread of its own. A running embedded agent is replaced, so that it can be
  // given paths it was not allowed before.
  void start_embedded_agent(std::vector<std::string> allowed_paths);
  // Closes the manager at `index` (not while a series runs).
  void disconnect_manager(std::size_t index);

  // Runs `series` on the registered managers; each run is appended to `csv_path` (IOmeter's
  // results.csv; empty: none) as it completes, and recorded in the run history and served as
  // live metrics when `outputs` says so. Fails when a series is already running, or when the
  // history cannot be opened or the metrics address cannot be listened on.
  [[nodiscard]] Result<void> start_series(controller::SeriesPlan series, std::string csv_path,
                                          SeriesOutputs outputs = {});
  // Replaces what start_series() runs (not while a series runs). The GUI tests put a stand-in
  // here that feeds the observer the events of a large fleet (tests/gui/fleet_feeder.hpp).
  void set_series_runner(SeriesRunner runner);
  // Asks the running series to stop; series_finished() follows.
  void stop_series();
  // The registry's links, for plan_series() on the UI thread (while no series runs).
  [[nodiscard]] std::vector<controller::ManagerLink*> links() const;

 signals:
  void managers_changed();
  void listening_changed(const QString& endpoint);
  void dynamo_changed(const QString& endpoint);  // empty: no longer accepting Dynamo logins
  void message(iomark::gui::Severity severity, const QString& text);
  // A request this session made finished (dial, embedded agent); `ok` says how.
  void request_done(bool ok);
  void series_started(std::size_t run_count);
  void run_started(std::size_t index, std::size_t count, const QString& label);
  // The latest live figures. When the UI thread falls behind, an update it has not taken yet
  // is replaced by the newer one rather than queued behind it: it never works off a backlog.
  void live(const iomark::gui::LiveUpdate& update);
  void run_finished(std::size_t index, const iomark::results::RunResults& run,
                    const iomark::results::RunSummary& summary);
  // A round of a steady-state series was judged (controller::SeriesObserver::round_judged):
  // every round so far and the verdict, as the results keep them; also last_results()'s.
  void round_judged(const iomark::results::SteadyStateRecord& rounds);
  // A run of a --find-max-iops search ended (controller::SeriesObserver::search_step): every
  // step so far, the chosen one and the conclusion; also last_results()'s until the series
  // ends, when the outcome's record replaces it.
  void search_step(const iomark::results::MaxIopsRecord& search);
  // A PTS IOPS series (SeriesPlan::pts_iops) ended, even cut short: its table
  // (controller::pts_iops_table on the outcome), emitted just before series_finished().
  void pts_iops_finished(const iomark::results::PtsIopsTable& table);
  // `error` is empty when every run completed; `stopped_by_user` says the series ended
  // because stop_series() asked it to (controller::StopCause), not because something failed.
  void series_finished(iomark::results::SeriesOutcome outcome, const QString& error, bool stopped_by_user);

 private:
  class Events;
  class Observer;

  void refresh_managers();
  // Runs `work` on a thread of its own that this session joins before it goes.
  void spawn(std::function<void(std::stop_token)> work);
  void finish_series(controller::SeriesOutcome outcome);

  std::unique_ptr<Events> events_;
  std::unique_ptr<controller::ManagerRegistry> registry_;
  std::unique_ptr<controller::DynamoAcceptor> dynamo_;  // after registry_: stops first
  std::vector<LiveManager> managers_;
  QString listening_;
  QString dynamo_endpoint_;
  bool running_{false};
  results::SeriesResults last_results_;
  std::unique_ptr<controller::SeriesPlan> series_;  // read by the series thread while it runs
  std::unique_ptr<controller::ResultsRecorder> recorder_;
  SeriesRunner runner_;
  std::unique_ptr<series_outputs::SeriesOutputs> outputs_;  // the history and metrics of the running series
  std::jthread series_thread_;
  std::vector<std::jthread> helpers_;  // dialling, starting the embedded agent
};

}  // namespace iomark::gui
