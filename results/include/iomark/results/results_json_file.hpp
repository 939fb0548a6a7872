// The JSON results file of a running series, complete on disk after every run while the
// controller keeps none of the runs in memory: each run is written once, over the document's
// tail (the end of "runs", "failed_runs", the steady-state and max-IOPS records and
// "outcome"), followed by the tail again, then the file is fsynced. A series of thousands of
// runs on hundreds of workers costs the memory of one run; the file always reads as
// write_results_json() of the series so far.
//
// A crash in the middle of one of these writes can leave that run cut off in the JSON;
// results.csv, appended and fsynced run by run, is the record that survives any crash.
//
// Blocking file I/O; one writer per file; not thread-safe.
#pragma once

#include <cstdint>
#include <filesystem>
#include <optional>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/results/run_results.hpp"

namespace iomark::results {

class ResultsJsonFile {
 public:
  // Writes the document of a series with no runs yet (outcome in_progress) to `path`,
  // replacing any file there as one step; `records` are what the series knows before its
  // first run (its preconditioning, its PTS matrix).
  [[nodiscard]] static Result<ResultsJsonFile> create(std::filesystem::path path, const SeriesInfo& info,
                                                      const std::optional<access_specs::TestPlan>& plan,
                                                      const SeriesRecords& records = {});

  [[nodiscard]] Result<void> add_run(const RunResults& run);
  [[nodiscard]] Result<void> add_failed_run(const FailedRun& failed);
  // The rounds of a series run until a figure is steady so far: replaces the previous record.
  [[nodiscard]] Result<void> set_steady_state(const SteadyStateRecord& record);
  // The --find-max-iops search's steps so far: replaces the previous record.
  [[nodiscard]] Result<void> set_max_iops_search(const MaxIopsRecord& record);
  [[nodiscard]] Result<void> finish(SeriesOutcome outcome);

 private:
  explicit ResultsJsonFile(std::filesystem::path path) : path_(std::move(path)) {}
  // Writes `runs_text` (may be empty) and then the tail at the tail's offset.
  [[nodiscard]] Result<void> write_at_tail(const std::string& runs_text);

  std::filesystem::path path_;
  std::uint64_t tail_offset_{};
  bool any_run_{false};
  std::vector<FailedRun> failed_runs_;  // few and small: kept to rewrite the tail
  SeriesRecords records_;
  SeriesOutcome outcome_{SeriesOutcome::in_progress};
};

}  // namespace iomark::results
