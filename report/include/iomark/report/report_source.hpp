// What a report is made from: a plain list of runs per source (one results file, one
// series just measured, or later a selection from the run history), with the facts the
// summary shows. A source knows nothing of where its runs came from once it is built.
//
// Text in, values out; no file I/O; thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/results/pts_iops_table.hpp"
#include "iomark/results/run_points.hpp"
#include "iomark/results/run_results.hpp"

namespace iomark::report {

// One series header of a source.
struct SourceSeries {
  std::string description;
  std::string tool;        // "iomark 0.1.0", "IOmeter 1.1.0", "IOmeter 2008.06.18"
  std::string start_time;  // as the file writes it; empty when unknown
  std::string outcome;     // "completed", "aborted", "in progress", "no end marker"
  friend bool operator==(const SourceSeries&, const SourceSeries&) = default;
};

struct SourceHost {
  std::string name;
  std::string facts;  // "8 CPUs, Linux 6.1.0, iomark 0.1.0"; empty when the file has none
  friend bool operator==(const SourceHost&, const SourceHost&) = default;
};

struct SourceFailure {
  std::string run;  // "series 1, run 3" or "" when the file does not say which
  std::string error;
  friend bool operator==(const SourceFailure&, const SourceFailure&) = default;
};

struct ReportSource {
  std::string name;    // the legend label: a file name, or what the caller calls it
  std::string format;  // "iomark JSON", "IOmeter results.csv"
  std::vector<SourceSeries> series;
  std::vector<SourceHost> hosts;
  std::vector<SourceFailure> failures;
  // Every completed run: its ALL point, then one point per manager (results::run_points).
  std::vector<results::RunPoint> points;
  // A series run in rounds until a figure was steady (iomark run --steady-state): the JSON's
  // record, or the series just measured.
  std::optional<results::SteadyStateRecord> steady_state{};
  // A --find-max-iops search: every step with its latency figure and the step chosen.
  std::optional<results::MaxIopsRecord> max_iops_search{};
  // `iomark pts iops`: each cell's IOPS over the rounds the steady state was judged on.
  std::optional<results::PtsIopsTable> pts_iops{};
  // --precondition: how every target was written before the first run.
  std::optional<results::PreconditionRecord> precondition{};
};

// A source from a results file's text: iomark JSON when its first non-blank character is
// `{`, otherwise IOmeter results.csv of any dialect (every series). Errors are the readers'
// (file:line), or a parse_error when a CSV text holds no series.
[[nodiscard]] Result<ReportSource> read_report_source(std::string_view text, std::string name);

// A source from a series held in memory.
[[nodiscard]] ReportSource report_source(const results::SeriesResults& series, std::string name);

// "completed", "aborted" or "in progress".
[[nodiscard]] std::string_view outcome_name(results::SeriesOutcome outcome) noexcept;

}  // namespace iomark::report
