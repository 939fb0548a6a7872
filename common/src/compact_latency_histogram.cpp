#include "iomark/common/compact_latency_histogram.hpp"

#include <algorithm>

#include "latency_buckets.hpp"

namespace iomark {

using namespace latency_buckets;

namespace {

std::uint64_t clamp_to_unsigned(Nanoseconds latency) noexcept {
  return latency.count() < 0 ? 0 : static_cast<std::uint64_t>(latency.count());
}

}  // namespace

CompactLatencyHistogram::CompactLatencyHistogram(const LatencyHistogram& dense)
    : legacy_bins_(dense.legacy_bins_),
      count_(dense.count_),
      sum_ns_(dense.sum_ns_),
      min_ns_(dense.min_ns_),
      max_ns_(dense.max_ns_) {
  if (count_ == 0) return;
  // The dense form keeps every I/O between its minimum's and maximum's buckets (restore() and
  // record() see to it), so that span is all there is to keep.
  first_bucket_ = bucket_of(min_ns_);
  const auto last = bucket_of(max_ns_);
  counts_.assign(dense.buckets_.begin() + static_cast<std::ptrdiff_t>(first_bucket_),
                 dense.buckets_.begin() + static_cast<std::ptrdiff_t>(last) + 1);
}

CompactLatencyHistogram CompactLatencyHistogram::from_legacy_bins(
    std::span<const std::uint64_t, kLegacyLatencyBinCount> legacy_bins) noexcept {
  CompactLatencyHistogram histogram;
  std::copy(legacy_bins.begin(), legacy_bins.end(), histogram.legacy_bins_.begin());
  return histogram;
}

void CompactLatencyHistogram::cover(std::size_t first, std::size_t last) {
  if (counts_.empty()) {
    first_bucket_ = first;
    counts_.assign(last - first + 1, 0);
    return;
  }
  if (first < first_bucket_) {
    counts_.insert(counts_.begin(), first_bucket_ - first, 0);
    first_bucket_ = first;
  }
  if (last >= first_bucket_ + counts_.size()) counts_.resize(last - first_bucket_ + 1, 0);
}

void CompactLatencyHistogram::record(Nanoseconds latency) {
  const auto ns = clamp_to_unsigned(latency);
  const auto bucket = bucket_of(ns);
  cover(bucket, bucket);
  ++counts_[bucket - first_bucket_];
  ++legacy_bins_[legacy_latency_bin(latency)];
  ++count_;
  sum_ns_ = saturating_add(sum_ns_, ns);
  min_ns_ = std::min(min_ns_, ns);
  max_ns_ = std::max(max_ns_, ns);
}

void CompactLatencyHistogram::merge(const CompactLatencyHistogram& other) {
  if (other.count_ != 0) {
    cover(other.first_bucket_, other.first_bucket_ + other.counts_.size() - 1);
    const auto offset = other.first_bucket_ - first_bucket_;
    for (std::size_t i = 0; i < other.counts_.size(); ++i) counts_[offset + i] += other.counts_[i];
  }
  for (std::size_t i = 0; i < kLegacyLatencyBinCount; ++i) legacy_bins_[i] += other.legacy_bins_[i];
  count_ += other.count_;
  sum_ns_ = saturating_add(sum_ns_, other.sum_ns_);
  min_ns_ = std::min(min_ns_, other.min_ns_);
  max_ns_ = std::max(max_ns_, other.max_ns_);
}

CompactLatencyHistogram CompactLatencyHistogram::since(const CompactLatencyHistogram& earlier) const {
  auto minus = [](std::uint64_t later, std::uint64_t before) { return later > before ? later - before : 0; };
  CompactLatencyHistogram interval;
  for (std::size_t i = 0; i < kLegacyLatencyBinCount; ++i) {
    interval.legacy_bins_[i] = minus(legacy_bins_[i], earlier.legacy_bins_[i]);
  }
  // Buckets outside this span are empty here, so the interval's lie within it.
  const auto earlier_end = earlier.first_bucket_ + earlier.counts_.size();
  auto earlier_count = [&](std::size_t bucket) {
    return bucket >= earlier.first_bucket_ && bucket < earlier_end ? earlier.counts_[bucket - earlier.first_bucket_]
                                                                   : 0;
  };
  std::vector<std::uint64_t> counts(counts_.size());
  std::size_t lowest = counts_.size();
  std::size_t highest = 0;
  for (std::size_t i = 0; i < counts_.size(); ++i) {
    counts[i] = minus(counts_[i], earlier_count(first_bucket_ + i));
    interval.count_ += counts[i];
    if (counts[i] != 0) {
      lowest = std::min(lowest, i);
      highest = i;
    }
  }
  if (interval.count_ == 0) return interval;  // no exactly timed I/O, but the legacy bins may hold some
  interval.counts_.assign(counts.begin() + static_cast<std::ptrdiff_t>(lowest),
                          counts.begin() + static_cast<std::ptrdiff_t>(highest) + 1);
  interval.first_bucket_ = first_bucket_ + lowest;
  const auto last_bucket = first_bucket_ + highest;
  interval.sum_ns_ = minus(sum_ns_, earlier.sum_ns_);
  interval.min_ns_ = std::max(lower_edge_of(interval.first_bucket_), min_ns_);
  interval.max_ns_ = last_bucket == kOverflowBucket ? max_ns_ : std::min(upper_edge_of(last_bucket), max_ns_);
  return interval;
}

LatencyHistogram CompactLatencyHistogram::dense() const noexcept {
  LatencyHistogram dense;
  std::copy(counts_.begin(), counts_.end(), dense.buckets_.begin() + static_cast<std::ptrdiff_t>(first_bucket_));
  dense.legacy_bins_ = legacy_bins_;
  dense.count_ = count_;
  dense.sum_ns_ = sum_ns_;
  dense.min_ns_ = min_ns_;
  dense.max_ns_ = max_ns_;
  return dense;
}

std::uint64_t CompactLatencyHistogram::legacy_bin_total() const noexcept {
  std::uint64_t total = 0;
  for (const std::uint64_t bin : legacy_bins_) total = saturating_add(total, bin);
  return total;
}

Nanoseconds CompactLatencyHistogram::min() const noexcept {
  return Nanoseconds(count_ == 0 ? 0 : static_cast<std::int64_t>(min_ns_));
}

Nanoseconds CompactLatencyHistogram::mean() const noexcept {
  return Nanoseconds(count_ == 0 ? 0 : static_cast<std::int64_t>(sum_ns_ / count_));
}

Nanoseconds CompactLatencyHistogram::percentile(double percentile) const noexcept {
  return percentile_of(counts_, first_bucket_, count_, min_ns_, max_ns_, percentile);
}

bool CompactLatencyHistogram::restore_sparse(std::span<const std::uint32_t> indexes,
                                             std::span<const std::uint64_t> counts,
                                             std::span<const std::uint64_t> legacy_bins, std::uint64_t sum_ns,
                                             std::uint64_t min_ns, std::uint64_t max_ns,
                                             CompactLatencyHistogram& out) {
  std::uint64_t count = 0;
  if (!plausible_sparse_buckets(indexes, counts, min_ns, max_ns, count)) return false;
  if (!plausible_parts(legacy_bins, count, sum_ns, min_ns, max_ns)) return false;
  CompactLatencyHistogram restored;
  if (count != 0) {
    restored.first_bucket_ = indexes.front();
    restored.counts_.assign(indexes.back() - indexes.front() + 1, 0);
    for (std::size_t i = 0; i < indexes.size(); ++i) restored.counts_[indexes[i] - indexes.front()] = counts[i];
  }
  std::copy(legacy_bins.begin(), legacy_bins.end(), restored.legacy_bins_.begin());
  restored.count_ = count;
  restored.sum_ns_ = count == 0 ? 0 : sum_ns;
  restored.min_ns_ = count == 0 ? UINT64_MAX : min_ns;
  restored.max_ns_ = count == 0 ? 0 : max_ns;
  out = std::move(restored);
  return true;
}

}  // namespace iomark
