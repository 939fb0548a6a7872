// Reading results files IOmeter (or iomark) wrote: results.csv of 1.1.0 (80 columns) and of
// 2004-2008 (56 columns, binary `MBps` only), and 1.1.0's instantaneous side file
// (`TimeStamp,'Target Type,...`). Columns are found by header name, never by position, so
// any subset or order of known captions is read.
//
// Tolerated: LF or CRLF line ends, blank lines, rows with fewer fields than the header
// (PROCESSOR rows), extra *empty* trailing fields, floats in any strtod form (`1e+007`),
// batch-mode `ERROR:` lines (kept in CsvSeries::errors), a missing `'End Test`.
// Rejected with ErrorCode::parse_error and file:line: a data row outside a results block, a
// non-empty field beyond the header, a statistic that is not a number, a statistic that is
// not a figure (infinite, NaN, or 1e15 or more in magnitude: see is_figure), a malformed
// series header or spec block, an unknown `'` marker line, more than kMaxCsvLines lines
// (docs/results-format.md, "Limits").
//
// Memory: besides the text, what the reader returns; the lines are never indexed at once.
//
// Text in, values out; no file I/O; thread-safe.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"

namespace iomark::results {

// The most lines a results.csv or time-series file may have: 32 Mi. A million runs of one
// ALL row and a header each take about 5 Mi.
inline constexpr std::uint64_t kMaxCsvLines = std::uint64_t{32} << 20;

// Figures (IOPS, MB/s, response times, CPU %, errors, depths) are finite and below 1e15 in
// magnitude: 1e15 IOPS or ms is no measurement, and beyond it a chart's axis cannot be drawn
// in doubles without its ticks collapsing into one.
inline constexpr double kMaxFigure = 1e15;
[[nodiscard]] bool is_figure(double value) noexcept;

// The statistics most tools want, whatever the dialect calls them; nullopt when the file
// has no such column or the cell is empty.
struct CsvStatistics {
  std::optional<double> iops;
  std::optional<double> read_iops;
  std::optional<double> write_iops;
  std::optional<double> mib_per_s;  // `MiBps (Binary)`, `MBps (Binary)` or pre-1.1.0 `MBps`
  std::optional<double> read_mib_per_s;
  std::optional<double> write_mib_per_s;
  std::optional<double> mb_per_s;  // `MBps (Decimal)`; 1.1.0 only
  std::optional<double> read_mb_per_s;
  std::optional<double> write_mb_per_s;
  std::optional<double> average_response_ms;
  std::optional<double> average_read_ms;
  std::optional<double> average_write_ms;
  std::optional<double> maximum_response_ms;
  std::optional<double> errors;
  std::optional<double> managers;  // `# Managers`
  std::optional<double> workers;   // `# Workers`
  std::optional<double> disks;     // `# Disks`
  std::optional<double> queue_depth;  // -1 when workers differ
  std::optional<double> cpu_percent;  // `% CPU Utilization`
  // Every value above passed is_figure().
  friend bool operator==(const CsvStatistics&, const CsvStatistics&) = default;
};

struct CsvRow {
  std::uint64_t line{};     // 1-based line in the text
  std::string time_stamp;   // instantaneous files: the row's TimeStamp cell
  std::string type;         // `ALL`, `MANAGER`, `PROCESSOR`, `WORKER`, `DISK`, `NETWORK`, ...
  std::string name;         // `Target Name`
  std::string spec;         // `Access Specification Name` (may be empty)
  // Header caption (without the leading `'`) -> cell text, for every cell the row has.
  std::map<std::string, std::string, std::less<>> values;
  CsvStatistics stats;

  // The cell under `column`; nullopt if the row has none.
  [[nodiscard]] std::optional<std::string_view> value(std::string_view column) const;
  // The cell as a number; nullopt if missing, empty, not a number or not a figure (is_figure).
  [[nodiscard]] std::optional<double> number(std::string_view column) const;
};

enum class CsvLayout : std::uint8_t {
  legacy,          // 2004-2008: 56 columns, `MBps` binary
  iometer_1_1_0,   // 80 columns, MiBps and MBps, latency bins
  instantaneous,   // 1.1.0 side file: `TimeStamp` first, `MBps (Binary)` captions
};

struct CsvRun {
  std::uint64_t line{};                   // the `'Results` line
  std::optional<std::size_t> spec_block;  // index into CsvSeries::spec_blocks
  CsvLayout layout{CsvLayout::iometer_1_1_0};
  std::vector<std::string> columns;  // header captions without the leading `'`
  std::vector<CsvRow> rows;
  std::string time_stamp;  // the `'Time Stamp` after the block; empty if missing

  // The first row of the given type (e.g. "ALL"); nullptr if none.
  [[nodiscard]] const CsvRow* find_row(std::string_view type) const;
};

struct CsvSpecBlock {
  std::uint64_t line{};
  std::vector<access_specs::AccessSpec> specs;
};

enum class CsvSeriesEnd : std::uint8_t { none, end_test, aborted };

struct CsvSeries {
  std::uint64_t line{};  // the `'Test Type,Test Description` line
  access_specs::TestType test_type{access_specs::TestType::normal};
  std::string description;
  std::string version;     // e.g. "1.1.0", "2008.06.18"
  std::string time_stamp;  // series start
  std::vector<CsvSpecBlock> spec_blocks;
  std::vector<CsvRun> runs;
  std::vector<std::string> errors;  // batch-mode `ERROR: ...` lines, without the prefix
  CsvSeriesEnd end{CsvSeriesEnd::none};
};

// Every series of the text, in order.
[[nodiscard]] Result<std::vector<CsvSeries>> read_results_csv(std::string_view text, std::string_view file_name = {});

}  // namespace iomark::results
