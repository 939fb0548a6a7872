// Writing IOmeter 1.1.0's "instantaneous" side file
// (docs/iometer-reference.md#results-instantaneous): `inst` + the results file name, written when
// the plan's display section has Record Last Update on.
//
// Layout, as 1.1.0 writes it: the series header; per run the spec block (first run of an
// access index only), `'Results` and a header line `TimeStamp,'Target Type,...` that is the
// results.csv header prefixed by `TimeStamp` and with `MBps (Binary)` captions in place of
// `MiBps (Binary)`; one time-stamped WORKER row per active worker at every sample (rates
// over the sample's interval); at run end time-stamped whole-run WORKER rows and the ALL
// row, then `'Time Stamp`; finally `'End Test` / `Aborted test`.
// IOmeter's file is a convenience series with an inconsistent layout and is not reproduced
// byte for byte: iomark writes 6-decimal fixed floats (IOmeter: 6 significant digits, e.g.
// `1e+007`), each row's real window in "Total Raw Run Time", and the spec name on every row.
//
// Text out, no file I/O, LF line ends; not thread-safe.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "iomark/results/run_results.hpp"
#include "iomark/results/summary.hpp"

namespace iomark::results {

// The header line (without line end): `TimeStamp,'Target Type,...`.
[[nodiscard]] std::string_view timeseries_csv_header() noexcept;

class TimeSeriesCsvAppender {
 public:
  explicit TimeSeriesCsvAppender(std::string version = "1.1.0");

  // The series header (as in results.csv).
  [[nodiscard]] std::string begin_series(const SeriesInfo& series);
  // The spec block (first run of an access index only), `'Results` and the header.
  [[nodiscard]] std::string begin_run(const RunInfo& run);
  // One WORKER row per worker of `interval`, each stamped `at`. `interval` holds the
  // counters of the last update interval only, with recording_window = the interval.
  [[nodiscard]] std::string append_sample(const RunResults& interval, WallClockTime at) const;
  // The whole-run WORKER rows and the ALL row, stamped with run.info.end_time, then
  // `'Time Stamp`.
  [[nodiscard]] std::string end_run(const RunResults& run) const;
  // A blank line and `ERROR: <message>`, for a run that failed (its block gets no whole-run
  // rows), as in results.csv.
  [[nodiscard]] std::string append_error(std::string_view message) const;
  // `'End Test` for completed, `Aborted test` for aborted, nothing for in_progress.
  [[nodiscard]] std::string end_series(SeriesOutcome outcome) const;

 private:
  std::string version_;
  std::optional<std::uint32_t> last_access_index_;
};

}  // namespace iomark::results
