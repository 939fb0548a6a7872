#include "iomark/cli_text/plan_report.hpp"

#include <gtest/gtest.h>

namespace iomark::cli_text {
namespace {

using namespace access_specs;

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TestPlan sample_plan() {
  TestSetup setup;
  setup.description = "nightly sweep";
  setup.run_time_s = 90;
  setup.ramp_up_s = 15;
  setup.test_type = TestType::cycle_outstanding_ios;
  setup.queue_depth_cycling = {1, 8, 2, StepType::exponential};
  Worker worker;
  worker.name = "Worker 1";
  worker.outstanding_ios = 16;
  worker.use_fixed_seed = true;
  worker.fixed_seed = 12345;
  worker.assigned_specs = std::vector<std::string>{"OLTP 8K mix"};
  worker.targets = std::vector<Target>{{"sdb", WorkerType::disk, std::nullopt, ""}, {"/data [xfs]", WorkerType::disk, std::nullopt, ""}};
  AccessSpec spec{"OLTP 8K mix", DefaultAssignment::disk, {{8192, 70, 67, 100, 0, 1, 8192, 0}, {65536, 30, 100, 0, 0, 1, 0, 0}}};
  return TestPlan{setup, std::nullopt, std::vector<AccessSpec>{spec},
                  std::vector<Manager>{{1, "hostA", "192.0.2.10", {worker}}}};
}

TEST(DescribePlan, ShowsSetupWithTheRunsCyclingMakes) {
  const auto text = describe_plan(sample_plan());
  EXPECT_TRUE(contains(text, "nightly sweep"));
  EXPECT_TRUE(contains(text, "1 min 30 s"));
  EXPECT_TRUE(contains(text, "CYCLE_OUTSTANDING_IOS"));
  EXPECT_TRUE(contains(text, "-> 1,2,4,8"));
}

// The increment types step the target count by the target cycling settings: those are shown.
TEST(DescribePlan, ShowsTheCyclingSettingsTheTestTypeUses) {
  auto plan = sample_plan();
  for (const auto type : {TestType::increment_targets_parallel, TestType::increment_targets_serial}) {
    plan.setup->test_type = type;
    const auto text = describe_plan(plan);
    EXPECT_TRUE(contains(text, "Target cycling")) << text;
    EXPECT_FALSE(contains(text, "Outstanding I/Os  ")) << text;
    EXPECT_FALSE(contains(text, "Worker cycling")) << text;
  }
  plan.setup->test_type = TestType::normal;
  EXPECT_FALSE(contains(describe_plan(plan), "cycling"));
}

TEST(DescribePlan, ShowsSpecLinesAndTopology) {
  const auto text = describe_plan(sample_plan());
  EXPECT_TRUE(contains(text, "\"OLTP 8K mix\" (default assignment DISK, 2 lines)"));
  EXPECT_TRUE(contains(text, "64 KiB"));
  EXPECT_TRUE(contains(text, "Manager \"hostA\" at 192.0.2.10"));
  EXPECT_TRUE(contains(text, "outstanding I/Os 16"));
  EXPECT_TRUE(contains(text, "fixed seed 12345"));
  EXPECT_TRUE(contains(text, "targets: sdb, /data [xfs]"));
}

TEST(DescribePlan, ShowsAWorkersRate) {
  auto plan = sample_plan();
  EXPECT_FALSE(contains(describe_plan(plan), "rate"));
  (*plan.managers)[0].workers[0].rate_iops = 2500;
  EXPECT_TRUE(contains(describe_plan(plan), ", rate 2500 IOPS")) << describe_plan(plan);
  (*plan.managers)[0].workers[0].rate_iops = 0.25;
  EXPECT_TRUE(contains(describe_plan(plan), ", rate 0.25 IOPS")) << describe_plan(plan);
}

TEST(DescribePlan, SaysSoWhenNothingIsThere) {
  EXPECT_EQ(describe_plan(TestPlan{}), "The plan is empty: no section was found.\n");
}

TEST(DescribeSpec, UsesSectorAndNoneForZeroAlignAndReply) {
  const auto text = describe_spec({"Database", DefaultAssignment::none, {{8192, 100, 67, 100, 0, 1, 0, 0}}});
  EXPECT_TRUE(contains(text, "8 KiB"));
  EXPECT_TRUE(contains(text, "sector"));
  EXPECT_TRUE(contains(text, "none"));
  EXPECT_TRUE(contains(text, "67%"));
}

}  // namespace
}  // namespace iomark::cli_text
