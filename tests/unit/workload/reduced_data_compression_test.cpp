// The compression ratios of the reduction patterns, measured with the real compressors: lz4
// and lzo per 4 KiB block (as zram and most arrays compress), zstd and zlib (gzip's deflate)
// at their default levels both per block and over a whole sample as a file compressor sees
// it. Calibrates workload::random_bytes_per_segment; the agent never links these libraries.
#include <lz4.h>
#include <lzo/lzo1x.h>
#include <zlib.h>
#include <zstd.h>

#include <gtest/gtest.h>

#include <cstdio>
#include <vector>

#include "iomark/workload/reduced_data.hpp"

namespace iomark::workload {
namespace {

constexpr std::size_t kSampleBytes = std::size_t{8} << 20;
// Within +-10 % of the ratio asked for, up to 8:1. Above, the compressors' own
// per-run costs part ways (at 16:1 lzo reaches 14.2 and zstd over a file 18.6), so 16:1 is
// held to +-20 % (docs/data-reduction.md says so).
double tolerance(double ratio) { return ratio <= 8.0 ? 0.10 : 0.20; }

std::vector<std::byte> sample(double ratio) {
  const access_specs::DataReduction reduction{ratio, 1.0, 4096};
  auto pool = ReducedDataPool::create(reduction);
  EXPECT_TRUE(pool);
  std::vector<std::byte> data(kSampleBytes);
  // Written in 128 KiB pieces at their offsets, as a sequential full write would.
  const ReducedTarget target{0, kSampleBytes, content_key_of("sample")};
  for (std::size_t offset = 0; offset < data.size(); offset += 128 * 1024) {
    pool->fill(std::span(data).subspan(offset, 128 * 1024), offset, target);
  }
  return data;
}

template <typename Compress>
double per_block_ratio(const std::vector<std::byte>& data, Compress compress) {
  std::size_t compressed = 0;
  for (std::size_t offset = 0; offset < data.size(); offset += kCompressionBlockBytes) {
    // A block that does not shrink is stored as is (zram's huge pages, arrays alike).
    compressed += std::min<std::size_t>(compress(data.data() + offset, kCompressionBlockBytes), kCompressionBlockBytes);
  }
  return static_cast<double>(data.size()) / static_cast<double>(compressed);
}

std::size_t lz4_size(const std::byte* in, std::size_t size) {
  static std::vector<char> out(LZ4_compressBound(static_cast<int>(kCompressionBlockBytes)));
  return static_cast<std::size_t>(LZ4_compress_default(reinterpret_cast<const char*>(in), out.data(),
                                                       static_cast<int>(size), static_cast<int>(out.size())));
}

std::size_t lzo_size(const std::byte* in, std::size_t size) {
  static std::vector<unsigned char> out(kCompressionBlockBytes + kCompressionBlockBytes / 16 + 64 + 3);
  static std::vector<unsigned char> work(LZO1X_1_MEM_COMPRESS);
  lzo_uint out_size = out.size();
  EXPECT_EQ(lzo1x_1_compress(reinterpret_cast<const unsigned char*>(in), size, out.data(), &out_size, work.data()),
            LZO_E_OK);
  return out_size;
}

std::size_t zstd_size(const std::byte* in, std::size_t size) {
  std::vector<char> out(ZSTD_compressBound(size));
  return ZSTD_compress(out.data(), out.size(), in, size, ZSTD_CLEVEL_DEFAULT);
}

std::size_t zlib_size(const std::byte* in, std::size_t size) {
  uLongf out_size = compressBound(size);
  std::vector<Bytef> out(out_size);
  EXPECT_EQ(compress2(out.data(), &out_size, reinterpret_cast<const Bytef*>(in), size, Z_DEFAULT_COMPRESSION), Z_OK);
  return out_size;
}

class CompressionRatio : public ::testing::TestWithParam<double> {};

TEST_P(CompressionRatio, EveryCompressorReachesTheAskedRatio) {
  ASSERT_EQ(lzo_init(), LZO_E_OK);
  const double asked = GetParam();
  const auto data = sample(asked);
  const std::pair<const char*, double> measured[] = {
      {"lz4 per 4 KiB", per_block_ratio(data, lz4_size)},
      {"lzo1x-1 per 4 KiB", per_block_ratio(data, lzo_size)},
      {"zstd -3 per 4 KiB", per_block_ratio(data, zstd_size)},
      {"zlib -6 per 4 KiB", per_block_ratio(data, zlib_size)},
      {"zstd -3 whole file", static_cast<double>(data.size()) / static_cast<double>(zstd_size(data.data(), data.size()))},
      {"zlib -6 whole file", static_cast<double>(data.size()) / static_cast<double>(zlib_size(data.data(), data.size()))},
  };
  for (const auto& [compressor, ratio] : measured) {
    std::printf("compress:%g  %-20s %.3f:1\n", asked, compressor, ratio);
    EXPECT_NEAR(ratio, asked, asked * tolerance(asked)) << compressor;
  }
}

INSTANTIATE_TEST_SUITE_P(Ratios, CompressionRatio, ::testing::Values(1.0, 1.5, 2.0, 3.0, 4.0, 8.0, 16.0));

}  // namespace
}  // namespace iomark::workload
