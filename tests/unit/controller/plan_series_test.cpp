#include "iomark/controller/plan_series.hpp"

#include <gtest/gtest.h>

#include "iomark/protocol/handshake.hpp"
#include "iomark/transport/in_memory.hpp"

namespace iomark::controller {
namespace {

using namespace access_specs;

// A connected manager as the controller sees it: the agent end sends only its inventory.
class FakeManager {
 public:
  FakeManager(const std::string& name, protocol::Inventory inventory) {
    auto pair = transport::make_in_memory_pair(
        protocol::make_hello(protocol::Role::agent, "iomark test", name, "", protocol::AuthMode::none),
        protocol::make_hello(protocol::Role::controller, "iomark test", "controller", "", protocol::AuthMode::none));
    EXPECT_TRUE(pair.has_value());
    agent_end_ = std::move(pair->agent_end);
    EXPECT_TRUE(agent_end_->send({0, 0, std::move(inventory)}).has_value());
    auto link = ManagerLink::open(std::move(pair->controller_end), std::chrono::seconds(5));
    EXPECT_TRUE(link.has_value());
    link_ = std::move(*link);
  }
  ManagerLink* link() { return link_.get(); }

 private:
  std::unique_ptr<protocol::Connection> agent_end_;
  std::unique_ptr<ManagerLink> link_;
};

protocol::Inventory inventory_with_sdb_and_data() {
  protocol::Inventory inventory;
  inventory.host_name = "host";
  inventory.cpu_count = 4;
  inventory.engines = {"null"};
  inventory.block_devices.push_back({"/dev/sdb", 1ULL << 30, 512, "disk", protocol::MountState::not_mounted, false});
  inventory.file_systems.push_back({"/data", "/dev/sdc1", "xfs", 1ULL << 40, 1ULL << 39, 4096, 0});
  return inventory;
}

Worker worker_on(std::vector<std::string> target_names, std::uint64_t maximum_sectors = 0) {
  Worker worker;
  worker.name = "Worker 1";
  worker.outstanding_ios = 4;
  worker.maximum_disk_size_sectors = maximum_sectors;
  worker.assigned_specs = std::vector<std::string>{"Database"};
  std::vector<Target> targets;
  for (auto& name : target_names) targets.push_back({std::move(name), WorkerType::disk, std::nullopt, ""});
  worker.targets = std::move(targets);
  return worker;
}

TestPlan plan_for(std::vector<Manager> managers) {
  TestSetup setup;
  setup.run_time_s = 5;
  setup.test_type = TestType::cycle_outstanding_ios;
  setup.queue_depth_cycling = {1, 4, 2, StepType::exponential};
  return TestPlan{setup, std::nullopt, std::nullopt, std::move(managers)};
}

TEST(PlanSeries, MapsLegacyTargetNamesOntoTheInventory) {
  FakeManager manager("db1", inventory_with_sdb_and_data());
  const auto plan = plan_for({{1, "db1", "", {worker_on({"sdb", "/data [xfs]", "/tmp/t.dat"}, 1000)}}});
  const auto series = plan_series(plan, {manager.link()}, {});
  ASSERT_TRUE(series.has_value()) << series.error().describe();
  ASSERT_EQ(series->series.runs.size(), 3U);  // QD 1, 2, 4
  const auto& first = series->series.runs[0].managers.at(0);
  const auto& targets = first.assignment.workers.at(0).targets;
  ASSERT_EQ(targets.size(), 3U);
  EXPECT_EQ(targets[0].path, "/dev/sdb");
  EXPECT_EQ(targets[1].path, "/data");
  EXPECT_EQ(targets[2].path, "/tmp/t.dat");
  EXPECT_EQ(series->series.runs[2].info.queue_depth, 4U);
  EXPECT_EQ(series->series.runs[2].managers[0].assignment.workers[0].targets[0].outstanding_ios, 4U);
  // Test files are offered once, in the first run, sized in the file system's blocks.
  ASSERT_EQ(first.prepare.size(), 3U);
  EXPECT_EQ(first.prepare[1].size_bytes, 1000U * 4096U);
  EXPECT_TRUE(series->series.runs[1].managers[0].prepare.empty());
  EXPECT_TRUE(series->notes.empty());  // paired by name, sizes given
}

TEST(PlanSeries, PairsByNameThenByOrderAndSaysSo) {
  FakeManager alpha("alpha", inventory_with_sdb_and_data());
  FakeManager beta("beta", inventory_with_sdb_and_data());
  const auto plan = plan_for({{1, "M1", "", {worker_on({"sdb"})}}, {1, "beta", "", {worker_on({"sdb"})}}});
  const auto series = plan_series(plan, {alpha.link(), beta.link()}, {});
  ASSERT_TRUE(series.has_value()) << series.error().describe();
  const auto& run = series->series.runs[0];
  ASSERT_EQ(run.managers.size(), 2U);
  EXPECT_EQ(run.managers[0].manager, 0U);  // M1 -> alpha, the one left over
  EXPECT_EQ(run.managers[1].manager, 1U);  // beta -> beta, by name
  ASSERT_FALSE(series->notes.empty());
  EXPECT_NE(series->notes[0].find("'M1' runs on 'alpha' (by order"), std::string::npos);
}

TEST(PlanSeries, MapOverridesTheNames) {
  FakeManager alpha("alpha", inventory_with_sdb_and_data());
  FakeManager beta("beta", inventory_with_sdb_and_data());
  const auto plan = plan_for({{1, "alpha", "", {worker_on({"sdb"})}}});
  PlanSeriesOptions options;
  options.manager_map = {{"alpha", "beta"}};
  const auto series = plan_series(plan, {alpha.link(), beta.link()}, options);
  ASSERT_TRUE(series.has_value()) << series.error().describe();
  EXPECT_EQ(series->series.runs[0].managers[0].manager, 1U);
}

TEST(PlanSeries, ATargetTheManagerLacksIsAnErrorBeforeAnythingStarts) {
  FakeManager manager("db1", inventory_with_sdb_and_data());
  const auto windows = plan_series(plan_for({{1, "db1", "", {worker_on({"I:local"})}}}), {manager.link()}, {});
  ASSERT_FALSE(windows.has_value());
  EXPECT_EQ(windows.error().code(), ErrorCode::not_found);
  EXPECT_NE(windows.error().message().find("manager 'db1', worker 'Worker 1', target 'I:local'"), std::string::npos);
  const auto placeholder =
      plan_series(plan_for({{1, "db1", "", {worker_on({"[*TARGET*]"})}}}), {manager.link()}, {});
  ASSERT_FALSE(placeholder.has_value());
  EXPECT_NE(placeholder.error().message().find("template placeholder"), std::string::npos);
}

TEST(PlanSeries, MoreManagersThanConnectedIsAnError) {
  FakeManager only("db1", inventory_with_sdb_and_data());
  const auto plan = plan_for({{1, "a", "", {worker_on({"sdb"})}}, {1, "b", "", {worker_on({"sdb"})}}});
  const auto series = plan_series(plan, {only.link()}, {});
  ASSERT_FALSE(series.has_value());
  EXPECT_NE(series.error().message().find("no connected manager"), std::string::npos);
}

TEST(PlanSeries, RunUntilStoppedNeedsATime) {
  FakeManager manager("db1", inventory_with_sdb_and_data());
  auto plan = plan_for({{1, "db1", "", {worker_on({"sdb"})}}});
  plan.setup->run_time_s = 0;
  EXPECT_FALSE(plan_series(plan, {manager.link()}, {}).has_value());
  PlanSeriesOptions options;
  options.request.run_time_s = 3;
  const auto series = plan_series(plan, {manager.link()}, options);
  ASSERT_TRUE(series.has_value());
  EXPECT_EQ(series->series.run_time_s, 3U);
}

TEST(PlanSeries, APtsIopsTestRunsThePlansOneRunOverTheMatrixPreconditionedOnce) {
  FakeManager manager("db1", inventory_with_sdb_and_data());
  auto plan = plan_for({{1, "db1", "", {worker_on({"sdb"}, 1000)}}});
  plan.setup->test_type = TestType::normal;
  PlanSeriesOptions options;
  options.request.pts_iops = PtsIopsMatrix{.read_percents = {100, 0}, .block_bytes = {4096, 8192}};
  options.request.precondition_passes = 2;
  options.request.steady_state =
      SteadyStateRequest{.figure = SteadyFigure::iops, .max_rounds = 25, .tracked_spec = "PTS 4 KiB 0/100"};
  const auto series = plan_series(plan, {manager.link()}, options);
  ASSERT_TRUE(series.has_value()) << series.error().describe();
  const auto& runs = series->series.runs;
  ASSERT_EQ(runs.size(), 4U);
  std::vector<std::string> specs;
  for (const auto& run : runs) specs.push_back(run.managers.at(0).assignment.workers.at(0).spec.name);
  EXPECT_EQ(specs, (std::vector<std::string>{"PTS 4 KiB 100/0", "PTS 8 KiB 100/0", "PTS 4 KiB 0/100", "PTS 8 KiB 0/100"}));
  EXPECT_EQ(runs[3].info.specs.at(0).name, "PTS 8 KiB 0/100");
  EXPECT_EQ(runs[0].managers[0].assignment.workers[0].targets.at(0).path, "/dev/sdb");
  ASSERT_EQ(runs[0].managers[0].prepare.size(), 1U);
  EXPECT_EQ(runs[0].managers[0].prepare[0].precondition_passes, 2U);
  for (std::size_t r = 1; r < runs.size(); ++r) EXPECT_TRUE(runs[r].managers[0].prepare.empty()) << r;
  ASSERT_TRUE(series->series.steady_state);
  EXPECT_EQ(series->series.steady_state->tracked_run, 2U);
  ASSERT_TRUE(series->series.pts_iops);
  ASSERT_TRUE(series->series.precondition);
  EXPECT_EQ(series->series.precondition->targets, (std::vector<std::string>{"db1: /dev/sdb"}));

  // A plan of several runs (QD 1, 2, 4) has no one run to repeat.
  const auto cycling = plan_series(plan_for({{1, "db1", "", {worker_on({"sdb"}, 1000)}}}), {manager.link()}, options);
  ASSERT_FALSE(cycling);
  EXPECT_EQ(cycling.error().field(), "PTS IOPS");
  EXPECT_NE(cycling.error().message().find("this series has 3"), std::string::npos) << cycling.error().message();
}

TEST(PlanSeries, AWorkersRateIsItsScheduleUnlessTheRequestSharesOneOverEveryWorker) {
  FakeManager manager("db1", inventory_with_sdb_and_data());
  auto rated = worker_on({"sdb"}, 1000);
  rated.rate_iops = 2500;
  auto unrated = worker_on({"sdb"}, 1000);
  unrated.name = "Worker 2";
  auto plan = plan_for({{1, "db1", "", {rated, unrated}}});
  plan.setup->test_type = TestType::normal;
  const auto series = plan_series(plan, {manager.link()}, {});
  ASSERT_TRUE(series.has_value()) << series.error().describe();
  const auto& workers = series->series.runs.at(0).managers.at(0).assignment.workers;
  ASSERT_EQ(workers.size(), 2U);
  EXPECT_DOUBLE_EQ(workers[0].rate_iops, 2500);
  EXPECT_DOUBLE_EQ(workers[1].rate_iops, 0) << "as fast as it can";

  PlanSeriesOptions shared;
  shared.request.rate_iops = 1000;
  const auto replaced = plan_series(plan, {manager.link()}, shared);
  ASSERT_TRUE(replaced.has_value()) << replaced.error().describe();
  for (const auto& worker : replaced->series.runs.at(0).managers.at(0).assignment.workers) {
    EXPECT_DOUBLE_EQ(worker.rate_iops, 500) << "--rate-iops replaces the plan's rates";
  }

  plan.managers->at(0).workers[0].rate_iops = 1e9;
  const auto refused = plan_series(plan, {manager.link()}, {});
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find("outside 0.01 to"), std::string::npos) << refused.error().describe();
}

TEST(ParseManagerMap, NeedsBothSides) {
  EXPECT_EQ(parse_manager_map("old=new").value(), (std::pair<std::string, std::string>{"old", "new"}));
  EXPECT_FALSE(parse_manager_map("old").has_value());
  EXPECT_FALSE(parse_manager_map("=new").has_value());
  EXPECT_FALSE(parse_manager_map("old=").has_value());
}

}  // namespace
}  // namespace iomark::controller
