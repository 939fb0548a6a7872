// Aggregation: every statistic results files show, derived from the results model exactly as
// IOmeter 1.1.0 derives it (docs/iometer-reference.md#statistics).
//
// - Target: rates are its counters over its *worker's* recording window.
// - Worker: counters summed and histograms merged over its targets; rates are the sum of
//   the per-target rates; maxima the maximum; averages recomputed from summed latency sums
//   and counts (I/O-weighted).
// - Manager: the same over its workers; run time = the longest worker window; CPU
//   percentages averaged over its CPUs, interrupts/s summed; network stats its own.
// - ALL: the same over managers; CPU percentages averaged over managers, interrupts/s and
//   network rates summed.
// Consequently IOps/MBps above target level are "sums of rates over individual windows",
// not "total bytes / global elapsed time" (docs/iometer-reference.md#fix-summed-rates), as IOmeter
// reports them. Percentiles come from merged histograms, never from averaged percentiles.
//
// Pure functions of their inputs; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <vector>

#include "iomark/common/io_counters.hpp"
#include "iomark/common/units.hpp"
#include "iomark/results/run_results.hpp"

namespace iomark::results {

inline constexpr double kBytesPerMiB = 1048576.0;   // results.csv "MiBps (Binary)"
inline constexpr double kBytesPerMB = 1000000.0;    // results.csv "MBps (Decimal)"

struct Rates {
  double iops{};
  double read_iops{};
  double write_iops{};
  double mib_per_s{};  // 2^20 bytes per second
  double read_mib_per_s{};
  double write_mib_per_s{};
  double mb_per_s{};  // 10^6 bytes per second
  double read_mb_per_s{};
  double write_mb_per_s{};
  double transactions_per_s{};
  double connections_per_s{};

  Rates& operator+=(const Rates& other) noexcept;
  friend bool operator==(const Rates&, const Rates&) = default;
};

// The per-second rates of one target's counters over its worker's window; all 0 when the
// window is not positive.
[[nodiscard]] Rates rates_of(const IoCounters& counters, Nanoseconds window) noexcept;

enum class SummaryLevel : std::uint8_t { all, manager, worker, target };

// The statistics of one results row (ALL, MANAGER, WORKER or a target).
struct Summary {
  SummaryLevel level{SummaryLevel::target};
  IoCounters counters;     // summed counts, bytes, errors and latency sums; maxima; merged histogram
  Rates rates;             // sum of per-target rates
  Nanoseconds run_time{};  // target/worker: the worker's window; above: the longest window

  std::uint32_t manager_count{};  // ALL: active managers
  std::uint32_t worker_count{};   // ALL, MANAGER: active workers
  std::uint32_t target_count{};   // ALL, MANAGER, WORKER: active targets (results.csv "# Disks")
  // ALL, MANAGER: the spec every worker below ran, empty if they differ. WORKER and target:
  // the worker's spec.
  std::string spec_name;
  // The data pattern every disk worker below wrote (WorkerResult::data_pattern), empty if they
  // differ or none is known: results.csv's iomark column.
  std::string data_pattern;

  // Settings every worker below shares; nullopt when they differ (results.csv writes -1 or
  // 18446744073709551615, docs/iometer-reference.md#fix-ambiguous-values).
  // Set when every worker tests connection rate, with the same transactions per connection.
  std::optional<std::uint32_t> transactions_per_connection;
  std::optional<std::uint64_t> starting_sector;       // disk workers only; nullopt if none
  std::optional<std::uint64_t> maximum_size_sectors;  // disk workers only; nullopt if none
  std::optional<std::uint32_t> queue_depth;

  std::optional<CpuUtilization> cpu;    // ALL and MANAGER only
  std::optional<NetworkStats> network;  // ALL and MANAGER only

  // Averages in milliseconds from summed sums and counts; 0 when there is nothing to average.
  [[nodiscard]] double average_response_ms() const noexcept;  // reads and writes together
  [[nodiscard]] double average_read_ms() const noexcept;
  [[nodiscard]] double average_write_ms() const noexcept;
  [[nodiscard]] double average_transaction_ms() const noexcept;
  [[nodiscard]] double average_connection_ms() const noexcept;
  // Maxima in milliseconds; the response maximum is the larger of read and write.
  [[nodiscard]] double maximum_response_ms() const noexcept;
  [[nodiscard]] double maximum_read_ms() const noexcept;
  [[nodiscard]] double maximum_write_ms() const noexcept;
  [[nodiscard]] double maximum_transaction_ms() const noexcept;
  [[nodiscard]] double maximum_connection_ms() const noexcept;
  // Rate-controlled runs (--rate-iops), where the response figures run from each I/O's
  // scheduled time: whether this row was one, the response time from the actual issue, and how
  // late the I/Os were issued (docs/characterize.md#rate-control).
  [[nodiscard]] bool rate_controlled() const noexcept { return counters.service.count != 0; }
  [[nodiscard]] double average_service_ms() const noexcept;
  [[nodiscard]] double maximum_service_ms() const noexcept;
  [[nodiscard]] double average_issue_lag_ms() const noexcept;
  [[nodiscard]] double maximum_issue_lag_ms() const noexcept;
  // IOps per % of CPU utilisation; 0 without CPU data or at 0 % utilisation.
  [[nodiscard]] double cpu_effectiveness() const noexcept;
};

struct WorkerSummary {
  Summary total;
  std::vector<Summary> targets;  // parallel to WorkerResult::targets
};

struct ManagerSummary {
  Summary total;
  std::vector<WorkerSummary> workers;  // parallel to ManagerResult::workers
};

// The summaries of a whole run, shaped like the RunResults tree.
struct RunSummary {
  Summary all;
  std::vector<ManagerSummary> managers;  // parallel to RunResults::managers
};

[[nodiscard]] Summary summarize_target(const WorkerResult& worker, const TargetResult& target);
[[nodiscard]] WorkerSummary summarize_worker(const WorkerResult& worker);
[[nodiscard]] ManagerSummary summarize_manager(const ManagerResult& manager);
[[nodiscard]] RunSummary summarize_run(const RunResults& run);

// A manager's CPU row: the five percentages averaged over its CPUs, interrupts/s summed
// (all zero for an empty list).
[[nodiscard]] CpuUtilization combine_cpus(std::span<const CpuUtilization> cpus) noexcept;

}  // namespace iomark::results
