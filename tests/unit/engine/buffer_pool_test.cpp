#include "iomark/engine/buffer_pool.hpp"

#include <gtest/gtest.h>

#include <array>
#include <cstdint>
#include <cstring>
#include <vector>

namespace iomark::engine {
namespace {

std::uintptr_t address(const void* p) { return reinterpret_cast<std::uintptr_t>(p); }

TEST(BufferAlignment, IsTheLargerOfAPageAndTheBlockSize) {
  EXPECT_EQ(buffer_alignment(512), 4096U);
  EXPECT_EQ(buffer_alignment(1024), 4096U);
  EXPECT_EQ(buffer_alignment(4096), 4096U);
  EXPECT_EQ(buffer_alignment(8192), 8192U);
  EXPECT_EQ(buffer_alignment(65536), 65536U);
}

TEST(BufferAlignment, RejectsBlockSizesThatAreNotPowersOfTwo) {
  for (const std::uint32_t size : {0U, 3000U, 4097U, 520U}) {
    const auto alignment = buffer_alignment(size);
    ASSERT_FALSE(alignment) << size;
    EXPECT_EQ(alignment.error().code(), ErrorCode::invalid_argument);
  }
}

TEST(BufferPool, EverySlotIsAlignedAndSlotsDoNotOverlap) {
  for (const std::uint32_t block : {512U, 4096U, 16384U}) {
    auto pool = BufferPool::create(7, 5000, block);
    ASSERT_TRUE(pool) << pool.error().describe();
    const std::size_t align = block > 4096 ? block : 4096;
    EXPECT_EQ(pool->alignment(), align);
    EXPECT_EQ(pool->slot_count(), 7U);
    EXPECT_GE(pool->slot_stride(), 5000U);
    EXPECT_EQ(pool->slot_stride() % align, 0U);
    EXPECT_LT(pool->slot_stride(), 5000U + align);
    for (std::size_t i = 0; i < pool->slot_count(); ++i) {
      EXPECT_EQ(address(pool->slot(i)) % align, 0U) << "slot " << i << " block " << block;
      EXPECT_EQ(pool->slot_span(i).size(), pool->slot_stride());
      if (i > 0) {
        EXPECT_GE(address(pool->slot(i)), address(pool->slot(i - 1)) + 5000);
      }
    }
  }
}

TEST(BufferPool, RegionCoversEverySlot) {
  auto pool = BufferPool::create(4, 4096, 512);
  ASSERT_TRUE(pool);
  const BufferRegion region = pool->region();
  EXPECT_EQ(region.data, pool->slot(0));
  EXPECT_EQ(region.size_bytes, 4 * pool->slot_stride());
  EXPECT_EQ(address(pool->slot(3)) + pool->slot_stride(), address(region.data) + region.size_bytes);
}

TEST(BufferPool, StartsZeroed) {
  auto pool = BufferPool::create(3, 4096, 512);
  ASSERT_TRUE(pool);
  const BufferRegion region = pool->region();
  for (std::size_t i = 0; i < region.size_bytes; ++i) ASSERT_EQ(region.data[i], std::byte{0}) << i;
}

TEST(BufferPool, FillRepeatsThePatternFromTheStartOfEachSlot) {
  auto pool = BufferPool::create(3, 10000, 512);  // stride 12288: not a multiple of 7
  ASSERT_TRUE(pool);
  const std::array pattern{std::byte{1}, std::byte{2}, std::byte{3}, std::byte{4},
                           std::byte{5}, std::byte{6}, std::byte{7}};
  pool->fill(pattern);
  for (std::size_t s = 0; s < pool->slot_count(); ++s) {
    const auto slot = pool->slot_span(s);
    for (std::size_t i = 0; i < slot.size(); ++i) {
      ASSERT_EQ(slot[i], pattern[i % pattern.size()]) << "slot " << s << " byte " << i;
    }
  }
}

TEST(BufferPool, FillSlotTouchesOnlyThatSlot) {
  auto pool = BufferPool::create(3, 4096, 4096);
  ASSERT_TRUE(pool);
  pool->fill(std::array{std::byte{0xAA}});
  pool->fill_slot(1, std::array{std::byte{0x55}, std::byte{0x66}});
  for (std::size_t i = 0; i < pool->slot_stride(); ++i) {
    ASSERT_EQ(pool->slot(0)[i], std::byte{0xAA});
    ASSERT_EQ(pool->slot(1)[i], i % 2 == 0 ? std::byte{0x55} : std::byte{0x66});
    ASSERT_EQ(pool->slot(2)[i], std::byte{0xAA});
  }
  pool->fill_slot(2, {});
  for (std::size_t i = 0; i < pool->slot_stride(); ++i) ASSERT_EQ(pool->slot(2)[i], std::byte{0});
}

TEST(BufferPool, PatternLongerThanASlotIsCutAtTheSlotEnd) {
  auto pool = BufferPool::create(2, 4096, 512);
  ASSERT_TRUE(pool);
  std::vector<std::byte> pattern(6000);
  for (std::size_t i = 0; i < pattern.size(); ++i) pattern[i] = static_cast<std::byte>(i % 251);
  pool->fill(pattern);
  EXPECT_EQ(std::memcmp(pool->slot(0), pattern.data(), 4096), 0);
  EXPECT_EQ(std::memcmp(pool->slot(1), pattern.data(), 4096), 0);
}

TEST(BufferPool, RejectsEmptyPoolsAndBadBlockSizes) {
  EXPECT_FALSE(BufferPool::create(0, 4096, 512));
  EXPECT_FALSE(BufferPool::create(4, 0, 512));
  EXPECT_FALSE(BufferPool::create(4, 4096, 1000));
  EXPECT_FALSE(BufferPool::create(SIZE_MAX / 4096, 8192, 512)) << "size overflow";
}

}  // namespace
}  // namespace iomark::engine
