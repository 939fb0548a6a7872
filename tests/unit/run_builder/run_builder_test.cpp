#include "iomark/run_builder/run_builder.hpp"

#include <gtest/gtest.h>

#include "iomark/access_specs/builtin_specs.hpp"

namespace iomark::run_builder {
namespace {

access_specs::RunRequest two_targets() {
  access_specs::RunRequest request;
  request.targets = {"/data", "/dev/sdb"};
  request.spec = *access_specs::find_builtin_spec("Database");
  request.outstanding_ios = {1, 4};
  request.workers = 3;
  request.engine = "linux-aio";
  request.buffered = true;
  request.test_file_bytes = 1 << 20;
  request.write_data = *access_specs::parse_write_data("compress:2");
  return request;
}

TEST(RunBuilder, RequestedWorkIsEveryWorkerOnEveryTargetPlacedAcrossTheCpus) {
  RunBuilder builder;
  const auto request = two_targets();
  const auto work = builder.requested_work(request, 5, 2, 8);
  EXPECT_EQ(work.manager, 5U);
  EXPECT_EQ(work.assignment.engine, "linux-aio");
  EXPECT_TRUE(work.assignment.buffered);
  ASSERT_EQ(work.assignment.workers.size(), 3U);
  for (std::uint32_t w = 0; w < 3; ++w) {
    const auto& worker = work.assignment.workers[w];
    EXPECT_EQ(worker.name, "Worker " + std::to_string(w + 1));
    EXPECT_EQ(worker.cpu, w % 2) << "two CPUs: 0, 1, 0";
    EXPECT_EQ(worker.spec, request.spec);
    ASSERT_EQ(worker.targets.size(), 2U);
    for (std::size_t t = 0; t < 2; ++t) {
      EXPECT_EQ(worker.targets[t].path, request.targets[t]);
      EXPECT_EQ(worker.targets[t].outstanding_ios, 8U);
      EXPECT_EQ(worker.targets[t].data_pattern, request.write_data.pattern);
      EXPECT_EQ(worker.targets[t].data_reduction, request.write_data.reduction);
    }
  }
  // One test file per path, though three workers drive it.
  ASSERT_EQ(work.prepare.size(), 2U);
  EXPECT_EQ(work.prepare[0].path, "/data");
  EXPECT_EQ(work.prepare[0].size_bytes, 1U << 20);
  EXPECT_EQ(work.prepare[0].data_reduction, request.write_data.reduction);
  EXPECT_EQ(work.prepare[0].seed, work.assignment.workers[0].targets[0].seed);
}

TEST(RunBuilder, CpusGivenPlaceTheWorkersInOrderAndRepeat) {
  RunBuilder builder;
  auto request = two_targets();
  request.cpus = {6, 2};
  const auto work = builder.requested_work(request, 0, 64, 1);
  ASSERT_EQ(work.assignment.workers.size(), 3U);
  EXPECT_EQ(work.assignment.workers[0].cpu, 6U);
  EXPECT_EQ(work.assignment.workers[1].cpu, 2U);
  EXPECT_EQ(work.assignment.workers[2].cpu, 6U);
}

TEST(RunBuilder, TestFilesArePlannedOncePerManagerAndPathAcrossTheRuns) {
  RunBuilder builder;
  const auto request = two_targets();
  EXPECT_EQ(builder.requested_work(request, 0, 4, 1).prepare.size(), 2U);
  EXPECT_EQ(builder.requested_work(request, 1, 4, 1).prepare.size(), 2U) << "another manager makes its own";
  EXPECT_TRUE(builder.requested_work(request, 0, 4, 4).prepare.empty()) << "the second run reuses the files";

  ManagerWork work{.manager = 2, .assignment = {}, .prepare = {}};
  const std::vector<TargetPlan> targets{{.path = "/a", .outstanding_ios = 1, .test_file_bytes = 4096},
                                        {.path = "/dev/sdc", .outstanding_ios = 1, .test_file_bytes = 0}};
  EXPECT_EQ(builder.add_worker(work, 1, {.name = "w1"}, targets), std::vector<std::string>{"/a"}) << "0 bytes: no file";
  EXPECT_TRUE(builder.add_worker(work, 1, {.name = "w2", .position = 1}, targets).empty());
  EXPECT_EQ(work.prepare.size(), 1U);
  EXPECT_EQ(work.assignment.workers[1].cpu, 0U) << "one CPU holds every worker";
}

TEST(RunBuilder, AFixedSeedIsEveryTargetsAndFreshSeedsDiffer) {
  RunBuilder builder;
  auto request = two_targets();
  request.seed = 42;
  for (const auto& worker : builder.requested_work(request, 0, 1, 1).assignment.workers) {
    for (const auto& target : worker.targets) EXPECT_EQ(target.seed, 42U);
  }
  request.seed.reset();
  const auto work = builder.requested_work(request, 0, 1, 1);
  EXPECT_NE(work.assignment.workers[0].targets[0].seed, work.assignment.workers[0].targets[1].seed);
  EXPECT_NE(work.assignment.workers[0].targets[0].seed, work.assignment.workers[1].targets[0].seed);
  EXPECT_EQ(builder.seed(7), 7U);
  EXPECT_NE(builder.seed(std::nullopt), builder.seed(std::nullopt));
}

TEST(RunBuilder, APlanWorkersSectorsAndJournalReachEveryTarget) {
  RunBuilder builder;
  ManagerWork work;
  const std::vector<TargetPlan> targets{{.path = "/dev/sdb", .outstanding_ios = 16, .test_file_bytes = 0}};
  (void)builder.add_worker(work, 8,
                           {.name = "Worker 3",
                            .position = 10,
                            .spec = *access_specs::find_builtin_spec("Database"),
                            .maximum_size_sectors = 2048,
                            .starting_sector = 64,
                            .verify = true,
                            .verify_journal = "/var/j"},
                           targets);
  const auto& worker = work.assignment.workers.at(0);
  EXPECT_EQ(worker.cpu, 2U);
  const auto& target = worker.targets.at(0);
  EXPECT_EQ(target.maximum_size_sectors, 2048U);
  EXPECT_EQ(target.starting_sector, 64U);
  EXPECT_EQ(target.outstanding_ios, 16U);
  EXPECT_TRUE(target.verify);
  EXPECT_EQ(target.verify_journal, "/var/j");
  EXPECT_FALSE(target.network);
}

TEST(ShareRateIops, EveryDiskWorkerOfEveryManagerGetsAnEqualShare) {
  RunBuilder builder;
  auto request = two_targets();
  std::vector<ManagerWork> managers{builder.requested_work(request, 0, 2, 4), builder.requested_work(request, 1, 2, 4)};
  protocol::WorkerAssignment network_worker{.name = "Worker 4", .cpu = 0, .spec = request.spec, .targets = {}};
  network_worker.targets.push_back({});
  network_worker.targets.back().network = protocol::NetworkEndpoint{};
  managers[1].assignment.workers.push_back(network_worker);
  ASSERT_TRUE(share_rate_iops(managers, 6000));
  for (const auto& manager : managers) {
    for (const auto& worker : manager.assignment.workers) {
      EXPECT_EQ(worker.rate_iops, worker.targets.front().network ? 0.0 : 1000.0)
          << worker.name << ": six disk workers share 6000; a network worker has no schedule";
    }
  }
}

TEST(ShareRateIops, RefusesAShareOutsideTheWorkersLimitsOrNoDiskWorker) {
  RunBuilder builder;
  auto request = two_targets();
  std::vector<ManagerWork> managers{builder.requested_work(request, 0, 2, 4)};
  const auto tiny = share_rate_iops(managers, 0.01);  // 0.0033 each
  ASSERT_FALSE(tiny);
  EXPECT_EQ(tiny.error().field(), "--rate-iops");
  EXPECT_NE(tiny.error().message().find("3 disk workers"), std::string::npos) << tiny.error().message();
  EXPECT_FALSE(share_rate_iops(managers, 1e9));
  std::vector<ManagerWork> none{ManagerWork{}};
  EXPECT_FALSE(share_rate_iops(none, 100));
  for (const auto& worker : managers[0].assignment.workers) EXPECT_EQ(worker.rate_iops, 0.0) << "refused: untouched";
}

TEST(Precondition, EveryTargetIsPreconditionedWhereItsTestFileIsPlannedOnly) {
  RunBuilder builder;
  auto request = two_targets();
  std::vector<ManagerWork> first{builder.requested_work(request, 0, 2, 4), builder.requested_work(request, 1, 2, 4)};
  std::vector<ManagerWork> second{builder.requested_work(request, 0, 2, 8)};
  precondition(first, 3);
  precondition(second, 3);
  for (const auto& manager : first) {
    ASSERT_EQ(manager.prepare.size(), request.targets.size()) << "each path once per manager";
    for (const auto& prepare : manager.prepare) EXPECT_EQ(prepare.precondition_passes, 3U) << prepare.path;
  }
  EXPECT_TRUE(second.front().prepare.empty()) << "a later run finds its targets preconditioned";
}

}  // namespace
}  // namespace iomark::run_builder
