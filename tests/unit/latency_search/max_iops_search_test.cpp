#include "iomark/latency_search/max_iops_search.hpp"

#include <gtest/gtest.h>

#include <cmath>
#include <limits>

namespace iomark::latency_search {
namespace {

// A single-server queue serving `ceiling` I/Os per second, one at a time (M/M/1), which makes
// worked examples exact: closed loop at depth q it gives ceiling·q/(q+1) IOPS at a mean
// latency of (q+1)/ceiling; open loop at rate r < ceiling, a mean latency of 1/(ceiling - r);
// at or past the ceiling the queue grows without bound.
struct QueueModel {
  double ceiling{10'000};

  [[nodiscard]] std::pair<double, double> run(const Step& step) const {
    const double q = step.outstanding_ios;
    const double closed_iops = ceiling * q / (q + 1);
    if (!step.rate_iops) return {closed_iops, (q + 1) / ceiling * 1000};
    const double rate = *step.rate_iops;
    if (rate >= closed_iops) return {closed_iops, std::numeric_limits<double>::infinity()};
    return {rate, 1000 / (ceiling - rate)};
  }
};

MaxIopsSearch searched(double limit_ms, const QueueModel& device, SearchLimits limits = {}) {
  MaxIopsSearch search(limit_ms, limits);
  for (std::size_t guard = 0; guard < 100; ++guard) {
    const auto step = search.next();
    if (!step) break;
    const auto [iops, latency] = device.run(*step);
    search.record(iops, latency);
  }
  return search;
}

TEST(MaxIopsSearch, DoublesTheDepthThenBisectsTheRateToWithinTheTolerance) {
  // Within 0.6 ms the queue gives 10000 - 1/0.0006 = 8333 IOPS.
  const auto search = searched(0.6, QueueModel{});
  ASSERT_EQ(search.end(), SearchEnd::bracketed);
  const auto& steps = search.steps();
  ASSERT_GE(steps.size(), 5U);
  // Depths 1, 2, 4 keep the bound (0.2, 0.3, 0.5 ms); 8 breaks it (0.9 ms) at 8889 IOPS.
  for (std::uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(steps[i].step, (Step{.outstanding_ios = 1U << i, .rate_iops = std::nullopt})) << i;
    EXPECT_EQ(steps[i].within, i < 3) << i;
  }
  // Then every run at depth 8, each rate halfway between the most IOPS within the bound and
  // the least that broke it: (8000 + 8889) / 2 first.
  ASSERT_TRUE(steps[4].step.rate_iops);
  EXPECT_EQ(steps[4].step.outstanding_ios, 8U);
  EXPECT_NEAR(*steps[4].step.rate_iops, (8000 + 80000.0 / 9) / 2, 1e-6);
  for (std::size_t i = 4; i < steps.size(); ++i) EXPECT_EQ(steps[i].step.outstanding_ios, 8U);
  const auto chosen = search.chosen();
  ASSERT_TRUE(chosen);
  EXPECT_TRUE(steps[*chosen].within);
  EXPECT_LE(steps[*chosen].iops, 8333.4);
  EXPECT_GE(steps[*chosen].iops, 8333.3 * 0.98) << "within 2% of the true answer";
}

TEST(MaxIopsSearch, TheChosenRunIsTheMostIopsWithinTheBound) {
  const auto search = searched(0.6, QueueModel{});
  const auto chosen = search.chosen();
  ASSERT_TRUE(chosen);
  for (const auto& step : search.steps()) {
    if (step.within) {
      EXPECT_LE(step.iops, search.steps()[*chosen].iops);
    }
  }
}

TEST(MaxIopsSearch, ADeviceThatNeverBreaksTheBoundIsRunToTheDeepestDepth) {
  const auto search = searched(1000, QueueModel{}, {.first_outstanding_ios = 4, .max_outstanding_ios = 32});
  EXPECT_EQ(search.end(), SearchEnd::held_at_max_depth);
  ASSERT_EQ(search.steps().size(), 4U) << "depths 4, 8, 16, 32";
  EXPECT_EQ(search.steps().back().step.outstanding_ios, 32U);
  EXPECT_EQ(search.chosen(), 3U);
}

TEST(MaxIopsSearch, NoDeeperQueueAfterTheCeilingIsReached) {
  // A limit the queue keeps until its ceiling: once more depth adds no IOPS, the bracket is
  // closed by the depth runs alone and no rate run is made.
  MaxIopsSearch search(2.0, {});
  search.record(4000, 0.25);  // QD 1
  search.record(4000, 0.5);   // QD 2
  search.record(4000, 1.0);   // QD 4
  search.record(4020, 4.0);   // QD 8: the bound broken, no more IOPS
  EXPECT_EQ(search.end(), SearchEnd::bracketed);
  EXPECT_FALSE(search.next());
  EXPECT_EQ(search.chosen(), 0U) << "the earliest of equal IOPS: the shallowest depth";
}

TEST(MaxIopsSearch, ALatencyFloorAboveTheBoundEndsWithNothingChosen) {
  // The queue's latency is never under 0.1 ms at any rate: a 0.05 ms bound cannot be kept.
  const auto search = searched(0.05, QueueModel{});
  EXPECT_EQ(search.end(), SearchEnd::never_within);
  EXPECT_FALSE(search.chosen());
  EXPECT_FALSE(search.next());
  // Depth 1 gave 5000 IOPS; halved 6 times, down to 5000/64.
  EXPECT_EQ(search.steps().size(), 1U + 6U);
  EXPECT_DOUBLE_EQ(*search.steps().back().step.rate_iops, 5000.0 / 64);
}

TEST(MaxIopsSearch, StopsAfterTheMostRateRunsAllowed) {
  const auto search = searched(0.6, QueueModel{}, {.tolerance = 1e-9, .max_rate_steps = 3});
  EXPECT_EQ(search.end(), SearchEnd::out_of_steps);
  EXPECT_EQ(search.steps().size(), 4U + 3U);
  EXPECT_TRUE(search.chosen()) << "the best run so far is still the answer";
}

TEST(MaxIopsSearch, ALatencyThatIsNotANumberBreaksTheBound) {
  MaxIopsSearch search(2.0, {});
  search.record(1000, std::nan(""));
  ASSERT_EQ(search.steps().size(), 1U);
  EXPECT_FALSE(search.steps().front().within);
  EXPECT_FALSE(search.chosen());
}

TEST(MaxIopsSearch, TheRunsLeftEstimateNeverFallsShort) {
  MaxIopsSearch search(0.6, {});
  const QueueModel device;
  std::size_t made = 0;
  const std::size_t first_estimate = search.steps_left_at_most();
  while (const auto step = search.next()) {
    const std::size_t estimate = search.steps_left_at_most();
    const auto [iops, latency] = device.run(*step);
    search.record(iops, latency);
    ++made;
    EXPECT_GE(estimate, 1U);
    EXPECT_LE(search.steps_left_at_most(), estimate - 1);
  }
  EXPECT_LE(made, first_estimate);
  EXPECT_EQ(search.steps_left_at_most(), 0U);
}

}  // namespace
}  // namespace iomark::latency_search
