// The results model: what one run (and one series of runs) produced, as plain values.
//
// No I/O and no derived numbers here: the tree holds what agents measured (raw counters per
// target, CPU and network samples per manager) and the settings that give them meaning
// (recording windows, queue depths). summary.hpp derives every statistic from it; the CSV,
// time-series and JSON writers only format. The controller fills it from agent reports.
//
// Units: latencies and windows are nanoseconds (iomark::IoCounters); percentages are 0..100;
// rates are per second.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/io_counters.hpp"
#include "iomark/common/units.hpp"
#include "iomark/common/verify_report.hpp"
#include "iomark/results/wall_clock.hpp"

namespace iomark::results {

// Ticks per second of a nanosecond clock: what iomark managers report as their timer
// resolution (results.csv "Processor Speed"), since every counter is in nanoseconds.
inline constexpr std::uint64_t kNanosecondTimerHz = 1'000'000'000;

// The row type a target gets in results.csv: `DISK` or `NETWORK`.
enum class TargetKind : std::uint8_t { disk, network };

// Disk workers drive targets on their own host; network workers drive a NIC (a TCP server or
// client). Only disk workers take part in the Starting Sector / Maximum Size columns.
enum class WorkerKind : std::uint8_t { disk, network };

struct TargetResult {
  // Shown as results.csv "Target Name": a device or file name ("sdb", "/data [xfs]") or, for
  // network targets, `<this mgr>:<local addr> >> <partner mgr>:<remote addr>`.
  std::string name;
  TargetKind kind{TargetKind::disk};
  IoCounters counters;  // recorded inside the worker's recording window only
  // --verify's findings over the whole run (ramp-up included); nullopt when not verified.
  std::optional<VerifyReport> verify{};
  friend bool operator==(const TargetResult&, const TargetResult&) = default;
};

struct WorkerResult {
  std::string name;
  WorkerKind kind{WorkerKind::disk};
  std::string spec_name;  // the access spec this worker ran (one of RunInfo::specs)
  // Length of this worker's recording window: every per-second rate of its targets uses it.
  Nanoseconds recording_window{};
  std::uint64_t starting_sector{};
  std::uint64_t maximum_size_sectors{};  // 0 = the whole target
  std::uint32_t queue_depth{1};          // outstanding I/Os per target
  // The I/O engine the agent drove this worker with and why (`auto`'s measurements, or
  // "as asked"); empty when unknown (network workers, agents and files that predate it).
  std::string engine;
  std::string engine_reason;
  bool test_connection_rate{false};
  std::uint32_t transactions_per_connection{1};
  // What its writes carried, in --data-pattern's words ("full-random", "compress:2,dedupe:3");
  // empty when unknown (files that predate it).
  std::string data_pattern;
  // Active targets only, in the order assigned. A network client worker holds the one
  // network target whose traffic it reports.
  std::vector<TargetResult> targets;
  friend bool operator==(const WorkerResult&, const WorkerResult&) = default;
};

// One CPU's utilisation over the recording window (docs/iometer-reference.md#cpu-stats).
struct CpuUtilization {
  double total_percent{};
  double user_percent{};
  double privileged_percent{};
  double dpc_percent{};        // always 0 on Linux
  double interrupt_percent{};  // always 0 on Linux
  double interrupts_per_second{};
  friend bool operator==(const CpuUtilization&, const CpuUtilization&) = default;
};

// A manager's network counters over the recording window, summed over its NICs.
struct NetworkStats {
  double packets_per_second{};
  double packet_errors_per_second{};  // results.csv calls it "Packet Errors"; it is a rate
  double segments_retransmitted_per_second{};
  friend bool operator==(const NetworkStats&, const NetworkStats&) = default;
};

struct HostFacts {
  std::uint32_t cpu_count{};
  std::string os_name;         // "Linux"
  std::string kernel_release;  // uname -r
  std::string iomark_version;  // of the agent
  friend bool operator==(const HostFacts&, const HostFacts&) = default;
};

struct ManagerResult {
  std::string name;
  HostFacts host;
  // Ticks per second of the raw results.csv columns (37-45) and its "Processor Speed".
  // Counters stay in nanoseconds; writers convert them to ticks with this value, so with
  // the default the raw columns are nanoseconds.
  std::uint64_t timer_resolution_hz{kNanosecondTimerHz};
  std::vector<CpuUtilization> cpus;  // one per CPU, CPU 0 first
  NetworkStats network;
  std::vector<WorkerResult> workers;  // active workers only, in display order
  friend bool operator==(const ManagerResult&, const ManagerResult&) = default;
};

// What identifies one run of a series.
struct RunInfo {
  std::uint32_t access_index{};  // k: which assigned spec every worker ran (0-based)
  std::uint32_t cycling_step{};  // 0-based step of the cycling within this access index
  // The queue depth the test type applied to every worker (cycle-outstanding-I/Os tests);
  // nullopt when the test type leaves each worker's own setting.
  std::optional<std::uint32_t> queue_depth;
  access_specs::TestType test_type{access_specs::TestType::normal};
  std::string description;
  // The specs at least one worker ran, in order of first use (the results.csv spec block).
  std::vector<access_specs::AccessSpec> specs;
  WallClockTime start_time;  // recording started
  WallClockTime end_time;    // results taken: the `'Time Stamp` after the results block
  friend bool operator==(const RunInfo&, const RunInfo&) = default;
};

// How a run with results ended. IOmeter's "Stop All" keeps the run in progress: its results
// block is written as usual and `Aborted test` follows (docs/iometer-reference.md#results-layout).
enum class RunEnd : std::uint8_t {
  completed,    // recorded for its whole run time
  interrupted,  // stopped early on request (Ctrl-C, SIGTERM, Stop): the figures cover the
                // recording until then, each worker's window as long as it really was
};

struct RunResults {
  RunInfo info;
  std::vector<ManagerResult> managers;  // active managers only, in display order
  RunEnd end{RunEnd::completed};  // initialised so that 2-field aggregate initialisations stay warning-free
  friend bool operator==(const RunResults&, const RunResults&) = default;
};

// What the series header of every results file says.
struct SeriesInfo {
  access_specs::TestType test_type{access_specs::TestType::normal};
  std::string description;
  WallClockTime start_time;  // Start pressed
  access_specs::RecordResults record_results{access_specs::RecordResults::all};
  std::string iomark_version;  // of the controller
  friend bool operator==(const SeriesInfo&, const SeriesInfo&) = default;
};

enum class SeriesOutcome : std::uint8_t {
  in_progress,  // more runs may follow
  completed,    // every run finished (results.csv `'End Test`)
  aborted,      // stopped by the user or an error (results.csv `Aborted test`)
};

// A run that did not finish (an agent lost, a target that could not be prepared...): which
// run it was and the named error. Its partial counters are not kept. results.csv marks it
// with an `ERROR:` line.
struct FailedRun {
  std::uint32_t position{};  // 1-based place in the series: "run 3 of 6"
  RunInfo info;              // start_time and end_time: when it began and when it failed
  std::string error;
  friend bool operator==(const FailedRun&, const FailedRun&) = default;
};

// A whole series: everything the JSON format stores.
// A series repeated in rounds until one figure of its ALL row was steady (`iomark run
// --steady-state`, docs/characterize.md): that figure in every round and the verdict of
// SNIA's rule over the last `window` rounds.
struct SteadyStateRecord {
  std::string figure{};  // iops, mbps, avg or p99 (access_specs::SteadyFigure's names)
  std::uint32_t max_rounds{};
  std::uint32_t window{};
  std::vector<double> rounds{};  // oldest first
  bool steady{false};
  std::uint32_t window_first{};  // the window's first round, 0-based
  double average{};
  double data_excursion{};   // (max - min) / average over the window
  double slope_excursion{};  // |slope| x (window - 1) / average
  double slope{};            // of the least-squares line, per round
  std::string reason{};      // why not steady; empty when steady
  friend bool operator==(const SteadyStateRecord&, const SteadyStateRecord&) = default;
};

// A --find-max-iops search (docs/characterize.md#find-max-iops): every run it made, in order,
// and the one it chose, the highest IOPS whose latency figure stayed within the bound.
struct MaxIopsStep {
  std::uint32_t run{};              // 1-based run number of the series
  std::uint32_t outstanding_ios{};  // per target
  std::optional<double> rate_iops{};  // asked of every manager together; unset: as fast as the depth allows
  double iops{};        // achieved, ALL row
  double latency_ms{};  // the bound's figure, ALL row (merged over every manager)
  bool within{false};   // latency_ms <= the limit
  friend bool operator==(const MaxIopsStep&, const MaxIopsStep&) = default;
};

struct MaxIopsRecord {
  std::string figure{};  // avg, p99 or p99.9 (access_specs::LatencyFigure's names)
  double limit_ms{};
  std::vector<MaxIopsStep> steps{};  // in the order they ran
  std::optional<std::uint32_t> chosen{};  // index into steps; unset while no step was within the bound
  bool finished{false};     // the search ended by its own rule, not cut short
  std::string conclusion{};  // in words, e.g. "4012 IOPS at QD 8 (p99 1.91 ms <= 2 ms)"
  friend bool operator==(const MaxIopsRecord&, const MaxIopsRecord&) = default;
};

// --precondition (docs/characterize.md#preconditioning): every target the series writes was
// written whole `passes` times before its first run, in sequential writes of `block_bytes`
// or, with --precondition-spec, in `spec`'s writes.
struct PreconditionRecord {
  std::uint32_t passes{};
  std::uint64_t block_bytes{};  // 0 with a spec
  std::vector<std::string> targets{};  // "MANAGER: PATH", in the order they were first prepared
  std::optional<access_specs::AccessSpec> spec{};
  friend bool operator==(const PreconditionRecord&, const PreconditionRecord&) = default;
};

// `iomark pts iops` (docs/characterize.md#pts-iops): every round runs each read/write mix (the
// outer loop, in this order) with each block size (the inner loop), all random, so the run at
// 1-based position p of the series is round (p - 1) / cells, mix ((p - 1) % cells) / blocks and
// block (p - 1) % blocks, where cells = mixes x blocks.
struct PtsIopsRecord {
  std::vector<std::uint32_t> read_percents{};  // 100 (all reads) .. 0 (all writes)
  std::vector<std::uint64_t> block_bytes{};
  friend bool operator==(const PtsIopsRecord&, const PtsIopsRecord&) = default;
};

struct SeriesResults {
  SeriesInfo info;
  std::optional<access_specs::TestPlan> plan;  // the plan that produced the runs, if known
  std::vector<RunResults> runs;  // completed runs only
  SeriesOutcome outcome{SeriesOutcome::in_progress};
  std::vector<FailedRun> failed_runs{};  // initialised so that older 4-field aggregate initialisations stay warning-free
  std::optional<SteadyStateRecord> steady_state{};  // only for a series run in rounds
  std::optional<MaxIopsRecord> max_iops_search{};  // only for a --find-max-iops series
  std::optional<PreconditionRecord> precondition{};  // only for a series that preconditioned
  std::optional<PtsIopsRecord> pts_iops{};           // only for `iomark pts iops`
  friend bool operator==(const SeriesResults&, const SeriesResults&) = default;
};

}  // namespace iomark::results
