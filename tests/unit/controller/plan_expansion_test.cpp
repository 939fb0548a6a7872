#include "iomark/controller/plan_expansion.hpp"

#include <gtest/gtest.h>

#include <limits>
#include <optional>
#include <string>
#include <vector>

#include "iomark/controller/cycling.hpp"

// Every expected series below is derived by hand from the cycling rules
// (docs/iometer-reference.md#cycling: stepping rule, table, eligibility, idle-run rule); the
// comment above each expectation shows the steps. Notation: "k:[a,b][c,d]" = at access index k,
// manager 1's workers run a and b targets, manager 2's workers c and d.

namespace iomark::controller {
namespace {

using access_specs::Cycling;
using access_specs::Manager;
using access_specs::QueueDepthCycling;
using access_specs::StepType;
using access_specs::Target;
using access_specs::TestPlan;
using access_specs::TestSetup;
using access_specs::TestType;
using access_specs::Worker;
using access_specs::WorkerType;
using Shapes = std::vector<std::string>;
using Depths = std::vector<std::uint32_t>;

Worker worker(std::vector<std::string> specs, std::size_t target_count, std::uint32_t outstanding_ios = 1) {
  Worker w;
  w.name = "Worker";
  w.outstanding_ios = outstanding_ios;
  w.assigned_specs = std::move(specs);
  w.targets.emplace();
  for (std::size_t t = 0; t < target_count; ++t) w.targets->push_back({"/dev/sd" + std::to_string(t), {}, {}, {}});
  return w;
}

Worker network_worker(std::vector<std::string> specs) {
  Worker w;
  w.name = "Net";
  w.type = WorkerType::network_tcp;
  w.assigned_specs = std::move(specs);
  w.targets = std::vector<Target>{{"10.0.0.2", WorkerType::network_tcp, 2, "hostB"}};
  return w;
}

Manager manager(std::uint32_t id, std::vector<Worker> workers) {
  return {id, "host" + std::to_string(id), "", std::move(workers)};
}

TestPlan plan(TestType type, std::vector<Manager> managers) {
  TestPlan p;
  p.setup.emplace();
  p.setup->test_type = type;
  p.managers = std::move(managers);
  return p;
}

// 2 managers x 2 workers x 3 targets, every worker assigned spec "A" only.
TestPlan two_by_two_by_three(TestType type) {
  return plan(type,
              {manager(1, {worker({"A"}, 3), worker({"A"}, 3)}), manager(2, {worker({"A"}, 3), worker({"A"}, 3)})});
}

// Uneven targets per worker: 3 and 3 on manager 1, 2 and 3 on manager 2 (11 in all).
TestPlan three_three_two_three(TestType type) {
  return plan(type,
              {manager(1, {worker({"A"}, 3), worker({"A"}, 3)}), manager(2, {worker({"A"}, 2), worker({"A"}, 3)})});
}

Series expand(const TestPlan& p, const ExpansionOptions& options = {}) {
  auto series = expand_series(p, options);
  EXPECT_TRUE(series.has_value()) << (series ? "" : series.error().message());
  return series.value_or(Series{});
}

std::string shape(const SeriesRun& run) {
  std::string text = std::to_string(run.access_index) + ":";
  for (const auto& m : run.managers) {
    text += "[";
    for (std::size_t w = 0; w < m.workers.size(); ++w) {
      const auto& targets = m.workers[w].targets;
      text += (w == 0 ? "" : ",") + std::to_string(targets.size());
      // "N targets of a worker" are its first N (§3.2).
      for (std::size_t t = 0; t < targets.size(); ++t) EXPECT_EQ(targets[t].target, t);
    }
    text += "]";
  }
  return text;
}

Shapes shapes(const Series& series) {
  Shapes out;
  for (const auto& run : series) out.push_back(shape(run));
  return out;
}

// The queue depth of each run, checking that every active target of the run has it.
Depths depths(const Series& series) {
  Depths out;
  for (const auto& run : series) {
    std::optional<std::uint32_t> depth;
    for (const auto& m : run.managers) {
      for (const auto& w : m.workers) {
        for (const auto& t : w.targets) {
          if (!depth) depth = t.outstanding_ios;
          EXPECT_EQ(t.outstanding_ios, *depth);
        }
      }
    }
    out.push_back(depth.value_or(0));
  }
  return out;
}

// --- the stepping rule -------------------------------------------------------------------

TEST(StepValue, ArithmeticAndGeometric) {
  // LINEAR s=3, d=4: 3, 7, 11.
  EXPECT_EQ(step_value(3, 4, Progression::arithmetic, 0), 3U);
  EXPECT_EQ(step_value(3, 4, Progression::arithmetic, 2), 11U);
  // EXPONENTIAL s=3, d=2: 3*2^4 = 48.
  EXPECT_EQ(step_value(3, 2, Progression::geometric, 4), 48U);
  EXPECT_EQ(progression_of(StepType::exponential, 1), Progression::arithmetic);  // "d = 1" means linear
  EXPECT_EQ(progression_of(StepType::exponential, 2), Progression::geometric);
  EXPECT_EQ(progression_of(StepType::linear, 5), Progression::arithmetic);
}

TEST(StepValue, GeometricUsesSinglePrecisionPowAndTruncates) {
  // 3^16 = 43046721 needs 26 significant bits; a float keeps 24, so powf returns the nearest
  // multiple of 4, 43046720, which IOmeter truncates to int.
  EXPECT_EQ(step_value(1, 3, Progression::geometric, 16), 43046720U);
  EXPECT_EQ(step_value(2, 3, Progression::geometric, 16), 2U * 43046720U);
}

TEST(StepValue, SaturatesInsteadOfOverflowing) {
  constexpr auto kMax = std::numeric_limits<std::uint64_t>::max();
  EXPECT_EQ(step_value(2, 10, Progression::geometric, 100), kMax);  // 2 * 10^100
  EXPECT_EQ(step_value(1, 1, Progression::arithmetic, kMax), kMax);
}

// --- NORMAL, eligibility, access indexes, the idle run -------------------------------------

TEST(ExpandSeries, NormalRunsEveryTargetOfEveryEligibleWorkerOnce) {
  auto p = two_by_two_by_three(TestType::normal);
  (*p.managers)[0].workers[1].outstanding_ios = 8;
  const auto series = expand(p);
  // One spec per worker -> k = 0 only; all four workers eligible, all 3 targets each.
  EXPECT_EQ(shapes(series), (Shapes{"0:[3,3][3,3]"}));
  // Without queue cycling each worker keeps its own queue depth.
  const auto& targets = series.at(0).managers[0].workers[1].targets;
  EXPECT_EQ(targets, (std::vector<ActiveTarget>{{0, 8}, {1, 8}, {2, 8}}));
  EXPECT_EQ(series[0].managers[0].workers[0].targets[0].outstanding_ios, 1U);
}

TEST(ExpandSeries, UnevenSpecListsIdleAndTargetlessWorkers) {
  // m1: w1 {A,B,C} 3 targets, w2 {A} no targets; m2: w1 {A,Idle} 3 targets, w2 {B,B} 2 targets.
  const auto p = plan(TestType::normal, {manager(1, {worker({"A", "B", "C"}, 3), worker({"A"}, 0)}),
                                         manager(2, {worker({"A", "Idle"}, 3), worker({"B", "B"}, 2)})});
  const auto series = expand(p);
  // Longest list has 3 specs -> k = 0, 1, 2.
  // k=0: m1w2 has no target (not eligible); the other three run everything.
  // k=1: m1w1 runs B, m2w1 is Idle, m2w2 runs B.
  // k=2: only m1w1 (C) has a spec; the others ran out (Idle).
  EXPECT_EQ(shapes(series), (Shapes{"0:[3,0][3,2]", "1:[3,0][0,2]", "2:[3,0][0,0]"}));
  const auto& k1 = series.at(1).managers;
  EXPECT_EQ(k1[0].workers[0].spec, "B");
  EXPECT_EQ(k1[1].workers[0].spec, "Idle");
  EXPECT_TRUE(k1[1].workers[0].assigned_idle);
  const auto& k2 = series.at(2).managers;
  EXPECT_EQ(k2[1].workers[1].spec, "Idle");  // past the end of its list
  EXPECT_FALSE(k2[1].workers[1].assigned_idle);
  EXPECT_FALSE(k2[1].takes_part());
  EXPECT_EQ(count_runs(p).value(), 3U);
}

TestPlan idle_plan(TestType type) {
  // m1: w1 {A, Idle} 3 targets, w2 {A, B, C} no targets; m2: w1 {A} 2 targets.
  return plan(type,
              {manager(1, {worker({"A", "Idle"}, 3), worker({"A", "B", "C"}, 0)}), manager(2, {worker({"A"}, 2)})});
}

TEST(ExpandSeries, OneIdleRunWhereOnlyAnExplicitIdleWorkerTakesPart) {
  const auto series = expand(idle_plan(TestType::normal));
  // k=0: m1w1 and m2w1 run. k=1: nobody eligible (m1w2's B has no target) but m1w1 is
  // explicitly Idle -> one idle run. k=2: nobody eligible, nobody explicitly Idle -> skipped.
  EXPECT_EQ(shapes(series), (Shapes{"0:[3,0][2]", "1:[0,0][0]"}));
  ASSERT_EQ(series.size(), 2U);
  EXPECT_TRUE(series[1].idle());
  EXPECT_TRUE(series[1].managers[0].takes_part());
  EXPECT_FALSE(series[1].managers[1].takes_part());
  EXPECT_FALSE(series[0].idle());
}

TEST(ExpandSeries, IdleRuleAppliesToCyclingTypesAndRunsAreNumbered) {
  auto p = idle_plan(TestType::cycle_outstanding_ios);
  p.setup->queue_depth_cycling = {1, 4, 2, StepType::exponential};
  const auto series = expand(p);
  // k=0: queue depths 1, 2, 4 (1*2^i <= 4); k=1: the idle run; k=2: nothing.
  EXPECT_EQ(shapes(series), (Shapes{"0:[3,0][2]", "0:[3,0][2]", "0:[3,0][2]", "1:[0,0][0]"}));
  ASSERT_EQ(series.size(), 4U);
  for (std::size_t i = 0; i < series.size(); ++i) EXPECT_EQ(series[i].index, i);
  EXPECT_EQ(series[2].cycling_step, 2U);
  EXPECT_EQ(series[3].access_index, 1U);
  EXPECT_EQ(series[3].cycling_step, 0U);
  EXPECT_EQ(count_runs(p).value(), 4U);
}

TEST(ExpandSeries, EmptyPlansGiveEmptySeries) {
  EXPECT_TRUE(expand(TestPlan{}).empty());
  EXPECT_TRUE(expand(plan(TestType::cycle_targets, {manager(1, {worker({}, 3)})})).empty());
  // No setup section: NORMAL.
  auto p = two_by_two_by_three(TestType::cycle_targets);
  p.setup.reset();
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[3,3][3,3]"}));
}

// --- CYCLE_TARGETS -------------------------------------------------------------------------

TEST(ExpandSeries, CycleTargetsLinear) {
  auto p = two_by_two_by_three(TestType::cycle_targets);
  p.setup->target_cycling = {1, 1, StepType::linear};
  // N = 1, 2, 3 targets per worker; N = 4 adds nothing.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[1,1][1,1]", "0:[2,2][2,2]", "0:[3,3][3,3]"}));
  p.setup->target_cycling = {1, 2, StepType::linear};
  // N = 1, 3; N = 5 adds nothing.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[1,1][1,1]", "0:[3,3][3,3]"}));
}

TEST(ExpandSeries, CycleTargetsRunsWhileTheTotalGrows) {
  // Targets 3, 1 | 2, 0 (the last worker has none and never runs).
  auto p = plan(TestType::cycle_targets,
                {manager(1, {worker({"A"}, 3), worker({"A"}, 1)}), manager(2, {worker({"A"}, 2), worker({"A"}, 0)})});
  p.setup->target_cycling = {1, 1, StepType::linear};
  // N=1: 1+1+1 = 3; N=2: 2+1+2 = 5; N=3: 3+1+2 = 6; N=4: 6, no growth -> 3 runs.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[1,1][1,0]", "0:[2,1][2,0]", "0:[3,1][2,0]"}));
}

TEST(ExpandSeries, CycleTargetsExponential) {
  auto p = plan(TestType::cycle_targets, {manager(1, {worker({"A"}, 5)})});
  p.setup->target_cycling = {1, 2, StepType::exponential};
  // N = 1, 2, 4, 8 -> 1, 2, 4, 5 targets; N = 16 -> 5, no growth.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[1]", "0:[2]", "0:[4]", "0:[5]"}));
  p.setup->target_cycling = {3, 2, StepType::exponential};
  // N = 3, 6 -> 3, 5; N = 12 -> 5.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[3]", "0:[5]"}));
  p.setup->target_cycling = {1, 1, StepType::exponential};
  // d = 1 means linear: N = 1, 2, 3, 4, 5.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[1]", "0:[2]", "0:[3]", "0:[4]", "0:[5]"}));

  auto ten = plan(TestType::cycle_targets, {manager(1, {worker({"A"}, 10)})});
  ten.setup->target_cycling = {1, 3, StepType::exponential};
  // N = 1, 3, 9, 27 -> 1, 3, 9, 10; N = 81 -> 10.
  EXPECT_EQ(shapes(expand(ten)), (Shapes{"0:[1]", "0:[3]", "0:[9]", "0:[10]"}));
}

// --- CYCLE_WORKERS -------------------------------------------------------------------------

TEST(ExpandSeries, CycleWorkersAddsWorkersPerManagerWithAllTheirTargets) {
  auto p = two_by_two_by_three(TestType::cycle_workers);
  p.setup->worker_cycling = {1, 1, StepType::linear};
  // M = 1: first worker of each manager, all 3 targets; M = 2: both; M = 3: no growth.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[3,0][3,0]", "0:[3,3][3,3]"}));
}

TEST(ExpandSeries, CycleWorkersCountsOnlyEligibleWorkers) {
  // m1: w1 no targets, w2 and w3 3 targets; m2: w1 3 targets, w2 assigned Idle.
  auto p = plan(TestType::cycle_workers, {manager(1, {worker({"A"}, 0), worker({"A"}, 3), worker({"A"}, 3)}),
                                          manager(2, {worker({"A"}, 3), worker({"Idle"}, 3)})});
  p.setup->worker_cycling = {1, 1, StepType::linear};
  // M=1: m1's first eligible worker is w2, m2's is w1 (6); M=2: m1 w2+w3, m2 still w1 (9);
  // M=3: 9, no growth.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[0,3,0][3,0]", "0:[0,3,3][3,0]"}));
}

TEST(ExpandSeries, CycleWorkersExponential) {
  auto p =
      plan(TestType::cycle_workers,
           {manager(1, {worker({"A"}, 1), worker({"A"}, 1), worker({"A"}, 1), worker({"A"}, 1), worker({"A"}, 1)})});
  p.setup->worker_cycling = {1, 2, StepType::exponential};
  // M = 1, 2, 4, 8 -> 1, 2, 4, 5 workers; M = 16 -> 5.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[1,0,0,0,0]", "0:[1,1,0,0,0]", "0:[1,1,1,1,0]", "0:[1,1,1,1,1]"}));
}

// --- INCREMENT_TARGETS_PARALLEL / SERIAL ---------------------------------------------------

TEST(ExpandSeries, IncrementTargetsParallelFillsEachManagerWorkerByWorker) {
  auto p = three_three_two_three(TestType::increment_targets_parallel);
  p.setup->target_cycling = {1, 2, StepType::linear};
  // N targets on every manager: N=1: m1 1+0, m2 1+0 (2); N=3: m1 3+0, m2 2+1 (6);
  // N=5: m1 3+2, m2 2+3 (10); N=7: m1 3+3, m2 2+3 (11); N=9: 11, no growth.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[1,0][1,0]", "0:[3,0][2,1]", "0:[3,2][2,3]", "0:[3,3][2,3]"}));
}

TEST(ExpandSeries, IncrementTargetsSerialFillsManagerByManager) {
  auto p = three_three_two_three(TestType::increment_targets_serial);
  p.setup->target_cycling = {2, 2, StepType::linear};
  // N targets in all: 2 -> m1w1 2; 4 -> 3+1; 6 -> 3+3; 8 -> m2w1 2; 10 -> m2w2 2; 12 -> all 11;
  // 14 -> 11, no growth.
  EXPECT_EQ(shapes(expand(p)),
            (Shapes{"0:[2,0][0,0]", "0:[3,1][0,0]", "0:[3,3][0,0]", "0:[3,3][2,0]", "0:[3,3][2,2]", "0:[3,3][2,3]"}));
}

// --- CYCLE_WORKERS_AND_TARGETS -------------------------------------------------------------

TEST(ExpandSeries, CycleWorkersAndTargetsNestsTargetsInsideWorkers) {
  // Targets 3, 1 | 2, 2; workers and targets both from 1 by 1, linear.
  auto p = plan(TestType::cycle_workers_and_targets,
                {manager(1, {worker({"A"}, 3), worker({"A"}, 1)}), manager(2, {worker({"A"}, 2), worker({"A"}, 2)})});
  p.setup->worker_cycling = {1, 1, StepType::linear};
  p.setup->target_cycling = {1, 1, StepType::linear};
  // M=1: N=1 -> 1|1 (2); N=2 -> 2|2 (4); N=3 -> 3|2 (5); N=4 -> 5, no growth: M=2, N=1.
  // M=2: N=1 -> 1,1|1,1 (4 workers > 2: run); N=2 -> 2,1|2,2 (7); N=3 -> 3,1|2,2 (8);
  //      N=4 -> 8, no growth: M=3, N=1 -> still 4 workers, not more: end.
  EXPECT_EQ(shapes(expand(p)),
            (Shapes{"0:[1,0][1,0]", "0:[2,0][2,0]", "0:[3,0][2,0]", "0:[1,1][1,1]", "0:[2,1][2,2]", "0:[3,1][2,2]"}));
}

TEST(ExpandSeries, CycleWorkersAndTargetsQuirkWithAWorkerStepOfOne) {
  // One worker with 8 targets; targets EXPONENTIAL from 1 by 2, workers LINEAR from 1 by 1.
  auto p = plan(TestType::cycle_workers_and_targets, {manager(1, {worker({"A"}, 8)})});
  p.setup->worker_cycling = {1, 1, StepType::linear};
  p.setup->target_cycling = {1, 2, StepType::exponential};
  // Documented: N = 1, 2, 4, 8; N = 16 no growth; M = 2 adds no worker: end.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[1]", "0:[2]", "0:[4]", "0:[8]"}));
  // 1.1.0 (§8.3-23): the worker step is 1, so targets step linearly by 2: N = 1, 3, 5, 7, 9 (8).
  const ExpansionOptions quirk{TargetStepRule::iometer_1_1_0};
  EXPECT_EQ(shapes(expand(p, quirk)), (Shapes{"0:[1]", "0:[3]", "0:[5]", "0:[7]", "0:[8]"}));
  EXPECT_EQ(count_runs(p, quirk).value(), 5U);
}

TEST(ExpandSeries, CycleWorkersAndTargetsQuirkWithATargetStepOfOne) {
  // One manager, 2 workers x 3 targets; targets EXPONENTIAL from 1 by 1, workers EXPONENTIAL
  // from 1 by 2 (M = 1, 2, 4).
  auto p = plan(TestType::cycle_workers_and_targets, {manager(1, {worker({"A"}, 3), worker({"A"}, 3)})});
  p.setup->worker_cycling = {1, 2, StepType::exponential};
  p.setup->target_cycling = {1, 1, StepType::exponential};
  // Documented: target step 1 is linear: M=1: N = 1, 2, 3; M=2: N = 1, 2, 3; M=4 adds nobody.
  EXPECT_EQ(shapes(expand(p)), (Shapes{"0:[1,0]", "0:[2,0]", "0:[3,0]", "0:[1,1]", "0:[2,2]", "0:[3,3]"}));
  // 1.1.0: the worker step (2) is not 1, so targets follow 1 * 1^i = 1 and never grow:
  // M=1: N=1; M=2: N=1; M=4 adds nobody.
  EXPECT_EQ(shapes(expand(p, {TargetStepRule::iometer_1_1_0})), (Shapes{"0:[1,0]", "0:[1,1]"}));
}

// --- CYCLE_OUTSTANDING_IOS (and TARGETS) ---------------------------------------------------

TEST(ExpandSeries, CycleOutstandingIosOverridesEveryEligibleWorkersQueueDepth) {
  auto p = two_by_two_by_three(TestType::cycle_outstanding_ios);
  (*p.managers)[1].workers[0].outstanding_ios = 7;
  p.setup->queue_depth_cycling = {1, 32, 2, StepType::exponential};
  const auto series = expand(p);
  // Q = 1*2^i while <= 32: 1, 2, 4, 8, 16, 32 -> 6 runs, all targets active in each.
  EXPECT_EQ(shapes(series), Shapes(6, "0:[3,3][3,3]"));
  EXPECT_EQ(depths(series), (Depths{1, 2, 4, 8, 16, 32}));

  p.setup->queue_depth_cycling = {3, 48, 2, StepType::exponential};
  // 3*2^i: 3, 6, 12, 24, 48.
  EXPECT_EQ(depths(expand(p)), (Depths{3, 6, 12, 24, 48}));
  p.setup->queue_depth_cycling = {1, 10, 3, StepType::linear};
  // 1, 4, 7, 10.
  EXPECT_EQ(depths(expand(p)), (Depths{1, 4, 7, 10}));
}

TEST(ExpandSeries, CycleOutstandingIosWithoutDiskWorkersRunsOnce) {
  auto p = plan(TestType::cycle_outstanding_ios, {manager(1, {network_worker({"A"})})});
  p.setup->queue_depth_cycling = {1, 32, 2, StepType::exponential};
  // No disk worker involved: only the first queue depth.
  EXPECT_EQ(depths(expand(p)), (Depths{1}));
  // With a disk worker eligible, the full sequence, applied to the network worker too.
  (*p.managers)[0].workers.push_back(worker({"A"}, 1));
  const auto series = expand(p);
  EXPECT_EQ(depths(series), (Depths{1, 2, 4, 8, 16, 32}));
  EXPECT_EQ(shapes(series), Shapes(6, "0:[1,1]"));
}

TEST(ExpandSeries, CycleOutstandingIosAndTargetsIsTheProduct) {
  auto p = two_by_two_by_three(TestType::cycle_outstanding_ios_and_targets);
  p.setup->target_cycling = {1, 1, StepType::linear};
  p.setup->queue_depth_cycling = {1, 8, 2, StepType::exponential};
  const auto series = expand(p);
  // Outer N = 1, 2, 3 targets per worker (N = 4 adds nothing); inner Q = 1, 2, 4, 8 -> 3 x 4.
  const Shapes expected_shapes{"0:[1,1][1,1]", "0:[1,1][1,1]", "0:[1,1][1,1]", "0:[1,1][1,1]",
                               "0:[2,2][2,2]", "0:[2,2][2,2]", "0:[2,2][2,2]", "0:[2,2][2,2]",
                               "0:[3,3][3,3]", "0:[3,3][3,3]", "0:[3,3][3,3]", "0:[3,3][3,3]"};
  EXPECT_EQ(shapes(series), expected_shapes);
  EXPECT_EQ(depths(series), (Depths{1, 2, 4, 8, 1, 2, 4, 8, 1, 2, 4, 8}));

  // Two specs per worker: the same 12 runs at k = 0 and at k = 1.
  for (auto& m : *p.managers) {
    for (auto& w : m.workers) w.assigned_specs = std::vector<std::string>{"A", "B"};
  }
  EXPECT_EQ(count_runs(p).value(), 24U);
  EXPECT_EQ(expand(p).size(), 24U);
}

// --- limits --------------------------------------------------------------------------------

TEST(ExpandSeries, RefusesAbsurdSeriesNamingTheTestType) {
  // 5000 targets added one at a time: 5000 runs at k = 0.
  auto p = plan(TestType::cycle_targets, {manager(1, {worker({"A"}, 5000)})});
  p.setup->target_cycling = {1, 1, StepType::linear};
  const auto series = expand_series(p);
  ASSERT_FALSE(series.has_value());
  EXPECT_EQ(series.error().code(), ErrorCode::validation_error);
  EXPECT_NE(series.error().message().find("CYCLE_TARGETS"), std::string::npos) << series.error().message();
  EXPECT_NE(series.error().message().find("4096"), std::string::npos);
  EXPECT_EQ(count_runs(p).error(), series.error());

  auto queue = two_by_two_by_three(TestType::cycle_outstanding_ios);
  queue.setup->queue_depth_cycling = {1, 100000, 1, StepType::linear};
  const auto queue_series = expand_series(queue);
  ASSERT_FALSE(queue_series.has_value());
  EXPECT_EQ(queue_series.error().message().rfind("CYCLE_OUTSTANDING_IOS:", 0), 0U) << queue_series.error().message();

  // 100 target steps x 64 queue depths = 6400 runs at k = 0.
  auto product = plan(TestType::cycle_outstanding_ios_and_targets, {manager(1, {worker({"A"}, 100)})});
  product.setup->target_cycling = {1, 1, StepType::linear};
  product.setup->queue_depth_cycling = {1, 64, 1, StepType::linear};
  const auto product_count = count_runs(product);
  ASSERT_FALSE(product_count.has_value());
  EXPECT_NE(product_count.error().message().find("CYCLE_OUTSTANDING_IOS_AND_TARGETS"), std::string::npos);
}

TEST(ExpandSeries, RefusesASeriesPastTheTotalLimit) {
  // 4000 runs per spec (within the per-index limit) x 17 specs = 68000 > 65536.
  auto p = plan(TestType::cycle_targets, {manager(1, {worker(std::vector<std::string>(17, "A"), 4000)})});
  p.setup->target_cycling = {1, 1, StepType::linear};
  const auto count = count_runs(p);
  ASSERT_FALSE(count.has_value());
  EXPECT_NE(count.error().message().find("65536"), std::string::npos) << count.error().message();
  // 16 specs: 64000 runs fit.
  (*p.managers)[0].workers[0].assigned_specs->resize(16);
  EXPECT_EQ(count_runs(p).value(), 64000U);
}

// --- descriptions --------------------------------------------------------------------------

TEST(DescribeRun, ProgressLine) {
  // One manager, 2 workers x 2 targets, specs {Database, Web}; Q = 1, 2, 4, 8, 16, 32 per
  // spec -> 12 runs; the third is k = 0 at Q = 4.
  auto p = plan(TestType::cycle_outstanding_ios,
                {manager(1, {worker({"Database", "Web"}, 2), worker({"Database", "Web"}, 2)})});
  p.setup->queue_depth_cycling = {1, 32, 2, StepType::exponential};
  const auto series = expand(p);
  ASSERT_EQ(series.size(), 12U);
  EXPECT_EQ(describe_run(series[2], series.size()), "run 3/12: k=0 'Database' QD 4, 1 manager, 2 workers, 4 targets");
  EXPECT_EQ(describe_run(series[11], series.size()), "run 12/12: k=1 'Web' QD 32, 1 manager, 2 workers, 4 targets");
}

TEST(DescribeRun, MixedSpecsAndQueueDepthsAndIdleRuns) {
  const auto mixed = expand(plan(TestType::normal, {manager(1, {worker({"Database"}, 2, 1), worker({"Web"}, 1, 8)})}));
  ASSERT_EQ(mixed.size(), 1U);
  EXPECT_EQ(describe_run(mixed[0], 1), "run 1/1: k=0 'Database'/'Web' QD 1-8, 1 manager, 2 workers, 3 targets");

  const auto idle = expand(idle_plan(TestType::normal));
  ASSERT_EQ(idle.size(), 2U);
  EXPECT_EQ(describe_run(idle[0], 2), "run 1/2: k=0 'A' QD 1, 2 managers, 2 workers, 5 targets");
  EXPECT_EQ(describe_run(idle[1], 2), "run 2/2: k=1 Idle (no I/O), 1 manager");
}

}  // namespace
}  // namespace iomark::controller
