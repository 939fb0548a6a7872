#include "iomark/results/run_points.hpp"

#include <algorithm>
#include <cmath>
#include <set>
#include <tuple>

#include "iomark/results/results_json.hpp"

namespace iomark::results {

namespace {

double to_ms(Nanoseconds latency) { return static_cast<double>(latency.count()) / 1e6; }

RunPoint point_of(const Summary& summary, std::size_t series_index, std::size_t run_index,
                  std::string_view description, std::string manager) {
  RunPoint point;
  point.series = series_index;
  point.run = run_index;
  point.description = std::string(description);
  point.spec = summary.spec_name;
  point.manager = std::move(manager);
  point.queue_depth = summary.queue_depth;
  point.iops = summary.rates.iops;
  point.mb_per_s = summary.rates.mb_per_s;
  point.average_response_ms = summary.average_response_ms();
  point.maximum_response_ms = summary.maximum_response_ms();
  const bool percentiles_known = summary.counters.latency.percentiles_cover_every_io();
  if (percentiles_known && summary.counters.latency.count() > 0) {
    point.p99_response_ms = to_ms(summary.counters.latency.percentile(99.0));
  }
  if (summary.rate_controlled()) {
    point.average_service_ms = summary.average_service_ms();
    point.average_issue_lag_ms = summary.average_issue_lag_ms();
  }
  if (summary.cpu) point.cpu_percent = summary.cpu->total_percent;
  point.errors = summary.counters.error_count();
  point.latency = latency_profile(summary.counters.latency);
  return point;
}

// Queue Depth cells hold -1 when workers differ; anything not a whole positive number is
// treated the same way.
std::optional<std::uint32_t> queue_depth_of(const std::optional<double>& cell) {
  if (!cell || !(*cell >= 1.0) || *cell > static_cast<double>(UINT32_MAX) || std::floor(*cell) != *cell) {
    return std::nullopt;
  }
  return static_cast<std::uint32_t>(*cell);
}

RunPoint point_of(const CsvRow& row, std::size_t series_index, std::size_t run_index, std::string_view description,
                  std::string manager) {
  const CsvStatistics& s = row.stats;
  RunPoint point;
  point.series = series_index;
  point.run = run_index;
  point.description = std::string(description);
  point.spec = row.spec;
  point.manager = std::move(manager);
  point.queue_depth = queue_depth_of(s.queue_depth);
  point.iops = s.iops.value_or(0.0);
  if (s.mb_per_s) {
    point.mb_per_s = *s.mb_per_s;
  } else if (s.mib_per_s) {
    point.mb_per_s = *s.mib_per_s * kBytesPerMiB / kBytesPerMB;
  }
  point.average_response_ms = s.average_response_ms.value_or(0.0);
  point.maximum_response_ms = s.maximum_response_ms.value_or(0.0);
  point.cpu_percent = s.cpu_percent;
  point.errors = s.errors && *s.errors > 0.0 ? static_cast<std::uint64_t>(*s.errors) : 0;
  point.line = row.line;
  point.latency = latency_profile(row);
  return point;
}

std::string label_of(const RunPoint& point, bool with_description) {
  std::string label = point.spec.empty() ? std::string("(mixed specs)") : point.spec;
  if (!point.manager.empty()) label += " @ " + point.manager;
  if (with_description && !point.description.empty()) label = point.description + ": " + label;
  return label;
}

}  // namespace

LatencyProfile latency_profile(const CompactLatencyHistogram& histogram) {
  LatencyProfile profile;
  profile.bins = histogram.legacy_bins();
  if (histogram.count() == 0 || !histogram.percentiles_cover_every_io()) return profile;
  for (const double percentile : kProfilePercentiles) {
    profile.percentiles.push_back({percentile, to_ms(histogram.percentile(percentile))});
  }
  return profile;
}

std::optional<LatencyProfile> latency_profile(const CsvRow& row) {
  LatencyProfile profile;
  bool any = false;
  const auto captions = legacy_latency_bin_captions();
  for (std::size_t i = 0; i < captions.size(); ++i) {
    const auto count = row.number(captions[i]);
    if (!count) continue;
    any = true;
    profile.bins[i] = *count > 0.0 ? static_cast<std::uint64_t>(*count) : 0;
  }
  return any ? std::optional<LatencyProfile>(std::move(profile)) : std::nullopt;
}

std::vector<RunPoint> run_points(const RunResults& run, const RunSummary& summary, std::size_t run_index,
                                 std::string_view description, std::size_t series_index) {
  std::vector<RunPoint> points;
  points.push_back(point_of(summary.all, series_index, run_index, description, {}));
  for (std::size_t m = 0; m < summary.managers.size() && m < run.managers.size(); ++m) {
    points.push_back(point_of(summary.managers[m].total, series_index, run_index, description, run.managers[m].name));
  }
  return points;
}

std::vector<RunPoint> run_points(const SeriesResults& series) {
  std::vector<RunPoint> points;
  for (std::size_t r = 0; r < series.runs.size(); ++r) {
    const RunResults& run = series.runs[r];
    const std::string& description = run.info.description.empty() ? series.info.description : run.info.description;
    auto more = run_points(run, summarize_run(run), r, description);
    points.insert(points.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  return points;
}

std::vector<RunPoint> run_points(const CsvSeries& series, std::size_t series_index) {
  std::vector<RunPoint> points;
  for (std::size_t r = 0; r < series.runs.size(); ++r) {
    const CsvRun& run = series.runs[r];
    const CsvRow* total = run.find_row("ALL");
    if (total == nullptr) continue;
    points.push_back(point_of(*total, series_index, r, series.description, {}));
    for (const CsvRow& row : run.rows) {
      if (row.type == "MANAGER") points.push_back(point_of(row, series_index, r, series.description, row.name));
    }
  }
  return points;
}

Result<std::vector<RunPoint>> read_run_points(std::string_view text, std::string_view file_name) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') {
    auto series = read_results_json(text, file_name);
    if (!series) return fail(std::move(series.error()));
    return run_points(*series);
  }
  auto csv = read_results_csv(text, file_name);
  if (!csv) return fail(std::move(csv.error()));
  if (csv->empty()) {
    return fail(Error(ErrorCode::parse_error, "neither iomark JSON nor an IOmeter results series")
                    .at({std::string(file_name), 1}));
  }
  std::vector<RunPoint> points;
  for (std::size_t s = 0; s < csv->size(); ++s) {
    auto more = run_points((*csv)[s], s);
    points.insert(points.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  return points;
}

std::vector<QdCurve> qd_curves(std::span<const RunPoint> points) {
  std::set<std::string_view> descriptions;
  for (const RunPoint& point : points) descriptions.insert(point.description);
  const bool with_description = descriptions.size() > 1;

  std::vector<QdCurve> curves;
  for (const RunPoint& point : points) {
    if (!point.queue_depth) continue;
    const auto same = [&point](const QdCurve& c) {
      return std::tie(c.description, c.spec, c.manager) == std::tie(point.description, point.spec, point.manager);
    };
    auto curve = std::find_if(curves.begin(), curves.end(), same);
    if (curve == curves.end()) {
      curves.push_back({label_of(point, with_description), point.description, point.spec, point.manager, {}});
      curve = curves.end() - 1;
    }
    curve->points.push_back(point);
  }
  for (QdCurve& curve : curves) {
    std::stable_sort(curve.points.begin(), curve.points.end(),
                     [](const RunPoint& a, const RunPoint& b) { return *a.queue_depth < *b.queue_depth; });
  }
  return curves;
}

}  // namespace iomark::results
