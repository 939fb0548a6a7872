// Mix proportions over 10^6 draws, each within 5 binomial standard deviations.
#include <gtest/gtest.h>

#include <array>

#include "support.hpp"

namespace iomark::workload {
namespace {

using test::expect_binomial;
using test::line;
using test::make_workload;
using test::run_immediate;
using test::spec;
using test::target;

constexpr std::uint64_t kDraws = 1'000'000;
constexpr std::uint64_t kGiB = 1ULL << 30;

TEST(WorkerStatistics, LineMixFollowsPercentOfSize) {
  auto workload = make_workload(spec({line(512, 10, 100, 100), line(4096, 25, 100, 100), line(65536, 65, 100, 100)}),
                                {target(kGiB, 512, 4, 11)});
  std::array<std::uint64_t, 3> per_line{};
  run_immediate(workload, kDraws, [&](const PlannedIo& io) { ++per_line[io.line]; });
  expect_binomial(per_line[0], kDraws, 0.10, "line 1");
  expect_binomial(per_line[1], kDraws, 0.25, "line 2");
  expect_binomial(per_line[2], kDraws, 0.65, "line 3");
}

TEST(WorkerStatistics, LineMixCountsBurstsNotTransactions) {
  // Line A (index 0) runs bursts of 9 transactions, line B bursts of 1. Each burst picks A or B
  // with p = 0.5, so A carries about 9/10 of the transactions but only half of the bursts.
  auto workload = make_workload(spec({line(512, 50, 100, 0, 0, 9), line(1024, 50, 100, 0, 0, 1)}),
                                {target(kGiB, 512, 1, 5)});
  std::uint64_t bursts = 0;
  std::uint64_t bursts_of_a = 0;
  std::uint32_t run_of_a = 0;  // A's bursts are whole, so a run of A is a multiple of 9
  run_immediate(workload, kDraws, [&](const PlannedIo& io) {
    if (io.line == 0) {
      if (run_of_a % 9 == 0) {
        ++bursts;
        ++bursts_of_a;
      }
      ++run_of_a;
    } else {
      ++bursts;
      run_of_a = 0;
    }
  });
  expect_binomial(bursts_of_a, bursts, 0.5, "bursts of line A");
}

TEST(WorkerStatistics, ReadPercentagePerTransaction) {
  auto workload = make_workload(spec({line(4096, 100, 67, 100)}), {target(kGiB, 512, 8, 1234)});
  std::uint64_t reads = 0;
  run_immediate(workload, kDraws, [&](const PlannedIo& io) { reads += io.direction == IoDirection::read ? 1 : 0; });
  expect_binomial(reads, kDraws, 0.67, "reads");
}

TEST(WorkerStatistics, RandomPercentagePerIo) {
  auto workload = make_workload(spec({line(4096, 100, 50, 25)}), {target(kGiB, 512, 2, 77), target(kGiB, 4096, 3, 78)});
  std::uint64_t random = 0;
  run_immediate(workload, kDraws, [&](const PlannedIo& io) { random += io.order == AccessOrder::random ? 1 : 0; });
  expect_binomial(random, kDraws, 0.25, "random I/Os");
}

TEST(WorkerStatistics, ReplyIosDrawTheirOwnRandomDecision) {
  // Requests and replies each random with p = 0.4, independently.
  auto workload = make_workload(spec({line(4096, 100, 50, 40, 0, 1, 0, 8192)}), {target(kGiB, 512, 1, 9)});
  std::uint64_t replies = 0;
  std::uint64_t random_replies = 0;
  std::uint64_t both_random = 0;
  bool request_random = false;
  run_immediate(workload, kDraws, [&](const PlannedIo& io) {
    if (io.role == IoRole::request) {
      request_random = io.order == AccessOrder::random;
      return;
    }
    ++replies;
    random_replies += io.order == AccessOrder::random ? 1 : 0;
    both_random += io.order == AccessOrder::random && request_random ? 1 : 0;
  });
  EXPECT_EQ(replies, kDraws / 2);
  expect_binomial(random_replies, replies, 0.4, "random replies");
  expect_binomial(both_random, replies, 0.16, "request and reply both random");
}

}  // namespace
}  // namespace iomark::workload
