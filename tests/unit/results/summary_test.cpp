// Aggregation rules of docs/iometer-reference.md#statistics.
#include <gtest/gtest.h>

#include <chrono>

#include "fixtures.hpp"
#include "iomark/results/summary.hpp"

namespace iomark::results {
namespace {

using namespace std::chrono_literals;
using test_support::disk_worker;
using test_support::uniform_target;

TEST(Rates, BinaryAndDecimalMegabytes) {
  IoCounters counters;
  counters.record_read(1'048'576, 1000);
  counters.record_write(3 * 1'048'576, 1000);
  const Rates rates = rates_of(counters, 2s);
  EXPECT_DOUBLE_EQ(rates.iops, 1.0);
  EXPECT_DOUBLE_EQ(rates.read_iops, 0.5);
  EXPECT_DOUBLE_EQ(rates.write_iops, 0.5);
  EXPECT_DOUBLE_EQ(rates.mib_per_s, 2.0);
  EXPECT_DOUBLE_EQ(rates.read_mib_per_s, 0.5);
  EXPECT_DOUBLE_EQ(rates.write_mib_per_s, 1.5);
  EXPECT_DOUBLE_EQ(rates.mb_per_s, 2.097152);
  EXPECT_DOUBLE_EQ(rates.read_mb_per_s, 0.524288);
  EXPECT_DOUBLE_EQ(rates.write_mb_per_s, 1.572864);
}

TEST(Rates, ZeroWindowGivesZeroRates) {
  const TargetResult target = uniform_target("sdb", 10, 10, 4096, 1000);
  EXPECT_EQ(rates_of(target.counters, 0s), Rates{});
  EXPECT_EQ(rates_of(target.counters, Nanoseconds(-5)), Rates{});
}

TEST(Summary, TargetRatesUseTheWorkersWindow) {
  const WorkerResult worker = disk_worker("W", 4s, {uniform_target("a", 100, 300, 8192, 1000)});
  const Summary target = summarize_target(worker, worker.targets[0]);
  EXPECT_DOUBLE_EQ(target.rates.iops, 100.0);
  EXPECT_DOUBLE_EQ(target.rates.read_iops, 25.0);
  EXPECT_DOUBLE_EQ(target.rates.transactions_per_s, 100.0);
  EXPECT_EQ(target.run_time, 4s);
  EXPECT_EQ(target.spec_name, "Spec A");
}

TEST(Summary, WorkerAveragesAreIoWeighted) {
  // 100 I/Os at 1 ms and 300 at 3 ms: 2.5 ms per I/O, not the mean of the target means (2 ms).
  const WorkerSummary worker = summarize_worker(
      disk_worker("W", 10s, {uniform_target("a", 100, 0, 4096, 1'000'000), uniform_target("b", 0, 300, 4096, 3'000'000)}));
  EXPECT_DOUBLE_EQ(worker.total.average_response_ms(), 2.5);
  EXPECT_DOUBLE_EQ(worker.total.average_read_ms(), 1.0);
  EXPECT_DOUBLE_EQ(worker.total.average_write_ms(), 3.0);
  EXPECT_DOUBLE_EQ(worker.total.average_transaction_ms(), 2.5);
  EXPECT_DOUBLE_EQ(worker.total.maximum_response_ms(), 3.0);
  EXPECT_DOUBLE_EQ(worker.total.maximum_read_ms(), 1.0);
  EXPECT_DOUBLE_EQ(worker.total.rates.iops, 40.0);
  EXPECT_EQ(worker.total.counters.io_count(), 400u);
  EXPECT_EQ(worker.total.target_count, 2u);
  ASSERT_EQ(worker.targets.size(), 2u);
  EXPECT_DOUBLE_EQ(worker.targets[1].average_response_ms(), 3.0);
}

TEST(Summary, ManagerRatesAreSumsOfRatesOverEachWindow) {
  // 1000 I/Os over 10 s and 1000 over 20 s: 100 + 50 IOps, not 2000 I/Os / 20 s.
  ManagerResult manager;
  manager.workers = {disk_worker("W1", 10s, {uniform_target("a", 1000, 0, 512, 1000)}),
                     disk_worker("W2", 20s, {uniform_target("b", 1000, 0, 512, 1000)})};
  const ManagerSummary summary = summarize_manager(manager);
  EXPECT_DOUBLE_EQ(summary.total.rates.iops, 150.0);
  EXPECT_EQ(summary.total.run_time, 20s);
  EXPECT_EQ(summary.total.worker_count, 2u);
  EXPECT_EQ(summary.total.target_count, 2u);
  EXPECT_EQ(summary.total.counters.reads.count, 2000u);
}

TEST(Summary, PercentilesComeFromMergedHistograms) {
  // Half the I/Os at 1 ms, half at 9 ms, on different targets of different managers.
  RunResults run;
  run.managers.resize(2);
  run.managers[0].workers = {disk_worker("W", 1s, {uniform_target("a", 1000, 0, 512, 1'000'000)})};
  run.managers[1].workers = {disk_worker("W", 1s, {uniform_target("b", 1000, 0, 512, 9'000'000)})};
  const RunSummary summary = summarize_run(run);
  const CompactLatencyHistogram& merged = summary.all.counters.latency;
  EXPECT_EQ(merged.count(), 2000u);
  // Averaging each target's p90 would give 5 ms.
  EXPECT_NEAR(static_cast<double>(merged.percentile(90).count()), 9e6, 9e4);
  EXPECT_NEAR(static_cast<double>(merged.percentile(25).count()), 1e6, 1e4);
  EXPECT_EQ(merged.legacy_bins()[5], 1000u);  // 1-2 ms
  EXPECT_EQ(merged.legacy_bins()[7], 1000u);  // 5-10 ms
}

TEST(Summary, CpuAveragedPerManagerThenOverManagers) {
  RunResults run;
  run.managers.resize(2);
  run.managers[0].cpus = {CpuUtilization{10, 5, 5, 1, 2, 100}, CpuUtilization{30, 15, 15, 3, 4, 300}};
  run.managers[1].cpus = {CpuUtilization{50, 25, 25, 0, 0, 50}};
  run.managers[0].network = NetworkStats{10, 1, 2};
  run.managers[1].network = NetworkStats{5, 2, 3};
  run.managers[0].workers = {disk_worker("W", 1s, {uniform_target("a", 70, 0, 512, 1000)})};
  const RunSummary summary = summarize_run(run);
  const CpuUtilization& manager = *summary.managers[0].total.cpu;
  EXPECT_DOUBLE_EQ(manager.total_percent, 20.0);
  EXPECT_DOUBLE_EQ(manager.user_percent, 10.0);
  EXPECT_DOUBLE_EQ(manager.dpc_percent, 2.0);
  EXPECT_DOUBLE_EQ(manager.interrupt_percent, 3.0);
  EXPECT_DOUBLE_EQ(manager.interrupts_per_second, 400.0);
  const CpuUtilization& all = *summary.all.cpu;
  EXPECT_DOUBLE_EQ(all.total_percent, 35.0);
  EXPECT_DOUBLE_EQ(all.privileged_percent, 17.5);
  EXPECT_DOUBLE_EQ(all.interrupts_per_second, 450.0);
  EXPECT_EQ(*summary.all.network, (NetworkStats{15, 3, 5}));
  EXPECT_DOUBLE_EQ(summary.all.cpu_effectiveness(), 2.0);  // 70 IOps / 35 %
  EXPECT_DOUBLE_EQ(summary.managers[0].total.cpu_effectiveness(), 3.5);
  EXPECT_DOUBLE_EQ(summary.managers[1].total.cpu_effectiveness(), 0.0);  // no I/O
}

TEST(Summary, CpuEffectivenessIsZeroWithoutCpuData) {
  ManagerResult manager;
  manager.workers = {disk_worker("W", 1s, {uniform_target("a", 70, 0, 512, 1000)})};
  const ManagerSummary summary = summarize_manager(manager);
  EXPECT_EQ(*summary.total.cpu, CpuUtilization{});
  EXPECT_DOUBLE_EQ(summary.total.cpu_effectiveness(), 0.0);
  EXPECT_FALSE(summarize_worker(manager.workers[0]).total.cpu.has_value());
}

TEST(Summary, CommonSettingsAndAmbiguity) {
  ManagerResult manager;
  manager.workers = {disk_worker("W1", 1s, {}), disk_worker("W2", 1s, {})};
  manager.workers[0].queue_depth = 4;
  manager.workers[1].queue_depth = 4;
  manager.workers[0].starting_sector = 8;
  manager.workers[1].starting_sector = 8;
  manager.workers[1].maximum_size_sectors = 100;
  Summary summary = summarize_manager(manager).total;
  EXPECT_EQ(summary.queue_depth, 4u);
  EXPECT_EQ(summary.starting_sector, 8u);
  EXPECT_EQ(summary.maximum_size_sectors, std::nullopt);
  EXPECT_EQ(summary.transactions_per_connection, std::nullopt);  // connection rate off
  EXPECT_EQ(summary.spec_name, "Spec A");

  manager.workers[1].queue_depth = 5;
  manager.workers[1].spec_name = "Spec B";
  summary = summarize_manager(manager).total;
  EXPECT_EQ(summary.queue_depth, std::nullopt);
  EXPECT_EQ(summary.spec_name, "");
}

TEST(Summary, TransactionsPerConnectionNeedsConnectionRateEverywhere) {
  ManagerResult manager;
  manager.workers = {disk_worker("W1", 1s, {}), disk_worker("W2", 1s, {})};
  for (WorkerResult& worker : manager.workers) {
    worker.test_connection_rate = true;
    worker.transactions_per_connection = 7;
  }
  EXPECT_EQ(summarize_manager(manager).total.transactions_per_connection, 7u);
  manager.workers[1].transactions_per_connection = 8;
  EXPECT_EQ(summarize_manager(manager).total.transactions_per_connection, std::nullopt);
  manager.workers[1].transactions_per_connection = 7;
  manager.workers[1].test_connection_rate = false;
  EXPECT_EQ(summarize_manager(manager).total.transactions_per_connection, std::nullopt);
  EXPECT_EQ(summarize_worker(manager.workers[0]).total.transactions_per_connection, 7u);
  EXPECT_EQ(summarize_worker(manager.workers[1]).total.transactions_per_connection, std::nullopt);
}

TEST(Summary, SectorSettingsOnlyCountDiskWorkers) {
  ManagerResult manager;
  manager.workers = {disk_worker("W1", 1s, {}), disk_worker("W2", 1s, {})};
  manager.workers[0].starting_sector = 64;
  manager.workers[1].kind = WorkerKind::network;
  manager.workers[1].starting_sector = 99;
  EXPECT_EQ(summarize_manager(manager).total.starting_sector, 64u);
  manager.workers[0].kind = WorkerKind::network;
  EXPECT_EQ(summarize_manager(manager).total.starting_sector, std::nullopt);
  EXPECT_EQ(summarize_manager(manager).total.maximum_size_sectors, std::nullopt);
}

TEST(Summary, AllCountsAndMaxima) {
  const RunResults run = test_support::mixed_run(0, 0);
  const RunSummary summary = summarize_run(run);
  EXPECT_EQ(summary.all.manager_count, 2u);
  EXPECT_EQ(summary.all.worker_count, 3u);
  EXPECT_EQ(summary.all.target_count, 4u);
  EXPECT_EQ(summary.all.run_time, 20s);
  EXPECT_DOUBLE_EQ(summary.all.maximum_write_ms(), 12'000.0);  // sdc's 12 s write
  EXPECT_DOUBLE_EQ(summary.all.maximum_read_ms(), 9.0);        // /data's reads
  EXPECT_DOUBLE_EQ(summary.all.maximum_connection_ms(), 0.4);
  EXPECT_DOUBLE_EQ(summary.all.average_connection_ms(), 0.4);
  EXPECT_EQ(summary.all.counters.error_count(), 4u);
  EXPECT_EQ(summary.all.level, SummaryLevel::all);
  EXPECT_EQ(summary.managers[1].workers[0].targets[0].level, SummaryLevel::target);
}

TEST(Summary, EmptyRun) {
  const RunSummary summary = summarize_run(RunResults{});
  EXPECT_EQ(summary.all.manager_count, 0u);
  EXPECT_DOUBLE_EQ(summary.all.rates.iops, 0.0);
  EXPECT_DOUBLE_EQ(summary.all.average_response_ms(), 0.0);
  EXPECT_EQ(*summary.all.cpu, CpuUtilization{});
}

}  // namespace
}  // namespace iomark::results
