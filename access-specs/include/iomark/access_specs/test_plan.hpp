// The test plan: everything an .icf file can hold, and everything the controller needs to
// run a series (docs/iometer-reference.md#icf-test-setup).
//
// Value types only. `icf-import` reads and writes them, the controller expands their
// cycling into runs, the GUI edits them. read(write(plan)) == plan for every plan.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/data_reduction.hpp"
#include "iomark/common/result.hpp"

namespace iomark::access_specs {

// A worker's rate (Worker::rate_iops, --rate-iops' share): beyond these, the schedule's period
// (1e9 / rate ns) is either longer than any run or shorter than a clock reading.
inline constexpr double kMinWorkerRateIops = 0.01;
inline constexpr double kMaxWorkerRateIops = 1e8;

enum class TestType : std::uint8_t {
  normal = 0,
  cycle_targets = 1,
  cycle_workers = 2,
  increment_targets_parallel = 3,
  increment_targets_serial = 4,
  cycle_workers_and_targets = 5,
  cycle_outstanding_ios = 6,
  cycle_outstanding_ios_and_targets = 7,
};

// Which of the Test Setup's cycling settings a test type steps through (IOmeter's Test Setup
// greys the others): the increment types step the target count as the target cycling says.
struct TestTypeTraits {
  bool cycles_workers{false};
  bool cycles_targets{false};
  bool cycles_outstanding_ios{false};
};
[[nodiscard]] constexpr TestTypeTraits traits_of(TestType type) noexcept {
  switch (type) {
    case TestType::cycle_targets:
    case TestType::increment_targets_parallel:
    case TestType::increment_targets_serial: return {.cycles_targets = true};
    case TestType::cycle_workers: return {.cycles_workers = true};
    case TestType::cycle_workers_and_targets: return {.cycles_workers = true, .cycles_targets = true};
    case TestType::cycle_outstanding_ios: return {.cycles_outstanding_ios = true};
    case TestType::cycle_outstanding_ios_and_targets: return {.cycles_targets = true, .cycles_outstanding_ios = true};
    case TestType::normal: break;
  }
  return {};
}

enum class RecordResults : std::uint8_t {
  all = 0,
  no_targets = 1,
  no_workers = 2,
  no_managers = 3,
  none = 4,
};

enum class StepType : std::uint8_t { linear = 0, exponential = 1 };

// A cycling quantity: start, step and how the step applies (docs/iometer-reference.md#cycling).
struct Cycling {
  std::uint32_t start{1};
  std::uint32_t step{1};
  StepType step_type{StepType::linear};
  friend bool operator==(const Cycling&, const Cycling&) = default;
};

struct QueueDepthCycling {
  std::uint32_t start{1};
  std::uint32_t end{32};
  std::uint32_t step{2};
  StepType step_type{StepType::exponential};
  friend bool operator==(const QueueDepthCycling&, const QueueDepthCycling&) = default;
};

// "NUMBER_OF_CPUS" in the ICF: one worker per processor the manager reports.
struct WorkersToSpawn {
  std::optional<std::uint32_t> count;  // nullopt = one per CPU
  friend bool operator==(const WorkersToSpawn&, const WorkersToSpawn&) = default;
};

struct TestSetup {
  std::string description;
  std::uint32_t run_time_s{0};  // 0 = until stopped
  std::uint32_t ramp_up_s{0};
  WorkersToSpawn default_disk_workers{};
  WorkersToSpawn default_network_workers{0};
  RecordResults record_results{RecordResults::all};
  Cycling worker_cycling{};
  Cycling target_cycling{};
  QueueDepthCycling queue_depth_cycling{};
  TestType test_type{TestType::normal};
  friend bool operator==(const TestSetup&, const TestSetup&) = default;
};

enum class UpdateType : std::uint8_t { whole_test, last_update };

// One of the six bar charts of IOmeter's Results Display page.
struct BarChart {
  std::uint32_t number{1};  // 1..6
  std::string statistic;    // the menu caption, e.g. "Total I/Os per Second"
  // Absent: the bar watches all managers. manager_id is the 1-based occurrence of the name.
  std::optional<std::uint32_t> manager_id;
  std::string manager_name;
  std::optional<std::uint32_t> worker_id;
  std::string worker_name;
  friend bool operator==(const BarChart&, const BarChart&) = default;
};

struct ResultsDisplay {
  bool record_last_update{false};       // writes the "inst" time-series side file
  std::uint32_t update_frequency_s{0};  // 0 = never during the run
  UpdateType update_type{UpdateType::whole_test};
  std::vector<BarChart> bar_charts;
  friend bool operator==(const ResultsDisplay&, const ResultsDisplay&) = default;
};

enum class WorkerType : std::uint8_t { disk, network_tcp, network_vi };

// Data written by write I/Os (docs/iometer-reference.md#data-pattern).
enum class DataPattern : std::uint8_t { repeating_bytes = 0, pseudo_random = 1, full_random = 2 };

struct Target {
  // Path (`/dev/sdb`, `/data/iobw.tst`), legacy name (`sdb`, `/data [xfs]`, `I:local`),
  // NIC address for network targets, or a template placeholder such as `[*TARGET*]`.
  std::string name;
  WorkerType type{WorkerType::disk};
  // Network targets only: the manager that owns the remote interface.
  std::optional<std::uint32_t> remote_manager_id;
  std::string remote_manager_name;
  friend bool operator==(const Target&, const Target&) = default;
};

struct Worker {
  std::string name;
  WorkerType type{WorkerType::disk};
  std::uint32_t outstanding_ios{1};  // per target
  bool test_connection_rate{false};
  std::uint32_t transactions_per_connection{1};
  bool use_fixed_seed{false};
  std::uint64_t fixed_seed{0};
  std::uint64_t maximum_disk_size_sectors{0};  // 0 = whole target
  std::uint64_t starting_sector{0};
  DataPattern data_pattern{DataPattern::repeating_bytes};
  // iomark's extension (an `.icf` extension line): when set, writes carry this and
  // data_pattern is only what IOmeter itself reads.
  std::optional<DataReduction> data_reduction;
  // iomark's extension (an `.icf` extension line): a disk worker issuing this many I/Os per
  // second on a schedule (docs/characterize.md#rate-control); unset: as fast as it can.
  std::optional<double> rate_iops;
  std::string local_network_interface;              // network workers only
  std::optional<std::uint32_t> vi_outstanding_ios;  // VI workers only
  // Spec names in run order (duplicates allowed); nullopt = the file had no such block.
  std::optional<std::vector<std::string>> assigned_specs;
  std::optional<std::vector<Target>> targets;
  friend bool operator==(const Worker&, const Worker&) = default;
};

struct Manager {
  std::uint32_t id{1};  // 1-based occurrence of this name in the list
  std::string name;
  std::string network_address;  // empty, "localhost", a host name or an IP address
  std::vector<Worker> workers;
  friend bool operator==(const Manager&, const Manager&) = default;
};

// A whole configuration. Each section is optional, as in an .icf file: an access-spec-only
// file has only `access_specs`.
struct TestPlan {
  std::optional<TestSetup> setup;
  std::optional<ResultsDisplay> display;
  std::optional<std::vector<AccessSpec>> access_specs;
  std::optional<std::vector<Manager>> managers;
  friend bool operator==(const TestPlan&, const TestPlan&) = default;
};

// Checks the plan as a whole, section by section, stopping at the first problem:
// * setup: run/ramp time and cycling values within their descriptors' ranges (cycling
//   start and step >= 1), queue-depth start <= end, known enum values, no line break in
//   the description;
// * display: update frequency one of 0,1,2,3,4,5,10,15,30,45,60; bar numbers 1..6, once each;
// * specs: each passes validate(AccessSpec); names unique ignoring case; "Idle" is reserved;
// * managers: names 1..127 bytes without control characters, id >= 1, (name, id) unique;
//   workers: same name rule, worker fields within their descriptors' ranges, every assigned
//   spec found in the plan's specs, among the built-ins, or "Idle"; targets named, of the
//   worker's type, network targets naming their manager.
// The message starts with the owner ("test setup", "spec 'X' line 2", "manager 'hostA'
// (id 1), worker 'Worker 1'"); field() names the field. Codes: invalid_argument (out of
// range), not_found (unknown assigned spec), validation_error (everything else).
[[nodiscard]] Result<void> validate(const TestPlan& plan);

// Finds a spec by name, case-insensitively as IOmeter does.
[[nodiscard]] const AccessSpec* find_spec(const std::vector<AccessSpec>& specs, std::string_view name);

// IOmeter's literals: NORMAL, CYCLE_OUTSTANDING_IOS, ...; ALL, NO_TARGETS, ...; LINEAR ...
// to_string gives "" for a value outside the enumeration (validate() rejects those);
// parse_* compare case-insensitively and take literals only (numeric fallbacks are the ICF
// reader's job).
[[nodiscard]] std::string_view to_string(TestType type) noexcept;
[[nodiscard]] std::string_view to_string(RecordResults record) noexcept;
[[nodiscard]] std::string_view to_string(StepType step) noexcept;
[[nodiscard]] std::optional<TestType> parse_test_type(std::string_view literal) noexcept;
[[nodiscard]] std::optional<RecordResults> parse_record_results(std::string_view literal) noexcept;
[[nodiscard]] std::optional<StepType> parse_step_type(std::string_view literal) noexcept;
// The command lines' names of data patterns: "repeating", "pseudo-random", "full-random".
[[nodiscard]] std::optional<DataPattern> parse_data_pattern(std::string_view name) noexcept;
// What a write carries: one of IOmeter's patterns, or a reduction pattern. With a reduction,
// `pattern` is only what IOmeter itself gets (the `.icf` number, a Dynamo 1.1.0): the
// generator writes the reduction data.
struct WriteData {
  DataPattern pattern{DataPattern::repeating_bytes};
  std::optional<DataReduction> reduction;
  friend bool operator==(const WriteData&, const WriteData&) = default;
};

// The IOmeter pattern a reduction pattern falls back to where only IOmeter's three exist:
// full random, the one that never flatters a reducing array.
inline constexpr DataPattern kReductionFallbackPattern = DataPattern::full_random;

// `--data-pattern`: "repeating", "pseudo-random", "full-random" or a reduction pattern (whose
// `pattern` is kReductionFallbackPattern). Errors name the field "--data-pattern".
[[nodiscard]] Result<WriteData> parse_write_data(std::string_view text);
// The inverse: the IOmeter name, or the reduction's text.
[[nodiscard]] std::string to_string(const WriteData& data);

// WHOLE_TEST, LAST_UPDATE.
[[nodiscard]] std::string_view to_string(UpdateType type) noexcept;
[[nodiscard]] std::optional<UpdateType> parse_update_type(std::string_view literal) noexcept;

}  // namespace iomark::access_specs
