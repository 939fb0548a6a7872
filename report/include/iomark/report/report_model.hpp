// What a report shows, decided apart from how it is drawn: the charts (curves of x/y points
// with their axes), the comparison of several sources and the summary, all as plain values
// built from ReportSource lists. svg_chart.hpp and html_report.hpp only render them.
//
// Per source run in rounds (--steady-state): its figure per round and, over the window, its
// average, 110% and 90% of it and the least-squares line, as SNIA's steady-state plots draw.
// Per source with a --find-max-iops search: the latency figure against the IOPS of every step,
// the bound, and the step chosen.
// Per `iomark pts iops` source (docs/characterize.md#pts-iops): its IOPS table, mixes by block
// sizes, and IOPS against block size with one line per mix. Per preconditioned source: how its
// targets were written before the first run.
// Per access spec (in order of first appearance): IOPS, average and p99 response time, MB/s
// and CPU against outstanding I/Os on a log2 axis, one curve per source's ALL rows and, for a
// source with several managers, one per manager; the IOPS ratio to the first source when
// there are several; the latency percentiles (or IOmeter's 21 bins where a file has no
// histogram) of up to kMaxLatencyCurves runs per source. A chart with no point is left out.
//
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "iomark/report/report_source.hpp"

namespace iomark::report {

// Latency charts draw one curve per run; beyond this many per source they pick runs evenly
// over the queue depths so the chart stays readable.
inline constexpr std::size_t kMaxLatencyCurves = 8;

enum class XScale : std::uint8_t {
  log2,        // outstanding I/Os: 1, 2, 4, ... evenly spaced
  linear,
  categories,  // x = 0, 1, 2... naming Chart::categories
};

enum class YScale : std::uint8_t {
  linear,  // from 0 (or the lowest negative value)
  log10,   // latencies spanning decades (percentiles); values <= 0 sit on the bottom edge
};

struct ChartPoint {
  double x{};
  double y{};
  friend bool operator==(const ChartPoint&, const ChartPoint&) = default;
};

struct ChartCurve {
  std::string label;
  std::vector<ChartPoint> points;  // in x order
};

struct Chart {
  std::string id;  // unique in the report, usable as a file name: "4k-random-read-iops"
  std::string title;
  std::string x_label;
  std::string y_label;
  XScale x_scale{XScale::log2};
  std::vector<std::string> categories;  // XScale::categories only
  std::vector<ChartCurve> curves;
  YScale y_scale{YScale::linear};
};

struct SpecSection {
  std::string spec;  // "(mixed specs)" where the workers of a run differed
  std::vector<Chart> charts;
};

// One (spec, outstanding I/Os) of a comparison: the mean ALL IOPS of each source at that
// point (nullopt where a source has no such run) and its ratio to the first source's.
struct ComparisonRow {
  std::string spec;
  std::uint32_t queue_depth{};
  std::vector<std::optional<double>> iops;   // one per source
  std::vector<std::optional<double>> ratio;  // one per source; the first is 1 where it exists
};

// The steady-state rounds of one source: the verdict, and the tracked figure per round with
// the window's average, 110% and 90% of it and the least-squares line (docs/characterize.md).
struct SteadyStateView {
  std::string source;
  results::SteadyStateRecord record;
  Chart chart;
};

// The --find-max-iops search of one source: its record, and its steps' latency against IOPS
// with the bound and the step chosen.
struct MaxIopsView {
  std::string source;
  results::MaxIopsRecord record;
  Chart chart;
};

// The IOPS table of one `iomark pts iops` source, as text ready to print, and its chart.
struct PtsIopsView {
  std::string source;
  std::vector<std::string> mixes;          // row headers: "65/35"
  std::vector<std::string> blocks;         // column headers in the record's order: "1 MiB" .. "512 B"
  std::vector<std::vector<std::string>> iops;  // [mix][block]: whole IOPS, "-" where no run of the cell counted
  std::string caption;  // "average of rounds 3-7, the steady-state window"
  Chart chart;          // x: the block sizes from small to large, as categories
};

// How a source's targets were written before its first run (--precondition).
struct PreconditionView {
  std::string source;
  std::string text;  // "Preconditioned: every target written whole twice in 128 KiB sequential writes ..."
  std::vector<std::string> targets;  // "MANAGER: PATH"
};

struct ReportModel {
  std::string title;
  std::vector<ReportSource> sources;
  std::vector<SteadyStateView> steady_states;  // one per source run in rounds
  std::vector<MaxIopsView> max_iops_searches;  // one per source with a --find-max-iops search
  std::vector<PtsIopsView> pts_iops;           // one per `iomark pts iops` source
  std::vector<PreconditionView> preconditions;  // one per preconditioned source
  std::vector<SpecSection> sections;
  std::vector<ComparisonRow> comparison;  // empty for a single source
  std::size_t runs_without_queue_depth{};  // ALL points left off the charts (workers' QDs differ)

  [[nodiscard]] std::size_t chart_count() const noexcept;
};

[[nodiscard]] ReportModel build_report(std::vector<ReportSource> sources, std::string title);

// a / b, or nullopt when either is missing or b is not positive.
[[nodiscard]] std::optional<double> ratio_of(std::optional<double> a, std::optional<double> b) noexcept;

// Lower-case letters and digits, other runs of characters as one '-': "4K Random Read" ->
// "4k-random-read"; "chart" when nothing is left.
[[nodiscard]] std::string slug(std::string_view text);

}  // namespace iomark::report
