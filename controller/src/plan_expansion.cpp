#include "iomark/controller/plan_expansion.hpp"

#include <algorithm>
#include <functional>
#include <limits>
#include <optional>
#include <string_view>
#include <utility>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/common/ascii.hpp"
#include "iomark/controller/cycling.hpp"

namespace iomark::controller {

namespace {

using access_specs::StepType;
using access_specs::TestPlan;
using access_specs::TestType;
using access_specs::Worker;

constexpr std::uint64_t kUnlimited = std::numeric_limits<std::uint64_t>::max();

using ascii::iequals;

struct SpecAt {
  std::string_view name;
  bool assigned_idle{false};
  bool runs_io{false};  // assigned and not Idle
};

SpecAt spec_at(const Worker& worker, std::size_t k) {
  if (!worker.assigned_specs || k >= worker.assigned_specs->size()) return {access_specs::kIdleSpecName, false, false};
  const std::string& name = (*worker.assigned_specs)[k];
  const bool idle = iequals(name, access_specs::kIdleSpecName);
  return {name, idle, !idle};
}

std::size_t target_count(const Worker& worker) { return worker.targets ? worker.targets->size() : 0; }

// One worker of the plan as seen at one access index, in display order.
struct Slot {
  std::size_t manager{0};
  std::uint64_t targets{0};
  bool eligible{false};
  bool disk{false};
  bool assigned_idle{false};
};

// What one cycling step activates: the first `active[i]` targets of slot i, at `queue_depth`
// when set and at each worker's own outstanding_ios otherwise.
struct Activation {
  std::vector<std::uint64_t> active;
  std::optional<std::uint32_t> queue_depth;

  [[nodiscard]] std::uint64_t total() const {
    std::uint64_t sum = 0;
    for (auto count : active) sum += count;
    return sum;
  }
  [[nodiscard]] std::size_t worker_count() const {
    return static_cast<std::size_t>(std::ranges::count_if(active, [](std::uint64_t count) { return count > 0; }));
  }
};

using Sink = std::function<void(std::size_t access_index, std::size_t cycling_step, const Activation&)>;
using StepFunction = std::function<Activation(std::uint64_t step)>;

// Replays IOmeter's CalcRunCount/SetActiveTargets loop over the plan, handing each run to the
// sink. One class so that counting and expanding cannot disagree.
class Simulator {
 public:
  Simulator(const TestPlan& plan, const ExpansionOptions& options, Sink sink)
      : plan_(plan),
        setup_(plan.setup.value_or(access_specs::TestSetup{})),
        options_(options),
        sink_(std::move(sink)) {}

  Result<std::size_t> run() {
    if (!plan_.managers) return std::size_t{0};
    std::size_t spec_count = 0;
    for (const auto& manager : *plan_.managers) {
      for (const auto& worker : manager.workers) {
        spec_count = std::max(spec_count, worker.assigned_specs ? worker.assigned_specs->size() : 0);
      }
    }
    for (k_ = 0; k_ < spec_count; ++k_) {
      if (auto done = expand_access_index(); !done) return tl::unexpected(std::move(done.error()));
    }
    return runs_;
  }

 private:
  Result<void> expand_access_index() {
    build_slots();
    step_ = 0;
    if (auto done = cycle(); !done) return done;
    const bool idle_assigned = std::ranges::any_of(slots_, [](const Slot& slot) { return slot.assigned_idle; });
    if (step_ == 0 && idle_assigned) return emit(targets_per_worker(0));
    return {};
  }

  void build_slots() {
    slots_.clear();
    for (std::size_t m = 0; m < plan_.managers->size(); ++m) {
      for (const auto& worker : (*plan_.managers)[m].workers) {
        const SpecAt spec = spec_at(worker, k_);
        const std::uint64_t targets = target_count(worker);
        slots_.push_back({m, targets, spec.runs_io && targets > 0, worker.type == access_specs::WorkerType::disk,
                          spec.assigned_idle});
      }
    }
  }

  Result<void> cycle() {
    const auto& targets = setup_.target_cycling;
    const auto& workers = setup_.worker_cycling;
    const auto target_count_at = [&targets](std::uint64_t i) {
      return step_value(targets.start, targets.step, progression_of(targets.step_type, targets.step), i);
    };
    switch (setup_.test_type) {
      case TestType::cycle_targets:
        return emit_all(while_growing([&](std::uint64_t i) { return targets_per_worker(target_count_at(i)); }));
      case TestType::cycle_workers:
        return emit_all(while_growing([&](std::uint64_t i) {
          return workers_per_manager(
              step_value(workers.start, workers.step, progression_of(workers.step_type, workers.step), i), kUnlimited);
        }));
      case TestType::increment_targets_parallel:
        return emit_all(while_growing([&](std::uint64_t i) { return targets_per_manager(target_count_at(i)); }));
      case TestType::increment_targets_serial:
        return emit_all(while_growing([&](std::uint64_t i) { return targets_in_total(target_count_at(i)); }));
      case TestType::cycle_workers_and_targets: return cycle_workers_and_targets();
      case TestType::cycle_outstanding_ios: return cycle_queue_depth(everything());
      case TestType::cycle_outstanding_ios_and_targets:
        return cycle_queue_depth(
            while_growing([&](std::uint64_t i) { return targets_per_worker(target_count_at(i)); }));
      case TestType::normal: break;
    }
    // NORMAL, and any value outside the enumeration, as IOmeter's default branch does.
    return emit_all(everything());
  }

  // All targets of every eligible worker, as one step; no step when nobody is eligible.
  [[nodiscard]] std::vector<Activation> everything() const {
    Activation all = targets_per_worker(kUnlimited);
    if (all.total() == 0) return {};
    return {std::move(all)};
  }

  // CYCLE_WORKERS_AND_TARGETS: grow the targets of the first M workers per manager until
  // that stops adding targets, then restart the target count with the next M, as long as
  // the larger M activates more workers than the saturated step did.
  Result<void> cycle_workers_and_targets() {
    const auto& workers = setup_.worker_cycling;
    const auto& targets = setup_.target_cycling;
    const Progression worker_progression = progression_of(workers.step_type, workers.step);
    const Progression target_progression =
        options_.workers_and_targets_rule == TargetStepRule::iometer_1_1_0
            ? (targets.step_type == StepType::linear || workers.step == 1 ? Progression::arithmetic
                                                                          : Progression::geometric)
            : progression_of(targets.step_type, targets.step);
    std::uint64_t worker_step = 0;
    std::uint64_t target_step = 0;
    const auto activation = [&] {
      return workers_per_manager(step_value(workers.start, workers.step, worker_progression, worker_step),
                                 step_value(targets.start, targets.step, target_progression, target_step));
    };
    std::uint64_t previous_total = 0;
    for (;;) {
      Activation next = activation();
      if (next.total() == 0) return {};
      if (next.total() <= previous_total) {
        const std::size_t saturated_workers = next.worker_count();
        ++worker_step;
        target_step = 0;
        next = activation();
        if (next.total() == 0 || next.worker_count() <= saturated_workers) return {};
      }
      previous_total = next.total();
      ++target_step;
      if (auto done = emit(next); !done) return done;
    }
  }

  // Every target step once per queue depth, the queue depth varying fastest. IOmeter stops
  // queue cycling after the first depth when no disk worker takes part.
  Result<void> cycle_queue_depth(Result<std::vector<Activation>> target_steps) {
    if (!target_steps) return tl::unexpected(std::move(target_steps.error()));
    if (target_steps->empty()) return {};
    auto depths = queue_depth_steps(setup_.queue_depth_cycling);
    if (!depths) return fail(ErrorCode::validation_error, type_name() + ": " + depths.error().message());
    const bool disk_involved = std::ranges::any_of(slots_, [](const Slot& slot) { return slot.eligible && slot.disk; });
    if (!disk_involved && depths->size() > 1) depths->erase(depths->begin() + 1, depths->end());
    for (auto& step : *target_steps) {
      for (const auto depth : *depths) {
        step.queue_depth = depth;
        if (auto done = emit(step); !done) return done;
      }
    }
    return {};
  }

  // The steps 0, 1, ... for as long as each activates more targets than the one before.
  [[nodiscard]] Result<std::vector<Activation>> while_growing(const StepFunction& step_at) const {
    std::vector<Activation> steps;
    std::uint64_t previous_total = 0;
    for (std::uint64_t i = 0;; ++i) {
      Activation next = step_at(i);
      if (next.total() <= previous_total) return steps;
      if (steps.size() == kMaxCyclingSteps) return too_many_for_access_index();
      previous_total = next.total();
      steps.push_back(std::move(next));
    }
  }

  Result<void> emit_all(Result<std::vector<Activation>> steps) {
    if (!steps) return tl::unexpected(std::move(steps.error()));
    for (const auto& step : *steps) {
      if (auto done = emit(step); !done) return done;
    }
    return {};
  }

  Result<void> emit(const Activation& activation) {
    if (step_ == kMaxCyclingSteps) return too_many_for_access_index();
    if (runs_ == kMaxSeriesRuns) {
      return fail(ErrorCode::validation_error,
                  type_name() + ": the series would make more than " + std::to_string(kMaxSeriesRuns) + " runs");
    }
    sink_(k_, step_, activation);
    ++step_;
    ++runs_;
    return {};
  }

  [[nodiscard]] tl::unexpected<Error> too_many_for_access_index() const {
    return fail(ErrorCode::validation_error, type_name() + ": access index " + std::to_string(k_) +
                                                 " would make more than " + std::to_string(kMaxCyclingSteps) + " runs");
  }

  [[nodiscard]] std::string type_name() const {
    const auto name = access_specs::to_string(setup_.test_type);
    return name.empty() ? "test type " + std::to_string(static_cast<int>(setup_.test_type)) : std::string(name);
  }

  // The first n targets of every eligible worker.
  [[nodiscard]] Activation targets_per_worker(std::uint64_t n) const {
    Activation activation;
    for (const auto& slot : slots_) activation.active.push_back(slot.eligible ? std::min(n, slot.targets) : 0);
    return activation;
  }

  // The first n targets of the first m eligible workers of every manager.
  [[nodiscard]] Activation workers_per_manager(std::uint64_t m, std::uint64_t n) const {
    Activation activation;
    std::uint64_t workers_left = 0;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (i == 0 || slots_[i].manager != slots_[i - 1].manager) workers_left = m;
      const bool runs = slots_[i].eligible && workers_left > 0;
      if (runs) --workers_left;
      activation.active.push_back(runs ? std::min(n, slots_[i].targets) : 0);
    }
    return activation;
  }

  // n targets on every manager, filled worker by worker.
  [[nodiscard]] Activation targets_per_manager(std::uint64_t n) const {
    Activation activation;
    std::uint64_t targets_left = 0;
    for (std::size_t i = 0; i < slots_.size(); ++i) {
      if (i == 0 || slots_[i].manager != slots_[i - 1].manager) targets_left = n;
      activation.active.push_back(take(slots_[i], targets_left));
    }
    return activation;
  }

  // n targets in all, filled manager by manager, worker by worker.
  [[nodiscard]] Activation targets_in_total(std::uint64_t n) const {
    Activation activation;
    for (const auto& slot : slots_) activation.active.push_back(take(slot, n));
    return activation;
  }

  static std::uint64_t take(const Slot& slot, std::uint64_t& left) {
    const std::uint64_t taken = slot.eligible ? std::min(left, slot.targets) : 0;
    left -= taken;
    return taken;
  }

  const TestPlan& plan_;
  access_specs::TestSetup setup_;
  ExpansionOptions options_;
  Sink sink_;
  std::vector<Slot> slots_;
  std::size_t k_{0};
  std::size_t step_{0};
  std::size_t runs_{0};
};

SeriesRun make_run(const TestPlan& plan, std::size_t index, std::size_t k, std::size_t step,
                   const Activation& activation) {
  SeriesRun run{index, k, step, {}};
  std::size_t slot = 0;
  for (const auto& manager : *plan.managers) {
    ManagerInRun manager_run;
    for (const auto& worker : manager.workers) {
      const SpecAt spec = spec_at(worker, k);
      WorkerInRun worker_run{std::string(spec.name), spec.assigned_idle, {}};
      const std::uint32_t depth = activation.queue_depth.value_or(worker.outstanding_ios);
      for (std::uint64_t t = 0; t < activation.active[slot]; ++t) {
        worker_run.targets.push_back({static_cast<std::size_t>(t), depth});
      }
      manager_run.workers.push_back(std::move(worker_run));
      ++slot;
    }
    run.managers.push_back(std::move(manager_run));
  }
  return run;
}

std::string counted(std::size_t count, std::string_view noun) {
  return std::to_string(count) + " " + std::string(noun) + (count == 1 ? "" : "s");
}

}  // namespace

bool ManagerInRun::active() const noexcept {
  return std::ranges::any_of(workers, [](const WorkerInRun& worker) { return worker.active(); });
}

bool ManagerInRun::takes_part() const noexcept {
  return std::ranges::any_of(workers,
                             [](const WorkerInRun& worker) { return worker.active() || worker.assigned_idle; });
}

std::size_t SeriesRun::active_manager_count() const noexcept {
  return static_cast<std::size_t>(
      std::ranges::count_if(managers, [](const ManagerInRun& manager) { return manager.active(); }));
}

std::size_t SeriesRun::active_worker_count() const noexcept {
  std::size_t count = 0;
  for (const auto& manager : managers) {
    count += static_cast<std::size_t>(
        std::ranges::count_if(manager.workers, [](const WorkerInRun& w) { return w.active(); }));
  }
  return count;
}

std::size_t SeriesRun::active_target_count() const noexcept {
  std::size_t count = 0;
  for (const auto& manager : managers) {
    for (const auto& worker : manager.workers) count += worker.targets.size();
  }
  return count;
}

Result<Series> expand_series(const TestPlan& plan, const ExpansionOptions& options) {
  Series series;
  Simulator simulator(plan, options, [&](std::size_t k, std::size_t step, const Activation& activation) {
    series.push_back(make_run(plan, series.size(), k, step, activation));
  });
  if (auto count = simulator.run(); !count) return tl::unexpected(std::move(count.error()));
  return series;
}

Result<std::size_t> count_runs(const TestPlan& plan, const ExpansionOptions& options) {
  return Simulator(plan, options, [](std::size_t, std::size_t, const Activation&) {}).run();
}

std::string describe_run(const SeriesRun& run, std::size_t run_count) {
  std::string text = "run " + std::to_string(run.index + 1) + "/" + std::to_string(run_count) +
                     ": k=" + std::to_string(run.access_index) + " ";
  if (run.idle()) {
    const auto taking_part = std::ranges::count_if(run.managers, [](const ManagerInRun& m) { return m.takes_part(); });
    return text + "Idle (no I/O), " + counted(static_cast<std::size_t>(taking_part), "manager");
  }
  std::vector<std::string_view> specs;
  std::uint32_t min_depth = std::numeric_limits<std::uint32_t>::max();
  std::uint32_t max_depth = 0;
  for (const auto& manager : run.managers) {
    for (const auto& worker : manager.workers) {
      if (!worker.active()) continue;
      if (std::ranges::none_of(specs, [&](std::string_view seen) { return iequals(seen, worker.spec); })) {
        specs.push_back(worker.spec);
      }
      for (const auto& target : worker.targets) {
        min_depth = std::min(min_depth, target.outstanding_ios);
        max_depth = std::max(max_depth, target.outstanding_ios);
      }
    }
  }
  for (std::size_t i = 0; i < specs.size(); ++i) text += (i == 0 ? "'" : "/'") + std::string(specs[i]) + "'";
  text += " QD " + std::to_string(min_depth) + (min_depth == max_depth ? "" : "-" + std::to_string(max_depth));
  return text + ", " + counted(run.active_manager_count(), "manager") + ", " +
         counted(run.active_worker_count(), "worker") + ", " + counted(run.active_target_count(), "target");
}

}  // namespace iomark::controller
