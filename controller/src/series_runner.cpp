#include "iomark/controller/series_runner.hpp"

#include <chrono>
#include <cmath>
#include <cstdio>
#include <map>
#include <set>
#include <thread>
#include <tuple>

#include "iomark/results/durable_append.hpp"
#include "iomark/results/results_csv.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/results/wall_clock.hpp"

namespace iomark::controller {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

constexpr auto kPollEvery = 50ms;
constexpr auto kLiveEvery = 1s;
// Preparing a multi-terabyte test file can take hours; a hung agent is still caught by the
// connection's dead-peer deadline.
constexpr auto kPrepareTimeout = std::chrono::hours(48);

Nanoseconds ns(Clock::duration duration) { return std::chrono::duration_cast<Nanoseconds>(duration); }

// Live figures from the latest sample of every manager in the run, and the count of samples
// that never arrived (each manager numbers its samples 1, 2, 3... per run). Only one merged
// histogram per manager is kept: with 64 managers of 16 workers, whole samples would hold
// a thousand histograms.
class LiveAggregate {
 public:
  void add(std::size_t manager, const protocol::Sample& sample) {
    ++received_;
    auto& latest = latest_[manager];
    if (sample.sequence > latest.sequence + 1) lost_ += sample.sequence - latest.sequence - 1;
    latest.sequence = sample.sequence;
    latest.seconds = std::chrono::duration<double>(sample.interval).count();
    latest.ios = 0;
    latest.bytes = 0;
    latest.latency.clear();
    for (const auto& worker : sample.workers) {
      for (const auto& target : worker.targets) {
        latest.ios += target.counters.io_count();
        latest.bytes += target.counters.bytes_read + target.counters.bytes_written;
        latest.latency.merge(target.counters.latency);
      }
    }
  }
  void clear() { latest_.clear(); }
  [[nodiscard]] std::uint64_t received() const noexcept { return received_; }
  [[nodiscard]] std::uint64_t lost() const noexcept { return lost_; }

  void fill(LiveFigures& figures) const {
    std::uint64_t ios = 0;
    double iops = 0;
    double bytes_per_s = 0;
    LatencyHistogram latency;
    for (const auto& [manager, latest] : latest_) {
      if (latest.seconds <= 0) continue;
      ios += latest.ios;
      iops += static_cast<double>(latest.ios) / latest.seconds;
      bytes_per_s += static_cast<double>(latest.bytes) / latest.seconds;
      latency.merge(latest.latency);
    }
    figures.iops = iops;
    figures.mb_per_s = bytes_per_s / 1e6;
    figures.average_ms = ios == 0 ? 0.0 : static_cast<double>(latency.sum_ns()) / static_cast<double>(ios) / 1e6;
    figures.p99_ms = static_cast<double>(latency.percentile(99).count()) / 1e6;
  }

 private:
  struct Latest {
    std::uint64_t sequence{};
    double seconds{};
    std::uint64_t ios{};
    std::uint64_t bytes{};
    LatencyHistogram latency;
  };
  std::map<std::size_t, Latest> latest_;
  std::uint64_t received_{};
  std::uint64_t lost_{};
};

class RunDriver {
 public:
  RunDriver(const std::vector<ManagerLink*>& links, const SeriesPlan& series, SeriesObserver& observer,
            ResultsRecorder& recorder, std::stop_token stop)
      : links_(links), series_(series), observer_(observer), recorder_(recorder), stop_(std::move(stop)) {}

  [[nodiscard]] std::uint64_t samples_received() const noexcept { return live_.received(); }
  [[nodiscard]] std::uint64_t samples_lost() const noexcept { return live_.lost(); }

  // Drives `plan` (series run `index`, possibly without managers lost earlier).
  Result<results::RunResults> run(const RunPlan& plan, std::size_t index, std::uint64_t run_id) {
    figures_ = LiveFigures{index, series_.runs.size(), &plan, LivePhase::preparing};
    live_.clear();
    latest_results_.clear();
    errors_noticed_.clear();
    run_plan_ = &plan;
    if (auto prepared = prepare(plan); !prepared) return fail(prepared.error());
    for (const auto& manager : plan.managers) {
      auto assignment = manager.assignment;
      assignment.run_id = run_id;
      if (auto sent = expect_ack(manager.manager, std::move(assignment)); !sent) return fail(sent.error());
    }
    for (auto phase : {protocol::Phase::start, protocol::Phase::begin_io}) {
      if (auto done = command_all(plan, run_id, phase); !done) return fail(done.error());
    }
    if (auto waited = wait(plan, LivePhase::ramp_up, series_.ramp_up_s); !waited) return fail(waited.error());
    if (auto done = command_all(plan, run_id, protocol::Phase::record_on); !done) return fail(done.error());
    results::RunResults run{plan.info, {}};
    run.info.start_time = results::wall_clock_now();
    if (auto waited = wait(plan, LivePhase::recording, series_.run_time_s); !waited) return fail(waited.error());
    if (auto done = command_all(plan, run_id, protocol::Phase::record_off); !done) return fail(done.error());
    run.info.end_time = results::wall_clock_now();
    // Stopped all at once, like the other phases; the final results are then read in order.
    std::vector<std::uint64_t> stops;
    for (const auto& manager : plan.managers) {
      auto id = links_[manager.manager]->send(protocol::PhaseCommand{run_id, protocol::Phase::stop});
      if (!id) return fail(id.error());
      stops.push_back(*id);
    }
    for (std::size_t i = 0; i < plan.managers.size(); ++i) {
      const auto& manager = plan.managers[i];
      auto reply = links_[manager.manager]->await_reply(stops[i], "phase_command", ns(kReplyTimeout),
                                                        push_handler(manager.manager));
      if (!reply) return fail(reply.error());
      const auto* final_results = std::get_if<protocol::FinalResults>(&*reply);
      if (final_results == nullptr) return fail(unexpected(manager.manager, *reply, "final results"));
      auto result = manager_result(manager, final_results->workers, final_results->cpus, final_results->network);
      if (!result) return fail(result.error());
      run.managers.push_back(std::move(*result));
    }
    return run;
  }

  // Best effort: tells every manager of the run that is still connected to stop its I/O now.
  void abort(const RunPlan& plan, std::uint64_t run_id) {
    run_plan_ = nullptr;
    for (const auto& manager : plan.managers) {
      if (!links_[manager.manager]->is_open()) continue;
      (void)links_[manager.manager]->request(protocol::PhaseCommand{run_id, protocol::Phase::abort}, ns(5s));
    }
  }

 private:
  PushHandler push_handler(std::size_t manager) {
    return [this, manager](const protocol::Message& message) {
      const auto* sample = std::get_if<protocol::Sample>(&message);
      if (sample == nullptr) return;
      live_.add(manager, *sample);
      if (observer_.wants_snapshot() && run_plan_ != nullptr) keep_for_snapshot(manager, *sample);
      if (sample->phase != protocol::SamplePhase::recording || run_plan_ == nullptr) return;
      for (const auto& planned : run_plan_->managers) {
        if (planned.manager != manager) continue;
        notice_errors(planned, *sample);
        if (!recorder_.records_samples()) continue;
        // A sample naming what was never assigned is left out; the final results report it.
        auto counters = manager_result(planned, sample->workers, sample->cpus, sample->network);
        if (!counters) continue;
        results::RunResults interval{run_plan_->info, {}};
        interval.managers.push_back(std::move(*counters));
        recorder_.record_sample(interval, results::wall_clock_now());
      }
    };
  }

  // I/O errors are counted and the run goes on (as IOmeter does); the first interval in
  // which a target fails I/Os is reported at once, naming the manager, worker and target.
  void notice_errors(const ManagerRun& planned, const protocol::Sample& sample) {
    for (const auto& worker : sample.workers) {
      for (const auto& target : worker.targets) {
        const auto errors = target.counters.error_count();
        if (errors == 0 || !errors_noticed_.insert({planned.manager, worker.worker_index, target.target_index}).second) {
          continue;
        }
        if (worker.worker_index >= planned.assignment.workers.size()) continue;
        const auto& assigned = planned.assignment.workers[worker.worker_index];
        const auto path = target.target_index < assigned.targets.size() ? assigned.targets[target.target_index].path
                                                                         : std::string("?");
        char seconds[32];
        std::snprintf(seconds, sizeof seconds, "%.1f", std::chrono::duration<double>(sample.interval).count());
        observer_.notice(links_[planned.manager]->peer().describe() + ": " + assigned.name + " on " + path + ": " +
                         std::to_string(errors) + " I/O errors in " + seconds +
                         " s (counted in the error columns; the run goes on)");
      }
    }
  }

  Error unexpected(std::size_t manager, const protocol::Message& message, std::string_view wanted) const {
    return Error(ErrorCode::parse_error, links_[manager]->peer().describe() + ": sent " +
                                             std::string(protocol::message_name(message)) + " instead of " +
                                             std::string(wanted));
  }

  Result<void> expect_ack(std::size_t manager, protocol::Message request,
                          Nanoseconds timeout = ns(kReplyTimeout)) {
    auto reply = links_[manager]->request(std::move(request), timeout, push_handler(manager));
    if (!reply) return fail(reply.error());
    if (!std::holds_alternative<protocol::Ack>(*reply)) return fail(unexpected(manager, *reply, "an acknowledgement"));
    return {};
  }

  // Sends the phase to every manager before awaiting any acknowledgement, so all managers
  // change phase together rather than one round trip after another.
  Result<void> command_all(const RunPlan& plan, std::uint64_t run_id, protocol::Phase phase) {
    std::vector<std::uint64_t> ids;
    for (const auto& manager : plan.managers) {
      auto id = links_[manager.manager]->send(protocol::PhaseCommand{run_id, phase});
      if (!id) return fail(id.error());
      ids.push_back(*id);
    }
    for (std::size_t i = 0; i < plan.managers.size(); ++i) {
      const auto manager = plan.managers[i].manager;
      auto reply = links_[manager]->await_reply(ids[i], "phase_command", ns(kReplyTimeout), push_handler(manager));
      if (!reply) return fail(reply.error());
      if (!std::holds_alternative<protocol::Ack>(*reply)) return fail(unexpected(manager, *reply, "an acknowledgement"));
    }
    return {};
  }

  Result<void> prepare(const RunPlan& plan) {
    for (const auto& manager : plan.managers) {
      if (manager.prepare.empty()) continue;
      observer_.notice("preparing test files on " + links_[manager.manager]->peer().describe());
      auto last_live = Clock::time_point{};
      auto reply = links_[manager.manager]->request(
          protocol::PrepareTargets{manager.prepare}, ns(kPrepareTimeout), [&](const protocol::Message& message) {
            const auto* progress = std::get_if<protocol::PrepareProgress>(&message);
            if (progress == nullptr || Clock::now() - last_live < kLiveEvery) return;
            last_live = Clock::now();
            figures_.phase = LivePhase::preparing;
            figures_.elapsed_s = static_cast<double>(progress->bytes_done);
            figures_.phase_s = static_cast<double>(progress->bytes_total);
            observer_.live(figures_);
          });
      if (!reply) return fail(reply.error());
      if (!std::holds_alternative<protocol::Ack>(*reply)) {
        return fail(unexpected(manager.manager, *reply, "an acknowledgement"));
      }
    }
    return {};
  }

  // Lets a phase run for `seconds`, taking in samples and reporting live figures.
  Result<void> wait(const RunPlan& plan, LivePhase phase, std::uint32_t seconds) {
    const auto start = Clock::now();
    const auto end = start + std::chrono::seconds(seconds);
    auto next_live = start + kLiveEvery;
    figures_.phase = phase;
    figures_.phase_s = seconds;
    while (Clock::now() < end) {
      if (stop_.stop_requested()) return fail(ErrorCode::io_error, "stopped by the user");
      for (const auto& manager : plan.managers) {
        if (auto polled = links_[manager.manager]->poll(push_handler(manager.manager)); !polled) return polled;
      }
      if (Clock::now() >= next_live) {
        next_live += kLiveEvery;
        figures_.elapsed_s = std::chrono::duration<double>(Clock::now() - start).count();
        const double per_run = series_.ramp_up_s + series_.run_time_s;
        const double left_in_run = phase == LivePhase::ramp_up
                                       ? series_.ramp_up_s - figures_.elapsed_s + series_.run_time_s
                                       : series_.run_time_s - figures_.elapsed_s;
        figures_.remaining_s =
            left_in_run + per_run * static_cast<double>(figures_.run_count - figures_.run_index - 1);
        live_.fill(figures_);
        if (observer_.wants_snapshot()) figures_.snapshot = snapshot(plan);
        observer_.live(figures_);
        if (auto flushed = recorder_.flush_samples(); !flushed) return flushed;
      }
      std::this_thread::sleep_for(std::min<Clock::duration>(kPollEvery, end - Clock::now()));
    }
    return {};
  }

  void keep_for_snapshot(std::size_t manager, const protocol::Sample& sample) {
    for (const auto& planned : run_plan_->managers) {
      if (planned.manager != manager) continue;
      auto counters = manager_result(planned, sample.workers, sample.cpus, sample.network);
      if (counters) latest_results_[manager] = std::move(*counters);
    }
  }

  // The latest sample of every manager of `plan` as a results tree.
  results::RunResults snapshot(const RunPlan& plan) const {
    results::RunResults run{plan.info, {}};
    for (const auto& planned : plan.managers) {
      const auto latest = latest_results_.find(planned.manager);
      if (latest != latest_results_.end()) run.managers.push_back(latest->second);
    }
    return run;
  }

  // One manager's counters (its final results or one sample) under the names of what it was
  // assigned; counters of a worker or target it was not assigned are a named error.
  Result<results::ManagerResult> manager_result(const ManagerRun& manager,
                                                const std::vector<protocol::WorkerCounters>& workers,
                                                const std::vector<protocol::CpuUsage>& cpus,
                                                const protocol::NetworkStats& network) const {
    const auto& link = *links_[manager.manager];
    const auto not_assigned = [&link](const std::string& what, std::size_t assigned, const char* unit) {
      return Error(ErrorCode::validation_error, link.peer().describe() + ": sent counters for " + what +
                                                    ", but was assigned " + std::to_string(assigned) + " " + unit);
    };
    results::ManagerResult result;
    result.name = link.name();
    result.host = {link.inventory().cpu_count, link.inventory().os_name, link.inventory().kernel_release,
                   link.peer().build};
    if (const auto timer_hz = link.peer().timer_resolution_hz; timer_hz && *timer_hz >= 1.0) {
      result.timer_resolution_hz = static_cast<std::uint64_t>(std::llround(*timer_hz));
    }
    for (const auto& cpu : cpus) {
      result.cpus.push_back(
          {cpu.total_percent, cpu.user_percent, cpu.privileged_percent, 0.0, 0.0, cpu.interrupts_per_second});
    }
    result.network = {network.packets_per_second, network.packet_errors_per_second,
                      network.segments_retransmitted_per_second};
    for (const auto& counters : workers) {
      if (counters.worker_index >= manager.assignment.workers.size()) {
        return fail(not_assigned("worker " + std::to_string(counters.worker_index),
                                 manager.assignment.workers.size(), "workers"));
      }
      const auto& assigned = manager.assignment.workers[counters.worker_index];
      const auto& first = assigned.targets.front();
      results::WorkerResult worker;
      worker.name = assigned.name;
      worker.spec_name = assigned.spec.name;
      worker.recording_window = counters.window;
      worker.starting_sector = first.starting_sector;
      worker.maximum_size_sectors = first.maximum_size_sectors;
      worker.queue_depth = first.outstanding_ios;
      worker.test_connection_rate = first.test_connection_rate;
      worker.transactions_per_connection = first.transactions_per_connection;
      worker.engine = counters.engine;
      worker.engine_reason = counters.engine_reason;
      for (const auto& target : counters.targets) {
        if (target.target_index >= assigned.targets.size()) {
          return fail(not_assigned("target " + std::to_string(target.target_index) + " of worker " +
                                       std::to_string(counters.worker_index),
                                   assigned.targets.size(), "targets"));
        }
        worker.targets.push_back(
            {assigned.targets[target.target_index].path, results::TargetKind::disk, target.counters});
      }
      result.workers.push_back(std::move(worker));
    }
    return result;
  }

  const std::vector<ManagerLink*>& links_;
  const SeriesPlan& series_;
  SeriesObserver& observer_;
  ResultsRecorder& recorder_;
  std::stop_token stop_;
  LiveFigures figures_;
  LiveAggregate live_;
  const RunPlan* run_plan_{};
  // Each manager's latest sample as counters, kept only for observers that want snapshots.
  std::map<std::size_t, results::ManagerResult> latest_results_;
  std::set<std::tuple<std::size_t, std::uint32_t, std::uint32_t>> errors_noticed_;  // manager, worker, target
};

// "run 3 of 6 ('Database' QD 4)": how failures name the run.
std::string run_name(std::size_t index, std::size_t count, const RunPlan& run) {
  return "run " + std::to_string(index + 1) + " of " + std::to_string(count) + " (" + run.label + ")";
}

// The run without the managers dropped so far.
RunPlan without(const RunPlan& run, const std::set<std::size_t>& dropped) {
  RunPlan active = run;
  std::erase_if(active.managers, [&](const ManagerRun& manager) { return dropped.contains(manager.manager); });
  return active;
}

}  // namespace

ResultsRecorder::ResultsRecorder(std::string csv_path, std::string json_path, std::string timeseries_path)
    : csv_path_(std::move(csv_path)), json_path_(std::move(json_path)), timeseries_path_(std::move(timeseries_path)) {}

Result<void> ResultsRecorder::begin(const SeriesPlan& series) {
  json_.reset();
  appender_ = results::ResultsCsvAppender();
  csv_pending_ = appender_.begin_series(series.info);
  timeseries_ = results::TimeSeriesCsvAppender();
  timeseries_pending_ = timeseries_.begin_series(series.info);
  timeseries_run_open_ = false;
  if (json_path_.empty()) return {};
  auto json = results::ResultsJsonFile::create(json_path_, series.info, series.plan);
  if (!json) return fail(json.error());
  json_ = std::move(*json);
  return {};
}

void ResultsRecorder::record_sample(const results::RunResults& interval, results::WallClockTime at) {
  if (timeseries_path_.empty()) return;
  if (!timeseries_run_open_) timeseries_pending_ += timeseries_.begin_run(interval.info);
  timeseries_run_open_ = true;
  timeseries_pending_ += timeseries_.append_sample(interval, at);
}

Result<void> ResultsRecorder::flush_samples() {
  if (timeseries_path_.empty() || timeseries_pending_.empty()) return {};
  if (auto appended = results::append_durably(timeseries_path_, timeseries_pending_); !appended) return appended;
  timeseries_pending_.clear();
  return {};
}

Result<void> ResultsRecorder::record(const results::RunResults& run, const results::RunSummary& summary) {
  const auto text = csv_pending_ + appender_.append_run(run, summary);
  if (!csv_path_.empty()) {
    if (auto appended = results::append_durably(csv_path_, text); !appended) return appended;
  }
  csv_pending_.clear();
  if (!timeseries_path_.empty()) {
    if (!timeseries_run_open_) timeseries_pending_ += timeseries_.begin_run(run.info);
    timeseries_run_open_ = false;
    timeseries_pending_ += timeseries_.end_run(run);
    if (auto flushed = flush_samples(); !flushed) return flushed;
  }
  return json_ ? json_->add_run(run) : Result<void>{};
}

Result<void> ResultsRecorder::record_failure(const results::FailedRun& failed) {
  const auto message = failed.error;
  const auto text = csv_pending_ + appender_.append_error(message);
  if (!csv_path_.empty()) {
    if (auto appended = results::append_durably(csv_path_, text); !appended) return appended;
  }
  csv_pending_.clear();
  if (!timeseries_path_.empty()) {
    timeseries_run_open_ = false;
    timeseries_pending_ += timeseries_.append_error(message);
    if (auto flushed = flush_samples(); !flushed) return flushed;
  }
  return json_ ? json_->add_failed_run(failed) : Result<void>{};
}

Result<void> ResultsRecorder::finish(results::SeriesOutcome outcome) {
  const auto text = csv_pending_ + appender_.end_series(outcome);
  if (!csv_path_.empty()) {
    if (auto appended = results::append_durably(csv_path_, text); !appended) return appended;
  }
  csv_pending_.clear();
  if (!timeseries_path_.empty()) {
    timeseries_pending_ += timeseries_.end_series(outcome);
    if (auto flushed = flush_samples(); !flushed) return flushed;
  }
  return json_ ? json_->finish(outcome) : Result<void>{};
}

Result<AgentLossPolicy> parse_agent_loss_policy(std::string_view text) {
  if (text == "stop") return AgentLossPolicy::stop;
  if (text == "continue") return AgentLossPolicy::drop_and_continue;
  return fail(Error(ErrorCode::invalid_argument, "expected stop or continue, not \"" + std::string(text) + "\"")
                  .in_field("on-agent-loss"));
}

namespace {

// One series: the runs in order, failures recorded, lost managers dropped or the end.
class SeriesDriver {
 public:
  SeriesDriver(const std::vector<ManagerLink*>& links, const SeriesPlan& series, SeriesObserver& observer,
               ResultsRecorder& recorder, const std::stop_token& stop)
      : links_(links), series_(series), observer_(observer), recorder_(recorder), stop_(stop),
        driver_(links, series, observer, recorder, stop) {}

  SeriesOutcome run() {
    if (auto begun = recorder_.begin(series_); !begun) {
      stopped(begun.error());
      return std::move(outcome_);
    }
    for (std::size_t index = 0; index < series_.runs.size(); ++index) {
      if (series_.on_agent_loss == AgentLossPolicy::drop_and_continue) drop_closed(index);
      const RunPlan plan = without(series_.runs[index], dropped_);
      if (plan.managers.empty()) {
        stopped(Error(ErrorCode::io_error, "every manager of " + run_name(index, series_.runs.size(), plan) +
                                               " was lost; nothing left to run"));
        break;
      }
      if (!run_one(plan, index)) break;
    }
    if (auto finished = recorder_.finish(outcome_.outcome); !finished && !outcome_.error) {
      outcome_.error = finished.error();
    }
    outcome_.samples_received = driver_.samples_received();
    outcome_.samples_lost = driver_.samples_lost();
    return std::move(outcome_);
  }

 private:
  // False when the series must stop.
  bool run_one(const RunPlan& plan, std::size_t index) {
    observer_.run_started(index, series_.runs.size(), plan);
    const std::uint64_t run_id = index + 1;
    results::FailedRun failed{static_cast<std::uint32_t>(index + 1), plan.info, {}};
    failed.info.start_time = results::wall_clock_now();
    auto run = driver_.run(plan, index, run_id);
    if (!run) {
      driver_.abort(plan, run_id);
      if (stop_.stop_requested()) {
        stopped(run.error());
        return false;
      }
      failed.info.end_time = results::wall_clock_now();
      failed.error = run_name(index, series_.runs.size(), plan) + ": " + run.error().describe();
      observer_.run_failed(index, plan, run.error());
      outcome_.failed_runs.push_back(failed);
      if (auto recorded = recorder_.record_failure(failed); !recorded) {
        stopped(recorded.error());
        return false;
      }
      const auto lost = closed_managers(plan);
      outcome_.lost_managers.insert(outcome_.lost_managers.end(), lost.begin(), lost.end());
      if (lost.empty() || series_.on_agent_loss == AgentLossPolicy::stop) {
        stopped(run.error());
        return false;
      }
      for (const auto manager : lost) drop(manager, index, run.error().describe());
      return true;
    }
    const auto summary = results::summarize_run(*run);
    outcome_.runs.push_back({index, run->info, results::run_points(*run, summary, index, series_.info.description)});
    if (auto recorded = recorder_.record(*run, summary); !recorded) {
      stopped(recorded.error());
      return false;
    }
    observer_.run_finished(index, *run, summary);
    return true;
  }

  // Managers whose connection closed between runs (noticed by the transport on its own).
  void drop_closed(std::size_t index) {
    for (const auto& manager : series_.runs[index].managers) {
      if (!dropped_.contains(manager.manager) && !links_[manager.manager]->is_open()) {
        outcome_.lost_managers.push_back(manager.manager);
        drop(manager.manager, index, "the connection is closed");
      }
    }
  }

  void drop(std::size_t manager, std::size_t index, const std::string& why) {
    dropped_.insert(manager);
    std::size_t remaining = 0;
    for (std::size_t later = index + 1; later < series_.runs.size(); ++later) {
      for (const auto& planned : series_.runs[later].managers) remaining += planned.manager == manager ? 1 : 0;
    }
    observer_.notice("manager '" + links_[manager]->name() + "' lost (" + why + "); dropped from the remaining " +
                     std::to_string(remaining) + " run(s), which go on without it");
  }

  [[nodiscard]] std::vector<std::size_t> closed_managers(const RunPlan& plan) const {
    std::vector<std::size_t> closed;
    for (const auto& manager : plan.managers) {
      if (!links_[manager.manager]->is_open()) closed.push_back(manager.manager);
    }
    return closed;
  }

  void stopped(Error error) {
    outcome_.outcome = results::SeriesOutcome::aborted;
    if (!outcome_.error) outcome_.error = std::move(error);
  }

  const std::vector<ManagerLink*>& links_;
  const SeriesPlan& series_;
  SeriesObserver& observer_;
  ResultsRecorder& recorder_;
  const std::stop_token& stop_;
  RunDriver driver_;
  SeriesOutcome outcome_;
  std::set<std::size_t> dropped_;
};

}  // namespace

SeriesOutcome run_series(const std::vector<ManagerLink*>& links, const SeriesPlan& series, SeriesObserver& observer,
                         ResultsRecorder& recorder, std::stop_token stop) {
  return SeriesDriver(links, series, observer, recorder, stop).run();
}

}  // namespace iomark::controller
