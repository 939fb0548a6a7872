#include "fleet_feeder.hpp"

#include <algorithm>
#include <cmath>
#include <cstdio>
#include <memory>
#include <random>
#include <thread>
#include <utility>
#include <vector>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/results/summary.hpp"
#include "iomark/results/wall_clock.hpp"

namespace iomark::gui::testing {

namespace {

constexpr std::uint32_t kQueueDepth = 4;
constexpr std::uint64_t kBlockBytes = 8192;  // the Database spec's transfer size
constexpr std::size_t kCpusPerHost = 16;
constexpr const char* kTargetPath = "/dev/nvme1n1";

const access_specs::AccessSpec& database_spec() { return *access_specs::find_builtin_spec("Database"); }

std::string worker_name(std::size_t index) { return "Worker " + std::to_string(index + 1); }

// One target's counters over one second of a Database run (67% reads) at a few thousand
// IOPS: latencies spread around a millisecond fill a few dozen of the histogram's buckets,
// as a real device's do.
IoCounters one_second_of_io(std::mt19937_64& random) {
  std::uniform_int_distribution<std::uint64_t> io_count(2'000, 6'000);
  std::lognormal_distribution<double> latency_ms(std::log(0.8), 0.45);
  std::bernoulli_distribution is_read(0.67);
  IoCounters counters;
  const auto ios = io_count(random);
  for (std::uint64_t io = 0; io < ios; ++io) {
    const auto ns = static_cast<std::uint64_t>(latency_ms(random) * 1e6);
    if (is_read(random)) {
      counters.record_read(kBlockBytes, ns);
    } else {
      counters.record_write(kBlockBytes, ns);
    }
  }
  return counters;
}

// The per-second counters targets take their turns with: building every target's sample
// from single I/Os each second would cost the feeder more than the GUI it feeds.
std::vector<IoCounters> counter_pool() {
  std::mt19937_64 random(14);
  std::vector<IoCounters> pool;
  for (int i = 0; i < 61; ++i) pool.push_back(one_second_of_io(random));
  return pool;
}

std::vector<results::CpuUtilization> host_cpus(std::size_t manager, std::uint32_t tick) {
  std::vector<results::CpuUtilization> cpus;
  for (std::size_t cpu = 0; cpu < kCpusPerHost; ++cpu) {
    const double busy = 20.0 + static_cast<double>((manager * 7 + cpu * 3 + tick) % 40);
    cpus.push_back({busy, busy * 0.3, busy * 0.7, 0.0, 0.0, 9'000.0 + static_cast<double>(cpu)});
  }
  return cpus;
}

// The tree one manager's sample becomes (RunDriver::manager_result): its workers under the
// names they were assigned, each with one target whose counters cover `window`.
results::ManagerResult manager_sample(const controller::ManagerRun& run, std::size_t manager, std::uint32_t tick,
                                      const std::vector<IoCounters>& pool, std::chrono::nanoseconds window,
                                      std::uint32_t seconds) {
  results::ManagerResult result;
  result.name = fleet_manager_name(manager);
  result.host = {static_cast<std::uint32_t>(kCpusPerHost), "Linux", "6.1.0-27-amd64", "iomark 0.1.0"};
  result.cpus = host_cpus(manager, tick);
  result.network = {1'200.0, 0.0, 0.0};
  for (std::size_t w = 0; w < run.assignment.workers.size(); ++w) {
    const auto& assigned = run.assignment.workers[w];
    results::WorkerResult worker;
    worker.name = assigned.name;
    worker.spec_name = assigned.spec.name;
    worker.recording_window = window;
    worker.queue_depth = assigned.targets.front().outstanding_ios;
    worker.engine = "io_uring";
    worker.engine_reason = "probed";
    IoCounters counters = pool[(manager * 31 + w * 7 + tick) % pool.size()];
    for (std::uint32_t more = 1; more < seconds; ++more) counters.merge(pool[(manager * 31 + w * 7 + tick + more) % pool.size()]);
    worker.targets.push_back({assigned.targets.front().path, results::TargetKind::disk, std::move(counters)});
    result.workers.push_back(std::move(worker));
  }
  return result;
}

// What LiveAggregate::fill reports beside the snapshot: rates and latency of all managers.
void fill_totals(const results::RunResults& snapshot, double window_s, controller::LiveFigures& figures) {
  std::uint64_t ios = 0;
  std::uint64_t bytes = 0;
  CompactLatencyHistogram latency;
  for (const auto& manager : snapshot.managers) {
    for (const auto& worker : manager.workers) {
      for (const auto& target : worker.targets) {
        ios += target.counters.io_count();
        bytes += target.counters.bytes_read + target.counters.bytes_written;
        latency.merge(target.counters.latency);
      }
    }
  }
  figures.iops = static_cast<double>(ios) / window_s;
  figures.mb_per_s = static_cast<double>(bytes) / window_s / 1e6;
  figures.average_ms = ios == 0 ? 0.0 : static_cast<double>(latency.sum_ns()) / static_cast<double>(ios) / 1e6;
  figures.p99_ms = static_cast<double>(latency.percentile(99).count()) / 1e6;
}

}  // namespace

std::string fleet_manager_name(std::size_t index) {
  char name[32];
  std::snprintf(name, sizeof name, "host-%03zu", index + 1);
  return name;
}

access_specs::TestPlan fleet_plan(const FleetShape& shape) {
  access_specs::TestPlan plan;
  access_specs::TestSetup setup;
  setup.description = "fleet of " + std::to_string(shape.managers) + " managers";
  setup.run_time_s = shape.updates_per_run;
  plan.setup = setup;
  plan.access_specs = std::vector<access_specs::AccessSpec>{database_spec()};
  std::vector<access_specs::Manager> managers;
  for (std::size_t m = 0; m < shape.managers; ++m) {
    access_specs::Manager manager;
    manager.id = 1;
    manager.name = fleet_manager_name(m);
    for (std::size_t w = 0; w < shape.workers_per_manager; ++w) {
      access_specs::Worker worker;
      worker.name = worker_name(w);
      worker.outstanding_ios = kQueueDepth;
      worker.assigned_specs = std::vector<std::string>{database_spec().name};
      worker.targets = std::vector<access_specs::Target>{{kTargetPath, access_specs::WorkerType::disk, std::nullopt, ""}};
      manager.workers.push_back(std::move(worker));
    }
    managers.push_back(std::move(manager));
  }
  plan.managers = std::move(managers);
  return plan;
}

controller::SeriesPlan fleet_series(const FleetShape& shape) {
  controller::SeriesPlan series;
  series.info.description = "fleet of " + std::to_string(shape.managers) + " managers";
  series.info.start_time = results::wall_clock_now();
  series.info.iomark_version = "iomark 0.1.0";
  series.ramp_up_s = 0;
  series.run_time_s = shape.updates_per_run;
  for (std::size_t r = 0; r < shape.runs; ++r) {
    const auto queue_depth = static_cast<std::uint32_t>(1U << std::min<std::size_t>(r, 8));
    controller::RunPlan run;
    run.info.cycling_step = static_cast<std::uint32_t>(r);
    run.info.queue_depth = queue_depth;
    run.info.specs = {database_spec()};
    run.label = "'Database' QD " + std::to_string(queue_depth);
    for (std::size_t m = 0; m < shape.managers; ++m) {
      controller::ManagerRun manager;
      manager.manager = m;
      for (std::size_t w = 0; w < shape.workers_per_manager; ++w) {
        protocol::WorkerAssignment worker;
        worker.name = worker_name(w);
        worker.spec = database_spec();
        protocol::TargetAssignment target;
        target.path = kTargetPath;
        target.outstanding_ios = queue_depth;
        worker.targets.push_back(std::move(target));
        manager.assignment.workers.push_back(std::move(worker));
      }
      run.managers.push_back(std::move(manager));
    }
    series.runs.push_back(std::move(run));
  }
  return series;
}

SeriesRunner feed_fleet(const FleetShape& shape) {
  auto pool = std::make_shared<const std::vector<IoCounters>>(counter_pool());
  return [shape, pool](const std::vector<controller::ManagerLink*>&, const controller::SeriesPlan& series,
                       controller::SeriesObserver& observer, controller::ResultsRecorder& recorder,
                       std::stop_token stop) {
    controller::SeriesOutcome outcome;
    if (auto begun = recorder.begin(series); !begun) {
      outcome.outcome = results::SeriesOutcome::aborted;
      outcome.error = begun.error();
      outcome.stop_cause = controller::StopCause::failure;
      return outcome;
    }
    const auto window = std::chrono::duration_cast<std::chrono::nanoseconds>(shape.update_every);
    const double window_s = std::chrono::duration<double>(shape.update_every).count();
    for (std::size_t r = 0; r < series.runs.size(); ++r) {
      const auto& run = series.runs[r];
      observer.run_started(r, series.runs.size(), run);
      controller::LiveFigures figures;
      figures.run_index = r;
      figures.run_count = series.runs.size();
      figures.run = &run;
      figures.phase = controller::LivePhase::recording;
      figures.phase_s = series.run_time_s;
      auto next = std::chrono::steady_clock::now();
      for (std::uint32_t tick = 1; tick <= shape.updates_per_run; ++tick) {
        next += shape.update_every;
        std::this_thread::sleep_until(next);
        if (stop.stop_requested()) {
          outcome.outcome = results::SeriesOutcome::aborted;
          outcome.error = Error(ErrorCode::io_error, "stopped by the user");
          outcome.stop_cause = controller::StopCause::stop_requested;
          (void)recorder.finish(outcome.outcome);
          return outcome;
        }
        figures.elapsed_s = tick * window_s;
        figures.remaining_s = (shape.updates_per_run - tick) * window_s +
                              static_cast<double>((series.runs.size() - r - 1) * shape.updates_per_run) * window_s;
        figures.snapshot = results::RunResults{run.info, {}};
        for (const auto& manager : run.managers) {
          figures.snapshot.managers.push_back(manager_sample(manager, manager.manager, tick, *pool, window, 1));
        }
        fill_totals(figures.snapshot, window_s, figures);
        observer.live(figures);
        outcome.samples_received += run.managers.size();
      }
      results::RunResults finished{run.info, {}};
      finished.info.end_time = results::wall_clock_now();
      for (const auto& manager : run.managers) {
        finished.managers.push_back(
            manager_sample(manager, manager.manager, 0, *pool, window * shape.updates_per_run, shape.updates_per_run));
      }
      const auto summary = results::summarize_run(finished);
      if (auto recorded = recorder.record(finished, summary); !recorded) {
        outcome.outcome = results::SeriesOutcome::aborted;
        outcome.error = recorded.error();
        outcome.stop_cause = controller::StopCause::failure;
        return outcome;
      }
      observer.run_finished(r, finished, summary);
      outcome.runs.push_back({r, finished.info, {}});
    }
    (void)recorder.finish(outcome.outcome);
    return outcome;
  };
}

}  // namespace iomark::gui::testing
