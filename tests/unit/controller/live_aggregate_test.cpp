// The console's live figures (LiveAggregate): a Dynamo's REPORT_UPDATE counters count in the
// ALL figure next to the agents' (I/Os, bytes, latency sums), and no percentile is given once
// its I/Os, timed only by legacy bin, are in.
#include "iomark/controller/live_aggregate.hpp"

#include <gtest/gtest.h>

#include <array>
#include <chrono>

namespace iomark::controller {
namespace {

using namespace std::chrono_literals;

// One worker with one target whose `counters` covered `interval`.
protocol::Sample sample_of(std::uint64_t sequence, Nanoseconds interval, IoCounters counters) {
  protocol::WorkerCounters worker;
  worker.window = interval;
  worker.targets.push_back({0, std::move(counters)});
  protocol::Sample sample;
  sample.sequence = sequence;
  sample.interval = interval;
  sample.phase = protocol::SamplePhase::recording;
  sample.workers.push_back(std::move(worker));
  return sample;
}

// An agent's counters: `reads` reads of 4 KiB, each timed exactly at `latency`.
IoCounters agent_reads(std::uint64_t reads, std::uint64_t latency_ns) {
  IoCounters counters;
  for (std::uint64_t i = 0; i < reads; ++i) counters.record_read(4096, latency_ns);
  return counters;
}

// A Dynamo's counters as DynamoConnection makes them from REPORT_UPDATE: counts, bytes and
// latency sums exact, latencies only by legacy bin (bin 5 here).
IoCounters dynamo_reads(std::uint64_t reads, std::uint64_t latency_ns) {
  IoCounters counters;
  counters.bytes_read = reads * 8192;
  counters.reads = {reads, reads * latency_ns, latency_ns};
  std::array<std::uint64_t, kLegacyLatencyBinCount> bins{};
  bins[5] = reads;
  counters.latency = CompactLatencyHistogram::from_legacy_bins(bins);
  return counters;
}

TEST(LiveAggregate, AgentsAloneGiveExactAveragesAndPercentiles) {
  LiveAggregate live;
  live.add(0, sample_of(1, 1s, agent_reads(1000, 1'000'000)));
  live.add(1, sample_of(1, 2s, agent_reads(1000, 3'000'000)));
  LiveFigures figures;
  live.fill(figures);
  EXPECT_DOUBLE_EQ(figures.iops, 1000.0 + 500.0);
  EXPECT_DOUBLE_EQ(figures.mb_per_s, (1000.0 * 4096 + 500.0 * 4096) / 1e6);
  EXPECT_NEAR(figures.average_ms, 2.0, 1e-9);
  ASSERT_TRUE(figures.p99_ms.has_value());
  EXPECT_NEAR(*figures.p99_ms, 3.0, 0.1);
}

TEST(LiveAggregate, ADynamosUpdateCountsInTheAllFigureWithoutPercentiles) {
  LiveAggregate live;
  live.add(0, sample_of(1, 1s, agent_reads(1000, 1'000'000)));
  live.add(1, sample_of(1, 1s, dynamo_reads(3000, 5'000'000)));
  LiveFigures figures;
  live.fill(figures);
  EXPECT_DOUBLE_EQ(figures.iops, 4000.0);
  EXPECT_DOUBLE_EQ(figures.mb_per_s, (1000.0 * 4096 + 3000.0 * 8192) / 1e6);
  // (1000 x 1 ms + 3000 x 5 ms) / 4000: the Dynamo's latency sums count as the agent's do.
  EXPECT_NEAR(figures.average_ms, 4.0, 1e-9);
  EXPECT_FALSE(figures.p99_ms.has_value()) << "a percentile of the agent's I/Os alone";

  // Its next update replaces the last; the agent's stays until it sends another.
  live.add(1, sample_of(2, 2s, dynamo_reads(1000, 1'000'000)));
  live.fill(figures);
  EXPECT_DOUBLE_EQ(figures.iops, 1000.0 + 500.0);
  EXPECT_NEAR(figures.average_ms, 1.0, 1e-9);
  EXPECT_EQ(live.lost(), 0U);
}

}  // namespace
}  // namespace iomark::controller
