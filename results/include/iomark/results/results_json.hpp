// iomark's own results format: one JSON document per series that carries everything.
//
// Top level: "format": "iomark-results", "format_version": 1, the series (test type,
// description, record mode, start time, controller version), the plan that produced it
// (when known), the runs, the failed runs, the steady-state rounds and the --find-max-iops
// search (only for the series that made them) and the outcome, in that order (the runs come
// before the rest, so a running series can add them to the file in place). Each run holds its
// identity, the specs it used and the manager -> worker -> target tree with host facts, CPU and network samples, settings
// and each target's raw counters (including its full latency histogram, so readers can
// merge histograms themselves). Every level (ALL, manager, worker, target) also has a
// "summary" object with every aggregate of summary.hpp: rates, averages and maxima in ms,
// latency min/mean/max and p50/p90/p99/p99.9/p99.99 in ns from the merged histogram, the 21
// legacy bins and the summed raw counters.
// Times are RFC 3339 strings; durations and latencies integer nanoseconds (`_ns` keys).
// docs/results-format.md describes every key.
//
// read_results_json(write_results_json(x)) == x for every SeriesResults x. The reader
// rebuilds the model only: "summary" objects are derived data and are ignored on input.
// Text in, text out; thread-safe.
#pragma once

#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/results/run_results.hpp"

namespace iomark::results {

inline constexpr std::string_view kJsonFormatName = "iomark-results";
inline constexpr int kJsonFormatVersion = 1;

// Pretty-printed (2-space indent), with a trailing newline.
[[nodiscard]] std::string write_results_json(const SeriesResults& series);

// What only some series record, each written only when set (SeriesResults has the same).
struct SeriesRecords {
  std::optional<SteadyStateRecord> steady_state{};
  std::optional<MaxIopsRecord> max_iops_search{};
  std::optional<PreconditionRecord> precondition{};
  std::optional<PtsIopsRecord> pts_iops{};
};

// The same document in pieces, for writing it one run at a time:
// head + run(first run, true) + run(next, false)... + tail == write_results_json().
[[nodiscard]] std::string results_json_head(const SeriesInfo& info, const std::optional<access_specs::TestPlan>& plan);
[[nodiscard]] std::string results_json_run(const RunResults& run, bool first);
[[nodiscard]] std::string results_json_tail(const std::vector<FailedRun>& failed_runs, const SeriesRecords& records,
                                            SeriesOutcome outcome, bool any_run);

// The largest JSON text read_results_json takes: 256 MiB (docs/results-format.md, "Limits").
// nlohmann's document costs several times the text in memory.
inline constexpr std::size_t kMaxJsonBytes = std::size_t{256} << 20;

// Rejects other formats, newer format versions, texts above kMaxJsonBytes and numbers that
// are not figures (results/csv_reader.hpp, is_figure), a number no double holds (-1e400)
// among them. Errors carry the file name, the line (for syntax errors and numbers too large)
// and the JSON path of the offending value as the field
// ("runs[0].managers[1].workers[0].queue_depth").
[[nodiscard]] Result<SeriesResults> read_results_json(std::string_view text, std::string_view file_name = {});

}  // namespace iomark::results
