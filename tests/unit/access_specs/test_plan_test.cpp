#include "iomark/access_specs/test_plan.hpp"

#include <gtest/gtest.h>

#include <string>

namespace iomark::access_specs {
namespace {

AccessSpec one_line_spec(std::string name) {
  return AccessSpec{std::move(name), DefaultAssignment::none, {AccessSpecLine{}}};
}

Worker disk_worker(std::string name, std::vector<std::string> specs) {
  Worker worker;
  worker.name = std::move(name);
  worker.assigned_specs = std::move(specs);
  worker.targets = std::vector<Target>{Target{"sdb", WorkerType::disk, std::nullopt, ""}};
  return worker;
}

// A plan like docs/iometer-reference.md#icf-example: two managers, a disk and a network worker.
TestPlan sample_plan() {
  TestPlan plan;
  plan.setup = TestSetup{};
  plan.setup->test_type = TestType::cycle_outstanding_ios;
  plan.display = ResultsDisplay{};
  plan.display->update_frequency_s = 5;
  plan.display->bar_charts = {BarChart{1, "Total I/Os per Second", {}, "", {}, ""},
                              BarChart{2, "Total MBs per Second (Decimal)", 1, "hostA", {}, ""}};
  plan.access_specs = std::vector<AccessSpec>{one_line_spec("OLTP 8K mix"), one_line_spec("Net ping-pong")};

  Worker network;
  network.name = "Worker 2";
  network.type = WorkerType::network_tcp;
  network.assigned_specs = std::vector<std::string>{"Net ping-pong"};
  network.targets = std::vector<Target>{Target{"192.0.2.20", WorkerType::network_tcp, 1, "hostB"}};

  plan.managers = std::vector<Manager>{
      Manager{
          1, "hostA", "192.0.2.10", {disk_worker("Worker 1", {"oltp 8k MIX", "Default", "Idle"}), network}},
      Manager{1, "hostB", "192.0.2.20", {disk_worker("Worker 1", {"Database"})}},
  };
  return plan;
}

Worker& first_worker(TestPlan& plan) { return plan.managers->front().workers.front(); }

TEST(TestTypeTraits, EachTypeStepsWhatIometersTestSetupLeavesEnabled) {
  struct Case {
    TestType type;
    bool workers, targets, outstanding_ios;
  };
  for (const auto& [type, workers, targets, outstanding_ios] : {
           Case{TestType::normal, false, false, false},
           Case{TestType::cycle_targets, false, true, false},
           Case{TestType::cycle_workers, true, false, false},
           Case{TestType::increment_targets_parallel, false, true, false},
           Case{TestType::increment_targets_serial, false, true, false},
           Case{TestType::cycle_workers_and_targets, true, true, false},
           Case{TestType::cycle_outstanding_ios, false, false, true},
           Case{TestType::cycle_outstanding_ios_and_targets, false, true, true},
       }) {
    const auto traits = traits_of(type);
    EXPECT_EQ(traits.cycles_workers, workers) << to_string(type);
    EXPECT_EQ(traits.cycles_targets, targets) << to_string(type);
    EXPECT_EQ(traits.cycles_outstanding_ios, outstanding_ios) << to_string(type);
  }
}

TEST(ValidatePlan, AcceptsTheSamplePlanAndAnEmptyPlan) {
  const auto result = validate(sample_plan());
  EXPECT_TRUE(result) << result.error().message();
  EXPECT_TRUE(validate(TestPlan{}));
}

TEST(ValidatePlan, ARateIsADiskWorkersWithinAWorkersLimits) {
  auto plan = sample_plan();
  auto& workers = (*plan.managers)[0].workers;
  workers[0].rate_iops = 2500;
  EXPECT_TRUE(validate(plan));
  for (const double bad : {0.0, 0.001, 2e8, -5.0}) {
    workers[0].rate_iops = bad;
    const auto refused = validate(plan);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().field(), "rate_iops") << bad;
  }
  workers[0].rate_iops.reset();
  workers[1].rate_iops = 100;  // the network worker
  const auto network = validate(plan);
  ASSERT_FALSE(network);
  EXPECT_NE(network.error().message().find("only a disk worker"), std::string::npos) << network.error().describe();
}

TEST(ValidatePlan, ReportsTheInvalidSpecWithItsLine) {
  TestPlan plan = sample_plan();
  (*plan.access_specs)[1].lines[0].percent_reads = 120;
  const auto result = validate(plan);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "spec 'Net ping-pong' line 1: '% reads' is 120, must be at most 100");
}

TEST(ValidatePlan, SpecNamesMustBeUniqueIgnoringCase) {
  TestPlan plan = sample_plan();
  plan.access_specs->push_back(one_line_spec("oltp 8k mix"));
  const auto result = validate(plan);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(),
            "spec 'oltp 8k mix': duplicates the name of spec 'OLTP 8K mix' (names ignore case)");
  EXPECT_EQ(result.error().field(), "name");
}

TEST(ValidatePlan, IdleIsAReservedSpecName) {
  TestPlan plan = sample_plan();
  plan.access_specs->push_back(one_line_spec("IDLE"));
  const auto result = validate(plan);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "spec 'IDLE': the name is reserved for the built-in idle spec");
}

TEST(ValidatePlan, PlanSpecsMayShadowBuiltIns) {
  TestPlan plan = sample_plan();
  plan.access_specs->push_back(one_line_spec("Default"));
  EXPECT_TRUE(validate(plan));
}

TEST(ValidatePlan, AssignedSpecsMustExistInThePlanOrAmongTheBuiltIns) {
  TestPlan plan = sample_plan();
  first_worker(plan).assigned_specs->push_back("No such spec");
  const auto result = validate(plan);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(),
            "manager 'hostA' (id 1), worker 'Worker 1': assigned spec 'No such spec' is neither in the plan "
            "nor built in");
  EXPECT_EQ(result.error().code(), ErrorCode::not_found);
  EXPECT_EQ(result.error().field(), "assigned_specs");
}

TEST(ValidatePlan, BuiltInsAndAliasesResolveWithoutPlanSpecs) {
  TestPlan plan;
  plan.managers = std::vector<Manager>{
      Manager{1, "solo", "", {disk_worker("W", {"4 kib; 100% read; 0% random", "oracle", "All in one"})}}};
  EXPECT_TRUE(validate(plan));
  first_worker(plan).assigned_specs->push_back("OLTP 8K mix");  // only in sample_plan()'s specs
  EXPECT_FALSE(validate(plan));
}

TEST(ValidatePlan, QueueDepthStartMustNotExceedEnd) {
  TestPlan plan = sample_plan();
  plan.setup->queue_depth_cycling = QueueDepthCycling{64, 32, 2, StepType::exponential};
  const auto result = validate(plan);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "test setup: 'Queue Depth Cycling start' is 64, above the end 32");
  EXPECT_EQ(result.error().field(), "queue_depth_start");
  plan.setup->queue_depth_cycling.end = 64;
  EXPECT_TRUE(validate(plan));
}

TEST(ValidatePlan, CyclingValuesMustBeAtLeastOne) {
  TestPlan plan = sample_plan();
  plan.setup->worker_cycling.step = 0;
  const auto worker = validate(plan);
  ASSERT_FALSE(worker);
  EXPECT_EQ(worker.error().message(), "test setup: 'Worker Cycling step' is 0, must be at least 1");

  plan = sample_plan();
  plan.setup->target_cycling.start = 0;
  const auto target = validate(plan);
  ASSERT_FALSE(target);
  EXPECT_EQ(target.error().message(), "test setup: 'Disk Cycling start' is 0, must be at least 1");
  EXPECT_EQ(target.error().field(), "target_cycling_start");

  plan = sample_plan();
  plan.setup->queue_depth_cycling.step = 0;
  const auto queue = validate(plan);
  ASSERT_FALSE(queue);
  EXPECT_EQ(queue.error().field(), "queue_depth_step");
}

TEST(ValidatePlan, RejectsEnumValuesOutsideTheirLiterals) {
  TestPlan plan = sample_plan();
  plan.setup->test_type = static_cast<TestType>(8);
  const auto type = validate(plan);
  ASSERT_FALSE(type);
  EXPECT_EQ(type.error().message(), "test setup: test type 8 is not a known value");

  plan = sample_plan();
  plan.setup->queue_depth_cycling.step_type = static_cast<StepType>(2);
  const auto queue_step = validate(plan);
  ASSERT_FALSE(queue_step);
  EXPECT_EQ(queue_step.error().field(), "queue_depth_step_type");

  plan = sample_plan();
  plan.setup->target_cycling.step_type = static_cast<StepType>(3);
  const auto target_step = validate(plan);
  ASSERT_FALSE(target_step);
  EXPECT_EQ(target_step.error().message(), "test setup: disk cycling step type 3 is not a known value");
  EXPECT_EQ(target_step.error().field(), "target_cycling_step_type");

  plan = sample_plan();
  plan.setup->record_results = static_cast<RecordResults>(5);
  EXPECT_FALSE(validate(plan));
}

TEST(ValidatePlan, DescriptionMustStayOnOneLine) {
  TestPlan plan = sample_plan();
  plan.setup->description = "two\nlines";
  const auto result = validate(plan);
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().message(), "test setup: description contains a line break");
}

TEST(ValidatePlan, ResultsDisplayChecksFrequencyAndBars) {
  TestPlan plan = sample_plan();
  plan.display->update_frequency_s = 7;
  const auto frequency = validate(plan);
  ASSERT_FALSE(frequency);
  EXPECT_EQ(frequency.error().field(), "update_frequency");

  plan = sample_plan();
  plan.display->bar_charts.push_back(BarChart{7, "Total Error Count", {}, "", {}, ""});
  const auto bar = validate(plan);
  ASSERT_FALSE(bar);
  EXPECT_EQ(bar.error().message(), "results display: bar chart 7 does not exist (1 to 6)");

  plan = sample_plan();
  plan.display->bar_charts.push_back(BarChart{2, "Total Error Count", {}, "", {}, ""});
  const auto twice = validate(plan);
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().message(), "results display: bar chart 2 is listed twice");
}

TEST(ValidatePlan, NamesTheManagerAndWorkerOfABadQueueDepth) {
  TestPlan plan = sample_plan();
  (*plan.managers)[1].workers[0].outstanding_ios = 0;
  const auto result = validate(plan);
  ASSERT_FALSE(result);
  EXPECT_EQ(
      result.error().message(),
      "manager 'hostB' (id 1), worker 'Worker 1': 'Number of outstanding IOs' is 0, must be at least 1");
  EXPECT_EQ(result.error().field(), "outstanding_ios");
}

TEST(ValidatePlan, ManagerAndWorkerNamesMustBeStorable) {
  TestPlan plan = sample_plan();
  (*plan.managers)[0].name = "";
  const auto empty = validate(plan);
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().message(), "manager '' (id 1): manager name is empty");

  plan = sample_plan();
  first_worker(plan).name = "bad\nname";
  const auto control = validate(plan);
  ASSERT_FALSE(control);
  EXPECT_EQ(control.error().field(), "worker_name");

  plan = sample_plan();
  first_worker(plan).name = std::string(128, 'w');
  EXPECT_FALSE(validate(plan));
  first_worker(plan).name = std::string(127, 'w');
  EXPECT_TRUE(validate(plan));
}

TEST(ValidatePlan, ManagerIdsStartAtOneAndDisambiguateSameNames) {
  TestPlan plan = sample_plan();
  (*plan.managers)[0].id = 0;
  const auto zero = validate(plan);
  ASSERT_FALSE(zero);
  EXPECT_EQ(zero.error().field(), "manager_id");

  plan = sample_plan();
  (*plan.managers)[1].name = "HOSTA";
  const auto twice = validate(plan);
  ASSERT_FALSE(twice);
  EXPECT_EQ(twice.error().message(),
            "manager 'HOSTA' (id 1): appears twice; same-named managers need distinct ids");
  (*plan.managers)[1].id = 2;
  EXPECT_TRUE(validate(plan));
}

TEST(ValidatePlan, TargetsMatchTheirWorkersType) {
  TestPlan plan = sample_plan();
  first_worker(plan).targets->push_back(Target{"192.0.2.30", WorkerType::network_tcp, 1, "hostB"});
  const auto mixed = validate(plan);
  ASSERT_FALSE(mixed);
  EXPECT_EQ(mixed.error().message(),
            "manager 'hostA' (id 1), worker 'Worker 1', target 2 '192.0.2.30': a disk worker can only drive "
            "disk targets");

  plan = sample_plan();
  (*plan.managers)[0].workers[1].targets->front().remote_manager_name.clear();
  const auto orphan = validate(plan);
  ASSERT_FALSE(orphan);
  EXPECT_NE(orphan.error().message().find("must name the manager"), std::string::npos);
}

TEST(FindSpec, MatchesCaseInsensitively) {
  const std::vector<AccessSpec> specs{one_line_spec("Alpha"), one_line_spec("Beta Mix")};
  ASSERT_NE(find_spec(specs, "beta mix"), nullptr);
  EXPECT_EQ(find_spec(specs, "BETA MIX"), &specs[1]);
  EXPECT_EQ(find_spec(specs, "alpha"), &specs[0]);
  EXPECT_EQ(find_spec(specs, "Beta"), nullptr);
  EXPECT_EQ(find_spec({}, "Alpha"), nullptr);
}

TEST(EnumLiterals, TestTypesMatchIometersOrder) {
  const std::vector<std::string_view> literals{"NORMAL",
                                               "CYCLE_TARGETS",
                                               "CYCLE_WORKERS",
                                               "INCREMENT_TARGETS_PARALLEL",
                                               "INCREMENT_TARGETS_SERIAL",
                                               "CYCLE_WORKERS_AND_TARGETS",
                                               "CYCLE_OUTSTANDING_IOS",
                                               "CYCLE_OUTSTANDING_IOS_AND_TARGETS"};
  for (std::size_t value = 0; value < literals.size(); ++value) {
    const auto type = static_cast<TestType>(value);
    EXPECT_EQ(to_string(type), literals[value]);
    EXPECT_EQ(parse_test_type(literals[value]), type);
  }
  EXPECT_EQ(to_string(static_cast<TestType>(8)), "");
  EXPECT_EQ(parse_test_type("cycle_outstanding_ios"), TestType::cycle_outstanding_ios);
  EXPECT_FALSE(parse_test_type("6"));
  EXPECT_FALSE(parse_test_type("CYCLE"));
}

TEST(EnumLiterals, RecordResultsMatchIometersOrder) {
  const std::vector<std::string_view> literals{"ALL", "NO_TARGETS", "NO_WORKERS", "NO_MANAGERS", "NONE"};
  for (std::size_t value = 0; value < literals.size(); ++value) {
    const auto record = static_cast<RecordResults>(value);
    EXPECT_EQ(to_string(record), literals[value]);
    EXPECT_EQ(parse_record_results(literals[value]), record);
  }
  EXPECT_EQ(parse_record_results("no_workers"), RecordResults::no_workers);
  EXPECT_FALSE(parse_record_results("0"));
  EXPECT_FALSE(parse_record_results("SOME"));
}

TEST(EnumLiterals, StepAndUpdateTypes) {
  EXPECT_EQ(to_string(StepType::linear), "LINEAR");
  EXPECT_EQ(to_string(StepType::exponential), "EXPONENTIAL");
  EXPECT_EQ(parse_step_type("Exponential"), StepType::exponential);
  EXPECT_EQ(parse_step_type("linear"), StepType::linear);
  EXPECT_FALSE(parse_step_type("1"));
  EXPECT_EQ(to_string(UpdateType::whole_test), "WHOLE_TEST");
  EXPECT_EQ(to_string(UpdateType::last_update), "LAST_UPDATE");
  EXPECT_EQ(parse_update_type("last_update"), UpdateType::last_update);
  EXPECT_FALSE(parse_update_type("LAST"));
}

}  // namespace
}  // namespace iomark::access_specs
