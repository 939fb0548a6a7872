// The bucket layout both latency histograms share (the worker's fixed LatencyHistogram and the
// controller's CompactLatencyHistogram), so that they index, edge and report buckets alike and
// a histogram converted from one form to the other gives the same figures. Private to common/.
#pragma once

#include <bit>
#include <cstdint>
#include <span>

#include "iomark/common/latency_histogram.hpp"

namespace iomark::latency_buckets {

// Log-linear layout: values below 128 ns have a bucket each; above, every power of two
// [2^k, 2^(k+1)) for k = 7..36 is split into 64 equal sub-buckets. A sub-bucket spans
// 1/64 of its lower edge, so its midpoint is within 0.8% of any value inside it. 2^37 ns
// is 137 s; anything longer lands in the overflow bucket and is reported as the maximum.
inline constexpr std::uint64_t kExactLimit = 128;
inline constexpr unsigned kSubBucketBits = 6;
inline constexpr unsigned kFirstExponent = 7;
inline constexpr unsigned kLastExponent = 36;
inline constexpr std::size_t kOverflowBucket = LatencyHistogram::kBucketCount - 1;
static_assert(kExactLimit + (kLastExponent - kFirstExponent + 1) * (1U << kSubBucketBits) == kOverflowBucket);

inline std::size_t bucket_of(std::uint64_t ns) noexcept {
  if (ns < kExactLimit) return static_cast<std::size_t>(ns);
  const auto exponent = static_cast<unsigned>(std::bit_width(ns) - 1);
  if (exponent > kLastExponent) return kOverflowBucket;
  const auto sub = (ns >> (exponent - kSubBucketBits)) & ((1U << kSubBucketBits) - 1);
  return kExactLimit + (exponent - kFirstExponent) * (1U << kSubBucketBits) + sub;
}

// The lowest value a bucket holds.
inline std::uint64_t lower_edge_of(std::size_t bucket) noexcept {
  if (bucket < kExactLimit) return bucket;
  const auto offset = bucket - kExactLimit;
  const auto exponent = kFirstExponent + static_cast<unsigned>(offset >> kSubBucketBits);
  const auto sub = offset & ((1U << kSubBucketBits) - 1);
  return (1ULL << exponent) + sub * (1ULL << (exponent - kSubBucketBits));
}

// The highest value a bucket holds.
inline std::uint64_t upper_edge_of(std::size_t bucket) noexcept {
  if (bucket < kExactLimit) return bucket;
  const auto exponent = kFirstExponent + static_cast<unsigned>((bucket - kExactLimit) >> kSubBucketBits);
  return lower_edge_of(bucket) + (1ULL << (exponent - kSubBucketBits)) - 1;
}

// The value a bucket stands for: its midpoint (exact buckets stand for themselves).
inline std::uint64_t representative_of(std::size_t bucket) noexcept {
  if (bucket < kExactLimit) return bucket;
  return lower_edge_of(bucket) + (upper_edge_of(bucket) - lower_edge_of(bucket) + 1) / 2;
}

inline std::uint64_t saturating_add(std::uint64_t a, std::uint64_t b) noexcept {
  return a > UINT64_MAX - b ? UINT64_MAX : a + b;
}

// The rank (1-based) of the I/O at `percentile` (strictly between 0 and 100) of `count` I/Os.
std::uint64_t percentile_rank(std::uint64_t count, double percentile) noexcept;

// The latency at `percentile` (0..100) of `count` I/Os whose buckets from `first_bucket` on are
// `counts` (every other bucket empty), clamped to [min_ns, max_ns]: what both forms report.
Nanoseconds percentile_of(std::span<const std::uint64_t> counts, std::size_t first_bucket, std::uint64_t count,
                          std::uint64_t min_ns, std::uint64_t max_ns, double percentile) noexcept;

// What every form of restore() checks of the parts besides the buckets: legacy bins that count
// at least the buckets' I/Os, a sum and maximum of 0 without I/Os, else a minimum and maximum
// in order.
bool plausible_parts(std::span<const std::uint64_t> legacy_bins, std::uint64_t count, std::uint64_t sum_ns,
                     std::uint64_t min_ns, std::uint64_t max_ns) noexcept;

// What restore_sparse() checks of the non-empty buckets (indexes ascending, counts non-zero,
// the first and last being the minimum's and the maximum's); their total I/Os in `count`.
bool plausible_sparse_buckets(std::span<const std::uint32_t> indexes, std::span<const std::uint64_t> counts,
                              std::uint64_t min_ns, std::uint64_t max_ns, std::uint64_t& count) noexcept;

}  // namespace iomark::latency_buckets
