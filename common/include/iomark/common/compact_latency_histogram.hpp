// The latency histogram as the results model holds it: the same buckets, bins and totals as
// LatencyHistogram, but only the span from the minimum's bucket to the maximum's is stored.
//
// Why: a decoded LatencyHistogram is a fixed 16 KiB array; a controller keeping the results of
// 1,024 agents x 16 workers held 272 MiB per copy of a run, while a target's latencies fill a
// few dozen to a few hundred of the 2,049 buckets. The worker keeps the fixed form (its record()
// must not allocate); everything after it (samples, results, summaries, files) keeps this one.
//
// Contract:
// - Exactly the figures of the LatencyHistogram it stands for: count, sum, min, max, mean, every
//   percentile, the legacy bins and every bucket; CompactLatencyHistogram(dense).dense() ==
//   dense, and merge() and since() agree with LatencyHistogram's.
// - Canonical: with I/Os, the span is exactly [bucket of min, bucket of max] (empty buckets
//   inside it are kept as 0); without, it is empty. So == compares the figures.
// - record() and merge() may allocate (the span grows); not for the I/O hot path.
// Not thread-safe: one writer at a time.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <vector>

#include "iomark/common/latency_histogram.hpp"
#include "iomark/common/units.hpp"

namespace iomark {

class CompactLatencyHistogram {
 public:
  CompactLatencyHistogram() = default;
  explicit CompactLatencyHistogram(const LatencyHistogram& dense);

  // I/Os whose latency is known only by its legacy bin (what a Dynamo reports).
  [[nodiscard]] static CompactLatencyHistogram from_legacy_bins(
      std::span<const std::uint64_t, kLegacyLatencyBinCount> legacy_bins) noexcept;

  void record(Nanoseconds latency);
  void merge(const CompactLatencyHistogram& other);
  void clear() noexcept { *this = CompactLatencyHistogram(); }
  // As LatencyHistogram::since(): what was recorded after `earlier`, an earlier copy.
  [[nodiscard]] CompactLatencyHistogram since(const CompactLatencyHistogram& earlier) const;

  // The full 16 KiB form, for what needs every bucket at an index (a chart).
  [[nodiscard]] LatencyHistogram dense() const noexcept;

  [[nodiscard]] std::uint64_t count() const noexcept { return count_; }
  [[nodiscard]] Nanoseconds min() const noexcept;  // 0 when empty
  [[nodiscard]] Nanoseconds max() const noexcept { return Nanoseconds(max_ns_); }
  [[nodiscard]] Nanoseconds mean() const noexcept;  // 0 when empty
  [[nodiscard]] std::uint64_t sum_ns() const noexcept { return sum_ns_; }
  [[nodiscard]] Nanoseconds percentile(double percentile) const noexcept;
  [[nodiscard]] const std::array<std::uint64_t, kLegacyLatencyBinCount>& legacy_bins() const noexcept {
    return legacy_bins_;
  }
  [[nodiscard]] std::uint64_t legacy_bin_total() const noexcept;
  [[nodiscard]] bool percentiles_cover_every_io() const noexcept { return legacy_bin_total() == count_; }

  // The stored span: the counts of buckets first_bucket() .. first_bucket() + span().size() - 1
  // (LatencyHistogram's indexes); every bucket outside it is empty. Empty without I/Os.
  [[nodiscard]] std::size_t first_bucket() const noexcept { return first_bucket_; }
  [[nodiscard]] std::span<const std::uint64_t> span() const noexcept { return counts_; }

  // As LatencyHistogram::restore_sparse(): from the non-empty buckets as the wire carries them,
  // with the same checks; false (and `out` unchanged) when they are inconsistent.
  [[nodiscard]] static bool restore_sparse(std::span<const std::uint32_t> indexes,
                                           std::span<const std::uint64_t> counts,
                                           std::span<const std::uint64_t> legacy_bins, std::uint64_t sum_ns,
                                           std::uint64_t min_ns, std::uint64_t max_ns, CompactLatencyHistogram& out);
  friend bool operator==(const CompactLatencyHistogram&, const CompactLatencyHistogram&) = default;

 private:
  // Widens the span to cover buckets [first, last].
  void cover(std::size_t first, std::size_t last);

  std::vector<std::uint64_t> counts_;
  std::size_t first_bucket_{};
  std::array<std::uint64_t, kLegacyLatencyBinCount> legacy_bins_{};
  std::uint64_t count_{};
  std::uint64_t sum_ns_{};
  std::uint64_t min_ns_{UINT64_MAX};
  std::uint64_t max_ns_{};
};

}  // namespace iomark
