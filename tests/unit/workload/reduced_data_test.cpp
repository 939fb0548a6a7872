#include "iomark/workload/reduced_data.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <set>
#include <string>
#include <vector>

namespace iomark::workload {
namespace {

using access_specs::DataReduction;

std::vector<std::byte> write_whole(const ReducedDataPool& pool, const ReducedTarget& target, std::size_t piece) {
  std::vector<std::byte> data(target.region_bytes);
  for (std::size_t offset = 0; offset < data.size(); offset += piece) {
    const auto size = std::min(piece, data.size() - offset);
    pool.fill(std::span(data).subspan(offset, size), target.region_start_bytes + offset, target);
  }
  return data;
}

std::size_t distinct_units(const std::vector<std::byte>& data, std::size_t unit) {
  std::set<std::string> seen;
  for (std::size_t offset = 0; offset < data.size(); offset += unit) {
    seen.emplace(reinterpret_cast<const char*>(data.data() + offset), std::min(unit, data.size() - offset));
  }
  return seen.size();
}

TEST(ReducedData, TheBytesDependOnlyOnTheOffsetNotOnHowTheWriteIsCut) {
  const auto pool = ReducedDataPool::create(DataReduction{2.0, 3.0, 8192});
  ASSERT_TRUE(pool);
  const ReducedTarget target{4096, 1 << 20, content_key_of("host:/dev/x")};
  const auto whole = write_whole(*pool, target, 1 << 20);
  // Sector-sized pieces, pieces that straddle compression blocks and units, and a second pool
  // (another worker) all give the same bytes.
  EXPECT_EQ(write_whole(*pool, target, 512), whole);
  EXPECT_EQ(write_whole(*pool, target, 12288 + 512), whole);
  const auto other_worker = ReducedDataPool::create(DataReduction{2.0, 3.0, 8192});
  EXPECT_EQ(write_whole(*other_worker, target, 65536), whole);
}

TEST(ReducedData, AFullWriteHasOneDistinctUnitInD) {
  struct Case {
    DataReduction reduction;
    std::uint64_t region_bytes;
  };
  const Case cases[] = {
      {{1.0, 1.0, 4096}, 8 << 20},  {{1.0, 3.0, 4096}, 8 << 20}, {{2.0, 3.0, 4096}, 8 << 20},
      {{4.0, 2.5, 8192}, 8 << 20},  {{2.0, 10.0, 16384}, 16 << 20}, {{1.0, 1.7, 4096}, (8 << 20) + 4096},
  };
  for (const auto& c : cases) {
    SCOPED_TRACE(access_specs::to_string(c.reduction));
    const auto pool = ReducedDataPool::create(c.reduction);
    ASSERT_TRUE(pool);
    const ReducedTarget target{0, c.region_bytes, content_key_of("host:/dev/y")};
    const auto data = write_whole(*pool, target, 128 * 1024);
    const double units = static_cast<double>((c.region_bytes + c.reduction.dedupe_unit_bytes - 1) /
                                             c.reduction.dedupe_unit_bytes);
    const auto unique = distinct_units(data, c.reduction.dedupe_unit_bytes);
    EXPECT_EQ(unique, distinct_contents(c.reduction, target));
    EXPECT_NEAR(static_cast<double>(unique) / units, 1.0 / c.reduction.dedupe_ratio, 0.02 / c.reduction.dedupe_ratio);
    // Units are never same-filled or zero: the dedupe really happens between units.
    EXPECT_EQ(distinct_units(data, 4096), unique * (c.reduction.dedupe_unit_bytes / 4096));
  }
}

TEST(ReducedData, TargetsWithDifferentKeysShareNoUnit) {
  const auto pool = ReducedDataPool::create(DataReduction{2.0, 4.0, 4096});
  ASSERT_TRUE(pool);
  auto first = write_whole(*pool, {0, 1 << 20, content_key_of("a:/dev/sdb")}, 65536);
  const auto second = write_whole(*pool, {0, 1 << 20, content_key_of("b:/dev/sdb")}, 65536);
  const auto alone = distinct_units(first, 4096);
  first.insert(first.end(), second.begin(), second.end());
  EXPECT_EQ(distinct_units(first, 4096), 2 * alone);
}

TEST(ReducedData, TheCompressibleShareOfEachSegmentFollowsTheRatio) {
  EXPECT_EQ(random_bytes_per_segment(1.0), 512U);
  EXPECT_EQ(random_bytes_per_segment(2.0), 250U);
  EXPECT_EQ(random_bytes_per_segment(4.0), 122U);
  EXPECT_GE(random_bytes_per_segment(16.0), 1U);
  const auto pool = ReducedDataPool::create(DataReduction{4.0, 1.0, 4096});
  ASSERT_TRUE(pool);
  std::vector<std::byte> block(4096);
  pool->fill(block, 0, {0, 1 << 20, 1});
  for (std::size_t segment = 0; segment < 8; ++segment) {
    const auto* tail = block.data() + segment * 512 + 122;
    EXPECT_TRUE(std::all_of(tail, tail + 390, [](std::byte b) { return b == std::byte{0}; }));
  }
  EXPECT_FALSE(ReducedDataPool::create(DataReduction{0.5, 1.0, 4096}));
}

}  // namespace
}  // namespace iomark::workload
