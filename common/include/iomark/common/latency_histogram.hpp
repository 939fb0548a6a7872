// A latency histogram every part of iomark shares: workers record into it, agents ship
// it, the controller merges it across targets, workers and hosts.
//
// Contract:
// - Fixed memory (no allocation after construction; sizeof <= 64 KiB), so a worker can
//   own one per target and record on the I/O path without allocating or locking.
// - Mergeable: merge(a, b) gives exactly the histogram of the union of both samples, so
//   percentiles across hosts are computed from merged histograms, never averaged.
// - Log-linear buckets: values from 0 to >= 100 s are kept with <= 1% relative error on
//   any reported percentile at or above 100 ns.
// - Also counts, exactly, IOmeter 1.1.0's 21 legacy bins (`0 to 50 uS` ... ` >= 10 s`)
//   from the exact latency, not from the buckets. Unlike IOmeter (whose last bin is never
//   filled, spec §5.4), latencies >= 10 s are counted in bin 20; the 4 s edge labelled
//   "4.7 s" and the R/67, R/33 edges are reproduced as IOmeter computes them.
// - May hold I/Os known only by their legacy bin (a Dynamo manager's counters, which carry
//   no exact latencies): those are in legacy_bins() but not in count(), sum or percentiles,
//   so legacy_bin_total() >= count() and the percentiles cover only count() I/Os.
// Not thread-safe: one writer at a time; copy it (or take a snapshot) to read elsewhere.
// Beyond the worker, CompactLatencyHistogram (compact_latency_histogram.hpp) holds the same
// figures in the few hundred bytes a real histogram's non-empty span needs.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string_view>

#include "iomark/common/units.hpp"

namespace iomark {

inline constexpr std::size_t kLegacyLatencyBinCount = 21;

// Header captions of results.csv columns 60-80, exactly as IOmeter 1.1.0 writes them.
[[nodiscard]] std::span<const std::string_view, kLegacyLatencyBinCount> legacy_latency_bin_captions() noexcept;

// The legacy bin a latency falls in (0..20).
[[nodiscard]] std::size_t legacy_latency_bin(Nanoseconds latency) noexcept;

class LatencyHistogram {
 public:
  LatencyHistogram() = default;

  // I/Os whose latency is known only by its legacy bin (what a Dynamo reports).
  [[nodiscard]] static LatencyHistogram from_legacy_bins(
      std::span<const std::uint64_t, kLegacyLatencyBinCount> legacy_bins) noexcept;

  void record(Nanoseconds latency) noexcept;
  void merge(const LatencyHistogram& other) noexcept;
  void clear() noexcept;

  // What was recorded after `earlier`, an earlier copy of this same histogram (for interval
  // samples). Counts, bins and the sum are exact; min and max of the interval are the edges of
  // its lowest and highest non-empty buckets (so within 1%), clamped to this histogram's own.
  [[nodiscard]] LatencyHistogram since(const LatencyHistogram& earlier) const noexcept;

  [[nodiscard]] std::uint64_t count() const noexcept { return count_; }
  [[nodiscard]] Nanoseconds min() const noexcept;  // 0 when empty
  [[nodiscard]] Nanoseconds max() const noexcept { return Nanoseconds(max_ns_); }
  [[nodiscard]] Nanoseconds mean() const noexcept;  // 0 when empty
  // Exact sum of all recorded latencies (saturating at 2^64-1 ns, ~584 years).
  [[nodiscard]] std::uint64_t sum_ns() const noexcept { return sum_ns_; }

  // The latency at or below which `percentile` (0..100) of samples fall; 0 when empty.
  [[nodiscard]] Nanoseconds percentile(double percentile) const noexcept;

  [[nodiscard]] const std::array<std::uint64_t, kLegacyLatencyBinCount>& legacy_bins() const noexcept {
    return legacy_bins_;
  }
  // I/Os counted in the legacy bins: count() plus those known only by their bin.
  [[nodiscard]] std::uint64_t legacy_bin_total() const noexcept;
  // Whether every I/O was timed exactly, so the percentiles describe them all. When some
  // are known only by their legacy bin (a Dynamo's), percentiles are unknown: writers leave
  // them out rather than give those of the exactly timed part.
  [[nodiscard]] bool percentiles_cover_every_io() const noexcept { return legacy_bin_total() == count_; }

  // Raw bucket access so the protocol can ship a histogram and rebuild it exactly.
  static constexpr std::size_t kBucketCount = 2048 + 1;  // + one overflow bucket
  [[nodiscard]] const std::array<std::uint64_t, kBucketCount>& buckets() const noexcept { return buckets_; }
  // Rebuilds a histogram from shipped parts; fails (returns false) if they are inconsistent
  // (the legacy bins may count more I/Os than the buckets, never fewer).
  [[nodiscard]] static bool restore(std::span<const std::uint64_t> buckets,
                                    std::span<const std::uint64_t> legacy_bins, std::uint64_t sum_ns,
                                    std::uint64_t min_ns, std::uint64_t max_ns, LatencyHistogram& out) noexcept;

  // The same from the non-empty buckets only, as the wire carries them (indexes ascending,
  // counts non-zero): no dense copy is built on the way. Both refuse a histogram with I/Os
  // in buckets below its minimum's or above its maximum's, so merge() can skip those.
  [[nodiscard]] static bool restore_sparse(std::span<const std::uint32_t> indexes,
                                           std::span<const std::uint64_t> counts,
                                           std::span<const std::uint64_t> legacy_bins, std::uint64_t sum_ns,
                                           std::uint64_t min_ns, std::uint64_t max_ns, LatencyHistogram& out) noexcept;
  friend bool operator==(const LatencyHistogram&, const LatencyHistogram&) = default;

 private:
  friend class CompactLatencyHistogram;  // converts both ways without a bucket-by-bucket API

  void set_totals(std::span<const std::uint64_t> legacy_bins, std::uint64_t count, std::uint64_t sum_ns,
                  std::uint64_t min_ns, std::uint64_t max_ns) noexcept;

  std::array<std::uint64_t, kBucketCount> buckets_{};
  std::array<std::uint64_t, kLegacyLatencyBinCount> legacy_bins_{};
  std::uint64_t count_{};
  std::uint64_t sum_ns_{};
  std::uint64_t min_ns_{UINT64_MAX};
  std::uint64_t max_ns_{};
};

}  // namespace iomark
