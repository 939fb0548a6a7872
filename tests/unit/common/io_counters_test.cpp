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
