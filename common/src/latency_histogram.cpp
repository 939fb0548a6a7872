#include "iomark/common/latency_histogram.hpp"

#include <algorithm>
#include <cmath>
#include <optional>

#include "latency_buckets.hpp"

namespace iomark {

using namespace latency_buckets;

static_assert(sizeof(LatencyHistogram) <= 64 * 1024, "the histogram must stay within 64 KiB");

namespace {

// IOmeter's bin edges for a timer of R ticks per second (spec §5.4), with R = 10^9 since
// we count nanoseconds. Integer division reproduces its R/67 and R/33 approximations and
// the 4 s edge it labels "4.7 s".
constexpr std::uint64_t kR = 1'000'000'000;
constexpr std::array<std::uint64_t, kLegacyLatencyBinCount> kLegacyUpperEdges{
    kR / 20000, kR / 10000, kR / 5000, kR / 2000, kR / 1000, kR / 500, kR / 200,
    kR / 100,   kR / 67,    kR / 50,   kR / 33,   kR / 20,   kR / 10,  kR / 5,
    kR / 2,     kR,         2 * kR,    4 * kR,    5 * kR,    10 * kR,  UINT64_MAX};

constexpr std::array<std::string_view, kLegacyLatencyBinCount> kLegacyCaptions{
    "0 to 50 uS",    "50 to 100 uS",  "100 to 200 uS",  "200 to 500 uS", "0.5 to 1 mS",
    "1 to 2 mS",     "2 to 5 mS",     "5 to 10 mS",     "10 to 15 mS",   "15 to 20 mS",
    "20 to 30 mS",   "30 to 50 mS",   "50 to 100 mS",   "100 to 200 mS", "200 to 500 mS",
    "0.5 to 1 S",    "1 to 2 s",      "2 to 4.7 s",     "4.7 to 5 s",    "5 to 10 s",
    " >= 10 s"};

std::uint64_t clamp_to_unsigned(Nanoseconds latency) noexcept {
  return latency.count() < 0 ? 0 : static_cast<std::uint64_t>(latency.count());
}

}  // namespace

std::span<const std::string_view, kLegacyLatencyBinCount> legacy_latency_bin_captions() noexcept {
  return kLegacyCaptions;
}

std::size_t legacy_latency_bin(Nanoseconds latency) noexcept {
  const auto ns = clamp_to_unsigned(latency);
  const auto it = std::upper_bound(kLegacyUpperEdges.begin(), kLegacyUpperEdges.end() - 1, ns);
  return static_cast<std::size_t>(it - kLegacyUpperEdges.begin());
}

void LatencyHistogram::record(Nanoseconds latency) noexcept {
  const auto ns = clamp_to_unsigned(latency);
  ++buckets_[bucket_of(ns)];
  ++legacy_bins_[legacy_latency_bin(latency)];
  ++count_;
  sum_ns_ = saturating_add(sum_ns_, ns);
  min_ns_ = std::min(min_ns_, ns);
  max_ns_ = std::max(max_ns_, ns);
}

void LatencyHistogram::merge(const LatencyHistogram& other) noexcept {
  // Every non-empty bucket lies between those of the minimum and the maximum (restore()
  // refuses anything else), and real histograms span a few hundred of the 2,049 buckets: the
  // controller merges thousands a second.
  if (other.count_ != 0) {
    for (std::size_t i = bucket_of(other.min_ns_), last = bucket_of(other.max_ns_); i <= last; ++i) {
      buckets_[i] += other.buckets_[i];
    }
  }
  for (std::size_t i = 0; i < kLegacyLatencyBinCount; ++i) legacy_bins_[i] += other.legacy_bins_[i];
  count_ += other.count_;
  sum_ns_ = saturating_add(sum_ns_, other.sum_ns_);
  min_ns_ = std::min(min_ns_, other.min_ns_);
  max_ns_ = std::max(max_ns_, other.max_ns_);
}

LatencyHistogram LatencyHistogram::since(const LatencyHistogram& earlier) const noexcept {
  auto minus = [](std::uint64_t later, std::uint64_t before) { return later > before ? later - before : 0; };
  LatencyHistogram interval;
  std::optional<std::size_t> lowest;
  std::size_t highest = 0;
  for (std::size_t i = 0; i < kBucketCount; ++i) {
    interval.buckets_[i] = minus(buckets_[i], earlier.buckets_[i]);
    interval.count_ += interval.buckets_[i];
    if (interval.buckets_[i] != 0) {
      if (!lowest) lowest = i;
      highest = i;
    }
  }
  for (std::size_t i = 0; i < kLegacyLatencyBinCount; ++i) {
    interval.legacy_bins_[i] = minus(legacy_bins_[i], earlier.legacy_bins_[i]);
  }
  if (!lowest) return interval;  // no exactly timed I/O, but the legacy bins may hold some
  interval.sum_ns_ = minus(sum_ns_, earlier.sum_ns_);
  interval.min_ns_ = std::max(lower_edge_of(*lowest), min_ns_);
  interval.max_ns_ = highest == kOverflowBucket ? max_ns_ : std::min(upper_edge_of(highest), max_ns_);
  return interval;
}

LatencyHistogram LatencyHistogram::from_legacy_bins(
    std::span<const std::uint64_t, kLegacyLatencyBinCount> legacy_bins) noexcept {
  LatencyHistogram histogram;
  std::copy(legacy_bins.begin(), legacy_bins.end(), histogram.legacy_bins_.begin());
  return histogram;
}

std::uint64_t LatencyHistogram::legacy_bin_total() const noexcept {
  std::uint64_t total = 0;
  for (const std::uint64_t bin : legacy_bins_) total = saturating_add(total, bin);
  return total;
}

void LatencyHistogram::clear() noexcept { *this = LatencyHistogram(); }

Nanoseconds LatencyHistogram::min() const noexcept {
  return Nanoseconds(count_ == 0 ? 0 : static_cast<std::int64_t>(min_ns_));
}

Nanoseconds LatencyHistogram::mean() const noexcept {
  return Nanoseconds(count_ == 0 ? 0 : static_cast<std::int64_t>(sum_ns_ / count_));
}

Nanoseconds LatencyHistogram::percentile(double percentile) const noexcept {
  return percentile_of(buckets_, 0, count_, min_ns_, max_ns_, percentile);
}

void LatencyHistogram::set_totals(std::span<const std::uint64_t> legacy_bins, std::uint64_t count, std::uint64_t sum_ns,
                                  std::uint64_t min_ns, std::uint64_t max_ns) noexcept {
  std::copy(legacy_bins.begin(), legacy_bins.end(), legacy_bins_.begin());
  count_ = count;
  sum_ns_ = count == 0 ? 0 : sum_ns;
  min_ns_ = count == 0 ? UINT64_MAX : min_ns;
  max_ns_ = count == 0 ? 0 : max_ns;
}

bool LatencyHistogram::restore(std::span<const std::uint64_t> buckets, std::span<const std::uint64_t> legacy_bins,
                               std::uint64_t sum_ns, std::uint64_t min_ns, std::uint64_t max_ns,
                               LatencyHistogram& out) noexcept {
  if (buckets.size() != kBucketCount) return false;
  std::uint64_t count = 0;
  for (const auto bucket : buckets) {
    if (bucket > UINT64_MAX - count) return false;
    count += bucket;
  }
  if (!plausible_parts(legacy_bins, count, sum_ns, min_ns, max_ns)) return false;
  if (count != 0) {
    // The minimum's and the maximum's buckets hold I/Os, and no bucket outside them does.
    const auto lowest = bucket_of(min_ns);
    const auto highest = bucket_of(max_ns);
    if (buckets[lowest] == 0 || buckets[highest] == 0) return false;
    const auto outside = [](std::uint64_t bucket) { return bucket != 0; };
    if (std::any_of(buckets.begin(), buckets.begin() + static_cast<std::ptrdiff_t>(lowest), outside) ||
        std::any_of(buckets.begin() + static_cast<std::ptrdiff_t>(highest) + 1, buckets.end(), outside)) {
      return false;
    }
  }
  std::copy(buckets.begin(), buckets.end(), out.buckets_.begin());
  out.set_totals(legacy_bins, count, sum_ns, min_ns, max_ns);
  return true;
}

bool LatencyHistogram::restore_sparse(std::span<const std::uint32_t> indexes, std::span<const std::uint64_t> counts,
                                      std::span<const std::uint64_t> legacy_bins, std::uint64_t sum_ns,
                                      std::uint64_t min_ns, std::uint64_t max_ns, LatencyHistogram& out) noexcept {
  std::uint64_t count = 0;
  if (!plausible_sparse_buckets(indexes, counts, min_ns, max_ns, count)) return false;
  if (!plausible_parts(legacy_bins, count, sum_ns, min_ns, max_ns)) return false;
  out.buckets_.fill(0);
  for (std::size_t i = 0; i < indexes.size(); ++i) out.buckets_[indexes[i]] = counts[i];
  out.set_totals(legacy_bins, count, sum_ns, min_ns, max_ns);
  return true;
}

namespace latency_buckets {

std::uint64_t percentile_rank(std::uint64_t count, double percentile) noexcept {
  const auto wanted = static_cast<double>(count) * percentile / 100.0;
  return std::max<std::uint64_t>(1, static_cast<std::uint64_t>(std::ceil(wanted)));
}

Nanoseconds percentile_of(std::span<const std::uint64_t> counts, std::size_t first_bucket, std::uint64_t count,
                          std::uint64_t min_ns, std::uint64_t max_ns, double percentile) noexcept {
  if (count == 0) return Nanoseconds(0);
  if (!(percentile > 0)) return Nanoseconds(static_cast<std::int64_t>(min_ns));
  const auto maximum = Nanoseconds(static_cast<std::int64_t>(max_ns));
  if (percentile >= 100) return maximum;
  const auto rank = percentile_rank(count, percentile);
  std::uint64_t seen = 0;
  for (std::size_t i = 0; i < counts.size(); ++i) {
    seen += counts[i];
    if (seen >= rank) {
      const auto bucket = first_bucket + i;
      if (bucket == kOverflowBucket) return maximum;
      return Nanoseconds(static_cast<std::int64_t>(std::clamp(representative_of(bucket), min_ns, max_ns)));
    }
  }
  return maximum;
}

bool plausible_parts(std::span<const std::uint64_t> legacy_bins, std::uint64_t count, std::uint64_t sum_ns,
                     std::uint64_t min_ns, std::uint64_t max_ns) noexcept {
  if (legacy_bins.size() != kLegacyLatencyBinCount) return false;
  std::uint64_t legacy_count = 0;
  for (const auto bin : legacy_bins) {
    if (bin > UINT64_MAX - legacy_count) return false;
    legacy_count += bin;
  }
  if (legacy_count < count) return false;
  if (count == 0) return sum_ns == 0 && max_ns == 0;
  return min_ns <= max_ns;
}

bool plausible_sparse_buckets(std::span<const std::uint32_t> indexes, std::span<const std::uint64_t> counts,
                              std::uint64_t min_ns, std::uint64_t max_ns, std::uint64_t& count) noexcept {
  if (indexes.size() != counts.size()) return false;
  count = 0;
  for (std::size_t i = 0; i < indexes.size(); ++i) {
    if (indexes[i] >= LatencyHistogram::kBucketCount || (i > 0 && indexes[i] <= indexes[i - 1]) || counts[i] == 0) {
      return false;
    }
    if (counts[i] > UINT64_MAX - count) return false;
    count += counts[i];
  }
  // The first and last non-empty buckets are the minimum's and the maximum's.
  return count == 0 || (indexes.front() == bucket_of(min_ns) && indexes.back() == bucket_of(max_ns));
}

}  // namespace latency_buckets

}  // namespace iomark
