// Samples and final results: counters, histograms, CPU and network statistics.

#include <array>
#include <string>

#include "wire.hpp"

namespace iomark::protocol::detail {

namespace {

static_assert(pb::SAMPLE_PHASE_RECORDING == static_cast<int>(SamplePhase::recording));

// ---- Histograms: sparse buckets + legacy bins + sum/min/max ---------------------------

void to_wire(const CompactLatencyHistogram& histogram, pb::Histogram& wire) {
  const auto counts = histogram.span();
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] == 0) continue;
    wire.add_bucket_index(static_cast<std::uint32_t>(histogram.first_bucket() + i));
    wire.add_bucket_count(counts[i]);
  }
  wire.mutable_legacy_bins()->Reserve(static_cast<int>(kLegacyLatencyBinCount));
  for (const auto bin : histogram.legacy_bins()) wire.add_legacy_bins(bin);
  wire.set_sum_ns(histogram.sum_ns());
  wire.set_min_ns(static_cast<std::uint64_t>(histogram.min().count()));
  wire.set_max_ns(static_cast<std::uint64_t>(histogram.max().count()));
}

CompactLatencyHistogram from_wire(const pb::Histogram& wire, Checker& check, const FieldPath& path) {
  CompactLatencyHistogram histogram;
  const auto index_path = path / "bucket_index";
  const auto count_path = path / "bucket_count";
  if (!check.count(wire.bucket_index_size(), 0, LatencyHistogram::kBucketCount, index_path)) return histogram;
  if (!check.consistent(wire.bucket_count_size() == wire.bucket_index_size(), count_path,
                        "does not have one count per bucket_index")) {
    return histogram;
  }
  if (!check.count(wire.legacy_bins_size(), kLegacyLatencyBinCount, kLegacyLatencyBinCount, path / "legacy_bins")) {
    return histogram;
  }

  std::size_t next_allowed = 0;
  for (int i = 0; i < wire.bucket_index_size(); ++i) {
    const auto index = static_cast<std::size_t>(wire.bucket_index(i));
    const auto item = static_cast<std::size_t>(i);
    if (!check.in_range(index, 0, LatencyHistogram::kBucketCount - 1, index_path.item("", item)) ||
        !check.consistent(index >= next_allowed, index_path.item("", item), "is not above the previous index") ||
        !check.consistent(wire.bucket_count(i) != 0, count_path.item("", item), "is 0 (empty buckets are left out)")) {
      return histogram;
    }
    next_allowed = index + 1;
  }
  // Straight from the wire's arrays into the histogram's non-empty span: samples carry
  // thousands a second, and a decoded 16 KiB form of each would be most of the controller's memory.
  const std::span<const std::uint32_t> indexes(wire.bucket_index().data(), wire.bucket_index().size());
  const std::span<const std::uint64_t> counts(wire.bucket_count().data(), wire.bucket_count().size());
  const std::span<const std::uint64_t> legacy_bins(wire.legacy_bins().data(), wire.legacy_bins().size());
  check.consistent(CompactLatencyHistogram::restore_sparse(indexes, counts, legacy_bins, wire.sum_ns(), wire.min_ns(),
                                                    wire.max_ns(), histogram),
                   path, "is inconsistent: its buckets, legacy bins, sum, minimum and maximum disagree");
  return histogram;
}

// ---- Counters -----------------------------------------------------------------------

void to_wire(const LatencyTotals& totals, pb::LatencyTotals& wire) {
  wire.set_count(totals.count);
  wire.set_sum_ns(totals.sum_ns);
  wire.set_max_ns(totals.max_ns);
}

LatencyTotals from_wire(const pb::LatencyTotals& wire, Checker& check, const FieldPath& path) {
  const LatencyTotals totals{wire.count(), wire.sum_ns(), wire.max_ns()};
  if (totals.count == 0) {
    check.consistent(totals.sum_ns == 0 && totals.max_ns == 0, path, "has a latency sum or maximum but no I/Os");
  } else {
    check.consistent(totals.max_ns <= totals.sum_ns, path, "has a maximum latency above the latency sum");
  }
  return totals;
}

void to_wire(const IoCounters& counters, pb::IoCounters& wire) {
  wire.set_bytes_read(counters.bytes_read);
  wire.set_bytes_written(counters.bytes_written);
  to_wire(counters.reads, *wire.mutable_reads());
  to_wire(counters.writes, *wire.mutable_writes());
  to_wire(counters.transactions, *wire.mutable_transactions());
  to_wire(counters.connections, *wire.mutable_connections());
  to_wire(counters.service, *wire.mutable_service());
  to_wire(counters.issue_lag, *wire.mutable_issue_lag());
  wire.set_read_errors(counters.read_errors);
  wire.set_write_errors(counters.write_errors);
  to_wire(counters.latency, *wire.mutable_latency());
}

void read_counters(const pb::IoCounters& wire, Checker& check, const FieldPath& path, IoCounters& counters) {
  counters.bytes_read = wire.bytes_read();
  counters.bytes_written = wire.bytes_written();
  counters.reads = from_wire(wire.reads(), check, path / "reads");
  counters.writes = from_wire(wire.writes(), check, path / "writes");
  counters.transactions = from_wire(wire.transactions(), check, path / "transactions");
  counters.connections = from_wire(wire.connections(), check, path / "connections");
  counters.service = from_wire(wire.service(), check, path / "service");
  counters.issue_lag = from_wire(wire.issue_lag(), check, path / "issue_lag");
  counters.read_errors = wire.read_errors();
  counters.write_errors = wire.write_errors();
  counters.latency = from_wire(wire.latency(), check, path / "latency");
  const bool io_count_fits = counters.reads.count <= UINT64_MAX - counters.writes.count;
  check.consistent(io_count_fits && counters.latency.count() == counters.io_count(), path / "latency",
                   "does not hold one latency per read and write");
}

// ---- --verify ----------------------------------------------------------------------

void to_wire(const VerifyReport& report, pb::VerifyReport& wire) {
  wire.set_blocks_checked(report.blocks_checked);
  wire.set_blocks_not_judged(report.blocks_not_judged);
  wire.set_corrupted(report.corrupted);
  wire.set_misdirected(report.misdirected);
  wire.set_stale(report.stale);
  wire.set_busy_redraws(report.busy_redraws);
  for (const auto& finding : report.first_findings) {
    auto& out = *wire.add_first_findings();
    out.set_failure(static_cast<std::uint32_t>(finding.failure));
    out.set_offset_bytes(finding.offset_bytes);
    out.set_expected_generation(finding.expected_generation);
    out.set_found_generation(finding.found_generation);
    out.set_found_offset_bytes(finding.found_offset_bytes);
    out.set_expected_checksum(finding.expected_checksum);
    out.set_found_checksum(finding.found_checksum);
  }
}

VerifyReport from_wire(const pb::VerifyReport& wire, Checker& check, const FieldPath& path) {
  VerifyReport report;
  report.blocks_checked = wire.blocks_checked();
  report.blocks_not_judged = wire.blocks_not_judged();
  report.corrupted = wire.corrupted();
  report.misdirected = wire.misdirected();
  report.stale = wire.stale();
  report.busy_redraws = wire.busy_redraws();
  if (!check.count(wire.first_findings_size(), 0, VerifyReport::kFindingsKept, path / "first_findings")) return report;
  for (int i = 0; i < wire.first_findings_size(); ++i) {
    const auto& in = wire.first_findings(i);
    check.in_range(in.failure(), 0, static_cast<std::uint64_t>(VerifyFailure::stale),
                   path.item("first_findings", static_cast<std::size_t>(i)) / "failure");
    report.first_findings.push_back({static_cast<VerifyFailure>(in.failure()), in.offset_bytes(),
                                     in.expected_generation(), in.found_generation(), in.found_offset_bytes(),
                                     in.expected_checksum(), in.found_checksum()});
  }
  return report;
}

// ---- Per worker, per CPU, network ---------------------------------------------------

void to_wire(const WorkerCounters& worker, pb::WorkerCounters& wire) {
  wire.set_worker_index(worker.worker_index);
  wire.set_window_ns(static_cast<std::uint64_t>(worker.window.count()));
  wire.mutable_targets()->Reserve(static_cast<int>(worker.targets.size()));
  for (const auto& target : worker.targets) {
    auto& out = *wire.add_targets();
    out.set_target_index(target.target_index);
    to_wire(target.counters, *out.mutable_counters());
    if (target.verify) to_wire(*target.verify, *out.mutable_verify());
  }
  wire.set_engine(worker.engine);
  wire.set_engine_reason(worker.engine_reason);
}

WorkerCounters from_wire(const pb::WorkerCounters& wire, Checker& check, const FieldPath& path) {
  WorkerCounters worker;
  worker.worker_index = wire.worker_index();
  check.in_range(worker.worker_index, 0, kMaxWorkers - 1, path / "worker_index");
  if (check.duration(wire.window_ns(), path / "window_ns")) {
    worker.window = Nanoseconds(static_cast<std::int64_t>(wire.window_ns()));
  }
  if (check.text(wire.engine(), kMaxEngineNameBytes, path / "engine")) worker.engine = wire.engine();
  if (check.text(wire.engine_reason(), kMaxTextBytes, path / "engine_reason")) worker.engine_reason = wire.engine_reason();
  if (!check.count(wire.targets_size(), 0, kMaxTargetsPerWorker, path / "targets")) return worker;
  worker.targets.resize(static_cast<std::size_t>(wire.targets_size()));
  for (int i = 0; i < wire.targets_size() && check.ok(); ++i) {
    const auto item = static_cast<std::size_t>(i);
    const auto target_path = path.item("targets", item);
    const auto& in = wire.targets(i);
    auto& out = worker.targets[item];
    out.target_index = in.target_index();
    check.in_range(out.target_index, 0, kMaxTargetsPerWorker - 1, target_path / "target_index");
    check.consistent(i == 0 || out.target_index > worker.targets[item - 1].target_index, target_path / "target_index",
                     "is not above the previous target's");
    read_counters(in.counters(), check, target_path / "counters", out.counters);
    if (in.has_verify()) out.verify = from_wire(in.verify(), check, target_path / "verify");
  }
  return worker;
}

void to_wire(const CpuUsage& cpu, pb::CpuUsage& wire) {
  wire.set_cpu(cpu.cpu);
  wire.set_total_percent(cpu.total_percent);
  wire.set_user_percent(cpu.user_percent);
  wire.set_privileged_percent(cpu.privileged_percent);
  wire.set_irq_percent(cpu.irq_percent);
  wire.set_iowait_percent(cpu.iowait_percent);
  wire.set_interrupts_per_second(cpu.interrupts_per_second);
}

CpuUsage from_wire(const pb::CpuUsage& wire, Checker& check, const FieldPath& path) {
  const CpuUsage cpu{wire.cpu(),         wire.total_percent(),  wire.user_percent(),          wire.privileged_percent(),
                     wire.irq_percent(), wire.iowait_percent(), wire.interrupts_per_second()};
  check.in_range(cpu.cpu, 0, kMaxCpus - 1, path / "cpu");
  check.percent(cpu.total_percent, path / "total_percent");
  check.percent(cpu.user_percent, path / "user_percent");
  check.percent(cpu.privileged_percent, path / "privileged_percent");
  check.percent(cpu.irq_percent, path / "irq_percent");
  check.percent(cpu.iowait_percent, path / "iowait_percent");
  check.rate(cpu.interrupts_per_second, path / "interrupts_per_second");
  return cpu;
}

void to_wire(const NetworkStats& network, pb::NetworkStats& wire) {
  wire.set_packets_per_second(network.packets_per_second);
  wire.set_packet_errors_per_second(network.packet_errors_per_second);
  wire.set_segments_retransmitted_per_second(network.segments_retransmitted_per_second);
}

NetworkStats from_wire(const pb::NetworkStats& wire, Checker& check, const FieldPath& path) {
  const NetworkStats network{wire.packets_per_second(), wire.packet_errors_per_second(),
                             wire.segments_retransmitted_per_second()};
  check.rate(network.packets_per_second, path / "packets_per_second");
  check.rate(network.packet_errors_per_second, path / "packet_errors_per_second");
  check.rate(network.segments_retransmitted_per_second, path / "segments_retransmitted_per_second");
  return network;
}

// ---- What Sample and FinalResults share ----------------------------------------------

using WireWorkers = google::protobuf::RepeatedPtrField<pb::WorkerCounters>;
using WireCpus = google::protobuf::RepeatedPtrField<pb::CpuUsage>;

void to_wire(const std::vector<WorkerCounters>& workers, WireWorkers& wire) {
  wire.Reserve(static_cast<int>(workers.size()));
  for (const auto& worker : workers) to_wire(worker, *wire.Add());
}

std::vector<WorkerCounters> from_wire(const WireWorkers& wire, Checker& check, const FieldPath& path) {
  std::vector<WorkerCounters> workers;
  if (!check.count(wire.size(), 0, kMaxWorkers, path)) return workers;
  // Counted before anything is decoded: every target's counters cost a whole histogram.
  std::size_t target_count = 0;
  for (const auto& worker : wire) target_count += static_cast<std::size_t>(worker.targets_size());
  if (!check.require(target_count <= kMaxTargetCounters, path,
                     "hold more than " + std::to_string(kMaxTargetCounters) + " target counters in all")) {
    return workers;
  }
  workers.reserve(static_cast<std::size_t>(wire.size()));
  for (int i = 0; i < wire.size() && check.ok(); ++i) {
    const auto item = static_cast<std::size_t>(i);
    const auto worker_path = path.item("", item);
    workers.push_back(from_wire(wire.Get(i), check, worker_path));
    check.consistent(i == 0 || workers[item].worker_index > workers[item - 1].worker_index,
                     worker_path / "worker_index", "is not above the previous worker's");
  }
  return workers;
}

void to_wire(const std::vector<CpuUsage>& cpus, WireCpus& wire) {
  wire.Reserve(static_cast<int>(cpus.size()));
  for (const auto& cpu : cpus) to_wire(cpu, *wire.Add());
}

std::vector<CpuUsage> from_wire(const WireCpus& wire, Checker& check, const FieldPath& path) {
  std::vector<CpuUsage> cpus;
  if (!check.count(wire.size(), 0, kMaxCpus, path)) return cpus;
  cpus.reserve(static_cast<std::size_t>(wire.size()));
  for (int i = 0; i < wire.size() && check.ok(); ++i) {
    const auto item = static_cast<std::size_t>(i);
    const auto cpu_path = path.item("", item);
    cpus.push_back(from_wire(wire.Get(i), check, cpu_path));
    check.consistent(i == 0 || cpus[item].cpu > cpus[item - 1].cpu, cpu_path / "cpu",
                     "is not above the previous CPU's");
  }
  return cpus;
}

}  // namespace

void to_wire(const Sample& message, pb::Sample& wire) {
  wire.set_run_id(message.run_id);
  wire.set_sequence(message.sequence);
  wire.set_run_time_ns(static_cast<std::uint64_t>(message.run_time.count()));
  wire.set_interval_ns(static_cast<std::uint64_t>(message.interval.count()));
  wire.set_phase(static_cast<pb::SamplePhase>(message.phase));
  to_wire(message.workers, *wire.mutable_workers());
  to_wire(message.cpus, *wire.mutable_cpus());
  to_wire(message.network, *wire.mutable_network());
}

Sample from_wire(const pb::Sample& wire, Checker& check, const FieldPath& path) {
  Sample message;
  message.run_id = wire.run_id();
  message.sequence = wire.sequence();
  check.in_range(message.sequence, 1, UINT64_MAX, path / "sequence");
  if (check.duration(wire.run_time_ns(), path / "run_time_ns")) {
    message.run_time = Nanoseconds(static_cast<std::int64_t>(wire.run_time_ns()));
  }
  if (check.duration(wire.interval_ns(), path / "interval_ns")) {
    message.interval = Nanoseconds(static_cast<std::int64_t>(wire.interval_ns()));
  }
  check.enumeration(wire.phase(), SamplePhase::ramp_up, SamplePhase::recording, 0, message.phase, path / "phase");
  message.workers = from_wire(wire.workers(), check, path / "workers");
  message.cpus = from_wire(wire.cpus(), check, path / "cpus");
  message.network = from_wire(wire.network(), check, path / "network");
  return message;
}

void to_wire(const FinalResults& message, pb::FinalResults& wire) {
  wire.set_run_id(message.run_id);
  to_wire(message.workers, *wire.mutable_workers());
  to_wire(message.cpus, *wire.mutable_cpus());
  to_wire(message.network, *wire.mutable_network());
}

FinalResults from_wire(const pb::FinalResults& wire, Checker& check, const FieldPath& path) {
  FinalResults message;
  message.run_id = wire.run_id();
  message.workers = from_wire(wire.workers(), check, path / "workers");
  message.cpus = from_wire(wire.cpus(), check, path / "cpus");
  message.network = from_wire(wire.network(), check, path / "network");
  return message;
}

}  // namespace iomark::protocol::detail
