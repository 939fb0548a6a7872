#include "iomark/workload/region.hpp"

#include <gtest/gtest.h>

namespace iomark::workload {
namespace {

constexpr std::uint64_t kMiB = 1 << 20;

TEST(Region, WholeTargetWhenMaximumSizeIsZero) {
  EXPECT_EQ(make_region({64 * kMiB, 512}, 0, 0).value(), (Region{0, 64 * kMiB}));
}

TEST(Region, StartingSectorAndMaximumSizeInSectors) {
  EXPECT_EQ(make_region({64 * kMiB, 512}, 8, 100).value(), (Region{4096, 4096 + 51200}));
  EXPECT_EQ(make_region({64 * kMiB, 4096}, 2, 3).value(), (Region{8192, 8192 + 12288}));
}

TEST(Region, MaximumSizeLargerThanTheTargetMeansTheWholeTarget) {
  EXPECT_EQ(make_region({1 * kMiB, 512}, 0, 1u << 30).value(), (Region{0, kMiB}));
}

TEST(Region, LengthIsCutAtTheEndOfTheTarget) {
  // 2048 sectors; start at 2000 with a maximum of 100 sectors leaves only 48.
  EXPECT_EQ(make_region({kMiB, 512}, 2000, 100).value(), (Region{2000 * 512, kMiB}));
  EXPECT_EQ(make_region({kMiB, 512}, 2000, 0).value(), (Region{2000 * 512, kMiB}));
}

TEST(Region, TargetSizeNeedNotBeAWholeNumberOfSectors) {
  // 10.5 sectors: a maximum of 10 sectors is smaller than the target.
  EXPECT_EQ(make_region({10 * 512 + 256, 512}, 0, 10).value(), (Region{0, 5120}));
  EXPECT_EQ(make_region({10 * 512 + 256, 512}, 10, 0).value(), (Region{5120, 5376}));
}

TEST(Region, RefusesAStartPastTheEndAndDegenerateTargets) {
  const auto past = make_region({kMiB, 512}, 2048, 0);
  ASSERT_FALSE(past.has_value());
  EXPECT_EQ(past.error().field(), "Starting Disk Sector");
  EXPECT_FALSE(make_region({kMiB, 512}, UINT64_MAX, 1).has_value());
  EXPECT_FALSE(make_region({0, 512}, 0, 0).has_value());
  EXPECT_FALSE(make_region({kMiB, 0}, 0, 0).has_value());
}

// Smallest multiple of `unit` not below `x`, by counting.
std::uint64_t next_multiple(std::uint64_t x, std::uint64_t unit) {
  std::uint64_t m = x / unit * unit;
  while (m < x) m += unit;
  return m;
}

TEST(Alignment, RoundsUpToTheUnitWithMaskOrRemainder) {
  for (const std::uint32_t unit : {1U, 512U, 2048U, 4096U, 3000U, 1536U, 7U}) {
    const Alignment alignment = Alignment::of(unit, 512);
    EXPECT_EQ(alignment.unit_bytes(), unit);
    EXPECT_EQ(alignment.is_power_of_two(), (unit & (unit - 1)) == 0) << unit;
    for (std::uint64_t x = 0; x < 20000; x += 97) EXPECT_EQ(alignment.round_up(x), next_multiple(x, unit)) << unit << " " << x;
  }
}

TEST(Alignment, ZeroMeansTheSectorSize) {
  EXPECT_EQ(Alignment::of(0, 4096).unit_bytes(), 4096U);
  EXPECT_EQ(Alignment::of(0, 520).unit_bytes(), 520U);
  EXPECT_EQ(Alignment::of(0, 520).round_up(521), 1040U);
}

TEST(PlaceIo, WrapsToTheAlignedStartWhenTheIoWouldPassTheEnd) {
  const Region region{1000, 100000};
  const Alignment alignment = Alignment::of(4096, 512);
  EXPECT_EQ(place_io(5000, 4096, alignment, region), 8192U);
  // 98304 + 4096 > 100000: wrap. Dynamo would have produced (1000 + 4096) & ~511 = 4608, which is
  // not 4096-aligned (docs/iometer-reference.md#fix-wrap-alignment); the fix re-aligns with the
  // line's alignment.
  EXPECT_EQ(place_io(96000, 4096, alignment, region), 4096U);
  EXPECT_EQ(place_io(90000, 4096, alignment, region), 4096U * 22);  // 90112 + 4096 <= 100000
}

TEST(PlaceIo, AnIoEndingExactlyAtTheEndDoesNotWrap) {
  const Region region{0, 8192};
  EXPECT_EQ(place_io(4096, 4096, Alignment::of(0, 512), region), 4096U);
  EXPECT_EQ(place_io(4097, 4096, Alignment::of(0, 512), region), 0U);
}

TEST(Fits, NeedsOneAlignedIoInsideTheRegion) {
  EXPECT_TRUE(fits(4096, Alignment::of(4096, 512), Region{1000, 8192}));
  EXPECT_FALSE(fits(4096, Alignment::of(4096, 512), Region{1000, 8191}));
  EXPECT_FALSE(fits(512, Alignment::of(8192, 512), Region{1, 8192}));
}

}  // namespace
}  // namespace iomark::workload
