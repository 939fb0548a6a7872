// CompactLatencyHistogram must give exactly LatencyHistogram's figures: every writer (results.csv's
// legacy bins, JSON, history, the GUI) formats the compact form now, so any difference would
// change their output. Each test builds both forms from the same latencies and compares.
#include "iomark/common/compact_latency_histogram.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cmath>
#include <random>
#include <vector>

namespace iomark {
namespace {

using std::chrono::microseconds;
using std::chrono::milliseconds;

// Latencies of one kind of target: log-normal around `median_ns`, a few dozen buckets wide;
// with `median_ns` 0 they spread over every scale from 1 ns to 300 s (the overflow bucket).
std::vector<std::int64_t> latencies(std::size_t count, double median_ns, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::lognormal_distribution<double> around(std::log(median_ns), 0.4);
  std::uniform_real_distribution<double> anywhere(0.0, std::log(300e9));
  std::vector<std::int64_t> values(count);
  for (auto& value : values) {
    value = static_cast<std::int64_t>(median_ns > 0 ? around(rng) : std::exp(anywhere(rng)));
  }
  return values;
}

struct BothForms {
  LatencyHistogram dense;
  CompactLatencyHistogram compact;
};

BothForms record_both(const std::vector<std::int64_t>& values) {
  BothForms both;
  for (const auto ns : values) {
    both.dense.record(Nanoseconds(ns));
    both.compact.record(Nanoseconds(ns));
  }
  return both;
}

void expect_same_figures(const LatencyHistogram& dense, const CompactLatencyHistogram& compact) {
  EXPECT_EQ(compact.count(), dense.count());
  EXPECT_EQ(compact.sum_ns(), dense.sum_ns());
  EXPECT_EQ(compact.min(), dense.min());
  EXPECT_EQ(compact.max(), dense.max());
  EXPECT_EQ(compact.mean(), dense.mean());
  EXPECT_EQ(compact.legacy_bins(), dense.legacy_bins());
  EXPECT_EQ(compact.legacy_bin_total(), dense.legacy_bin_total());
  EXPECT_EQ(compact.percentiles_cover_every_io(), dense.percentiles_cover_every_io());
  for (const double p : {0.0, 0.1, 1.0, 25.0, 50.0, 90.0, 99.0, 99.9, 99.99, 100.0}) {
    EXPECT_EQ(compact.percentile(p), dense.percentile(p)) << "p" << p;
  }
  EXPECT_EQ(compact.dense(), dense);
  EXPECT_EQ(CompactLatencyHistogram(dense), compact);
  // Every bucket outside the stored span is empty in the dense form too.
  const auto span = compact.span();
  for (std::size_t i = 0; i < LatencyHistogram::kBucketCount; ++i) {
    const bool inside = i >= compact.first_bucket() && i < compact.first_bucket() + span.size();
    EXPECT_EQ(inside ? span[i - compact.first_bucket()] : 0U, dense.buckets()[i]) << "bucket " << i;
  }
}

TEST(CompactLatencyHistogram, RecordingGivesTheDenseFigures) {
  for (const double median_ns : {0.0, 90.0, 80e3, 3e6}) {
    SCOPED_TRACE(median_ns);
    const auto both = record_both(latencies(5000, median_ns, 7));
    expect_same_figures(both.dense, both.compact);
  }
}

TEST(CompactLatencyHistogram, KeepsOnlyTheSpanFromMinimumToMaximum) {
  const auto both = record_both(latencies(5000, 200e3, 11));
  EXPECT_LT(both.compact.span().size(), 400U);  // of 2,049 buckets
  EXPECT_NE(both.compact.span().front(), 0U);
  EXPECT_NE(both.compact.span().back(), 0U);
  EXPECT_TRUE(CompactLatencyHistogram().span().empty());
}

TEST(CompactLatencyHistogram, MergeGivesTheDenseMerge) {
  // Overlapping, disjoint (below and above) and empty operands, in both orders.
  const std::array parts{record_both(latencies(3000, 50e3, 1)), record_both(latencies(3000, 60e3, 2)),
                         record_both(latencies(3000, 900, 3)), record_both(latencies(3000, 20e6, 4)),
                         record_both({})};
  for (const auto& first : parts) {
    for (const auto& second : parts) {
      auto dense = first.dense;
      auto compact = first.compact;
      dense.merge(second.dense);
      compact.merge(second.compact);
      expect_same_figures(dense, compact);
    }
  }
}

TEST(CompactLatencyHistogram, SinceGivesTheDenseInterval) {
  const auto earlier_values = latencies(4000, 300e3, 5);
  auto later_values = earlier_values;
  for (const auto ns : latencies(2000, 2e6, 6)) later_values.push_back(ns);
  const auto earlier = record_both(earlier_values);
  const auto later = record_both(later_values);
  expect_same_figures(later.dense.since(earlier.dense), later.compact.since(earlier.compact));
  expect_same_figures(later.dense.since(later.dense), later.compact.since(later.compact));
  expect_same_figures(later.dense.since(LatencyHistogram{}), later.compact.since(CompactLatencyHistogram{}));
}

TEST(CompactLatencyHistogram, LegacyBinsAloneAsInTheDenseForm) {
  std::array<std::uint64_t, kLegacyLatencyBinCount> bins{};
  bins[3] = 40;
  bins[7] = 2;
  auto dense = LatencyHistogram::from_legacy_bins(bins);
  auto compact = CompactLatencyHistogram::from_legacy_bins(bins);
  expect_same_figures(dense, compact);
  const auto timed = record_both(latencies(100, 70e3, 8));
  dense.merge(timed.dense);
  compact.merge(timed.compact);
  expect_same_figures(dense, compact);
  EXPECT_FALSE(compact.percentiles_cover_every_io());
}

TEST(CompactLatencyHistogram, RestoreSparseAcceptsAndRefusesAsTheDenseForm) {
  const auto both = record_both(latencies(2000, 1e6, 9));
  std::vector<std::uint32_t> indexes;
  std::vector<std::uint64_t> counts;
  for (std::size_t i = 0; i < LatencyHistogram::kBucketCount; ++i) {
    if (both.dense.buckets()[i] == 0) continue;
    indexes.push_back(static_cast<std::uint32_t>(i));
    counts.push_back(both.dense.buckets()[i]);
  }
  const auto min_ns = static_cast<std::uint64_t>(both.dense.min().count());
  const auto max_ns = static_cast<std::uint64_t>(both.dense.max().count());
  CompactLatencyHistogram restored;
  ASSERT_TRUE(CompactLatencyHistogram::restore_sparse(indexes, counts, both.dense.legacy_bins(),
                                                      both.dense.sum_ns(), min_ns, max_ns, restored));
  EXPECT_EQ(restored, both.compact);

  // A maximum whose bucket holds no I/O: refused by both forms, and `out` is left as it was.
  LatencyHistogram dense_out;
  EXPECT_FALSE(LatencyHistogram::restore_sparse(indexes, counts, both.dense.legacy_bins(), both.dense.sum_ns(),
                                                min_ns, max_ns * 2, dense_out));
  EXPECT_FALSE(CompactLatencyHistogram::restore_sparse(indexes, counts, both.dense.legacy_bins(),
                                                       both.dense.sum_ns(), min_ns, max_ns * 2, restored));
  EXPECT_EQ(restored, both.compact);
}

TEST(CompactLatencyHistogram, IsAFractionOfTheDenseSize) {
  CompactLatencyHistogram typical;
  for (int i = 0; i < 1000; ++i) typical.record(microseconds(100 + i % 60));
  const auto bytes = sizeof(CompactLatencyHistogram) + typical.span().size() * sizeof(std::uint64_t);
  EXPECT_LT(bytes * 20, sizeof(LatencyHistogram));
  typical.record(milliseconds(5));
  EXPECT_EQ(typical.percentile(100), milliseconds(5));
}

}  // namespace
}  // namespace iomark
