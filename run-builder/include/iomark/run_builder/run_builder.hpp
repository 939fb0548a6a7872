// The one place a manager's share of a run is assembled, whoever asks: the quick series of
// `iomark run`, `.icf` plans (and so the GUI, which runs plans) and `iomark-agent run-local`.
// It names nothing itself: callers say which workers drive which targets; the builder places
// workers on CPUs, picks seeds, and plans each test file once per manager and path across
// the runs of a series.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <set>
#include <span>
#include <string>
#include <utility>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/run_request.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::run_builder {

// What one worker does, whatever made it (flags or a plan's worker).
struct WorkerPlan {
  std::string name{};
  // Which worker of its manager this is: unless `cpu` is set, it runs on CPU
  // position % the manager's CPU count, as IOmeter spreads its workers.
  std::uint32_t position{};
  std::optional<std::uint32_t> cpu{};
  access_specs::AccessSpec spec{};
  access_specs::WriteData write_data{};
  std::optional<std::uint64_t> fixed_seed{};  // unset: a fresh seed per target and run
  std::uint64_t maximum_size_sectors{0};    // 0: the whole target
  std::uint64_t starting_sector{0};
  bool verify{false};
  std::string verify_journal{};  // empty: next to each target
  double rate_iops{};  // I/Os per second on a schedule (a plan's worker rate); 0: as fast as it can
};

// One disk target of a worker.
struct TargetPlan {
  std::string path{};
  std::uint32_t outstanding_ios{1};
  // The test file made at this path before the first run that uses it on this manager
  // (a directory's iobw.tst, a new file); 0: none.
  std::uint64_t test_file_bytes{0};
};

// One manager's share of one run: what its agent runs and the test files it makes first.
struct ManagerWork {
  std::size_t manager{};  // the caller's index of the manager (the controller's: into its links)
  protocol::Assignment assignment{};  // run_id is set by whoever sends it
  std::vector<protocol::PrepareTarget> prepare{};
};

// --rate-iops: gives every disk worker of a run an equal share of `rate_iops` (run-wide), so
// that the managers together issue that many I/Os per second (docs/characterize.md#rate-control).
// Errors: invalid_argument, field "--rate-iops", when the run has no disk worker or a share
// falls outside protocol::kMinWorkerRateIops..kMaxWorkerRateIops.
[[nodiscard]] Result<void> share_rate_iops(std::span<ManagerWork> managers, double rate_iops);

// --precondition: every disk target whose test file `managers` (one run's, made by a
// RunBuilder) plan is written whole `passes` times before the run, after that file is made
// (docs/characterize.md#preconditioning): the targets no earlier run of the series used on
// their manager, with the data their first worker writes, in `spec`'s writes when given.
void precondition(std::span<ManagerWork> managers, std::uint32_t passes,
                  const std::optional<access_specs::AccessSpec>& spec = std::nullopt);

// Lives as long as a series: the seeds it hands out differ from each other, and a path
// prepared on a manager is not prepared again by a later run.
class RunBuilder {
 public:
  // The seed for a target or a network pair: `fixed`, or a fresh one.
  [[nodiscard]] std::uint64_t seed(std::optional<std::uint64_t> fixed);

  // A manager's share of a run a command line asks for: workers "Worker 1".."Worker N", each
  // driving every target of `request` at `outstanding_ios` (request.cpus place them in order,
  // if given), with the request's engine, caching, data, seed and --verify.
  [[nodiscard]] ManagerWork requested_work(const access_specs::RunRequest& request, std::size_t manager,
                                           std::uint32_t cpu_count, std::uint32_t outstanding_ios);


  // Adds `worker`, driving `targets`, to `work` (a manager with `cpu_count` CPUs). Returns the paths whose test files this call
  // planned (the first use of each on this manager).
  std::vector<std::string> add_worker(ManagerWork& work, std::uint32_t cpu_count, const WorkerPlan& worker,
                                      std::span<const TargetPlan> targets);

 private:
  std::uint64_t salt_{};
  std::set<std::pair<std::size_t, std::string>> prepared_;  // (manager, path)
};

}  // namespace iomark::run_builder
