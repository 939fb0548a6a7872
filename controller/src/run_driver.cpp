#include "run_driver.hpp"

#include <algorithm>
#include <iterator>
#include <chrono>
#include <cmath>
#include <cstdio>

#include "iomark/controller/network_pairing.hpp"
#include "iomark/results/wall_clock.hpp"

namespace iomark::controller {

namespace {

using Clock = std::chrono::steady_clock;
using namespace std::chrono_literals;

// How often a manager that cannot be watched (a Dynamo, ArrivalSignal) is looked at.
constexpr auto kPollEvery = 50ms;
constexpr auto kLiveEvery = 1s;
// The wait for live figures runs this far past their moment while every manager is watched:
// agents send their samples on the second from BeginIo, about when the figures are due, and
// a sample arriving meanwhile ends the wait, so the figures go out with it.
constexpr auto kLiveGrace = 200ms;
// A fleet's samples arrive over a few milliseconds of each second: taken in together after
// the first, they cost the driver one wake-up instead of one each.
constexpr auto kGatherArrivals = 20ms;
// Preparing a multi-terabyte test file can take hours; a hung agent is still caught by the
// connection's dead-peer deadline.
constexpr auto kPrepareTimeout = std::chrono::hours(48);

Nanoseconds ns(Clock::duration duration) { return std::chrono::duration_cast<Nanoseconds>(duration); }

}  // namespace

// Drives `plan` (series run `index`, possibly without managers lost earlier).
Result<results::RunResults> RunDriver::run(const RunPlan& plan, std::size_t index, std::size_t count,
                                           std::uint64_t run_id) {
  figures_ = LiveFigures{index, count, &plan, LivePhase::preparing};
  live_.clear();
  latest_results_.clear();
  errors_noticed_.clear();
  run_plan_ = &plan;
  if (auto prepared = prepare(plan); !prepared) return fail(prepared.error());
  // Every assignment goes out before any acknowledgement is awaited, as the phase commands
  // do: with a thousand managers, one round trip after another would take seconds.
  std::vector<std::uint64_t> assignments;
  for (const auto& manager : plan.managers) {
    auto assignment = manager.assignment;
    assignment.run_id = run_id;
    auto id = links_[manager.manager]->send(std::move(assignment));
    if (!id) return fail(id.error());
    assignments.push_back(*id);
  }
  if (auto acked = await_acks(plan, assignments, "assignment"); !acked) return fail(acked.error());
  if (auto started = start_all(plan, run_id); !started) return fail(started.error());
  if (auto done = command_all(plan, run_id, protocol::Phase::begin_io); !done) return fail(done.error());
  // Stopped during the ramp-up, nothing was measured yet: the run is abandoned.
  auto ramped = wait(plan, LivePhase::ramp_up, series_.ramp_up_s);
  if (!ramped) return fail(ramped.error());
  if (*ramped == PhaseEnd::stop_requested) return fail(ErrorCode::cancelled, "stopped by the user during the ramp-up");
  if (auto done = command_all(plan, run_id, protocol::Phase::record_on); !done) return fail(done.error());
  results::RunResults run{plan.info, {}};
  run.info.start_time = results::wall_clock_now();
  // Stopped while recording, the run ends here as it would at its end, and its results are
  // kept, as IOmeter's "Stop All" keeps them.
  auto recorded = wait(plan, LivePhase::recording, series_.run_time_s);
  if (!recorded) return fail(recorded.error());
  if (*recorded == PhaseEnd::stop_requested) run.end = results::RunEnd::interrupted;
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
    auto* final_results = std::get_if<protocol::FinalResults>(&*reply);
    if (final_results == nullptr) return fail(unexpected(manager.manager, *reply, "final results"));
    auto result =
        manager_result(manager, std::move(final_results->workers), final_results->cpus, final_results->network);
    if (!result) return fail(result.error());
    run.managers.push_back(std::move(*result));
  }
  return run;
}

// Best effort: tells every manager of the run that is still connected to stop its I/O now.
void RunDriver::abort(const RunPlan& plan, std::uint64_t run_id) {
  run_plan_ = nullptr;
  for (const auto& manager : plan.managers) {
    if (!links_[manager.manager]->is_open()) continue;
    (void)links_[manager.manager]->request(protocol::PhaseCommand{run_id, protocol::Phase::abort}, ns(5s));
  }
}

PushHandler RunDriver::push_handler(std::size_t manager) {
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
void RunDriver::notice_errors(const ManagerRun& planned, const protocol::Sample& sample) {
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

Error RunDriver::unexpected(std::size_t manager, const protocol::Message& message, std::string_view wanted) const {
  return Error(ErrorCode::parse_error, links_[manager]->peer().describe() + ": sent " +
                                           std::string(protocol::message_name(message)) + " instead of " +
                                           std::string(wanted));
}

// One request to one manager and its acknowledgement.
Result<void> RunDriver::expect_ack(std::size_t manager, protocol::Message request, Nanoseconds timeout) {
  auto reply = links_[manager]->request(std::move(request), timeout, push_handler(manager));
  if (!reply) return fail(reply.error());
  if (!std::holds_alternative<protocol::Ack>(*reply)) return fail(unexpected(manager, *reply, "an acknowledgement"));
  return {};
}

// Sends the phase to every manager before awaiting any acknowledgement, so all managers
// change phase together rather than one round trip after another.
Result<void> RunDriver::command_all(const RunPlan& plan, std::uint64_t run_id, protocol::Phase phase,
                                    const OtherReply& other_reply) {
  std::vector<std::uint64_t> ids;
  for (const auto& manager : plan.managers) {
    auto id = links_[manager.manager]->send(protocol::PhaseCommand{run_id, phase});
    if (!id) return fail(id.error());
    ids.push_back(*id);
  }
  return await_acks(plan, ids, "phase_command", other_reply);
}

// The acknowledgements of requests sent to every manager of `plan` (ids in the same order).
Result<void> RunDriver::await_acks(const RunPlan& plan, const std::vector<std::uint64_t>& ids, std::string_view what,
                                   const OtherReply& other_reply) {
  for (std::size_t i = 0; i < plan.managers.size(); ++i) {
    const auto manager = plan.managers[i].manager;
    auto reply = links_[manager]->await_reply(ids[i], what, ns(kReplyTimeout), push_handler(manager));
    if (!reply) return fail(reply.error());
    if (std::holds_alternative<protocol::Ack>(*reply)) continue;
    if (!other_reply) return fail(unexpected(manager, *reply, "an acknowledgement"));
    if (auto handled = other_reply(manager, *reply); !handled) return fail(handled.error());
  }
  return {};
}

// Start, as every phase, except that agents with network servers answer with the ports they
// listen on; each port then goes to its client, so every server listens before any client
// connects (at BeginIo).
Result<void> RunDriver::start_all(const RunPlan& plan, std::uint64_t run_id) {
  std::map<std::size_t, protocol::NetworkPorts> listening;
  const auto keep_ports = [&](std::size_t manager, protocol::Message& reply) -> Result<void> {
    auto* ports = std::get_if<protocol::NetworkPorts>(&reply);
    if (ports == nullptr) return fail(unexpected(manager, reply, "an acknowledgement"));
    listening[manager] = std::move(*ports);
    return {};
  };
  if (auto started = command_all(plan, run_id, protocol::Phase::start, keep_ports); !started) return started;
  if (plan.network_pairs.empty()) return {};
  auto to_clients = relay_ports(plan, run_id, listening);
  if (!to_clients) return fail(to_clients.error());
  for (auto& [manager, ports] : *to_clients) {
    if (auto sent = expect_ack(manager, std::move(ports), ns(kReplyTimeout)); !sent) return fail(sent.error());
  }
  return {};
}

// Test files one manager after another: managers sharing a directory (one host, or a network
// file system) must not create the same test file at once. Then preconditioning
// (docs/characterize.md#preconditioning) on every manager at once: a fleet takes as long as
// its slowest host, not the sum; two managers writing one shared file whole at once leave it
// as written whole.
Result<void> RunDriver::prepare(const RunPlan& plan) {
  std::vector<const ManagerRun*> files;
  std::vector<const ManagerRun*> preconditioned;
  for (const auto& manager : plan.managers) {
    if (manager.prepare.empty()) continue;
    files.push_back(&manager);
    if (std::any_of(manager.prepare.begin(), manager.prepare.end(),
                    [](const protocol::PrepareTarget& target) { return target.precondition_passes != 0; })) {
      preconditioned.push_back(&manager);
    }
  }
  for (std::size_t position = 0; position < files.size(); ++position) {
    const auto& manager = *files[position];
    observer_.preparing(links_[manager.manager]->peer().describe(), position, files.size());
    auto targets = manager.prepare;
    for (auto& target : targets) {
      target.precondition_passes = 0;
      target.precondition_spec.reset();
    }
    auto id = links_[manager.manager]->send(protocol::PrepareTargets{std::move(targets)});
    if (!id) return fail(id.error());
    if (auto done = await_prepared(manager, *id); !done) return done;
  }
  if (preconditioned.empty()) return {};
  observer_.notice("preconditioning on " + std::to_string(preconditioned.size()) + " manager(s) at once");
  std::vector<std::uint64_t> ids;
  for (const auto* manager : preconditioned) {
    std::vector<protocol::PrepareTarget> targets;
    std::copy_if(manager->prepare.begin(), manager->prepare.end(), std::back_inserter(targets),
                 [](const protocol::PrepareTarget& target) { return target.precondition_passes != 0; });
    auto id = links_[manager->manager]->send(protocol::PrepareTargets{std::move(targets)});
    if (!id) return fail(id.error());
    ids.push_back(*id);
  }
  // Each in turn; the others' progress waits in their connections meanwhile.
  for (std::size_t i = 0; i < preconditioned.size(); ++i) {
    if (auto done = await_prepared(*preconditioned[i], ids[i]); !done) return done;
  }
  return {};
}

// Waits for the agent's answer to PrepareTargets `id`, showing its progress as live figures.
// A stop ends the wait at once; abort() then tells the manager to stop preparing.
Result<void> RunDriver::await_prepared(const ManagerRun& manager, std::uint64_t id) {
  auto last_live = Clock::time_point{};
  auto reply = links_[manager.manager]->await_reply(
      id, "prepare_targets", ns(kPrepareTimeout),
      [&](const protocol::Message& message) {
        const auto* progress = std::get_if<protocol::PrepareProgress>(&message);
        if (progress == nullptr || Clock::now() - last_live < kLiveEvery) return;
        last_live = Clock::now();
        figures_.phase = LivePhase::preparing;
        figures_.preparing = {progress->path, progress->bytes_done, progress->bytes_total};
        observer_.live(figures_);
      },
      stop_);
  if (!reply) return fail(reply.error());
  if (!std::holds_alternative<protocol::Ack>(*reply)) return fail(unexpected(manager.manager, *reply, "an acknowledgement"));
  return {};
}

// Lets a phase run for `seconds`, taking in samples and reporting live figures.
Result<RunDriver::PhaseEnd> RunDriver::wait(const RunPlan& plan, LivePhase phase, std::uint32_t seconds) {
  const auto start = Clock::now();
  const auto end = start + std::chrono::seconds(seconds);
  auto next_live = start + kLiveEvery;
  figures_.phase = phase;
  figures_.phase_s = seconds;
  figures_.preparing = {};
  // Checked before the loop too: a phase of 0 s must not hide a stop asked for earlier.
  if (stop_.stop_requested()) return PhaseEnd::stop_requested;
  // The driver sleeps until a manager has something, the next live figures are due or the
  // phase ends; only managers that cannot say so are looked at every kPollEvery.
  std::vector<bool> in_plan(links_.size(), false);
  std::vector<std::size_t> unwatched;
  for (const auto& manager : plan.managers) {
    in_plan[manager.manager] = true;
    if (!links_[manager.manager]->watch(arrivals_, manager.manager)) unwatched.push_back(manager.manager);
  }
  const std::stop_callback wake_on_stop(stop_, [this] { arrivals_->interrupt(); });
  const auto take_in = [this](std::size_t manager) { return links_[manager]->poll(push_handler(manager)); };
  while (Clock::now() < end) {
    if (stop_.stop_requested()) return PhaseEnd::stop_requested;
    // Looked at first and then every kPollEvery, as before the wait: a Dynamo reports what
    // it is asked for when it is asked, so its conversation has the same cadence in every run.
    for (const auto manager : unwatched) {
      if (auto taken = take_in(manager); !taken) return fail(taken.error());
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
      if (auto flushed = recorder_.flush_samples(); !flushed) return fail(flushed.error());
    }
    const auto until =
        unwatched.empty() ? std::min(end, next_live + kLiveGrace) : std::min(end, Clock::now() + kPollEvery);
    // A manager outside this run keeps what it sent in its connection until it is in one.
    for (const auto manager : arrivals_->wait_until(until, kGatherArrivals)) {
      if (manager >= in_plan.size() || !in_plan[manager]) continue;
      if (auto taken = take_in(manager); !taken) return fail(taken.error());
    }
  }
  return PhaseEnd::elapsed;
}

void RunDriver::keep_for_snapshot(std::size_t manager, const protocol::Sample& sample) {
  for (const auto& planned : run_plan_->managers) {
    if (planned.manager != manager) continue;
    auto counters = manager_result(planned, sample.workers, sample.cpus, sample.network);
    if (counters) latest_results_[manager] = std::move(*counters);
  }
}

// The latest sample of every manager of `plan` as a results tree.
results::RunResults RunDriver::snapshot(const RunPlan& plan) const {
  results::RunResults run{plan.info, {}};
  for (const auto& planned : plan.managers) {
    const auto latest = latest_results_.find(planned.manager);
    if (latest != latest_results_.end()) run.managers.push_back(latest->second);
  }
  return run;
}

// One manager's counters (its final results or one sample) under the names of what it was
// assigned; counters of a worker or target it was not assigned are a named error.
Result<results::ManagerResult> RunDriver::manager_result(const ManagerRun& manager,
                                                         std::vector<protocol::WorkerCounters> workers,
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
  for (auto& counters : workers) {
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
    worker.data_pattern = access_specs::to_string(access_specs::WriteData{first.data_pattern, first.data_reduction});
    worker.engine = std::move(counters.engine);
    worker.engine_reason = std::move(counters.engine_reason);
    const bool network_worker = first.network.has_value();
    if (network_worker) worker.kind = results::WorkerKind::network;
    for (auto& target : counters.targets) {
      if (target.target_index >= assigned.targets.size()) {
        return fail(not_assigned("target " + std::to_string(target.target_index) + " of worker " +
                                     std::to_string(counters.worker_index),
                                 assigned.targets.size(), "targets"));
      }
      const auto& planned = assigned.targets[target.target_index];
      worker.targets.push_back({network_worker ? planned.network->label : planned.path,
                                network_worker ? results::TargetKind::network : results::TargetKind::disk,
                                std::move(target.counters), std::move(target.verify)});
    }
    result.workers.push_back(std::move(worker));
  }
  return result;
}

}  // namespace iomark::controller
