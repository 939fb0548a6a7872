#include "iomark/workload/iometer_lcg.hpp"

#include <gtest/gtest.h>

#include <cstdint>

namespace iomark::workload {
namespace {

__extension__ using Wide = unsigned __int128;

// The recurrence evaluated in 128 bits and reduced explicitly, independent of 64-bit wrap-around.
std::uint64_t step_wide(std::uint64_t x) {
  const Wide next = (Wide{136204069} * x + Wide{28500701229}) % (Wide{1} << 64);
  return static_cast<std::uint64_t>(next);
}

TEST(IometerLcg, FirstValueFromZeroIsTheIncrement) {
  IometerLcg rng(0);
  EXPECT_EQ(rng.next(), 28500701229ULL);
  // 136204069 * 28500701229 + 28500701229 = 3881911505243802030 (< 2^64, no wrap yet).
  EXPECT_EQ(rng.next(), 3881911505243802030ULL);
}

TEST(IometerLcg, MatchesTheRecurrenceComputedIn128Bits) {
  for (const std::uint64_t seed : {std::uint64_t{0}, std::uint64_t{1}, std::uint64_t{12345}, std::uint64_t{0xDEADBEEFCAFEF00D}, UINT64_MAX}) {
    IometerLcg rng(seed);
    std::uint64_t expected = seed;
    for (int i = 0; i < 10000; ++i) {
      expected = step_wide(expected);
      ASSERT_EQ(rng.next(), expected) << "seed " << seed << " step " << i;
    }
  }
}

TEST(IometerLcg, BelowIsTheSteppedStateModuloTheLimit) {
  IometerLcg rng(42);
  std::uint64_t state = 42;
  for (const std::uint64_t limit : {1ULL, 2ULL, 100ULL, 255ULL, 1000003ULL, 1ULL << 40U}) {
    state = step_wide(state);
    EXPECT_EQ(rng.below(limit), state % limit) << "limit " << limit;
    EXPECT_EQ(rng.state(), state);
  }
}

}  // namespace
}  // namespace iomark::workload
