#include "iomark/workload/data_pattern.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <vector>

namespace iomark::workload {
namespace {

TEST(DataPattern, RepeatingBytesFillsEveryByte) {
  std::vector<std::byte> buffer(4096, std::byte{1});
  fill_repeating(buffer, std::byte{0xA5});
  EXPECT_TRUE(std::all_of(buffer.begin(), buffer.end(), [](std::byte b) { return b == std::byte{0xA5}; }));
}

TEST(DataPattern, PseudoRandomIsWRand255PerByte) {
  std::vector<std::byte> buffer(10000);
  IometerLcg rng(99);
  fill_pseudo_random(buffer, rng);
  // Independently: x <- A x + B, byte = x mod 255.
  std::uint64_t x = 99;
  for (std::size_t i = 0; i < buffer.size(); ++i) {
    x = 136204069ULL * x + 28500701229ULL;
    ASSERT_EQ(std::to_integer<std::uint64_t>(buffer[i]), x % 255) << i;
  }
  EXPECT_EQ(rng.state(), x);
}

TEST(DataPattern, FullRandomIsReproduciblePerSeedAndUsesAllByteValues) {
  std::vector<std::byte> a(1 << 20);
  std::vector<std::byte> b(1 << 20);
  std::vector<std::byte> c(1 << 20);
  fill_full_random(a, 5);
  fill_full_random(b, 5);
  fill_full_random(c, 6);
  EXPECT_EQ(a, b);
  EXPECT_NE(a, c);
  std::array<std::uint64_t, 256> histogram{};
  for (const auto byte : a) ++histogram[std::to_integer<std::size_t>(byte)];
  // Each value expects 4096 hits with sigma about 64; 5 sigma bounds.
  for (const auto count : histogram) {
    EXPECT_GT(count, 4096U - 320U);
    EXPECT_LT(count, 4096U + 320U);
  }
}

TEST(DataPattern, FullRandomFillsOddLengths) {
  std::vector<std::byte> buffer(13, std::byte{0});
  fill_full_random(buffer, 1);
  EXPECT_NE(std::count(buffer.begin(), buffer.end(), std::byte{0}), 13);
}

TEST(DataPattern, RandomBufferIsSixteenMibOrTheLargestTransfer) {
  EXPECT_EQ(random_buffer_bytes(4096, 4096), kRandomBufferBytes);
  EXPECT_EQ(random_buffer_bytes(16u << 20, 4096), kRandomBufferBytes);
  EXPECT_EQ(random_buffer_bytes((32u << 20) + 1, 4096), (32u << 20) + 4096);
}

TEST(DataPattern, RandomDataOffsetsKeepTheBufferAlignmentAndStayInside) {
  IometerLcg rng(3);
  for (int i = 0; i < 100000; ++i) {
    const std::uint32_t size = 512u << (i % 12);
    const auto offset = random_data_offset(rng, kRandomBufferBytes, size, 4096);
    ASSERT_EQ(offset % 4096, 0U);
    ASSERT_LE(offset + size, kRandomBufferBytes);
  }
}

TEST(DataPattern, TransferAsLargeAsTheBufferStartsAtZeroWithoutDrawing) {
  IometerLcg rng(3);
  const std::size_t buffer = random_buffer_bytes(32u << 20, 4096);
  EXPECT_EQ(random_data_offset(rng, buffer, 32u << 20, 4096), 0U);
  EXPECT_EQ(rng.state(), 3U);
}

TEST(DataPattern, PrepareFillersFollowThePattern) {
  std::vector<std::byte> first(8192);
  std::vector<std::byte> second(8192);
  const auto constant = [](const std::vector<std::byte>& chunk) {
    return std::all_of(chunk.begin(), chunk.end(), [&](std::byte b) { return b == chunk.front(); });
  };

  auto repeating = make_prepare_filler(access_specs::DataPattern::repeating_bytes, 1);
  repeating(first);
  repeating(second);
  EXPECT_TRUE(constant(first));
  EXPECT_TRUE(constant(second));

  auto pseudo = make_prepare_filler(access_specs::DataPattern::pseudo_random, 1);
  pseudo(first);
  pseudo(second);
  EXPECT_FALSE(constant(first));
  EXPECT_EQ(first, second);

  auto full = make_prepare_filler(access_specs::DataPattern::full_random, 1);
  full(first);
  full(second);
  EXPECT_FALSE(constant(first));
  EXPECT_NE(first, second);
}

}  // namespace
}  // namespace iomark::workload
