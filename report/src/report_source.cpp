#include "iomark/report/report_source.hpp"

#include <algorithm>

#include "iomark/results/csv_reader.hpp"
#include "iomark/results/results_json.hpp"

namespace iomark::report {

namespace {

void add_host(std::vector<SourceHost>& hosts, SourceHost host) {
  const auto same = [&host](const SourceHost& known) { return known.name == host.name; };
  if (std::none_of(hosts.begin(), hosts.end(), same)) hosts.push_back(std::move(host));
}

std::string facts_of(const results::HostFacts& host) {
  std::string facts;
  const auto add = [&facts](const std::string& part) {
    if (part.empty()) return;
    if (!facts.empty()) facts += ", ";
    facts += part;
  };
  if (host.cpu_count > 0) add(std::to_string(host.cpu_count) + " CPUs");
  std::string os = host.os_name;
  if (!host.kernel_release.empty()) os += (os.empty() ? "" : " ") + host.kernel_release;
  add(os);
  // Agents report "0.1.0" or, from some builds, "iomark 0.1.0".
  if (!host.iomark_version.empty()) {
    add(host.iomark_version.starts_with("iomark") ? host.iomark_version : "iomark " + host.iomark_version);
  }
  return facts;
}

std::string_view csv_ending(results::CsvSeriesEnd end) {
  switch (end) {
    case results::CsvSeriesEnd::end_test: return "completed";
    case results::CsvSeriesEnd::aborted: return "aborted";
    case results::CsvSeriesEnd::none: return "no end marker";
  }
  return "";
}

ReportSource csv_source(const std::vector<results::CsvSeries>& all_series, std::string name) {
  ReportSource source;
  source.name = std::move(name);
  source.format = "IOmeter results.csv";
  for (std::size_t s = 0; s < all_series.size(); ++s) {
    const results::CsvSeries& series = all_series[s];
    source.series.push_back({series.description, "IOmeter " + series.version, series.time_stamp,
                             std::string(csv_ending(series.end))});
    for (const auto& error : series.errors) {
      source.failures.push_back({"series " + std::to_string(s + 1), error});
    }
    auto points = results::run_points(series, s);
    for (const auto& point : points) {
      if (!point.manager.empty()) add_host(source.hosts, {point.manager, {}});
    }
    source.points.insert(source.points.end(), std::make_move_iterator(points.begin()),
                         std::make_move_iterator(points.end()));
  }
  return source;
}

}  // namespace

std::string_view outcome_name(results::SeriesOutcome outcome) noexcept {
  switch (outcome) {
    case results::SeriesOutcome::completed: return "completed";
    case results::SeriesOutcome::aborted: return "aborted";
    case results::SeriesOutcome::in_progress: return "in progress";
  }
  return "";
}

ReportSource report_source(const results::SeriesResults& series, std::string name) {
  ReportSource source;
  source.name = std::move(name);
  source.format = "iomark JSON";
  const std::string tool = series.info.iomark_version.empty() ? "iomark" : "iomark " + series.info.iomark_version;
  source.series.push_back({series.info.description, tool, results::format_rfc3339(series.info.start_time),
                           std::string(outcome_name(series.outcome))});
  for (const auto& run : series.runs) {
    for (const auto& manager : run.managers) add_host(source.hosts, {manager.name, facts_of(manager.host)});
  }
  for (const auto& failed : series.failed_runs) {
    source.failures.push_back({"run " + std::to_string(failed.position), failed.error});
  }
  source.points = results::run_points(series);
  source.steady_state = series.steady_state;
  source.max_iops_search = series.max_iops_search;
  if (series.pts_iops) {
    source.pts_iops = results::pts_iops_table(*series.pts_iops, results::pts_run_figures(series), series.steady_state);
  }
  source.precondition = series.precondition;
  return source;
}

Result<ReportSource> read_report_source(std::string_view text, std::string name) {
  const auto first = text.find_first_not_of(" \t\r\n");
  if (first != std::string_view::npos && text[first] == '{') {
    auto series = results::read_results_json(text, name);
    if (!series) return fail(std::move(series.error()));
    return report_source(*series, std::move(name));
  }
  auto csv = results::read_results_csv(text, name);
  if (!csv) return fail(std::move(csv.error()));
  if (csv->empty()) {
    return fail(Error(ErrorCode::parse_error, "neither iomark JSON nor an IOmeter results series").at({name, 1}));
  }
  return csv_source(*csv, std::move(name));
}

}  // namespace iomark::report
