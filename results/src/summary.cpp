#include "iomark/results/summary.hpp"

#include <algorithm>
#include <chrono>
#include <iterator>

namespace iomark::results {
namespace {

constexpr double kNsPerMs = 1e6;

double per_second(double amount, double seconds) noexcept { return seconds > 0 ? amount / seconds : 0.0; }

double mean_ms(std::uint64_t sum_ns, std::uint64_t count) noexcept {
  return count == 0 ? 0.0 : static_cast<double>(sum_ns) / kNsPerMs / static_cast<double>(count);
}

double to_ms(std::uint64_t ns) noexcept { return static_cast<double>(ns) / kNsPerMs; }

// The value every item projects to, nullopt when they differ or when no item takes part
// (IOmeter's AMBIGUOUS_VALUE rule, ManagerList::GetDiskStart and friends).
template <typename Range, typename Projection>
auto common_value(const Range& items, Projection project) -> decltype(project(*std::begin(items))) {
  decltype(project(*std::begin(items))) common;
  bool first = true;
  for (const auto& item : items) {
    const auto value = project(item);
    if (!value) continue;
    if (first) {
      common = value;
      first = false;
    } else if (common != value) {
      return std::nullopt;
    }
  }
  return common;
}

std::optional<std::uint32_t> worker_transactions_per_connection(const WorkerResult& worker) {
  if (!worker.test_connection_rate) return std::nullopt;
  return worker.transactions_per_connection;
}

// Fills the settings columns of an aggregate from every worker below it.
template <typename WorkerRange>
void set_common_settings(Summary& summary, const WorkerRange& workers) {
  // Connection rate: every worker must test it, with the same value (else -1).
  bool all_enabled = true;
  for (const WorkerResult* worker : workers) all_enabled = all_enabled && worker->test_connection_rate;
  summary.transactions_per_connection =
      all_enabled ? common_value(workers, [](const WorkerResult* w) { return worker_transactions_per_connection(*w); })
                  : std::nullopt;
  const auto disk_only = [](const WorkerResult* w, std::uint64_t value) -> std::optional<std::uint64_t> {
    if (w->kind != WorkerKind::disk) return std::nullopt;
    return value;
  };
  summary.starting_sector =
      common_value(workers, [&](const WorkerResult* w) { return disk_only(w, w->starting_sector); });
  summary.maximum_size_sectors =
      common_value(workers, [&](const WorkerResult* w) { return disk_only(w, w->maximum_size_sectors); });
  summary.queue_depth =
      common_value(workers, [](const WorkerResult* w) { return std::optional<std::uint32_t>(w->queue_depth); });
  summary.spec_name = common_value(workers, [](const WorkerResult* w) {
                        return std::optional<std::string>(w->spec_name);
                      }).value_or(std::string());
  summary.data_pattern = common_value(workers, [](const WorkerResult* w) -> std::optional<std::string> {
                           if (w->kind != WorkerKind::disk || w->data_pattern.empty()) return std::nullopt;
                           return w->data_pattern;
                         }).value_or(std::string());
}

// Adds a lower level's totals into an aggregate (counters, rates, longest window).
void accumulate(Summary& into, const Summary& part) {
  into.counters.merge(part.counters);
  into.rates += part.rates;
  into.run_time = std::max(into.run_time, part.run_time);
}

}  // namespace

Rates& Rates::operator+=(const Rates& other) noexcept {
  iops += other.iops;
  read_iops += other.read_iops;
  write_iops += other.write_iops;
  mib_per_s += other.mib_per_s;
  read_mib_per_s += other.read_mib_per_s;
  write_mib_per_s += other.write_mib_per_s;
  mb_per_s += other.mb_per_s;
  read_mb_per_s += other.read_mb_per_s;
  write_mb_per_s += other.write_mb_per_s;
  transactions_per_s += other.transactions_per_s;
  connections_per_s += other.connections_per_s;
  return *this;
}

Rates rates_of(const IoCounters& counters, Nanoseconds window) noexcept {
  const double seconds = std::chrono::duration<double>(window).count();
  const auto reads = static_cast<double>(counters.reads.count);
  const auto writes = static_cast<double>(counters.writes.count);
  const auto read_bytes = static_cast<double>(counters.bytes_read);
  const auto written_bytes = static_cast<double>(counters.bytes_written);
  Rates rates;
  rates.read_iops = per_second(reads, seconds);
  rates.write_iops = per_second(writes, seconds);
  rates.iops = per_second(reads + writes, seconds);
  rates.read_mib_per_s = per_second(read_bytes / kBytesPerMiB, seconds);
  rates.write_mib_per_s = per_second(written_bytes / kBytesPerMiB, seconds);
  rates.mib_per_s = per_second((read_bytes + written_bytes) / kBytesPerMiB, seconds);
  rates.read_mb_per_s = per_second(read_bytes / kBytesPerMB, seconds);
  rates.write_mb_per_s = per_second(written_bytes / kBytesPerMB, seconds);
  rates.mb_per_s = per_second((read_bytes + written_bytes) / kBytesPerMB, seconds);
  rates.transactions_per_s = per_second(static_cast<double>(counters.transactions.count), seconds);
  rates.connections_per_s = per_second(static_cast<double>(counters.connections.count), seconds);
  return rates;
}

double Summary::average_response_ms() const noexcept {
  return mean_ms(counters.reads.sum_ns + counters.writes.sum_ns, counters.reads.count + counters.writes.count);
}
double Summary::average_read_ms() const noexcept { return mean_ms(counters.reads.sum_ns, counters.reads.count); }
double Summary::average_write_ms() const noexcept { return mean_ms(counters.writes.sum_ns, counters.writes.count); }
double Summary::average_transaction_ms() const noexcept {
  return mean_ms(counters.transactions.sum_ns, counters.transactions.count);
}
double Summary::average_connection_ms() const noexcept {
  return mean_ms(counters.connections.sum_ns, counters.connections.count);
}
double Summary::maximum_response_ms() const noexcept {
  return to_ms(std::max(counters.reads.max_ns, counters.writes.max_ns));
}
double Summary::maximum_read_ms() const noexcept { return to_ms(counters.reads.max_ns); }
double Summary::maximum_write_ms() const noexcept { return to_ms(counters.writes.max_ns); }
double Summary::maximum_transaction_ms() const noexcept { return to_ms(counters.transactions.max_ns); }
double Summary::maximum_connection_ms() const noexcept { return to_ms(counters.connections.max_ns); }
double Summary::average_service_ms() const noexcept {
  return mean_ms(counters.service.sum_ns, counters.service.count);
}
double Summary::maximum_service_ms() const noexcept { return to_ms(counters.service.max_ns); }
double Summary::average_issue_lag_ms() const noexcept {
  return mean_ms(counters.issue_lag.sum_ns, counters.issue_lag.count);
}
double Summary::maximum_issue_lag_ms() const noexcept { return to_ms(counters.issue_lag.max_ns); }

double Summary::cpu_effectiveness() const noexcept {
  if (!cpu || cpu->total_percent == 0.0) return 0.0;
  return rates.iops / cpu->total_percent;
}

CpuUtilization combine_cpus(std::span<const CpuUtilization> cpus) noexcept {
  CpuUtilization combined;
  if (cpus.empty()) return combined;
  for (const CpuUtilization& cpu : cpus) {
    combined.total_percent += cpu.total_percent;
    combined.user_percent += cpu.user_percent;
    combined.privileged_percent += cpu.privileged_percent;
    combined.dpc_percent += cpu.dpc_percent;
    combined.interrupt_percent += cpu.interrupt_percent;
    combined.interrupts_per_second += cpu.interrupts_per_second;
  }
  const auto count = static_cast<double>(cpus.size());
  combined.total_percent /= count;
  combined.user_percent /= count;
  combined.privileged_percent /= count;
  combined.dpc_percent /= count;
  combined.interrupt_percent /= count;
  return combined;
}

Summary summarize_target(const WorkerResult& worker, const TargetResult& target) {
  Summary summary;
  summary.level = SummaryLevel::target;
  summary.counters = target.counters;
  summary.rates = rates_of(target.counters, worker.recording_window);
  summary.run_time = worker.recording_window;
  summary.target_count = 1;
  const WorkerResult* self[] = {&worker};
  set_common_settings(summary, self);
  return summary;
}

WorkerSummary summarize_worker(const WorkerResult& worker) {
  WorkerSummary result;
  Summary& total = result.total;
  total.level = SummaryLevel::worker;
  total.run_time = worker.recording_window;
  total.worker_count = 1;
  total.target_count = static_cast<std::uint32_t>(worker.targets.size());
  const WorkerResult* self[] = {&worker};
  set_common_settings(total, self);
  result.targets.reserve(worker.targets.size());
  for (const TargetResult& target : worker.targets) {
    result.targets.push_back(summarize_target(worker, target));
    accumulate(total, result.targets.back());
  }
  return result;
}

ManagerSummary summarize_manager(const ManagerResult& manager) {
  ManagerSummary result;
  Summary& total = result.total;
  total.level = SummaryLevel::manager;
  total.manager_count = 1;
  total.worker_count = static_cast<std::uint32_t>(manager.workers.size());
  std::vector<const WorkerResult*> workers;
  workers.reserve(manager.workers.size());
  result.workers.reserve(manager.workers.size());
  for (const WorkerResult& worker : manager.workers) {
    workers.push_back(&worker);
    result.workers.push_back(summarize_worker(worker));
    accumulate(total, result.workers.back().total);
    total.target_count += result.workers.back().total.target_count;
  }
  set_common_settings(total, workers);
  total.cpu = combine_cpus(manager.cpus);
  total.network = manager.network;
  return result;
}

RunSummary summarize_run(const RunResults& run) {
  RunSummary result;
  Summary& all = result.all;
  all.level = SummaryLevel::all;
  all.manager_count = static_cast<std::uint32_t>(run.managers.size());
  std::vector<const WorkerResult*> workers;
  CpuUtilization cpu;
  NetworkStats network;
  result.managers.reserve(run.managers.size());
  for (const ManagerResult& manager : run.managers) {
    for (const WorkerResult& worker : manager.workers) workers.push_back(&worker);
    result.managers.push_back(summarize_manager(manager));
    const Summary& part = result.managers.back().total;
    accumulate(all, part);
    all.worker_count += part.worker_count;
    all.target_count += part.target_count;
    cpu.total_percent += part.cpu->total_percent;
    cpu.user_percent += part.cpu->user_percent;
    cpu.privileged_percent += part.cpu->privileged_percent;
    cpu.dpc_percent += part.cpu->dpc_percent;
    cpu.interrupt_percent += part.cpu->interrupt_percent;
    cpu.interrupts_per_second += part.cpu->interrupts_per_second;
    network.packets_per_second += part.network->packets_per_second;
    network.packet_errors_per_second += part.network->packet_errors_per_second;
    network.segments_retransmitted_per_second += part.network->segments_retransmitted_per_second;
  }
  if (!run.managers.empty()) {
    // Percentages are averaged over managers; interrupts/s stay summed (ManagerList::UpdateResults).
    const auto count = static_cast<double>(run.managers.size());
    cpu.total_percent /= count;
    cpu.user_percent /= count;
    cpu.privileged_percent /= count;
    cpu.dpc_percent /= count;
    cpu.interrupt_percent /= count;
  }
  set_common_settings(all, workers);
  all.cpu = cpu;
  all.network = network;
  return result;
}

}  // namespace iomark::results
