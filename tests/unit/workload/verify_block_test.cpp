#include "iomark/workload/verify_block.hpp"

#include <gtest/gtest.h>

#include <cstring>
#include <string_view>
#include <vector>

#include "support.hpp"

namespace iomark::workload {
namespace {

std::span<const std::byte> bytes_of(std::string_view text) {
  return std::as_bytes(std::span<const char>(text.data(), text.size()));
}

std::vector<std::byte> pattern_block(std::size_t size) {
  std::vector<std::byte> block(size);
  for (std::size_t i = 0; i < size; ++i) block[i] = static_cast<std::byte>(i * 7 + 3);
  return block;
}

TEST(Crc32c, MatchesTheCastagnoliCheckValueInBothImplementations) {
  EXPECT_EQ(crc32c(bytes_of("123456789")), 0xE3069283U);
  EXPECT_EQ(crc32c_portable(bytes_of("123456789")), 0xE3069283U);
  EXPECT_EQ(crc32c(bytes_of("")), 0U);
  // Every length around the 8-byte stride of the hardware loop agrees with the table.
  const auto block = pattern_block(4096 + 13);
  for (std::size_t size : {1, 7, 8, 9, 15, 16, 17, 4096, 4096 + 13}) {
    EXPECT_EQ(crc32c(std::span(block).first(size)), crc32c_portable(std::span(block).first(size))) << size;
  }
}

TEST(VerifyBlockBytes, FourKibWhenTheSpecStaysOnFourKibBlocksElseTheSector) {
  using test::line;
  using test::spec;
  EXPECT_EQ(verify_block_bytes(spec({line(4096, 100, 70, 100, 0, 1, 4096)}), 512), 4096U);
  EXPECT_EQ(verify_block_bytes(spec({line(65536, 100, 0, 0, 0, 1, 8192)}), 4096), 4096U);
  // Alignment 0 means the sector: a 4 KiB I/O may then start inside a 4 KiB block.
  EXPECT_EQ(verify_block_bytes(spec({line(4096, 100, 70, 100)}), 512), 512U);
  EXPECT_EQ(verify_block_bytes(spec({line(8192, 100, 70, 100, 0, 1, 4096, 512)}), 512), 512U);
  EXPECT_FALSE(verify_block_bytes(spec({line(1000, 100, 70, 100)}), 512));
}

TEST(CheckBlock, AcceptsWhatWasStampedAndNamesEveryKindOfDamage) {
  auto block = pattern_block(4096);
  stamp_block(block, {7, 8192, 5, 123});
  EXPECT_EQ(check_block(block, {7, 8192, 5}), std::nullopt);
  EXPECT_EQ(check_block(block, {7, 8192, 4}), std::nullopt) << "newer than the journal: the journal lagged";

  const auto stale = check_block(block, {7, 8192, 6});
  ASSERT_TRUE(stale);
  EXPECT_EQ(stale->failure, VerifyFailure::stale);
  EXPECT_EQ(stale->expected_generation, 6U);
  EXPECT_EQ(stale->found_generation, 5U);

  const auto misdirected = check_block(block, {7, 4096, 5});
  ASSERT_TRUE(misdirected);
  EXPECT_EQ(misdirected->failure, VerifyFailure::misdirected);
  EXPECT_EQ(misdirected->offset_bytes, 4096U);
  EXPECT_EQ(misdirected->found_offset_bytes, 8192U);
  EXPECT_EQ(check_block(block, {8, 8192, 5})->failure, VerifyFailure::misdirected) << "another target's block";

  auto flipped = block;
  flipped[3000] ^= std::byte{0x10};
  const auto corrupted = check_block(flipped, {7, 8192, 5});
  ASSERT_TRUE(corrupted);
  EXPECT_EQ(corrupted->failure, VerifyFailure::corrupted);
  EXPECT_NE(corrupted->expected_checksum, corrupted->found_checksum);
  EXPECT_EQ(corrupted->found_checksum, crc32c(std::span(flipped).subspan(8)));

  auto damaged_magic = block;
  damaged_magic[0] ^= std::byte{0x01};
  EXPECT_EQ(check_block(damaged_magic, {7, 8192, 5})->failure, VerifyFailure::corrupted);

  const auto never_written = check_block(pattern_block(4096), {7, 8192, 5});
  ASSERT_TRUE(never_written);
  EXPECT_EQ(never_written->failure, VerifyFailure::stale) << "no header at all: the write never arrived";
  EXPECT_EQ(never_written->found_generation, 0U);
}

TEST(StampBlock, KeepsThePayloadAndCostsThirtyTwoBytes) {
  const auto original = pattern_block(4096);
  auto block = original;
  stamp_block(block, {1, 0, 1, 0});
  EXPECT_EQ(std::memcmp(block.data() + kVerifyHeaderBytes, original.data() + kVerifyHeaderBytes,
                        4096 - kVerifyHeaderBytes),
            0);
  EXPECT_NE(std::memcmp(block.data(), original.data(), kVerifyHeaderBytes), 0);
}

}  // namespace
}  // namespace iomark::workload
