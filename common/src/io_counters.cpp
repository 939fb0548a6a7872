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

LatencyTotals LatencyTotals::since(const LatencyTotals& earlier) const noexcept {
  LatencyTotals interval;
  interval.count = count > earlier.count ? count - earlier.count : 0;
  if (interval.count == 0) return interval;
  interval.sum_ns = sum_ns > earlier.sum_ns ? sum_ns - earlier.sum_ns : 0;
  interval.max_ns = max_ns > earlier.max_ns ? max_ns : std::min(earlier.max_ns, interval.sum_ns);
  return interval;
}

double LatencyTotals::mean_ms() const noexcept {
  return count == 0 ? 0.0 : static_cast<double>(sum_ns) / static_cast<double>(count) / 1e6;
}

template <class Histogram>
void BasicIoCounters<Histogram>::record_read(std::uint64_t bytes, std::uint64_t latency_ns) noexcept(kFixedMemory) {
  bytes_read += bytes;
  reads.add(latency_ns);
  latency.record(Nanoseconds(static_cast<std::int64_t>(latency_ns)));
}

template <class Histogram>
void BasicIoCounters<Histogram>::record_write(std::uint64_t bytes, std::uint64_t latency_ns) noexcept(kFixedMemory) {
  bytes_written += bytes;
  writes.add(latency_ns);
  latency.record(Nanoseconds(static_cast<std::int64_t>(latency_ns)));
}

template <class Histogram>
BasicIoCounters<Histogram> BasicIoCounters<Histogram>::since(const BasicIoCounters& earlier) const {
  auto minus = [](std::uint64_t later, std::uint64_t before) { return later > before ? later - before : 0; };
  BasicIoCounters interval;
  interval.bytes_read = minus(bytes_read, earlier.bytes_read);
  interval.bytes_written = minus(bytes_written, earlier.bytes_written);
  interval.reads = reads.since(earlier.reads);
  interval.writes = writes.since(earlier.writes);
  interval.transactions = transactions.since(earlier.transactions);
  interval.connections = connections.since(earlier.connections);
  interval.service = service.since(earlier.service);
  interval.issue_lag = issue_lag.since(earlier.issue_lag);
  interval.read_errors = minus(read_errors, earlier.read_errors);
  interval.write_errors = minus(write_errors, earlier.write_errors);
  interval.latency = latency.since(earlier.latency);
  // Without a new maximum the histogram bounds the interval's maximum better than the old one.
  for (auto* totals : {&interval.reads, &interval.writes}) {
    if (totals->count != 0) totals->max_ns = std::min(totals->max_ns, static_cast<std::uint64_t>(interval.latency.max().count()));
  }
  return interval;
}

template <class Histogram>
void BasicIoCounters<Histogram>::merge(const BasicIoCounters& other) noexcept(kFixedMemory) {
  bytes_read += other.bytes_read;
  bytes_written += other.bytes_written;
  reads.merge(other.reads);
  writes.merge(other.writes);
  transactions.merge(other.transactions);
  connections.merge(other.connections);
  service.merge(other.service);
  issue_lag.merge(other.issue_lag);
  read_errors += other.read_errors;
  write_errors += other.write_errors;
  latency.merge(other.latency);
}

template struct BasicIoCounters<LatencyHistogram>;
template struct BasicIoCounters<CompactLatencyHistogram>;

IoCounters compact_counters(const WorkerIoCounters& counters) {
  return {counters.bytes_read,   counters.bytes_written, counters.reads,       counters.writes,
          counters.transactions, counters.connections,   counters.service,     counters.issue_lag,
          counters.read_errors,  counters.write_errors,  CompactLatencyHistogram(counters.latency)};
}

}  // namespace iomark
