// Per-target raw counters: what an agent counts while recording
// (docs/iometer-reference.md#counters), in nanoseconds instead of IOmeter's CPU ticks. Aggregation
// (target -> worker -> manager -> ALL) sums counters and merges histograms; rates are derived later
// from the window.
#pragma once

#include <cstdint>
#include <type_traits>

#include "iomark/common/compact_latency_histogram.hpp"
#include "iomark/common/latency_histogram.hpp"

namespace iomark {

// Count, sum and maximum of one kind of latency.
struct LatencyTotals {
  std::uint64_t count{};
  std::uint64_t sum_ns{};
  std::uint64_t max_ns{};

  void add(std::uint64_t latency_ns) noexcept;
  void merge(const LatencyTotals& other) noexcept;
  // The totals added after `earlier` (an earlier copy). The interval's maximum is exact when it
  // set a new maximum; otherwise it is unknown and bounded by the earlier maximum and the sum.
  [[nodiscard]] LatencyTotals since(const LatencyTotals& earlier) const noexcept;
  [[nodiscard]] double mean_ms() const noexcept;  // 0 when count is 0
  friend bool operator==(const LatencyTotals&, const LatencyTotals&) = default;
};

// One target's counters, with the latency histogram in one of its two forms: the worker's
// fixed LatencyHistogram (WorkerIoCounters: recording neither allocates nor locks) or the
// CompactLatencyHistogram everything after the worker keeps (IoCounters: samples, results,
// summaries). compact_counters() turns the first into the second.
template <class Histogram>
struct BasicIoCounters {
  std::uint64_t bytes_read{};
  std::uint64_t bytes_written{};
  LatencyTotals reads;         // successful read I/Os
  LatencyTotals writes;        // successful write I/Os
  LatencyTotals transactions;  // request (+ reply) completed
  LatencyTotals connections;   // open + transactions + close (connection-rate mode)
  // Rate-controlled runs only (--rate-iops; docs/characterize.md#rate-control), where reads,
  // writes and the histogram time each I/O from the moment its schedule said to issue it:
  // `service` times it from its actual issue, `issue_lag` from schedule to issue.
  LatencyTotals service;
  LatencyTotals issue_lag;
  std::uint64_t read_errors{};
  std::uint64_t write_errors{};
  Histogram latency;           // every successful I/O, reads and writes

  // With the fixed histogram, recording and merging neither allocate nor throw.
  static constexpr bool kFixedMemory = std::is_same_v<Histogram, LatencyHistogram>;

  // Records one successful I/O in the counters and the histogram.
  void record_read(std::uint64_t bytes, std::uint64_t latency_ns) noexcept(kFixedMemory);
  void record_write(std::uint64_t bytes, std::uint64_t latency_ns) noexcept(kFixedMemory);
  void merge(const BasicIoCounters& other) noexcept(kFixedMemory);
  // What was counted after `earlier`, an earlier copy of these counters (interval samples).
  [[nodiscard]] BasicIoCounters since(const BasicIoCounters& earlier) const;

  [[nodiscard]] std::uint64_t io_count() const noexcept { return reads.count + writes.count; }
  [[nodiscard]] std::uint64_t error_count() const noexcept { return read_errors + write_errors; }
  friend bool operator==(const BasicIoCounters&, const BasicIoCounters&) = default;
};

// Defined in io_counters.cpp for these two forms only.
extern template struct BasicIoCounters<LatencyHistogram>;
extern template struct BasicIoCounters<CompactLatencyHistogram>;

using WorkerIoCounters = BasicIoCounters<LatencyHistogram>;
using IoCounters = BasicIoCounters<CompactLatencyHistogram>;

// The same counters with the histogram's non-empty span only.
[[nodiscard]] IoCounters compact_counters(const WorkerIoCounters& counters);

}  // namespace iomark
