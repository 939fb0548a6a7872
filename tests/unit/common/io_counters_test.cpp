#include "iomark/common/io_counters.hpp"

#include <gtest/gtest.h>

namespace iomark {
namespace {

TEST(IoCounters, RecordsBytesLatenciesAndHistogram) {
  IoCounters counters;
  counters.record_read(4096, 1'000);
  counters.record_read(4096, 3'000);
  counters.record_write(8192, 10'000);
  EXPECT_EQ(counters.bytes_read, 8192U);
  EXPECT_EQ(counters.bytes_written, 8192U);
  EXPECT_EQ(counters.reads.count, 2U);
  EXPECT_EQ(counters.reads.sum_ns, 4'000U);
  EXPECT_EQ(counters.reads.max_ns, 3'000U);
  EXPECT_DOUBLE_EQ(counters.reads.mean_ms(), 0.002);
  EXPECT_EQ(counters.io_count(), 3U);
  EXPECT_EQ(counters.latency.count(), 3U);
  EXPECT_EQ(counters.latency.max(), Nanoseconds(10'000));
}

TEST(IoCounters, MergeEqualsRecordingEverythingInOne) {
  IoCounters a;
  IoCounters b;
  IoCounters both;
  for (std::uint64_t i = 1; i <= 100; ++i) {
    auto& half = i % 2 == 0 ? a : b;
    if (i % 3 == 0) {
      half.record_write(512 * i, i * 997);
      both.record_write(512 * i, i * 997);
    } else {
      half.record_read(512 * i, i * 1009);
      both.record_read(512 * i, i * 1009);
    }
  }
  a.read_errors = 2;
  b.write_errors = 5;
  both.read_errors = 2;
  both.write_errors = 5;
  a.merge(b);
  EXPECT_EQ(a, both);
  EXPECT_EQ(a.error_count(), 7U);
}

TEST(LatencyTotals, MeanOfNothingIsZero) { EXPECT_EQ(LatencyTotals{}.mean_ms(), 0.0); }

}  // namespace
}  // namespace iomark

namespace iomark {
namespace {

TEST(IoCountersSince, CountsAndSumsOfTheIntervalAreExact) {
  IoCounters counters;
  counters.record_read(4096, 5'000);
  counters.record_write(4096, 90'000);  // the maximum so far
  const auto earlier = counters;
  counters.record_read(4096, 7'000);
  counters.record_read(4096, 200'000);  // a new read maximum
  counters.record_write(8192, 3'000);   // below the earlier write maximum
  ++counters.write_errors;
  const auto interval = counters.since(earlier);
  EXPECT_EQ(interval.reads.count, 2U);
  EXPECT_EQ(interval.reads.sum_ns, 207'000U);
  EXPECT_EQ(interval.reads.max_ns, 200'000U);  // exact: set in this interval
  EXPECT_EQ(interval.writes.count, 1U);
  EXPECT_EQ(interval.writes.sum_ns, 3'000U);
  EXPECT_LE(interval.writes.max_ns, interval.writes.sum_ns);  // unknown, but bounded
  EXPECT_EQ(interval.bytes_read, 8192U);
  EXPECT_EQ(interval.bytes_written, 8192U);
  EXPECT_EQ(interval.write_errors, 1U);
  EXPECT_EQ(interval.latency.count(), 3U);
}

TEST(IoCountersSince, NoNewIoGivesZeroTotals) {
  IoCounters counters;
  counters.record_read(512, 1'000);
  const auto interval = counters.since(counters);
  EXPECT_EQ(interval, IoCounters{});
}

}  // namespace
}  // namespace iomark
