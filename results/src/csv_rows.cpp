#include "csv_rows.hpp"

#include <charconv>
#include <limits>

#include "iomark/common/latency_histogram.hpp"

namespace iomark::results::detail {
namespace {

// 1-based column numbers of results.csv (docs/iometer-reference.md#results-columns).
enum Column : std::size_t {
  kTargetType = 1,
  kTargetName = 2,
  kSpecName = 3,
  kManagers = 4,
  kWorkers = 5,
  kDisks = 6,
  kIops = 7,
  kTransactionsPerConnection = 36,
  kRawReadSum = 37,
  kRunTime = 45,
  kStartingSector = 46,
  kMaximumSize = 47,
  kQueueDepth = 48,
  kCpuTotal = 49,
  kProcessorSpeed = 54,
  kInterrupts = 55,
  kCpuEffectiveness = 56,
  kPackets = 57,
  kPacketErrors = 58,
  kRetransmits = 59,
  kFirstBin = 60,
  kDataPattern = 81,
};

constexpr std::string_view kIomarkCaptions[kIomarkColumnCount] = {"iomark Data Pattern"};

constexpr std::string_view kFixedCaptions[kFirstBin - 1] = {
    "'Target Type", "Target Name", "Access Specification Name", "# Managers", "# Workers", "# Disks", "IOps",
    "Read IOps", "Write IOps", "MiBps (Binary)", "Read MiBps (Binary)", "Write MiBps (Binary)", "MBps (Decimal)",
    "Read MBps (Decimal)", "Write MBps (Decimal)", "Transactions per Second", "Connections per Second",
    "Average Response Time", "Average Read Response Time", "Average Write Response Time", "Average Transaction Time",
    "Average Connection Time", "Maximum Response Time", "Maximum Read Response Time", "Maximum Write Response Time",
    "Maximum Transaction Time", "Maximum Connection Time", "Errors", "Read Errors", "Write Errors", "Bytes Read",
    "Bytes Written", "Read I/Os", "Write I/Os", "Connections", "Transactions per Connection",
    "Total Raw Read Response Time", "Total Raw Write Response Time", "Total Raw Transaction Time",
    "Total Raw Connection Time", "Maximum Raw Read Response Time", "Maximum Raw Write Response Time",
    "Maximum Raw Transaction Time", "Maximum Raw Connection Time", "Total Raw Run Time", "Starting Sector",
    "Maximum Size", "Queue Depth", "% CPU Utilization", "% User Time", "% Privileged Time", "% DPC Time",
    "% Interrupt Time", "Processor Speed", "Interrupts per Second", "CPU Effectiveness", "Packets/Second",
    "Packet Errors", "Segments Retransmitted/Second"};

class Row {
 public:
  explicit Row(std::size_t width) : fields_(width) {}
  void set(std::size_t column, std::string value) { fields_[column - 1] = std::move(value); }
  void set(std::size_t column, double value) { set(column, format_fixed(value)); }
  void set_count(std::size_t column, std::uint64_t value) { set(column, std::to_string(value)); }
  Fields take() && { return std::move(fields_); }

 private:
  Fields fields_;
};

// Raw tick columns: nanoseconds converted to ticks of the manager's timer.
std::uint64_t to_ticks(std::uint64_t ns, std::uint64_t timer_resolution_hz) {
  if (timer_resolution_hz == kNanosecondTimerHz) return ns;
  const long double ticks =
      static_cast<long double>(ns) * static_cast<long double>(timer_resolution_hz) / 1e9L;
  return static_cast<std::uint64_t>(ticks);
}

std::uint64_t non_negative_ns(Nanoseconds duration) {
  return duration.count() > 0 ? static_cast<std::uint64_t>(duration.count()) : 0;
}

std::string ambiguous_int(std::optional<std::uint32_t> value) {
  return value ? std::to_string(*value) : std::string("-1");
}

std::string ambiguous_sectors(std::optional<std::uint64_t> value) {
  return std::to_string(value.value_or(std::numeric_limits<std::uint64_t>::max()));
}

// Columns 7-35: rates, averages, maxima, error and I/O counts.
void put_io(Row& row, const Summary& s) {
  const Rates& r = s.rates;
  const double rates[] = {r.iops,         r.read_iops,          r.write_iops,        r.mib_per_s,
                          r.read_mib_per_s, r.write_mib_per_s,  r.mb_per_s,          r.read_mb_per_s,
                          r.write_mb_per_s, r.transactions_per_s, r.connections_per_s,
                          s.average_response_ms(), s.average_read_ms(), s.average_write_ms(),
                          s.average_transaction_ms(), s.average_connection_ms(),
                          s.maximum_response_ms(), s.maximum_read_ms(), s.maximum_write_ms(),
                          s.maximum_transaction_ms(), s.maximum_connection_ms()};
  std::size_t column = kIops;
  for (const double value : rates) row.set(column++, value);
  const IoCounters& c = s.counters;
  const std::uint64_t counts[] = {c.error_count(),   c.read_errors,  c.write_errors,     c.bytes_read,
                                  c.bytes_written,   c.reads.count,  c.writes.count,     c.connections.count};
  for (const std::uint64_t value : counts) row.set_count(column++, value);
}

// Columns 37-45: latency sums and maxima and the run time, in timer ticks.
void put_raw(Row& row, const Summary& s, std::uint64_t hz) {
  const IoCounters& c = s.counters;
  const std::uint64_t raw[] = {c.reads.sum_ns, c.writes.sum_ns, c.transactions.sum_ns, c.connections.sum_ns,
                               c.reads.max_ns, c.writes.max_ns, c.transactions.max_ns, c.connections.max_ns,
                               non_negative_ns(s.run_time)};
  std::size_t column = kRawReadSum;
  for (const std::uint64_t value : raw) row.set_count(column++, to_ticks(value, hz));
}

void put_settings(Row& row, const Summary& s) {
  row.set(kTransactionsPerConnection, ambiguous_int(s.transactions_per_connection));
  row.set(kStartingSector, ambiguous_sectors(s.starting_sector));
  row.set(kMaximumSize, ambiguous_sectors(s.maximum_size_sectors));
  row.set(kQueueDepth, ambiguous_int(s.queue_depth));
}

void put_cpu(Row& row, const CpuUtilization& cpu) {
  const double values[] = {cpu.total_percent, cpu.user_percent, cpu.privileged_percent, cpu.dpc_percent,
                           cpu.interrupt_percent};
  std::size_t column = kCpuTotal;
  for (const double value : values) row.set(column++, value);
  row.set(kInterrupts, cpu.interrupts_per_second);
}

// Columns 49-53 and 55-59 of ALL and MANAGER rows.
void put_host(Row& row, const Summary& s) {
  put_cpu(row, s.cpu.value_or(CpuUtilization{}));
  row.set(kCpuEffectiveness, s.cpu_effectiveness());
  const NetworkStats network = s.network.value_or(NetworkStats{});
  row.set(kPackets, network.packets_per_second);
  row.set(kPacketErrors, network.packet_errors_per_second);
  row.set(kRetransmits, network.segments_retransmitted_per_second);
}

void put_bins(Row& row, const Summary& s) {
  std::size_t column = kFirstBin;
  for (const std::uint64_t count : s.counters.latency.legacy_bins()) row.set_count(column++, count);
}

}  // namespace

const std::array<std::string_view, kResultsCsvColumnCount>& results_captions() {
  static const std::array<std::string_view, kResultsCsvColumnCount> captions = [] {
    std::array<std::string_view, kResultsCsvColumnCount> all{};
    std::size_t i = 0;
    for (const std::string_view caption : kFixedCaptions) all[i++] = caption;
    for (const std::string_view caption : legacy_latency_bin_captions()) all[i++] = caption;
    for (const std::string_view caption : kIomarkCaptions) all[i++] = caption;
    return all;
  }();
  return captions;
}

std::string format_fixed(double value) {
  if (value == 0.0) value = 0.0;  // no "-0.000000"
  char text[400];
  const auto result = std::to_chars(text, text + sizeof text, value, std::chars_format::fixed, 6);
  return std::string(text, result.ptr);
}

std::string csv_safe(std::string_view text) {
  std::string safe(text);
  for (char& c : safe) {
    if (c == ',' || c == '\r' || c == '\n') c = ' ';
  }
  return safe;
}

std::string join(const Fields& fields) {
  std::string line;
  for (std::size_t i = 0; i < fields.size(); ++i) {
    if (i > 0) line += ',';
    line += fields[i];
  }
  return line;
}

Fields all_row(const Summary& all) {
  Row row(kResultsCsvColumnCount);
  row.set(kTargetType, std::string("ALL"));
  row.set(kTargetName, std::string("All"));
  row.set(kSpecName, csv_safe(all.spec_name));
  row.set_count(kManagers, all.manager_count);
  row.set_count(kWorkers, all.worker_count);
  row.set_count(kDisks, all.target_count);
  put_io(row, all);
  put_settings(row, all);
  put_host(row, all);
  put_bins(row, all);
  row.set(kDataPattern, csv_safe(all.data_pattern));
  return std::move(row).take();
}

Fields manager_row(const ManagerResult& manager, const Summary& summary) {
  Row row(kResultsCsvColumnCount);
  row.set(kTargetType, std::string("MANAGER"));
  row.set(kTargetName, csv_safe(manager.name));
  row.set(kSpecName, csv_safe(summary.spec_name));
  row.set_count(kWorkers, summary.worker_count);
  row.set_count(kDisks, summary.target_count);
  put_io(row, summary);
  put_raw(row, summary, manager.timer_resolution_hz);
  put_settings(row, summary);
  put_host(row, summary);
  row.set(kProcessorSpeed, static_cast<double>(manager.timer_resolution_hz));
  put_bins(row, summary);
  row.set(kDataPattern, csv_safe(summary.data_pattern));
  return std::move(row).take();
}

Fields processor_row(std::size_t index, const CpuUtilization& cpu, std::uint64_t timer_resolution_hz) {
  Row row(kProcessorRowFieldCount);
  row.set(kTargetType, std::string("PROCESSOR"));
  row.set(kTargetName, "CPU " + std::to_string(index));
  put_cpu(row, cpu);
  row.set(kProcessorSpeed, static_cast<double>(timer_resolution_hz));
  return std::move(row).take();
}

Fields worker_row(const WorkerResult& worker, const Summary& summary, std::uint64_t timer_resolution_hz) {
  Row row(kResultsCsvColumnCount);
  row.set(kTargetType, std::string("WORKER"));
  row.set(kTargetName, csv_safe(worker.name));
  row.set(kSpecName, csv_safe(summary.spec_name));
  row.set_count(kDisks, summary.target_count);
  put_io(row, summary);
  put_raw(row, summary, timer_resolution_hz);
  put_settings(row, summary);
  row.set(kProcessorSpeed, static_cast<double>(timer_resolution_hz));
  put_bins(row, summary);
  row.set(kDataPattern, csv_safe(worker.data_pattern));
  return std::move(row).take();
}

Fields target_row(const TargetResult& target, const Summary& summary, const Summary& worker_summary,
                  std::uint64_t timer_resolution_hz, TargetRowValues values) {
  const Summary& copied = values == TargetRowValues::own ? summary : worker_summary;
  Row row(kResultsCsvColumnCount);
  row.set(kTargetType, std::string(target.kind == TargetKind::disk ? "DISK" : "NETWORK"));
  row.set(kTargetName, csv_safe(target.name));
  put_io(row, summary);
  put_raw(row, copied, timer_resolution_hz);
  put_settings(row, copied);
  row.set(kProcessorSpeed, static_cast<double>(timer_resolution_hz));
  put_bins(row, copied);
  row.set(kDataPattern, csv_safe(worker_summary.data_pattern));
  return std::move(row).take();
}

std::string spec_block_if_new(const RunInfo& run, std::optional<std::uint32_t>& last) {
  if (last == run.access_index) return {};
  last = run.access_index;
  return format_spec_block(run.specs);
}

std::string error_line(std::string_view message) {
  std::string line = "\nERROR: ";
  for (const char c : message) line += c == '\r' || c == '\n' ? ' ' : c;
  line += '\n';
  return line;
}

std::string series_end(SeriesOutcome outcome) {
  switch (outcome) {
    case SeriesOutcome::completed:
      return "'End Test\n";
    case SeriesOutcome::aborted:
      return "Aborted test\n";
    case SeriesOutcome::in_progress:
      break;
  }
  return {};
}

}  // namespace iomark::results::detail
