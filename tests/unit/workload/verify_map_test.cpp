#include "iomark/workload/verify_map.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

namespace iomark::workload {
namespace {

using Outcome = VerifyMap::Outcome;

TEST(VerifyMap, ClaimsAllBlocksOfAnIoOrNone) {
  std::vector<std::uint32_t> words(8);
  VerifyMap map(words);
  ASSERT_TRUE(map.claim(2, 3));
  EXPECT_FALSE(map.claim(4, 2)) << "block 4 is in flight";
  EXPECT_TRUE(map.claim(5, 2)) << "the refused claim took nothing back with it";
  EXPECT_FALSE(map.claim(0, 3));
  EXPECT_TRUE(map.claim(0, 2)) << "the refused claim released block 0 and 1";
  map.release(0, 2, Outcome::read);
  map.release(2, 3, Outcome::read);
  map.release(5, 2, Outcome::read);
  EXPECT_TRUE(map.claim(0, 8));
}

TEST(VerifyMap, GenerationsMoveOnlyWithAcknowledgedWrites) {
  std::vector<std::uint32_t> words(2);
  VerifyMap map(words);
  EXPECT_FALSE(map.judged(0)) << "never written: not judged";
  EXPECT_EQ(map.next_generation(0), 1U);
  ASSERT_TRUE(map.claim(0, 1));
  map.release(0, 1, Outcome::written);
  EXPECT_TRUE(map.judged(0));
  EXPECT_EQ(map.generation(0), 1U);

  ASSERT_TRUE(map.claim(0, 1));
  map.release(0, 1, Outcome::write_failed);
  EXPECT_FALSE(map.judged(0)) << "a failed write leaves the block unknown";
  EXPECT_EQ(map.next_generation(0), 3U) << "skips the generation the failed write may have left";
  ASSERT_TRUE(map.claim(0, 1));
  map.release(0, 1, Outcome::written);
  EXPECT_TRUE(map.judged(0));
  EXPECT_EQ(map.generation(0), 3U);

  ASSERT_TRUE(map.claim(0, 1));
  map.release(0, 1, Outcome::read_bad);
  EXPECT_FALSE(map.judged(0)) << "a bad block is reported once, then left alone until rewritten";
}

TEST(VerifyMap, RecoverTurnsBlocksLeftInFlightIntoUnknownOnes) {
  std::vector<std::uint32_t> words(4);
  {
    VerifyMap map(words);
    ASSERT_TRUE(map.claim(1, 1));
    map.release(1, 1, Outcome::written);
    ASSERT_TRUE(map.claim(1, 2));  // the agent dies with this write in flight
  }
  VerifyMap after_crash(words);
  EXPECT_EQ(after_crash.recover(), 2U);
  EXPECT_FALSE(after_crash.judged(1));
  EXPECT_FALSE(after_crash.judged(2));
  EXPECT_TRUE(after_crash.claim(0, 4));
}

// Four threads hammer overlapping ranges: no two claims ever hold one block at once.
TEST(VerifyMap, NoTwoThreadsHoldOneBlock) {
  std::vector<std::uint32_t> words(16);
  VerifyMap map(words);
  std::vector<std::atomic<int>> holders(16);
  std::atomic<bool> overlap{false};
  std::vector<std::thread> threads;
  for (int t = 0; t < 4; ++t) {
    threads.emplace_back([&, t] {
      for (int i = 0; i < 20'000; ++i) {
        const std::uint64_t first = static_cast<std::uint64_t>(i * 7 + t * 3) % 14;
        if (!map.claim(first, 3)) continue;
        for (std::uint64_t b = first; b < first + 3; ++b) overlap = overlap || holders[b].fetch_add(1) != 0;
        for (std::uint64_t b = first; b < first + 3; ++b) holders[b].fetch_sub(1);
        map.release(first, 3, Outcome::written);
      }
    });
  }
  for (auto& thread : threads) thread.join();
  EXPECT_FALSE(overlap);
  for (std::uint64_t b = 0; b < 16; ++b) EXPECT_TRUE(map.claim(b, 1)) << "every claim was released: " << b;
}

}  // namespace
}  // namespace iomark::workload
