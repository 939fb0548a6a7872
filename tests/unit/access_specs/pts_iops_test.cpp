#include "iomark/access_specs/pts_iops.hpp"

#include <gtest/gtest.h>

namespace iomark::access_specs {
namespace {

TEST(PtsIops, TheDefaultMatrixIsPtsEsEightBlockSizesBySevenMixes) {
  const PtsIopsMatrix matrix;
  EXPECT_EQ(matrix.read_percents, (std::vector<std::uint32_t>{100, 95, 65, 50, 35, 5, 0}));
  EXPECT_EQ(matrix.block_bytes,
            (std::vector<std::uint64_t>{1048576, 131072, 65536, 32768, 16384, 8192, 4096, 512}));
  EXPECT_TRUE(check_pts_matrix(matrix));
  const auto specs = pts_iops_specs(matrix);
  ASSERT_EQ(specs.size(), 56U);
  EXPECT_EQ(specs.front().name, "PTS 1 MiB 100/0") << "mixes outer, block sizes inner";
  EXPECT_EQ(specs[1].name, "PTS 128 KiB 100/0");
  EXPECT_EQ(specs[8].name, "PTS 1 MiB 95/5");
  EXPECT_EQ(specs.back().name, "PTS 512 B 0/100");
}

TEST(PtsIops, ACellIsOneRandomLineAlignedTo4KiBOrItsOwnSizeBelow) {
  const auto cell = pts_iops_spec(8192, 65);
  ASSERT_EQ(cell.lines.size(), 1U);
  EXPECT_EQ(cell.lines[0].size_bytes, 8192U);
  EXPECT_EQ(cell.lines[0].percent_of_size, 100U);
  EXPECT_EQ(cell.lines[0].percent_reads, 65U);
  EXPECT_EQ(cell.lines[0].percent_random, 100U);
  EXPECT_EQ(cell.lines[0].align_bytes, 4096U);
  EXPECT_EQ(pts_iops_spec(512, 0).lines[0].align_bytes, 512U);
  EXPECT_EQ(pts_iops_spec(512, 0).name, "PTS 512 B 0/100");
}

TEST(PtsIops, BlockSizesAreWholeSectorsUpTo1MiBInTheOrderGiven) {
  EXPECT_EQ(parse_pts_block_sizes("4K, 512,1M"), (std::vector<std::uint64_t>{4096, 512, 1048576}));
  for (const auto* bad : {"", "4K,", "1000", "2M", "0", "4K,4096", "x"}) {
    const auto refused = parse_pts_block_sizes(bad);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().field(), "--block-sizes") << bad;
  }
}

TEST(PtsIops, MixesAreReadAndWritePercentagesAddingTo100) {
  EXPECT_EQ(parse_pts_mixes("100/0, 65/35,0/100"), (std::vector<std::uint32_t>{100, 65, 0}));
  for (const auto* bad : {"", "65/30", "65", "101/-1", "a/b", "50/50,50/50", "65/35/0"}) {
    const auto refused = parse_pts_mixes(bad);
    ASSERT_FALSE(refused) << bad;
    EXPECT_EQ(refused.error().field(), "--mixes") << bad;
  }
}

TEST(PtsIops, TheMatrixMustHoldTheTrackedCell) {
  EXPECT_FALSE(check_pts_matrix({.read_percents = {0}, .block_bytes = {8192}}));
  EXPECT_FALSE(check_pts_matrix({.read_percents = {100}, .block_bytes = {4096}}));
  EXPECT_TRUE(check_pts_matrix({.read_percents = {0}, .block_bytes = {4096}}));
}

}  // namespace
}  // namespace iomark::access_specs
