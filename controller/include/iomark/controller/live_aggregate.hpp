// Live aggregation: the managers' latest samples of the run in progress -> LiveFigures.
// Dynamo managers count too: their samples (REPORT_UPDATE, docs/iometer-reference.md#counters)
// carry exact counts, bytes and latency sums, but latencies only by legacy bin, so the average
// comes from the sums and no percentile is given once a Dynamo's I/Os are in.
// Not thread-safe: the run driver's thread owns it.
#pragma once

#include <cstdint>
#include <map>
#include <optional>

#include "iomark/common/compact_latency_histogram.hpp"
#include "iomark/controller/series_runner.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::controller {

// Live figures from the latest sample of every manager in the run, and the count of samples
// that never arrived (each manager numbers its samples 1, 2, 3... per run). Only one merged
// histogram per manager is kept: with 64 managers of 16 workers, whole samples would hold
// a thousand histograms.
class LiveAggregate {
 public:
  void add(std::size_t manager, const protocol::Sample& sample) {
    ++received_;
    auto& latest = latest_[manager];
    if (sample.sequence > latest.sequence + 1) lost_ += sample.sequence - latest.sequence - 1;
    latest.sequence = sample.sequence;
    latest.seconds = std::chrono::duration<double>(sample.interval).count();
    latest.ios = 0;
    latest.bytes = 0;
    latest.latency_sum_ns = 0;
    latest.latency.clear();
    for (const auto& worker : sample.workers) {
      for (const auto& target : worker.targets) {
        latest.ios += target.counters.io_count();
        latest.bytes += target.counters.bytes_read + target.counters.bytes_written;
        latest.latency_sum_ns += target.counters.reads.sum_ns + target.counters.writes.sum_ns;
        latest.latency.merge(target.counters.latency);
      }
    }
  }
  void clear() { latest_.clear(); }
  [[nodiscard]] std::uint64_t received() const noexcept { return received_; }
  [[nodiscard]] std::uint64_t lost() const noexcept { return lost_; }

  void fill(LiveFigures& figures) const {
    std::uint64_t ios = 0;
    std::uint64_t latency_sum_ns = 0;
    double iops = 0;
    double bytes_per_s = 0;
    CompactLatencyHistogram latency;
    for (const auto& [manager, latest] : latest_) {
      if (latest.seconds <= 0) continue;
      ios += latest.ios;
      latency_sum_ns += latest.latency_sum_ns;
      iops += static_cast<double>(latest.ios) / latest.seconds;
      bytes_per_s += static_cast<double>(latest.bytes) / latest.seconds;
      latency.merge(latest.latency);
    }
    figures.iops = iops;
    figures.mb_per_s = bytes_per_s / 1e6;
    figures.average_ms = ios == 0 ? 0.0 : static_cast<double>(latency_sum_ns) / static_cast<double>(ios) / 1e6;
    figures.p99_ms = latency.percentiles_cover_every_io()
                         ? std::optional<double>(static_cast<double>(latency.percentile(99).count()) / 1e6)
                         : std::nullopt;
  }

 private:
  struct Latest {
    std::uint64_t sequence{};
    double seconds{};
    std::uint64_t ios{};
    std::uint64_t bytes{};
    std::uint64_t latency_sum_ns{};  // reads and writes: exact for agents and Dynamos alike
    CompactLatencyHistogram latency;
  };
  std::map<std::size_t, Latest> latest_;
  std::uint64_t received_{};
  std::uint64_t lost_{};
};

}  // namespace iomark::controller
