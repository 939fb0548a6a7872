// The run history: every run iomark records (or imports from old results.csv files) in one
// SQLite database, so that runs can be listed, shown and compared across days.
//
// What is stored (history/src/schema.cpp has the tables):
// - series: identity (test type, description, start time, controller version) and the plan,
//   kept as an iomark JSON document without runs (results_json.hpp reads it back), which
//   also holds the --steady-state rounds and verdict and the --find-max-iops search of the
//   series that made them, with the columns `list` marks the judged and the chosen run by;
// - runs: one row per run, completed or failed, with the columns `list` filters and
//   `compare` needs (spec, queue depth, hosts, IOPS, MB/s, average/p99/max latency, errors,
//   CPU; service time and issue lag of --rate-iops runs), the merged latency histogram, and
//   the whole run as an iomark JSON document (every manager, worker and target with its
//   counters and histogram) for runs iomark recorded;
// - run_hosts: each manager of a run with its inventory (OS, kernel, agent version, CPUs).
//
// Durability: each recorded run is one transaction, committed with the database's default
// synchronous=FULL in WAL mode, so a crash (SIGKILL, power loss) loses at most the run in
// progress. bulk() wraps many writes in one transaction for imports and benches.
//
// Schema versions: PRAGMA user_version holds the version; a writer's open() applies every
// missing migration step in order (all in one transaction) and refuses a database written by
// a newer iomark. A reader's open() changes nothing (docs/history.md, "Reading never writes").
//
// Threading: a History is used from one thread at a time. Several processes may share the
// file (SQLite locks it; a reader waits up to kReadLockWait, a writer up to kWriteLockWait,
// then the call fails with timed_out).
#pragma once

#include <chrono>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/results/run_results.hpp"
#include "iomark/results/summary.hpp"
#include "iomark/results/wall_clock.hpp"

namespace iomark::history {

// The version open() migrates every database to.
inline constexpr int kSchemaVersion = 3;

// How long a statement waits for another process's lock before failing with timed_out.
inline constexpr std::chrono::seconds kReadLockWait{5};
inline constexpr std::chrono::seconds kWriteLockWait{10};

enum class Access : std::uint8_t {
  // The file is opened with SQLITE_OPEN_READONLY and never changed: not migrated, not
  // switched to WAL, not created. Only an iomark history of a known version opens.
  read_only,
  // Creates the file when missing; refuses a file that is neither empty (0 bytes or a
  // database without schema objects) nor an iomark history, before changing it.
  read_write,
};

struct OpenOptions {
  Access access{Access::read_write};
  std::optional<std::chrono::milliseconds> lock_wait;  // default kReadLockWait / kWriteLockWait
};

using RunId = std::int64_t;
using SeriesId = std::int64_t;

enum class RunStatus : std::uint8_t { completed, failed };

// On the run a --steady-state series judged in its latest round: that round and the verdict
// over the rounds so far.
struct SteadyMark {
  std::uint32_t round{};  // 1-based
  bool steady{false};
  friend bool operator==(const SteadyMark&, const SteadyMark&) = default;
};

// On the run a --find-max-iops search chose: the most IOPS within its bound so far.
struct MaxIopsMark {
  std::string figure{};  // avg, p99 or p99.9
  double limit_ms{};
  bool finished{false};  // false: the search was cut short or is still going
  friend bool operator==(const MaxIopsMark&, const MaxIopsMark&) = default;
};

// One row of `iomark history list`: a run's identity and its ALL figures. Figures are
// nullopt for failed runs and where an imported results.csv had no such column.
struct RunRecord {
  RunId id{};
  SeriesId series_id{};
  std::uint32_t position{};  // 1-based place in its series
  results::WallClockTime start_time;
  std::string description;  // the series' test description
  std::string spec;         // the spec every worker ran, or the specs joined by " + "
  std::optional<std::uint32_t> queue_depth;  // nullopt when the workers' depths differ
  std::string hosts;        // the managers' names, sorted, joined by ","
  RunStatus status{RunStatus::completed};
  std::string error;        // failed runs: why
  std::string source;       // "iomark run" or the results.csv file it was imported from
  std::optional<double> iops;
  std::optional<double> mb_per_s;  // decimal MB/s
  std::optional<double> average_ms;
  std::optional<double> p99_ms;  // from the merged histogram; nullopt for imports and with Dynamos
  std::optional<double> maximum_ms;
  std::optional<double> cpu_percent;
  std::optional<std::int64_t> errors;
  // Rate-controlled runs only (--rate-iops, a --find-max-iops rate step), whose response
  // times run from each I/O's scheduled time: the average from its actual issue, and how
  // late I/Os were issued.
  std::optional<double> average_service_ms;
  std::optional<double> average_issue_lag_ms;
  std::optional<SteadyMark> steady_state;
  std::optional<MaxIopsMark> max_iops;
  friend bool operator==(const RunRecord&, const RunRecord&) = default;
};

// A manager of a stored run with its inventory.
struct HostRecord {
  std::string manager;
  results::HostFacts facts;
  friend bool operator==(const HostRecord&, const HostRecord&) = default;
};

// Everything stored about one run.
struct StoredRun {
  RunRecord record;
  results::SeriesInfo series;
  std::optional<access_specs::TestPlan> plan;
  std::vector<HostRecord> hosts;
  // The whole run tree; nullopt for runs imported from results.csv (only figures are kept)
  // and for failed runs.
  std::optional<results::RunResults> results;
  // The run's series' rounds and verdict (--steady-state) or search (--find-max-iops), as far
  // as they got; nullopt for other series and those recorded before schema version 3.
  std::optional<results::SteadyStateRecord> steady_state;
  std::optional<results::MaxIopsRecord> max_iops_search;
  // How its series preconditioned its targets, and the PTS matrix of `iomark pts iops`; nullopt
  // for other series.
  std::optional<results::PreconditionRecord> precondition;
  std::optional<results::PtsIopsRecord> pts_iops;
};

struct RunFilter {
  std::optional<results::WallClockTime> since;  // runs that started at or after
  std::string spec;  // exact spec name; empty = any
  std::string host;  // one of the run's managers; empty = any
  std::size_t limit{0};  // the newest `limit` runs; 0 = all
};

// The run-to-run variation of one figure over the completed runs that share a run's spec,
// queue depth and hosts (the run itself included, the run it is compared with left out:
// otherwise two runs would be each other's only "repeat" and any delta would look like noise).
struct Variation {
  std::size_t runs{};
  double mean{};
  double coefficient{};  // sample standard deviation / mean; 0 below two runs
  friend bool operator==(const Variation&, const Variation&) = default;
};

struct RunVariation {
  Variation iops;
  Variation mb_per_s;
  Variation average_ms;
  Variation p99_ms;
};

struct ImportSummary {
  std::size_t series{};
  std::size_t runs{};
};

class History {
 public:
  // Opens the database; with Access::read_write creates it if missing and migrates it to
  // kSchemaVersion. Every error message names `path`. Errors: io_error (cannot open, not a
  // SQLite file), validation_error (an empty file when reading, a database that is not an
  // iomark history, a version below 1), unsupported (written by a newer iomark), timed_out
  // (another process held a lock for longer than the lock wait).
  [[nodiscard]] static Result<History> open(const std::string& path, const OpenOptions& options = {});

  History(History&&) noexcept;
  History& operator=(History&&) noexcept;
  ~History();

  [[nodiscard]] Result<int> schema_version();

  // A series about to record runs; `source` says where it came from ("iomark run"). The
  // document keeps `records`: what the series knew before its first run (its preconditioning,
  // its PTS matrix); the rounds and the search are recorded as they are made.
  [[nodiscard]] Result<SeriesId> begin_series(const results::SeriesInfo& info,
                                              const std::optional<access_specs::TestPlan>& plan,
                                              std::string_view source, const results::SeriesRecords& records = {});
  // One completed run, in one transaction. `position` is 1-based.
  [[nodiscard]] Result<RunId> record_run(SeriesId series, std::uint32_t position, const results::RunResults& run,
                                         const results::RunSummary& summary);
  [[nodiscard]] Result<RunId> record_failure(SeriesId series, const results::FailedRun& failed);
  // The rounds of a --steady-state series and their verdict after each judged round, replacing
  // the previous ones; `judged_position` is the run whose figure the latest round added.
  // not_found for an unknown series.
  [[nodiscard]] Result<void> record_steady_state(SeriesId series, std::uint32_t judged_position,
                                                 const results::SteadyStateRecord& record);
  // The steps of a --find-max-iops search and its choice after each step, replacing the
  // previous ones. not_found for an unknown series.
  [[nodiscard]] Result<void> record_max_iops_search(SeriesId series, const results::MaxIopsRecord& record);

  // Every run of every series of an IOmeter (or iomark) results.csv, figures only. The reader
  // refuses non-finite and out-of-range figures (results/csv_reader.hpp), so none is stored.
  [[nodiscard]] Result<ImportSummary> import_results_csv(std::string_view text, std::string_view file_name);

  // Runs `writes` in one transaction: all of them are kept or none.
  [[nodiscard]] Result<void> bulk(const std::function<Result<void>()>& writes);

  // Newest first.
  [[nodiscard]] Result<std::vector<RunRecord>> list(const RunFilter& filter);
  // not_found when there is no such run.
  [[nodiscard]] Result<StoredRun> show(RunId id);
  [[nodiscard]] Result<RunVariation> variation_of(const RunRecord& run, std::optional<RunId> excluding = std::nullopt);
  // The completed runs with a stored run tree, in the order given, as one series for the
  // report and results writers: the series identity and plan are the first run's.
  // not_found for an unknown id, unsupported for a failed or imported run.
  [[nodiscard]] Result<results::SeriesResults> load_results(std::span<const RunId> ids);

 private:
  struct Connection;
  explicit History(std::unique_ptr<Connection> connection);
  std::unique_ptr<Connection> connection_;
};

[[nodiscard]] std::string_view to_string(RunStatus status) noexcept;

// Where the history lives unless told otherwise: $XDG_DATA_HOME/iomark/history.sqlite, else
// ~/.local/share/iomark/history.sqlite; empty when neither variable is set.
[[nodiscard]] std::string default_database_path();

}  // namespace iomark::history
