// Expanding a test plan into the series of runs IOmeter 1.1.0 performs
// (docs/iometer-reference.md#cycling).
//
// Pure functions over value types: no I/O, no clock, no shared state; safe to call from any
// thread. The runner walks the returned series in order; per run it assigns every worker
// its spec, its active targets and their queue depths (§3.1 step 2).
//
// IOmeter's semantics, in short. For each access index k = 0 .. max(#specs of any worker)-1
// every worker runs its k-th assigned spec, or Idle when its list is shorter. A worker is
// *eligible* at k when its spec there is not Idle and it has at least one target. The test
// type then cycles which targets of the eligible workers are active ("N targets" of a worker
// are its first N), one run per cycling step; most types stop as soon as a step does not
// raise the total number of active targets. When no run results at k but some worker was
// explicitly assigned Idle there, one idle run (no I/O) is still made; otherwise k is
// skipped. Network workers are ordinary workers here whose targets are network interfaces;
// the client worker IOmeter creates for each is not in the plan and follows its server.
//
// Two deliberate differences from 1.1.0:
// * CYCLE_WORKERS_AND_TARGETS steps the target count by the target cycling's own type and
//   step unless `TargetStepRule::iometer_1_1_0` asks for the 1.1.0 bug (§8.3 item 23).
// * 1.1.0 always starts at k = 0, so when k = 0 yields no run it performs one empty run
//   there that its own run count misses, and the series ends one run early. The series
//   here simply skips that k.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"

namespace iomark::controller {

// How CYCLE_WORKERS_AND_TARGETS decides whether the target count steps linearly.
enum class TargetStepRule : std::uint8_t {
  // As every other test type: target cycling LINEAR, or a target step of 1.
  documented,
  // IOmeter 1.1.0: target cycling LINEAR, or a *worker* step of 1
  // (docs/iometer-reference.md#fix-cycling-step). With EXPONENTIAL targets this turns a worker step
  // of 1 into linear target steps, and a target step of 1 with a larger worker step into a target
  // count that never grows.
  iometer_1_1_0,
};

struct ExpansionOptions {
  TargetStepRule workers_and_targets_rule{TargetStepRule::documented};
};

// No series is expanded past this many runs in total (kMaxCyclingSteps bounds each k).
inline constexpr std::size_t kMaxSeriesRuns = 65536;

struct ActiveTarget {
  std::size_t target{0};             // index into the worker's `targets`
  std::uint32_t outstanding_ios{1};  // queue depth on this target during the run
  friend bool operator==(const ActiveTarget&, const ActiveTarget&) = default;
};

struct WorkerInRun {
  // The k-th assigned spec as the plan spells it, or "Idle" past the end of the list.
  std::string spec;
  // The k-th assigned spec is "Idle" itself (any case). Such a worker keeps its manager in
  // the run; a worker that merely ran out of specs does not.
  bool assigned_idle{false};
  // In assignment order, always a prefix of the worker's targets; empty = no I/O this run.
  // The queue depth is the worker's outstanding_ios unless queue-depth cycling sets it.
  std::vector<ActiveTarget> targets;

  [[nodiscard]] bool active() const noexcept { return !targets.empty(); }
  friend bool operator==(const WorkerInRun&, const WorkerInRun&) = default;
};

struct ManagerInRun {
  std::vector<WorkerInRun> workers;  // parallel to the plan manager's `workers`

  // At least one worker does I/O.
  [[nodiscard]] bool active() const noexcept;
  // Active, or a worker explicitly assigned Idle: IOmeter starts this manager (§3.1 step 3).
  [[nodiscard]] bool takes_part() const noexcept;
  friend bool operator==(const ManagerInRun&, const ManagerInRun&) = default;
};

struct SeriesRun {
  std::size_t index{0};                // 0-based position in the series
  std::size_t access_index{0};         // k
  std::size_t cycling_step{0};         // 0-based position among the runs of this k
  std::vector<ManagerInRun> managers;  // parallel to the plan's `managers`

  [[nodiscard]] std::size_t active_manager_count() const noexcept;
  [[nodiscard]] std::size_t active_worker_count() const noexcept;
  [[nodiscard]] std::size_t active_target_count() const noexcept;
  // The idle run of a k where only explicitly Idle workers take part.
  [[nodiscard]] bool idle() const noexcept { return active_target_count() == 0; }
  friend bool operator==(const SeriesRun&, const SeriesRun&) = default;
};

using Series = std::vector<SeriesRun>;

// The runs of the plan, in order. A plan without setup runs as NORMAL; a plan without
// managers, or whose workers have no specs, gives an empty series. The plan must have passed
// access_specs::validate(): this does not re-check it (an invalid plan still expands
// without undefined behaviour, to whatever its values mean). With the queue-depth start past
// its end (which validate() refuses) the queue-cycling types make no I/O runs.
// Fails with validation_error, naming the test type, when one access index would make more
// than kMaxCyclingSteps runs or the series more than kMaxSeriesRuns.
[[nodiscard]] Result<Series> expand_series(const access_specs::TestPlan& plan, const ExpansionOptions& options = {});

// expand_series(plan, options)->size() without building the runs (IOmeter's run_count);
// fails exactly when expand_series does.
[[nodiscard]] Result<std::size_t> count_runs(const access_specs::TestPlan& plan, const ExpansionOptions& options = {});

// A one-line progress description:
//   "run 3/12: k=0 'Database' QD 4, 1 manager, 2 workers, 4 targets"
// Specs of the active workers in order, each named once and joined by '/', the queue depth
// as "QD 4" or as a range "QD 1-8"; counts are of active managers, workers and targets.
// An idle run reads "run 5/12: k=2 Idle (no I/O), 1 manager", counting the managers that
// take part. `run_count` is the length of the series the run belongs to.
[[nodiscard]] std::string describe_run(const SeriesRun& run, std::size_t run_count);

}  // namespace iomark::controller
