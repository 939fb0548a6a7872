#include "iomark/workload/reduced_data.hpp"

#include <algorithm>
#include <cmath>
#include <cstring>
#include <memory>

#include "iomark/workload/data_pattern.hpp"

namespace iomark::workload {
namespace {

constexpr std::uint32_t kSegmentsPerBlock = kCompressionBlockBytes / kCompressionSegmentBytes;
// What lz4, lzo, zstd and zlib spend per segment beyond its random bytes (a literal-run
// header and a match for the zeros), measured by reduced_data_compression_test.
constexpr double kCompressorBytesPerSegment = 6.0;
// The pool's random bytes are the same everywhere (content keys tell targets apart), so two
// agents writing one shared target write identical units.
constexpr std::uint64_t kPoolSeed = 0x696f6d61726b2d31ULL;  // "iomark-1"

std::uint64_t mix(std::uint64_t key, std::uint64_t content, std::uint64_t block) noexcept {
  std::uint64_t state = key ^ (content * 0xD1B54A32D192ED03ULL) ^ (block * 0xAEF17502108EF2D9ULL);
  return splitmix64(state);
}

}  // namespace

std::uint32_t random_bytes_per_segment(double compress_ratio) noexcept {
  if (!(compress_ratio > 1.0)) return kCompressionSegmentBytes;
  const double wanted = static_cast<double>(kCompressionSegmentBytes) / compress_ratio - kCompressorBytesPerSegment;
  return static_cast<std::uint32_t>(std::clamp(std::lround(wanted), 1L, static_cast<long>(kCompressionSegmentBytes)));
}

std::uint64_t distinct_contents(const access_specs::DataReduction& reduction, const ReducedTarget& target) noexcept {
  const std::uint64_t unit = reduction.dedupe_unit_bytes;
  const std::uint64_t total_units =
      std::max<std::uint64_t>(1, target.region_bytes / unit + (target.region_bytes % unit != 0 ? 1 : 0));
  const auto distinct = std::llround(static_cast<double>(total_units) / reduction.dedupe_ratio);
  return std::clamp<std::uint64_t>(static_cast<std::uint64_t>(std::max(1LL, distinct)), 1, total_units);
}

std::uint64_t content_key_of(std::string_view text) noexcept {
  std::uint64_t hash = 0xcbf29ce484222325ULL;
  for (const char c : text) hash = (hash ^ static_cast<unsigned char>(c)) * 0x100000001b3ULL;
  return hash;
}

Result<ReducedDataPool> ReducedDataPool::create(const access_specs::DataReduction& reduction) {
  if (auto valid = access_specs::validate(reduction); !valid) return fail(valid.error());
  std::vector<std::byte> random(kReducedPoolBytes);
  fill_full_random(random, kPoolSeed);
  return ReducedDataPool(reduction, std::move(random));
}

ReducedDataPool::ReducedDataPool(access_specs::DataReduction reduction, std::vector<std::byte> random)
    : reduction_(reduction),
      random_(std::move(random)),
      random_per_segment_(workload::random_bytes_per_segment(reduction.compress_ratio)),
      pool_slots_(random_.size() / kCompressionBlockBytes) {}

void ReducedDataPool::fill_block(std::byte* out, std::uint64_t content, std::uint64_t block_in_unit,
                                 std::uint64_t content_key) const noexcept {
  const std::uint64_t blocks_per_unit = reduction_.dedupe_unit_bytes / kCompressionBlockBytes;
  const std::uint64_t slot = (content_key + content * blocks_per_unit + block_in_unit) % pool_slots_;
  const std::byte* source = random_.data() + slot * kCompressionBlockBytes;
  std::uint64_t word = mix(content_key, content, block_in_unit);
  std::byte word_bytes[sizeof word];
  std::memcpy(word_bytes, &word, sizeof word);
  const std::uint32_t r = random_per_segment_;
  for (std::uint32_t s = 0; s < kSegmentsPerBlock; ++s) {
    std::byte* segment = out + s * kCompressionSegmentBytes;
    const std::byte* random = source + s * r;
    for (std::uint32_t i = 0; i < r; ++i) segment[i] = random[i] ^ word_bytes[i % sizeof word];
    std::memset(segment + r, 0, kCompressionSegmentBytes - r);
  }
}

void ReducedDataPool::fill(std::span<std::byte> out, std::uint64_t offset_bytes,
                           const ReducedTarget& target) const noexcept {
  const std::uint64_t unit = reduction_.dedupe_unit_bytes;
  const std::uint64_t distinct = distinct_contents(reduction_, target);
  std::uint64_t position = offset_bytes >= target.region_start_bytes ? offset_bytes - target.region_start_bytes : 0;
  std::size_t done = 0;
  while (done < out.size()) {
    const std::uint64_t content = (position / unit) % distinct;
    const std::uint64_t block_in_unit = (position % unit) / kCompressionBlockBytes;
    const std::uint64_t within = position % kCompressionBlockBytes;
    const std::size_t length = std::min<std::size_t>(out.size() - done, kCompressionBlockBytes - within);
    if (within == 0 && length == kCompressionBlockBytes) {
      fill_block(out.data() + done, content, block_in_unit, target.content_key);
    } else {
      std::byte block[kCompressionBlockBytes];
      fill_block(block, content, block_in_unit, target.content_key);
      std::memcpy(out.data() + done, block + within, length);
    }
    done += length;
    position += length;
  }
}

Result<std::function<void(std::span<std::byte>)>> make_prepare_filler(
    access_specs::DataPattern pattern, const std::optional<access_specs::DataReduction>& reduction,
    std::uint64_t seed, std::uint64_t content_key, std::uint64_t file_bytes) {
  if (!reduction) return make_prepare_filler(pattern, seed);
  auto pool = ReducedDataPool::create(*reduction);
  if (!pool) return fail(pool.error());
  // An unknown size: as many units as a 64-bit offset holds, so every unit is distinct.
  const ReducedTarget target{0, file_bytes != 0 ? file_bytes : UINT64_MAX, content_key};
  return [shared = std::make_shared<const ReducedDataPool>(std::move(*pool)), target,
          offset = std::uint64_t{0}](std::span<std::byte> chunk) mutable {
    shared->fill(chunk, offset, target);
    offset += chunk.size();
  };
}

}  // namespace iomark::workload
