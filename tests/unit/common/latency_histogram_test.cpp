#include "iomark/common/latency_histogram.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cmath>
#include <random>
#include <utility>
#include <vector>

namespace iomark {
namespace {

using std::chrono::milliseconds;
using std::chrono::microseconds;
using std::chrono::seconds;

// Latencies spread log-uniformly from 100 ns to 200 s: every scale the histogram covers.
std::vector<std::uint64_t> log_uniform_samples(std::size_t count, std::uint32_t seed) {
  std::mt19937_64 rng(seed);
  std::uniform_real_distribution<double> exponent(std::log(100.0), std::log(200e9));
  std::vector<std::uint64_t> samples(count);
  for (auto& sample : samples) sample = static_cast<std::uint64_t>(std::exp(exponent(rng)));
  return samples;
}

LatencyHistogram histogram_of(const std::vector<std::uint64_t>& samples) {
  LatencyHistogram histogram;
  for (auto ns : samples) histogram.record(Nanoseconds(static_cast<std::int64_t>(ns)));
  return histogram;
}

// The exact percentile by the same rank definition: the ceil(p% * n)-th smallest sample.
std::uint64_t exact_percentile(std::vector<std::uint64_t> sorted, double percentile) {
  const auto rank = std::max<std::size_t>(
      1, static_cast<std::size_t>(std::ceil(static_cast<double>(sorted.size()) * percentile / 100.0)));
  return sorted[rank - 1];
}

TEST(LatencyHistogram, FitsInSixtyFourKibibytes) { EXPECT_LE(sizeof(LatencyHistogram), 64U * 1024U); }

TEST(LatencyHistogram, EmptyReportsZeros) {
  const LatencyHistogram empty;
  EXPECT_EQ(empty.count(), 0U);
  EXPECT_EQ(empty.min(), Nanoseconds(0));
  EXPECT_EQ(empty.max(), Nanoseconds(0));
  EXPECT_EQ(empty.mean(), Nanoseconds(0));
  EXPECT_EQ(empty.percentile(99), Nanoseconds(0));
}

TEST(LatencyHistogram, PercentilesWithinOnePercentFrom100nsTo200s) {
  auto samples = log_uniform_samples(200'000, 7);
  const auto histogram = histogram_of(samples);
  std::sort(samples.begin(), samples.end());
  for (double p : {0.1, 1.0, 10.0, 25.0, 50.0, 75.0, 90.0, 99.0, 99.9, 99.99}) {
    const auto exact = static_cast<double>(exact_percentile(samples, p));
    const auto reported = static_cast<double>(histogram.percentile(p).count());
    if (exact > 137e9) {
      // Beyond the last bucket (2^37 ns) the histogram answers with the exact maximum.
      EXPECT_EQ(reported, static_cast<double>(samples.back())) << "p" << p;
    } else {
      EXPECT_LE(std::fabs(reported - exact) / exact, 0.01) << "p" << p << " exact " << exact;
    }
  }
  EXPECT_EQ(histogram.percentile(100).count(), static_cast<std::int64_t>(samples.back()));
  EXPECT_EQ(histogram.percentile(0).count(), static_cast<std::int64_t>(samples.front()));
}

TEST(LatencyHistogram, EveryPercentileOfAnyValueWithinOnePercent) {
  // One sample at a time, across the whole range: the single-value histogram must report
  // that value within 1% (and exactly, through the min/max clamp).
  for (std::uint64_t ns = 100; ns < 150'000'000'000ULL; ns = ns * 13 / 10 + 1) {
    LatencyHistogram histogram;
    histogram.record(Nanoseconds(static_cast<std::int64_t>(ns)));
    histogram.record(Nanoseconds(static_cast<std::int64_t>(ns * 3)));
    const auto p25 = static_cast<double>(histogram.percentile(25).count());
    EXPECT_LE(std::fabs(p25 - static_cast<double>(ns)) / static_cast<double>(ns), 0.01) << ns;
  }
}

TEST(LatencyHistogram, MergeIsTheHistogramOfTheUnion) {
  const auto a_samples = log_uniform_samples(50'000, 1);
  const auto b_samples = log_uniform_samples(30'000, 2);
  auto merged = histogram_of(a_samples);
  merged.merge(histogram_of(b_samples));
  auto all = a_samples;
  all.insert(all.end(), b_samples.begin(), b_samples.end());
  EXPECT_EQ(merged, histogram_of(all));
  EXPECT_EQ(merged.count(), all.size());
}

TEST(LatencyHistogram, MergeIsCommutativeAndEmptyIsNeutral) {
  const auto a = histogram_of(log_uniform_samples(1000, 3));
  const auto b = histogram_of(log_uniform_samples(1000, 4));
  auto ab = a;
  ab.merge(b);
  auto ba = b;
  ba.merge(a);
  EXPECT_EQ(ab, ba);
  auto with_empty = a;
  with_empty.merge(LatencyHistogram{});
  EXPECT_EQ(with_empty, a);
}

TEST(LatencyHistogram, MeanAndSumAreExact) {
  LatencyHistogram histogram;
  histogram.record(microseconds(10));
  histogram.record(microseconds(20));
  histogram.record(microseconds(90));
  EXPECT_EQ(histogram.sum_ns(), 120'000U);
  EXPECT_EQ(histogram.mean(), microseconds(40));
  EXPECT_EQ(histogram.min(), microseconds(10));
  EXPECT_EQ(histogram.max(), microseconds(90));
}

TEST(LegacyBins, CaptionsMatchIometerHeader) {
  const auto captions = legacy_latency_bin_captions();
  EXPECT_EQ(captions.front(), "0 to 50 uS");
  EXPECT_EQ(captions[17], "2 to 4.7 s");
  EXPECT_EQ(captions.back(), " >= 10 s");
}

TEST(LegacyBins, EdgesFollowIometer) {
  // An I/O of latency L is in the first bin whose upper edge is > L (spec §5.4).
  EXPECT_EQ(legacy_latency_bin(Nanoseconds(0)), 0U);
  EXPECT_EQ(legacy_latency_bin(Nanoseconds(49'999)), 0U);
  EXPECT_EQ(legacy_latency_bin(microseconds(50)), 1U);
  EXPECT_EQ(legacy_latency_bin(microseconds(100)), 2U);
  EXPECT_EQ(legacy_latency_bin(microseconds(499)), 3U);
  EXPECT_EQ(legacy_latency_bin(microseconds(500)), 4U);
  EXPECT_EQ(legacy_latency_bin(milliseconds(1)), 5U);
  EXPECT_EQ(legacy_latency_bin(milliseconds(10)), 8U);
  // R/67 = 14.925 ms: 14.93 ms is already in "15 to 20 mS", as in IOmeter.
  EXPECT_EQ(legacy_latency_bin(Nanoseconds(14'925'372)), 8U);
  EXPECT_EQ(legacy_latency_bin(Nanoseconds(14'925'373)), 9U);
  // R/33 = 30.303 ms is the real edge of the "30 ms" bin.
  EXPECT_EQ(legacy_latency_bin(Nanoseconds(30'303'029)), 10U);
  EXPECT_EQ(legacy_latency_bin(Nanoseconds(30'303'030)), 11U);
  // The edge labelled 4.7 s is really 4 s.
  EXPECT_EQ(legacy_latency_bin(Nanoseconds(3'999'999'999)), 17U);
  EXPECT_EQ(legacy_latency_bin(seconds(4)), 18U);
  EXPECT_EQ(legacy_latency_bin(seconds(5)), 19U);
  // Unlike IOmeter, >= 10 s is counted in the last bin instead of nowhere.
  EXPECT_EQ(legacy_latency_bin(seconds(10)), 20U);
  EXPECT_EQ(legacy_latency_bin(seconds(3600)), 20U);
}

TEST(LegacyBins, CountedExactlyAndSumToCount) {
  const auto samples = log_uniform_samples(10'000, 9);
  const auto histogram = histogram_of(samples);
  std::array<std::uint64_t, kLegacyLatencyBinCount> expected{};
  for (auto ns : samples) ++expected[legacy_latency_bin(Nanoseconds(static_cast<std::int64_t>(ns)))];
  EXPECT_EQ(histogram.legacy_bins(), expected);
  std::uint64_t total = 0;
  for (auto bin : histogram.legacy_bins()) total += bin;
  EXPECT_EQ(total, histogram.count());
}

TEST(LatencyHistogram, RestoreRebuildsExactly) {
  const auto original = histogram_of(log_uniform_samples(5000, 11));
  LatencyHistogram rebuilt;
  ASSERT_TRUE(LatencyHistogram::restore(original.buckets(), original.legacy_bins(), original.sum_ns(),
                                        static_cast<std::uint64_t>(original.min().count()),
                                        static_cast<std::uint64_t>(original.max().count()), rebuilt));
  EXPECT_EQ(rebuilt, original);
}

TEST(LatencyHistogram, RestoreRejectsInconsistentParts) {
  const auto original = histogram_of(log_uniform_samples(100, 12));
  const auto min_ns = static_cast<std::uint64_t>(original.min().count());
  const auto max_ns = static_cast<std::uint64_t>(original.max().count());
  LatencyHistogram out;
  const std::array<std::uint64_t, kLegacyLatencyBinCount> legacy{};  // bins count fewer I/Os than the buckets
  EXPECT_FALSE(LatencyHistogram::restore(original.buckets(), legacy, original.sum_ns(), min_ns, max_ns, out));
  EXPECT_FALSE(LatencyHistogram::restore(original.buckets(), original.legacy_bins(), original.sum_ns(), max_ns,
                                         min_ns, out));
  EXPECT_FALSE(LatencyHistogram::restore(std::span(original.buckets()).first(10), original.legacy_bins(),
                                         original.sum_ns(), min_ns, max_ns, out));
  EXPECT_FALSE(LatencyHistogram::restore(original.buckets(), original.legacy_bins(), original.sum_ns(), 1,
                                         max_ns, out));  // no sample in min's bucket
}

// The non-empty buckets' indexes and counts, as the wire carries them.
std::pair<std::vector<std::uint32_t>, std::vector<std::uint64_t>> sparse_of(const LatencyHistogram& histogram) {
  std::pair<std::vector<std::uint32_t>, std::vector<std::uint64_t>> sparse;
  for (std::size_t i = 0; i < LatencyHistogram::kBucketCount; ++i) {
    if (histogram.buckets()[i] == 0) continue;
    sparse.first.push_back(static_cast<std::uint32_t>(i));
    sparse.second.push_back(histogram.buckets()[i]);
  }
  return sparse;
}

// The wire's form: the non-empty buckets only.
TEST(LatencyHistogram, RestoreSparseRebuildsExactly) {
  const auto original = histogram_of(log_uniform_samples(5000, 13));
  auto [indexes, counts] = sparse_of(original);
  LatencyHistogram rebuilt = histogram_of(log_uniform_samples(10, 14));  // overwritten entirely
  ASSERT_TRUE(LatencyHistogram::restore_sparse(indexes, counts, original.legacy_bins(), original.sum_ns(),
                                               static_cast<std::uint64_t>(original.min().count()),
                                               static_cast<std::uint64_t>(original.max().count()), rebuilt));
  EXPECT_EQ(rebuilt, original);

  const auto min_ns = static_cast<std::uint64_t>(original.min().count());
  const auto max_ns = static_cast<std::uint64_t>(original.max().count());
  auto descending = indexes;
  std::swap(descending[0], descending[1]);
  EXPECT_FALSE(LatencyHistogram::restore_sparse(descending, counts, original.legacy_bins(), original.sum_ns(), min_ns,
                                                max_ns, rebuilt));
  auto zero = counts;
  zero[1] = 0;
  EXPECT_FALSE(LatencyHistogram::restore_sparse(indexes, zero, original.legacy_bins(), original.sum_ns(), min_ns,
                                                max_ns, rebuilt));
  EXPECT_FALSE(LatencyHistogram::restore_sparse(std::span(indexes).first(1), counts, original.legacy_bins(),
                                                original.sum_ns(), min_ns, max_ns, rebuilt));
  EXPECT_EQ(rebuilt, original);  // untouched by the refusals
}

// merge() skips the buckets outside the minimum's and the maximum's, so no restored
// histogram may have I/Os there.
TEST(LatencyHistogram, RestoreRejectsBucketsOutsideMinimumAndMaximum) {
  LatencyHistogram original;
  for (const auto us : {100, 200, 400}) original.record(std::chrono::microseconds(us));
  const auto min_ns = static_cast<std::uint64_t>(std::chrono::nanoseconds(std::chrono::microseconds(200)).count());
  const auto max_ns = static_cast<std::uint64_t>(original.max().count());
  LatencyHistogram out;
  EXPECT_FALSE(LatencyHistogram::restore(original.buckets(), original.legacy_bins(), original.sum_ns(), min_ns, max_ns,
                                         out));
  auto [indexes, counts] = sparse_of(original);
  EXPECT_FALSE(LatencyHistogram::restore_sparse(indexes, counts, original.legacy_bins(), original.sum_ns(), min_ns,
                                                max_ns, out));
}

// Merging only the other's span of buckets gives what merging all of them gives.
TEST(LatencyHistogram, MergeOfDisjointRangesIsExact) {
  LatencyHistogram low;
  LatencyHistogram high;
  for (const auto us : {50, 60, 70}) low.record(std::chrono::microseconds(us));
  for (const auto ms : {20, 30, 900}) high.record(std::chrono::milliseconds(ms));
  auto merged = low;
  merged.merge(high);
  LatencyHistogram expected;
  for (const auto us : {50, 60, 70}) expected.record(std::chrono::microseconds(us));
  for (const auto ms : {20, 30, 900}) expected.record(std::chrono::milliseconds(ms));
  EXPECT_EQ(merged, expected);
  merged.merge(LatencyHistogram{});  // an empty one adds nothing
  EXPECT_EQ(merged, expected);
}

TEST(LatencyHistogram, LegacyBinsAloneGiveNoPercentiles) {
  std::array<std::uint64_t, kLegacyLatencyBinCount> bins{};
  bins[3] = 7;
  bins[20] = 1;
  const auto dynamo = LatencyHistogram::from_legacy_bins(bins);
  EXPECT_EQ(dynamo.legacy_bins(), bins);
  EXPECT_EQ(dynamo.legacy_bin_total(), 8U);
  EXPECT_EQ(dynamo.count(), 0U);
  EXPECT_FALSE(dynamo.percentiles_cover_every_io());
  EXPECT_TRUE(LatencyHistogram{}.percentiles_cover_every_io());
  EXPECT_TRUE(histogram_of(log_uniform_samples(100, 13)).percentiles_cover_every_io());
}

TEST(LatencyHistogram, MergingLegacyBinsKeepsThemButNotThePercentiles) {
  auto merged = histogram_of(log_uniform_samples(100, 14));
  const auto exact_bins = merged.legacy_bins();
  std::array<std::uint64_t, kLegacyLatencyBinCount> bins{};
  bins[0] = 5;
  merged.merge(LatencyHistogram::from_legacy_bins(bins));
  EXPECT_EQ(merged.count(), 100U);
  EXPECT_EQ(merged.legacy_bins()[0], exact_bins[0] + 5);
  EXPECT_EQ(merged.legacy_bin_total(), 105U);
  EXPECT_FALSE(merged.percentiles_cover_every_io());
  // Such a histogram still rebuilds from its parts (JSON, the wire).
  LatencyHistogram rebuilt;
  ASSERT_TRUE(LatencyHistogram::restore(merged.buckets(), merged.legacy_bins(), merged.sum_ns(),
                                        static_cast<std::uint64_t>(merged.min().count()),
                                        static_cast<std::uint64_t>(merged.max().count()), rebuilt));
  EXPECT_EQ(rebuilt, merged);
}

}  // namespace
}  // namespace iomark

namespace iomark {
namespace {

TEST(LatencyHistogramSince, LegacyBinsAloneHaveAnInterval) {
  std::array<std::uint64_t, kLegacyLatencyBinCount> earlier_bins{};
  earlier_bins[2] = 10;
  auto later_bins = earlier_bins;
  later_bins[2] = 25;
  later_bins[4] = 3;
  const auto interval =
      LatencyHistogram::from_legacy_bins(later_bins).since(LatencyHistogram::from_legacy_bins(earlier_bins));
  EXPECT_EQ(interval.legacy_bins()[2], 15U);
  EXPECT_EQ(interval.legacy_bins()[4], 3U);
  EXPECT_EQ(interval.count(), 0U);
}

TEST(LatencyHistogramSince, IntervalPlusEarlierIsTheWhole) {
  const auto first = log_uniform_samples(20'000, 21);
  const auto second = log_uniform_samples(10'000, 22);
  auto histogram = histogram_of(first);
  const auto earlier = histogram;
  for (auto ns : second) histogram.record(Nanoseconds(static_cast<std::int64_t>(ns)));
  const auto interval = histogram.since(earlier);
  const auto expected = histogram_of(second);
  EXPECT_EQ(interval.buckets(), expected.buckets());
  EXPECT_EQ(interval.legacy_bins(), expected.legacy_bins());
  EXPECT_EQ(interval.count(), expected.count());
  EXPECT_EQ(interval.sum_ns(), expected.sum_ns());
  // min/max are bucket edges: within 1% of the interval's true extremes.
  const auto near = [](Nanoseconds a, Nanoseconds b) {
    return std::fabs(static_cast<double>(a.count() - b.count())) <= 0.01 * static_cast<double>(b.count());
  };
  EXPECT_TRUE(near(interval.min(), expected.min())) << interval.min().count() << " vs " << expected.min().count();
  EXPECT_TRUE(near(interval.max(), expected.max()) || expected.max() > seconds(137));
  // The interval rebuilds through restore(), as the wire requires.
  LatencyHistogram rebuilt;
  EXPECT_TRUE(LatencyHistogram::restore(interval.buckets(), interval.legacy_bins(), interval.sum_ns(),
                                        static_cast<std::uint64_t>(interval.min().count()),
                                        static_cast<std::uint64_t>(interval.max().count()), rebuilt));
}

TEST(LatencyHistogramSince, NothingNewIsEmpty) {
  const auto histogram = histogram_of(log_uniform_samples(100, 23));
  EXPECT_EQ(histogram.since(histogram), LatencyHistogram{});
}

}  // namespace
}  // namespace iomark
