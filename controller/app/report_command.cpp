// iomark report FILE... -o report.html [--title T] [--svg DIR]
#include "report_command.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli_support.hpp"
#include "commands.hpp"
#include "history_file.hpp"
#include "iomark/history/history.hpp"
#include "iomark/report/html_report.hpp"

namespace iomark::cli {

namespace {

struct ReportOptions {
  std::vector<std::string> files;
  std::string history_database{history::default_database_path()};
  std::vector<std::string> history_runs;  // "12", "20-25"
  std::string output{"report.html"};
  std::string title;
  std::string svg_dir;
};

// "12" or "20-25" (both ends included) -> the run ids.
Result<std::vector<history::RunId>> parse_run_ids(const std::vector<std::string>& items) {
  std::vector<history::RunId> ids;
  for (const auto& item : items) {
    const auto dash = item.find('-', 1);
    history::RunId first{};
    history::RunId last{};
    const auto number = [](std::string_view text, history::RunId& value) {
      const auto* end = text.data() + text.size();
      const auto [stop, error] = std::from_chars(text.data(), end, value);
      return error == std::errc() && stop == end && value > 0;
    };
    const bool valid = dash == std::string::npos
                           ? number(item, first) && number(item, last)
                           : number(std::string_view(item).substr(0, dash), first) &&
                                 number(std::string_view(item).substr(dash + 1), last) && first <= last;
    if (!valid || last - first >= 100'000) {
      return fail(Error(ErrorCode::invalid_argument, "expected a run id or FIRST-LAST, got \"" + item + "\"")
                      .in_field("--runs"));
    }
    for (auto id = first; id <= last; ++id) ids.push_back(id);
  }
  return ids;
}

// The stored runs as one source, named after the database.
Result<report::ReportSource> history_source(const ReportOptions& options) {
  auto ids = parse_run_ids(options.history_runs);
  if (!ids) return fail(ids.error());
  auto db = open_history_database(options.history_database, HistoryFile::must_exist);
  if (!db) return fail(db.error());
  auto series = db->load_results(*ids);
  if (!series) return fail(Error(series.error()).in_field("--runs"));
  return report::report_source(*series, std::filesystem::path(options.history_database).filename().string());
}

int make_report(const ReportOptions& options) {
  if (options.files.empty() && options.history_runs.empty()) {
    return bad_input(Error(ErrorCode::invalid_argument, "name results files, or stored runs with --runs"));
  }
  std::vector<report::ReportSource> sources;
  for (const auto& path : options.files) {
    const auto text = read_text_file(path);
    if (!text) return bad_input(text.error());
    auto source = report::read_report_source(*text, std::filesystem::path(path).filename().string());
    if (!source) return bad_input(Error(source.error()).at({path, source.error().location().line}));
    sources.push_back(std::move(*source));
  }
  if (!options.history_runs.empty()) {
    auto stored = history_source(options);
    if (!stored) return report_history_error(stored.error());
    sources.push_back(std::move(*stored));
  }
  return write_report(std::move(sources), options.output, options.title, options.svg_dir, std::cout);
}

}  // namespace

int write_report(std::vector<report::ReportSource> sources, const std::string& output, std::string title,
                 const std::string& svg_dir, std::ostream& out) {
  const auto model = report::build_report(std::move(sources), std::move(title));
  const auto written = report::write_report_files(
      model, output, svg_dir.empty() ? std::nullopt : std::optional<std::filesystem::path>(svg_dir));
  if (!written) return bad_input(written.error());
  out << "report: " << written->charts << " charts, " << written->html_bytes << " bytes in " << output;
  if (!svg_dir.empty()) out << " (each chart also in " << svg_dir << "/)";
  out << '\n';
  return static_cast<int>(ExitCode::ok);
}

report::ReportSource measured_series_source(const controller::SeriesPlan& series,
                                            const controller::SeriesOutcome& outcome, std::string name) {
  report::ReportSource source;
  source.format = series.pts_iops ? "iomark pts iops" : "iomark run";
  const std::string start =
      outcome.runs.empty() ? std::string() : results::format_rfc3339(outcome.runs.front().info.start_time);
  source.series.push_back({name, "iomark " IOMARK_VERSION, start, std::string(report::outcome_name(outcome.outcome))});
  source.name = std::move(name);
  for (const auto& run : outcome.runs) {
    for (const auto& point : run.points) {
      const auto same = [&point](const report::SourceHost& host) { return host.name == point.manager; };
      if (!point.manager.empty() && std::none_of(source.hosts.begin(), source.hosts.end(), same)) {
        source.hosts.push_back({point.manager, {}});
      }
    }
    source.points.insert(source.points.end(), run.points.begin(), run.points.end());
  }
  for (const auto& failed : outcome.failed_runs) {
    source.failures.push_back({"run " + std::to_string(failed.position), failed.error});
  }
  if (outcome.steady_state) source.steady_state = controller::steady_state_record(*outcome.steady_state);
  source.max_iops_search = outcome.max_iops_search;
  if (series.pts_iops) source.pts_iops = controller::pts_iops_table(outcome, *series.pts_iops);
  source.precondition = series.precondition;
  return source;
}

void add_report_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ReportOptions>();  // lives as long as the callback reading it
  auto* command = app.add_subcommand("report", "An HTML report with SVG charts from results files");
  command->add_option("FILE", options->files, "iomark JSON or IOmeter results.csv files; several are compared");
  command->add_option("--runs", options->history_runs,
                      "Also report these runs of the run history (IDs or FIRST-LAST, comma-separated)")
      ->delimiter(',')
      ->type_name("ID,...");
  add_history_database_option(*command, options->history_database,
                              "The run history --runs reads, read-only (default " +
                                  (options->history_database.empty() ? std::string("none")
                                                                     : options->history_database) + ")");
  command->add_option("-o,--output", options->output, "The HTML file to write (default report.html)");
  command->add_option("--title", options->title, "The report's title");
  command->add_option("--svg", options->svg_dir, "Also write each chart as DIR/<chart>.svg");
  command->callback([&exit_code, options] { exit_code = make_report(*options); });
}

}  // namespace iomark::cli
