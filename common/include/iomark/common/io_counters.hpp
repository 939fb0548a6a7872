// Per-target raw counters: what an agent counts while recording (iometer-spec §5.1), in
// nanoseconds instead of IOmeter's CPU ticks. Aggregation (target -> worker -> manager ->
// ALL) sums counters and merges histograms; rates are derived later from the window.
#pragma once

#include <cstdint>

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

struct IoCounters {
  std::uint64_t bytes_read{};
  std::uint64_t bytes_written{};
  LatencyTotals reads;         // successful read I/Os
  LatencyTotals writes;        // successful write I/Os
  LatencyTotals transactions;  // request (+ reply) completed
  LatencyTotals connections;   // open + transactions + close (connection-rate mode)
  std::uint64_t read_errors{};
  std::uint64_t write_errors{};
  LatencyHistogram latency;    // every successful I/O, reads and writes

  // Records one successful I/O in the counters and the histogram.
  void record_read(std::uint64_t bytes, std::uint64_t latency_ns) noexcept;
  void record_write(std::uint64_t bytes, std::uint64_t latency_ns) noexcept;
  void merge(const IoCounters& other) noexcept;
  // What was counted after `earlier`, an earlier copy of these counters (interval samples).
  [[nodiscard]] IoCounters since(const IoCounters& earlier) const noexcept;

  [[nodiscard]] std::uint64_t io_count() const noexcept { return reads.count + writes.count; }
  [[nodiscard]] std::uint64_t error_count() const noexcept { return read_errors + write_errors; }
  friend bool operator==(const IoCounters&, const IoCounters&) = default;
};

}  // namespace iomark
