// Results reduced to what charts and comparisons plot: one point per run for the ALL row and
// for each manager, whichever file it came from (iomark JSON, IOmeter results.csv of any
// dialect, or runs measured a moment ago), and the curves storage reviews draw from them:
// IOPS and response time versus outstanding I/Os, per access spec and per manager.
//
// Pure functions of their inputs; no file I/O; thread-safe.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/compact_latency_histogram.hpp"
#include "iomark/common/result.hpp"
#include "iomark/results/csv_reader.hpp"
#include "iomark/results/run_results.hpp"
#include "iomark/results/summary.hpp"

namespace iomark::results {

// The percentiles a latency profile lists, in this order.
inline constexpr std::array<double, 7> kProfilePercentiles{50.0, 75.0, 90.0, 95.0, 99.0, 99.9, 99.99};

struct LatencyPercentile {
  double percentile{};  // 0..100
  double latency_ms{};
  friend bool operator==(const LatencyPercentile&, const LatencyPercentile&) = default;
};

// The latency distribution of one results row.
struct LatencyProfile {
  std::array<std::uint64_t, kLegacyLatencyBinCount> bins{};  // IOmeter 1.1.0's 21 bins (I/O counts)
  // One entry per kProfilePercentiles; empty where only the bins are known (results.csv).
  std::vector<LatencyPercentile> percentiles;
  friend bool operator==(const LatencyProfile&, const LatencyProfile&) = default;
};

// The bins and percentiles of a histogram.
[[nodiscard]] LatencyProfile latency_profile(const CompactLatencyHistogram& histogram);

// The bins of a 1.1.0 results row (its 21 bin columns); nullopt when the row has none of
// them (pre-1.1.0 files, the instantaneous side file).
[[nodiscard]] std::optional<LatencyProfile> latency_profile(const CsvRow& row);

// One results row of one run: the ALL row (manager empty) or one manager's row.
struct RunPoint {
  std::size_t series{};     // 0-based series in its file
  std::size_t run{};        // 0-based run within the series
  std::string description;  // the series' test description
  std::string spec;         // the access spec every worker ran; empty when they differ
  std::string manager;      // empty for the ALL row
  std::optional<std::uint32_t> queue_depth;  // nullopt when the workers' settings differ
  double iops{};
  double mb_per_s{};  // 10^6 bytes/s; from `MBps` (binary) for pre-1.1.0 files
  double average_response_ms{};
  double maximum_response_ms{};
  std::optional<double> p99_response_ms;  // only where a histogram exists (not results.csv)
  // Runs at a rate only (--rate-iops), whose response times count from the schedule: the
  // average from the actual issue, and how late the I/Os were issued on average.
  std::optional<double> average_service_ms;
  std::optional<double> average_issue_lag_ms;
  std::optional<double> cpu_percent;
  std::uint64_t errors{};
  std::uint64_t line{};  // results.csv: the row's 1-based line; 0 otherwise
  std::optional<LatencyProfile> latency;
  friend bool operator==(const RunPoint&, const RunPoint&) = default;
};

// The ALL point, then one point per manager, of a run and its summary (summarize_run(run)).
[[nodiscard]] std::vector<RunPoint> run_points(const RunResults& run, const RunSummary& summary,
                                               std::size_t run_index, std::string_view description,
                                               std::size_t series_index = 0);

// Every run of a series, in order.
[[nodiscard]] std::vector<RunPoint> run_points(const SeriesResults& series);

// Every run of a results.csv series that has an ALL row (an instantaneous side file has one
// only once its run ended), its ALL point followed by its MANAGER points.
[[nodiscard]] std::vector<RunPoint> run_points(const CsvSeries& series, std::size_t series_index);

// The points of a results file's text: iomark JSON when its first non-blank character is
// `{`, otherwise IOmeter results.csv (every series). Errors are the readers' (file:line) and
// a parse_error for a CSV text with no series at all.
[[nodiscard]] Result<std::vector<RunPoint>> read_run_points(std::string_view text, std::string_view file_name = {});

// One curve over outstanding I/Os: points of one description, spec and manager.
struct QdCurve {
  // "spec", "spec @ manager", prefixed by "description: " when the points given to
  // qd_curves carry more than one description.
  std::string label;
  std::string description;
  std::string spec;
  std::string manager;  // empty for the ALL curve
  std::vector<RunPoint> points;  // sorted by queue depth; runs at the same depth keep their order
};

// Groups the points that have a queue depth by (description, spec, manager), curves in order
// of their first point.
[[nodiscard]] std::vector<QdCurve> qd_curves(std::span<const RunPoint> points);

}  // namespace iomark::results
