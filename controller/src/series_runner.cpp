#include "iomark/controller/series_runner.hpp"

#include <chrono>
#include <map>
#include <thread>

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
// that never arrived (each manager numbers its samples 1, 2, 3... per run).
class LiveAggregate {
 public:
  void add(std::size_t manager, const protocol::Sample& sample) {
    ++received_;
    const auto last = latest_.contains(manager) ? latest_[manager].sequence : 0;
    if (sample.sequence > last + 1) lost_ += sample.sequence - last - 1;
    latest_[manager] = sample;
  }
  void clear() { latest_.clear(); }
  [[nodiscard]] const std::map<std::size_t, protocol::Sample>& latest() const noexcept { return latest_; }
  [[nodiscard]] std::uint64_t received() const noexcept { return received_; }
  [[nodiscard]] std::uint64_t lost() const noexcept { return lost_; }

  void fill(LiveFigures& figures) const {
    std::uint64_t ios = 0;
    double iops = 0;
    double bytes_per_s = 0;
    LatencyHistogram latency;
    for (const auto& [manager, sample] : latest_) {
      const double seconds = std::chrono::duration<double>(sample.interval).count();
      if (seconds <= 0) continue;
      for (const auto& worker : sample.workers) {
        for (const auto& target : worker.targets) {
          const auto& counters = target.counters;
          ios += counters.io_count();
          iops += static_cast<double>(counters.io_count()) / seconds;
          bytes_per_s += static_cast<double>(counters.bytes_read + counters.bytes_written) / seconds;
          latency.merge(counters.latency);
        }
      }
    }
    figures.iops = iops;
    figures.mb_per_s = bytes_per_s / 1e6;
    figures.average_ms = ios == 0 ? 0.0 : static_cast<double>(latency.sum_ns()) / static_cast<double>(ios) / 1e6;
    figures.p99_ms = static_cast<double>(latency.percentile(99).count()) / 1e6;
  }

 private:
  std::map<std::size_t, protocol::Sample> latest_;
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

  Result<results::RunResults> run(std::size_t index, std::uint64_t run_id) {
    const auto& plan = series_.runs[index];
    figures_ = LiveFigures{index, series_.runs.size(), &plan, LivePhase::preparing};
    live_.clear();
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
    for (const auto& manager : plan.managers) {
      auto reply = links_[manager.manager]->request(protocol::PhaseCommand{run_id, protocol::Phase::stop},
                                                    ns(kReplyTimeout), push_handler(manager.manager));
      if (!reply) return fail(reply.error());
      const auto* final_results = std::get_if<protocol::FinalResults>(&*reply);
      if (final_results == nullptr) return fail(unexpected(manager.manager, *reply, "final results"));
      run.managers.push_back(manager_result(manager, final_results->workers, final_results->cpus,
                                            final_results->network));
    }
    return run;
  }

  // Best effort: tells every manager of the run to stop its I/O now.
  void abort(std::size_t index, std::uint64_t run_id) {
    for (const auto& manager : series_.runs[index].managers) {
      (void)links_[manager.manager]->request(protocol::PhaseCommand{run_id, protocol::Phase::abort}, ns(5s));
    }
  }

 private:
  PushHandler push_handler(std::size_t manager) {
    return [this, manager](const protocol::Message& message) {
      const auto* sample = std::get_if<protocol::Sample>(&message);
      if (sample == nullptr) return;
      live_.add(manager, *sample);
      if (sample->phase != protocol::SamplePhase::recording || run_plan_ == nullptr) return;
      for (const auto& planned : run_plan_->managers) {
        if (planned.manager != manager) continue;
        results::RunResults interval{run_plan_->info, {}};
        interval.managers.push_back(manager_result(planned, sample->workers, sample->cpus, sample->network));
        recorder_.record_sample(interval, results::wall_clock_now());
      }
    };
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

  Result<void> command_all(const RunPlan& plan, std::uint64_t run_id, protocol::Phase phase) {
    for (const auto& manager : plan.managers) {
      if (auto done = expect_ack(manager.manager, protocol::PhaseCommand{run_id, phase}); !done) return done;
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
        figures_.snapshot = snapshot(plan);
        observer_.live(figures_);
        if (auto flushed = recorder_.flush_samples(); !flushed) return flushed;
      }
      std::this_thread::sleep_for(std::min<Clock::duration>(kPollEvery, end - Clock::now()));
    }
    return {};
  }

  // The latest sample of every manager of `plan` as a results tree.
  results::RunResults snapshot(const RunPlan& plan) const {
    results::RunResults run{plan.info, {}};
    for (const auto& planned : plan.managers) {
      const auto sample = live_.latest().find(planned.manager);
      if (sample == live_.latest().end()) continue;
      run.managers.push_back(manager_result(planned, sample->second.workers, sample->second.cpus, sample->second.network));
    }
    return run;
  }

  // One manager's counters, from its final results or from one sample.
  results::ManagerResult manager_result(const ManagerRun& manager, const std::vector<protocol::WorkerCounters>& workers,
                                        const std::vector<protocol::CpuUsage>& cpus,
                                        const protocol::NetworkStats& network) const {
    const auto& link = *links_[manager.manager];
    results::ManagerResult result;
    result.name = link.name();
    result.host = {link.inventory().cpu_count, link.inventory().os_name, link.inventory().kernel_release,
                   link.peer().build};
    for (const auto& cpu : cpus) {
      result.cpus.push_back(
          {cpu.total_percent, cpu.user_percent, cpu.privileged_percent, 0.0, 0.0, cpu.interrupts_per_second});
    }
    result.network = {network.packets_per_second, network.packet_errors_per_second,
                      network.segments_retransmitted_per_second};
    for (const auto& counters : workers) {
      const auto& assigned = manager.assignment.workers.at(counters.worker_index);
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
      for (const auto& target : counters.targets) {
        worker.targets.push_back(
            {assigned.targets.at(target.target_index).path, results::TargetKind::disk, target.counters});
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
};

}  // namespace

ResultsRecorder::ResultsRecorder(std::string csv_path, std::string json_path, std::string timeseries_path)
    : csv_path_(std::move(csv_path)), json_path_(std::move(json_path)), timeseries_path_(std::move(timeseries_path)) {}

Result<void> ResultsRecorder::begin(const SeriesPlan& series) {
  series_ = results::SeriesResults{series.info, series.plan, {}, results::SeriesOutcome::in_progress};
  appender_ = results::ResultsCsvAppender();
  csv_pending_ = appender_.begin_series(series.info);
  timeseries_ = results::TimeSeriesCsvAppender();
  timeseries_pending_ = timeseries_.begin_series(series.info);
  timeseries_run_open_ = false;
  return write_json();
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
  series_.runs.push_back(run);
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
  return write_json();
}

Result<void> ResultsRecorder::finish(results::SeriesOutcome outcome) {
  series_.outcome = outcome;
  const auto text = csv_pending_ + appender_.end_series(outcome);
  if (!csv_path_.empty()) {
    if (auto appended = results::append_durably(csv_path_, text); !appended) return appended;
  }
  csv_pending_.clear();
  if (!timeseries_path_.empty()) {
    timeseries_pending_ += timeseries_.end_series(outcome);
    if (auto flushed = flush_samples(); !flushed) return flushed;
  }
  return write_json();
}

Result<void> ResultsRecorder::write_json() const {
  if (json_path_.empty()) return {};
  return results::replace_durably(json_path_, results::write_results_json(series_));
}

SeriesOutcome run_series(const std::vector<ManagerLink*>& links, const SeriesPlan& series, SeriesObserver& observer,
                         ResultsRecorder& recorder, std::stop_token stop) {
  SeriesOutcome outcome;
  if (auto begun = recorder.begin(series); !begun) {
    outcome.outcome = results::SeriesOutcome::aborted;
    outcome.error = begun.error();
    return outcome;
  }
  RunDriver driver(links, series, observer, recorder, stop);
  for (std::size_t index = 0; index < series.runs.size(); ++index) {
    observer.run_started(index, series.runs.size(), series.runs[index]);
    const std::uint64_t run_id = index + 1;
    auto run = driver.run(index, run_id);
    if (!run) {
      driver.abort(index, run_id);
      outcome.outcome = results::SeriesOutcome::aborted;
      outcome.error = run.error();
      break;
    }
    const auto summary = results::summarize_run(*run);
    if (auto recorded = recorder.record(*run, summary); !recorded) {
      outcome.outcome = results::SeriesOutcome::aborted;
      outcome.error = recorded.error();
      outcome.runs.push_back(std::move(*run));
      break;
    }
    observer.run_finished(index, *run, summary);
    outcome.runs.push_back(std::move(*run));
  }
  if (auto finished = recorder.finish(outcome.outcome); !finished && !outcome.error) {
    outcome.error = finished.error();
  }
  outcome.samples_received = driver.samples_received();
  outcome.samples_lost = driver.samples_lost();
  return outcome;
}

}  // namespace iomark::controller
