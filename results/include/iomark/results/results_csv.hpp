// Writing results.csv in IOmeter 1.1.0's layout (docs/iometer-reference.md#results-csv).
//
// Text out, no file I/O: each function returns the text one event adds to the file, so the
// controller appends it (see durable_append.hpp) and syncs after every run; earlier runs are
// never rewritten and a crash loses at most the run in progress. LF line ends.
//
// Reproduced as IOmeter 1.1.0 writes them: the series header, numeric default assignment and
// the trailing comma of spec lines in the spec block (written before the first run of each
// access index only), the 80-column header, row order and types (ALL, MANAGER, PROCESSOR,
// WORKER, DISK/NETWORK), the empty cells of each row type (PROCESSOR rows have 59 fields),
// Record Results filtering, 6-decimal fixed floats, `-1` / `18446744073709551615` for values
// that differ between workers, `'Time Stamp` after every results block, `'End Test` and
// `Aborted test`, and batch mode's blank line + `ERROR: <message>` for a run that failed.
//
// Deliberately different (docs/results-format.md has the full list):
// - Target rows carry the target's own raw latency sums/maxima and latency bins by default
//   (IOmeter copies its worker's, §8.1-5); TargetRowValues::copied_from_worker restores that.
// - The ` >= 10 s` bin counts latencies of 10 s and more (IOmeter never fills it, §8.1-4).
// - Raw tick columns (37-45) are ticks of the manager's timer_resolution_hz, which for
//   iomark is 1e9: nanoseconds. "Processor Speed" accordingly reads 1000000000.000000.
// - `,` `\r` `\n` become spaces in every name and in the description (IOmeter does so only
//   for target names), so a row always has its documented number of fields.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/results/run_results.hpp"
#include "iomark/results/summary.hpp"

namespace iomark::results {

// How target rows fill the columns IOmeter copies from their worker.
enum class TargetRowValues : std::uint8_t {
  own,                 // default: the target's own columns 37-44 and 60-80
  copied_from_worker,  // IOmeter 1.1.0: columns 36-48 and 60-80 repeat the worker row
};

struct CsvOptions {
  TargetRowValues target_rows{TargetRowValues::own};
  std::string version{"1.1.0"};  // the `'Version` line; 1.1.0 tells readers the 80-column layout
};

inline constexpr std::size_t kResultsColumnCount = 80;  // IOmeter 1.1.0's columns
// iomark's columns after IOmeter's 80 (docs/results-format.md): parsers that read IOmeter's
// columns by caption or position read the same values; the one added is
// "iomark Data Pattern" (Summary::data_pattern).
inline constexpr std::size_t kIomarkColumnCount = 1;
inline constexpr std::size_t kResultsCsvColumnCount = kResultsColumnCount + kIomarkColumnCount;
inline constexpr std::size_t kProcessorRowFieldCount = 59;

// The header line (without line end): `'Target Type,Target Name,...,5 to 10 s, >= 10 s,iomark Data
// Pattern`.
[[nodiscard]] std::string_view results_csv_header() noexcept;

// `'Test Type,Test Description` ... `'Time Stamp` + the series start time.
[[nodiscard]] std::string format_series_header(const SeriesInfo& series, std::string_view version = "1.1.0");

// `'Access specifications` ... `'End access specifications` listing `specs` in order.
[[nodiscard]] std::string format_spec_block(std::span<const access_specs::AccessSpec> specs);

// `'Results`, the header, the rows `record` asks for, then `'Time Stamp` + run end time.
// Empty for RecordResults::none. The second form takes `summary` = summarize_run(run), for
// callers that already computed it.
[[nodiscard]] std::string format_results_block(const RunResults& run, access_specs::RecordResults record,
                                               TargetRowValues target_rows = TargetRowValues::own);
[[nodiscard]] std::string format_results_block(const RunResults& run, const RunSummary& summary,
                                               access_specs::RecordResults record,
                                               TargetRowValues target_rows = TargetRowValues::own);

// Produces the text of a results.csv one event at a time. Not thread-safe; one per file.
class ResultsCsvAppender {
 public:
  explicit ResultsCsvAppender(CsvOptions options = {});

  // The series header; remembers series.record_results for the runs that follow. Every
  // function returns "" while the series records nothing (RecordResults::none), as IOmeter
  // then writes no file.
  [[nodiscard]] std::string begin_series(const SeriesInfo& series);
  // The spec block (when this run's access index differs from the previous run's in this
  // series) followed by the run's results block. `summary` must be summarize_run(run).
  [[nodiscard]] std::string append_run(const RunResults& run);
  [[nodiscard]] std::string append_run(const RunResults& run, const RunSummary& summary);
  // A blank line and `ERROR: <message>` (line breaks in `message` become spaces), as
  // IOmeter's batch mode marks a failure; csv_reader.hpp keeps it in CsvSeries::errors.
  [[nodiscard]] std::string append_error(std::string_view message) const;
  // `'End Test` for completed, `Aborted test` for aborted, nothing for in_progress.
  [[nodiscard]] std::string end_series(SeriesOutcome outcome);

 private:
  CsvOptions options_;
  access_specs::RecordResults record_{access_specs::RecordResults::all};
  std::optional<std::uint32_t> last_access_index_;
};

}  // namespace iomark::results
