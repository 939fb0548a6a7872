#include "iomark/controller/quick_series.hpp"

#include "iomark/common/seed.hpp"

namespace iomark::controller {

Result<SeriesPlan> quick_series(const QuickSeriesOptions& options, const std::vector<ManagerLink*>& links) {
  if (options.targets.empty()) return fail(Error(ErrorCode::invalid_argument, "no target").in_field("--target"));
  if (options.queue_depths.empty()) {
    return fail(Error(ErrorCode::invalid_argument, "no outstanding-I/O count").in_field("--qd"));
  }
  if (links.empty()) return fail(ErrorCode::invalid_argument, "no manager to run on");
  SeriesPlan series;
  const auto test_type = options.queue_depths.size() > 1 ? access_specs::TestType::cycle_outstanding_ios
                                                         : access_specs::TestType::normal;
  series.info = {test_type, options.description, results::wall_clock_now(), access_specs::RecordResults::all,
                 IOMARK_VERSION};
  series.ramp_up_s = options.ramp_up_s;
  series.run_time_s = options.run_time_s;
  std::uint64_t salt = 0;
  for (std::size_t step = 0; step < options.queue_depths.size(); ++step) {
    const auto depth = options.queue_depths[step];
    RunPlan run;
    run.info.cycling_step = static_cast<std::uint32_t>(step);
    run.info.queue_depth = depth;
    run.info.test_type = test_type;
    run.info.description = options.description;
    run.info.specs = {options.spec};
    run.label = "'" + options.spec.name + "' QD " + std::to_string(depth);
    for (std::size_t m = 0; m < links.size(); ++m) {
      ManagerRun manager;
      manager.manager = m;
      manager.assignment.engine = options.engine;
      manager.assignment.buffered = options.buffered;
      for (std::uint32_t w = 0; w < options.workers; ++w) {
        protocol::WorkerAssignment worker;
        worker.name = "Worker " + std::to_string(w + 1);
        worker.cpu = w % std::max<std::uint32_t>(links[m]->inventory().cpu_count, 1);
        worker.spec = options.spec;
        for (const auto& path : options.targets) {
          protocol::TargetAssignment target;
          target.path = path;
          target.outstanding_ios = depth;
          target.data_pattern = options.data_pattern;
          target.data_reduction = options.data_reduction;
          target.seed = options.seed.value_or(fresh_seed(++salt));
          worker.targets.push_back(std::move(target));
        }
        manager.assignment.workers.push_back(std::move(worker));
      }
      // Only the first run prepares: later runs reuse the files.
      if (step == 0 && options.test_file_bytes != 0) {
        for (const auto& path : options.targets) {
          manager.prepare.push_back({path, options.test_file_bytes, options.data_pattern, options.data_reduction,
                                     options.seed.value_or(fresh_seed(++salt))});
        }
      }
      run.managers.push_back(std::move(manager));
    }
    series.runs.push_back(std::move(run));
  }
  return series;
}

}  // namespace iomark::controller
