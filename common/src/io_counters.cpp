#include "iomark/common/io_counters.hpp"

#include <algorithm>

namespace iomark {

void LatencyTotals::add(std::uint64_t latency_ns) noexcept {
  ++count;
  sum_ns += latency_ns;
  max_ns = std::max(max_ns, latency_ns);
}

void LatencyTotals::merge(const LatencyTotals& other) noexcept {
  count += other.count;
  sum_ns += other.sum_ns;
  max_ns = std::max(max_ns, other.max_ns);
}

double LatencyTotals::mean_ms() const noexcept {
  return count == 0 ? 0.0 : static_cast<double>(sum_ns) / static_cast<double>(count) / 1e6;
}

void IoCounters::record_read(std::uint64_t bytes, std::uint64_t latency_ns) noexcept {
  bytes_read += bytes;
  reads.add(latency_ns);
  latency.record(Nanoseconds(static_cast<std::int64_t>(latency_ns)));
}

void IoCounters::record_write(std::uint64_t bytes, std::uint64_t latency_ns) noexcept {
  bytes_written += bytes;
  writes.add(latency_ns);
  latency.record(Nanoseconds(static_cast<std::int64_t>(latency_ns)));
}

void IoCounters::merge(const IoCounters& other) noexcept {
  bytes_read += other.bytes_read;
  bytes_written += other.bytes_written;
  reads.merge(other.reads);
  writes.merge(other.writes);
  transactions.merge(other.transactions);
  connections.merge(other.connections);
  read_errors += other.read_errors;
  write_errors += other.write_errors;
  latency.merge(other.latency);
}

}  // namespace iomark
