#include "iomark/results/max_iops_curve.hpp"

#include <gtest/gtest.h>

namespace iomark::results {
namespace {

MaxIopsRecord four_steps() {
  MaxIopsRecord record{.figure = "p99", .limit_ms = 2, .steps = {}, .chosen = {}, .finished = false, .conclusion = ""};
  for (const auto& [iops, latency] : {std::pair{3000.0, 0.4}, {5000.0, 2.5}, {4000.0, 1.2}, {3000.0, 0.5}}) {
    record.steps.push_back({.run = static_cast<std::uint32_t>(record.steps.size() + 1),
                            .outstanding_ios = 1,
                            .rate_iops = {},
                            .iops = iops,
                            .latency_ms = latency,
                            .within = latency <= 2});
  }
  return record;
}

TEST(MaxIopsCurve, TheStepsByIopsKeepTheOrderOfEqualOnes) {
  EXPECT_EQ(steps_by_iops(four_steps()), (std::vector<std::size_t>{0, 3, 2, 1}));
  EXPECT_TRUE(steps_by_iops(MaxIopsRecord{}).empty());
}

TEST(MaxIopsCurve, ALogAxisOnlyPastTenTimesTheBound) {
  auto record = four_steps();
  EXPECT_FALSE(wants_log_latency_axis(record));
  record.steps[1].latency_ms = 20;  // exactly 10 times: still linear
  EXPECT_FALSE(wants_log_latency_axis(record));
  record.steps[1].latency_ms = 20.5;
  EXPECT_TRUE(wants_log_latency_axis(record));
}

TEST(MaxIopsCurve, TheBoundReadsAsWritten) {
  auto record = four_steps();
  EXPECT_EQ(bound_text(record), "p99 <= 2 ms");
  record.limit_ms = 0.5;
  EXPECT_EQ(bound_text(record), "p99 <= 0.5 ms");
  EXPECT_EQ(limit_ms_text(1500), "1500 ms");
}

}  // namespace
}  // namespace iomark::results
