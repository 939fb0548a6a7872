#include "iomark/gui/session.hpp"

#include <QMetaObject>
#include <QTimer>
#include <mutex>
#include <utility>

#include "iomark/controller/embedded_agent.hpp"
#include "iomark/results/durable_append.hpp"
#include "iomark/series_outputs/series_outputs.hpp"
#include "iomark/controller/observer_fanout.hpp"
#include "iomark/history/history.hpp"
#include "iomark/results/results_csv.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/transport/host_port.hpp"
#include "iomark/transport/session_config.hpp"

namespace iomark::gui {

namespace {

QString text_of(const Error& error) { return QString::fromStdString(error.describe()); }

}  // namespace

Result<void> write_results_file(const results::SeriesResults& series, const std::string& path) {
  if (path.ends_with(".json")) return results::replace_durably(path, results::write_results_json(series));
  results::ResultsCsvAppender appender;
  auto text = appender.begin_series(series.info);
  for (const auto& run : series.runs) text += appender.append_run(run);
  text += appender.end_series(series.outcome);
  return results::replace_durably(path, text);
}

// The registry's events, called on its login thread or on the thread that added a manager:
// posted to the UI thread, where the list of managers is read again from the registry.
class Session::Events final : public controller::ManagerEvents {
 public:
  explicit Events(Session& session) : session_(session) {}

  void manager_joined(const controller::ManagerLink& link) override {
    const auto text = QStringLiteral("manager '%1' joined (%2)")
                          .arg(QString::fromStdString(link.name()), QString::fromStdString(link.peer().endpoint));
    QMetaObject::invokeMethod(
        &session_,
        [session = &session_, text] {
          session->refresh_managers();
          emit session->message(Severity::info, text);
        },
        Qt::QueuedConnection);
  }

  void manager_refused(const Error& error) override {
    const auto text = QStringLiteral("refused: %1").arg(text_of(error));
    QMetaObject::invokeMethod(
        &session_, [session = &session_, text] { emit session->message(Severity::warning, text); },
        Qt::QueuedConnection);
  }

 private:
  Session& session_;
};

// The series runner's observer, called on the series thread: figures are computed there and
// posted to the UI thread as plain values.
class Session::Observer final : public controller::SeriesObserver {
 public:
  explicit Observer(Session& session) : session_(session) {}

  void notice(const std::string& message) override {
    post([text = QString::fromStdString(message)](Session& session) { emit session.message(Severity::info, text); });
  }

  void run_started(std::size_t index, std::size_t count, const controller::RunPlan& run) override {
    post([index, count, label = QString::fromStdString(run.label)](Session& session) {
      emit session.run_started(index, count, label);
    });
  }

  [[nodiscard]] bool wants_snapshot() const override { return true; }

  void live(const controller::LiveFigures& figures) override {
    LiveUpdate update{figures.run_index,
                      figures.run_count,
                      figures.run != nullptr ? figures.run->label : std::string(),
                      figures.phase,
                      figures.elapsed_s,
                      figures.phase_s,
                      figures.remaining_s,
                      {},
                      figures.preparing};
    if (figures.phase != controller::LivePhase::preparing) {
      update.rows = figure_rows(figures.snapshot, results::summarize_run(figures.snapshot));
    }
    {
      const std::lock_guard lock(latest_->mutex);
      const bool already_posted = latest_->update.has_value();
      latest_->update = std::move(update);
      if (already_posted) return;  // the UI thread takes this one in its place
    }
    post([latest = latest_](Session& session) {
      std::optional<LiveUpdate> newest;
      {
        const std::lock_guard lock(latest->mutex);
        newest.swap(latest->update);
      }
      if (newest) emit session.live(*newest);
    });
  }

  void run_finished(std::size_t index, const results::RunResults& run, const results::RunSummary& summary) override {
    // At 256 managers x 16 workers a run holds 64 MB of histograms and its summary twice
    // that: the run is copied here, on the series thread, and moved on the UI thread; the
    // summary is shared with this observer, so that it is freed here too (with the next run,
    // or when the series ends), not on the UI thread.
    auto shared = std::make_shared<const results::RunSummary>(summary);
    kept_summary_ = shared;
    post([index, finished = run, shared](Session& session) mutable {  // `finished` is not const: it can move
      session.last_results_.runs.push_back(std::move(finished));
      emit session.run_finished(index, session.last_results_.runs.back(), *shared);
    });
  }

  void round_judged(const controller::SteadyStateProgress& progress) override {
    post([rounds = controller::steady_state_record(progress)](Session& session) {
      session.last_results_.steady_state = rounds;
      emit session.round_judged(rounds);
    });
  }

  void search_step(const results::MaxIopsRecord& search) override {
    post([search](Session& session) {
      session.last_results_.max_iops_search = search;
      emit session.search_step(search);
    });
  }

 private:
  // The live update posted to the UI thread and not taken yet.
  struct LatestUpdate {
    std::mutex mutex;
    std::optional<LiveUpdate> update;
  };

  template <typename Action>
  void post(Action action) {
    QMetaObject::invokeMethod(
        &session_, [session = &session_, action = std::move(action)]() mutable { action(*session); },
        Qt::QueuedConnection);
  }

  Session& session_;
  std::shared_ptr<LatestUpdate> latest_ = std::make_shared<LatestUpdate>();
  std::shared_ptr<const results::RunSummary> kept_summary_;
};

Session::Session(controller::RegistryOptions options, QObject* parent)
    : QObject(parent),
      events_(std::make_unique<Events>(*this)),
      registry_(std::make_unique<controller::ManagerRegistry>(std::move(options), *events_)) {
  // A lost connection shows only when someone looks: look every two seconds.
  auto* watch = new QTimer(this);
  connect(watch, &QTimer::timeout, this, &Session::refresh_managers);
  watch->start(2000);
}

Session::~Session() {
  series_thread_ = {};  // requests the stop and waits: the runner aborts the run in progress
  helpers_.clear();
}

void Session::listen(const QString& address) {
  auto parsed = transport::parse_listen_address(address.toStdString(), "0.0.0.0");
  if (!parsed) {
    emit message(Severity::error, QStringLiteral("listen on %1: %2").arg(address, text_of(parsed.error())));
    return;
  }
  auto endpoint = registry_->listen(*parsed);
  if (!endpoint) {
    emit message(Severity::error, QStringLiteral("cannot listen for agents on %1: %2").arg(address, text_of(endpoint.error())));
    return;
  }
  listening_ = QString::fromStdString(*endpoint);
  emit message(Severity::info, QStringLiteral("listening for agents on %1").arg(listening_));
  emit listening_changed(listening_);
}

void Session::stop_listening() {
  registry_->stop_listening();
  listening_.clear();
  emit listening_changed(listening_);
}

bool Session::accept_dynamo(const QString& address) {
  // A new address replaces the old one.
  registry_->hand_legacy_logins_to({});
  dynamo_.reset();
  auto acceptor = controller::accept_dynamo_logins(address.toStdString(), *registry_, *events_);
  if (!acceptor) {
    dynamo_endpoint_.clear();
    emit message(Severity::error,
                 QStringLiteral("cannot accept Dynamo logins on %1: %2").arg(address, text_of(acceptor.error())));
    emit dynamo_changed(dynamo_endpoint_);
    return false;
  }
  dynamo_ = std::move(*acceptor);
  dynamo_endpoint_ = QString::fromStdString(dynamo_->endpoint());
  emit message(Severity::info, QStringLiteral("accepting Dynamo 1.1.0 logins on %1").arg(dynamo_endpoint_));
  emit dynamo_changed(dynamo_endpoint_);
  return true;
}

void Session::stop_accepting_dynamo() {
  if (!dynamo_) return;
  registry_->hand_legacy_logins_to({});  // refused from now on, naming why
  dynamo_.reset();
  dynamo_endpoint_.clear();
  emit message(Severity::info, QStringLiteral("stopped accepting Dynamo logins"));
  emit dynamo_changed(dynamo_endpoint_);
}

void Session::dial(const QString& address) {
  auto parsed = transport::parse_host_port(address.toStdString(), transport::kDefaultPort);
  if (!parsed) {
    emit message(Severity::error, QStringLiteral("connect to %1: %2").arg(address, text_of(parsed.error())));
    emit request_done(false);
    return;
  }
  emit message(Severity::info, QStringLiteral("connecting to %1 ...").arg(address));
  spawn([this, peer = *parsed, address](std::stop_token stop) {
    auto dialled = registry_->dial(peer, stop);
    QMetaObject::invokeMethod(
        this,
        [this, address, error = dialled ? std::optional<Error>() : std::optional<Error>(dialled.error())] {
          if (error) emit message(Severity::error, QStringLiteral("connect to %1: %2").arg(address, text_of(*error)));
          emit request_done(!error);
        },
        Qt::QueuedConnection);
  });
}

void Session::start_embedded_agent(std::vector<std::string> allowed_paths) {
  if (running_) {
    emit message(Severity::warning, tr("the local agent cannot be restarted while a series runs"));
    emit request_done(false);
    return;
  }
  for (std::size_t index = managers_.size(); index-- > 0;) {
    if (managers_[index].embedded()) registry_->remove(index);
  }
  refresh_managers();
  spawn([this, paths = std::move(allowed_paths)](std::stop_token) {
    auto added = controller::add_embedded_agent(*registry_, paths);
    QMetaObject::invokeMethod(
        this,
        [this, error = added ? std::optional<Error>() : std::optional<Error>(added.error())] {
          if (error) emit message(Severity::error, QStringLiteral("local agent: %1").arg(text_of(*error)));
          emit request_done(!error);
        },
        Qt::QueuedConnection);
  });
}

void Session::disconnect_manager(std::size_t index) {
  if (running_) {
    emit message(Severity::warning, tr("managers cannot be disconnected while a series runs; stop it first"));
    return;
  }
  if (index >= managers_.size()) return;
  const auto name = QString::fromStdString(managers_[index].name);
  registry_->remove(index);
  refresh_managers();
  emit message(Severity::info, QStringLiteral("manager '%1' disconnected").arg(name));
}

std::vector<controller::ManagerLink*> Session::links() const { return registry_->links(); }

Result<void> Session::start_series(controller::SeriesPlan series, std::string csv_path, SeriesOutputs outputs) {
  if (running_) return fail(ErrorCode::invalid_argument, "a series is already running");
  auto planned = std::make_unique<controller::SeriesPlan>(std::move(series));
  auto opened = series_outputs::SeriesOutputs::open({outputs.history_database, outputs.metrics_listen}, *planned);
  if (!opened) return fail(opened.error());
  if (const auto address = (*opened)->metrics_address()) {
    emit message(Severity::info, QStringLiteral("live metrics at http://%1/metrics").arg(QString::fromStdString(*address)));
  }
  series_ = std::move(planned);
  outputs_ = std::move(*opened);
  recorder_ = std::make_unique<controller::ResultsRecorder>(std::move(csv_path), outputs.results_json);
  last_results_ = results::SeriesResults{.info = series_->info,
                                         .plan = series_->plan,
                                         .runs = {},
                                         .outcome = results::SeriesOutcome::in_progress,
                                         .precondition = series_->precondition,
                                         .pts_iops = series_->pts_iops};
  running_ = true;
  emit series_started(series_->runs.size());
  series_thread_ = std::jthread([this, links = registry_->links()](std::stop_token stop) {
    Observer observer(*this);
    controller::ObserverFanout observers;
    observers.add(observer);
    outputs_->add_to(observers);
    auto outcome = runner_ ? runner_(links, *series_, observers, *recorder_, stop)
                           : controller::run_series(links, *series_, observers, *recorder_, stop);
    QMetaObject::invokeMethod(
        this, [this, outcome = std::move(outcome)]() mutable { finish_series(std::move(outcome)); },
        Qt::QueuedConnection);
  });
  return {};
}

void Session::set_series_runner(SeriesRunner runner) {
  if (!running_) runner_ = std::move(runner);
}

void Session::stop_series() {
  if (running_) series_thread_.request_stop();
}

void Session::finish_series(controller::SeriesOutcome outcome) {
  series_thread_ = {};  // already done: joins at once
  running_ = false;
  last_results_.outcome = outcome.outcome;
  // The outcome's record is the search as it ended, even one stopped before its first step,
  // which no search_step() reported: Save Results As keeps its bound.
  if (outcome.max_iops_search) last_results_.max_iops_search = std::move(outcome.max_iops_search);
  if (const auto recorded = outputs_ ? outputs_->recorded() : std::nullopt) {
    emit message(Severity::info, QStringLiteral("%1 run(s) recorded in the history %2")
                                     .arg(*recorded)
                                     .arg(QString::fromStdString(outputs_->history_database())));
    if (const auto failed = outputs_->history_error()) {
      emit message(Severity::warning, QStringLiteral("the history could not record every run: %1").arg(text_of(*failed)));
    }
  }
  outputs_.reset();  // closes the history and stops serving metrics
  const auto error = outcome.error ? text_of(*outcome.error) : QString();
  const bool stopped_by_user = outcome.stop_cause == controller::StopCause::stop_requested;
  if (series_->pts_iops) emit pts_iops_finished(controller::pts_iops_table(outcome, *series_->pts_iops));
  emit series_finished(outcome.outcome, error, stopped_by_user);
}

void Session::refresh_managers() {
  std::vector<LiveManager> managers;
  for (const auto* link : registry_->links()) {
    managers.push_back({link->name(), link->peer().endpoint, link->peer().build, link->inventory(), link->is_open()});
  }
  if (managers == managers_) return;
  managers_ = std::move(managers);
  emit managers_changed();
}

void Session::spawn(std::function<void(std::stop_token)> work) {
  helpers_.emplace_back(std::move(work));
}

}  // namespace iomark::gui
