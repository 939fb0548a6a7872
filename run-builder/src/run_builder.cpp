#include "iomark/run_builder/run_builder.hpp"

#include <algorithm>
#include <sstream>

#include "iomark/common/seed.hpp"

namespace iomark::run_builder {

namespace {

bool is_disk_worker(const protocol::WorkerAssignment& worker) {
  return !worker.targets.empty() && !worker.targets.front().network;
}

}  // namespace

Result<void> share_rate_iops(std::span<ManagerWork> managers, double rate_iops) {
  std::size_t disk_workers = 0;
  for (const auto& manager : managers) {
    disk_workers += static_cast<std::size_t>(
        std::count_if(manager.assignment.workers.begin(), manager.assignment.workers.end(), is_disk_worker));
  }
  const auto refuse = [](std::string reason) {
    return fail(Error(ErrorCode::invalid_argument, std::move(reason)).in_field("--rate-iops"));
  };
  if (disk_workers == 0) return refuse("the run has no disk worker to give a rate to");
  const double share = rate_iops / static_cast<double>(disk_workers);
  if (!(share >= protocol::kMinWorkerRateIops && share <= protocol::kMaxWorkerRateIops)) {
    std::ostringstream reason;
    reason << rate_iops << " I/Os per second over " << disk_workers << (disk_workers == 1 ? " disk worker" : " disk workers")
           << " is " << share
           << " each; a worker's share must be " << protocol::kMinWorkerRateIops << " to "
           << protocol::kMaxWorkerRateIops;
    return refuse(reason.str());
  }
  for (auto& manager : managers) {
    for (auto& worker : manager.assignment.workers) {
      if (is_disk_worker(worker)) worker.rate_iops = share;
    }
  }
  return {};
}

void precondition(std::span<ManagerWork> managers, std::uint32_t passes,
                  const std::optional<access_specs::AccessSpec>& spec) {
  // add_worker plans each disk target's test file (sized, even for a device, where the agent
  // makes none) in the run that first uses it on its manager, and only there: so these are
  // exactly the targets this run is the first to use.
  for (auto& manager : managers) {
    for (auto& prepare : manager.prepare) {
      prepare.precondition_passes = passes;
      prepare.precondition_spec = spec;
    }
  }
}

std::uint64_t RunBuilder::seed(std::optional<std::uint64_t> fixed) { return fixed.value_or(fresh_seed(++salt_)); }

ManagerWork RunBuilder::requested_work(const access_specs::RunRequest& request, std::size_t manager,
                                      std::uint32_t cpu_count, std::uint32_t outstanding_ios) {
  ManagerWork work{.manager = manager, .assignment = {}, .prepare = {}};
  work.assignment.engine = request.engine;
  work.assignment.buffered = request.buffered;
  std::vector<TargetPlan> targets;
  for (const auto& path : request.targets) {
    targets.push_back({.path = path, .outstanding_ios = outstanding_ios, .test_file_bytes = request.test_file_bytes});
  }
  for (std::uint32_t w = 0; w < request.workers; ++w) {
    add_worker(work, cpu_count,
               {
                   .name = "Worker " + std::to_string(w + 1),
                   .position = w,
                   .cpu = request.cpus.empty() ? std::nullopt
                                               : std::optional<std::uint32_t>(request.cpus[w % request.cpus.size()]),
                   .spec = request.spec,
                   .write_data = request.write_data,
                   .fixed_seed = request.seed,
                   .verify = request.verify,
                   .verify_journal = request.verify_journal,
               },
               targets);
  }
  return work;
}

std::vector<std::string> RunBuilder::add_worker(ManagerWork& work, std::uint32_t cpu_count, const WorkerPlan& worker,
                                                std::span<const TargetPlan> targets) {
  protocol::WorkerAssignment assigned{
      .name = worker.name,
      .cpu = worker.cpu.value_or(worker.position % std::max<std::uint32_t>(cpu_count, 1)),
      .spec = worker.spec,
      .targets = {},
  };
  assigned.rate_iops = worker.rate_iops;
  std::vector<std::string> prepared;
  for (const auto& target : targets) {
    const auto target_seed = seed(worker.fixed_seed);
    assigned.targets.push_back({
        .path = target.path,
        .outstanding_ios = target.outstanding_ios,
        .maximum_size_sectors = worker.maximum_size_sectors,
        .starting_sector = worker.starting_sector,
        .data_pattern = worker.write_data.pattern,
        .data_reduction = worker.write_data.reduction,
        .seed = target_seed,
        .verify = worker.verify,
        .verify_journal = worker.verify_journal,
    });
    if (target.test_file_bytes != 0 && prepared_.insert({work.manager, target.path}).second) {
      work.prepare.push_back({
          .path = target.path,
          .size_bytes = target.test_file_bytes,
          .data_pattern = worker.write_data.pattern,
          .data_reduction = worker.write_data.reduction,
          .seed = target_seed,
      });
      prepared.push_back(target.path);
    }
  }
  work.assignment.workers.push_back(std::move(assigned));
  return prepared;
}

}  // namespace iomark::run_builder
