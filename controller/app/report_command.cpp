// iomark report FILE... -o report.html [--title T] [--svg DIR]
#include "report_command.hpp"

#include <algorithm>
#include <filesystem>
#include <iostream>
#include <memory>

#include "cli_support.hpp"
#include "commands.hpp"
#include "iomark/report/html_report.hpp"

namespace iomark::cli {

namespace {

struct ReportOptions {
  std::vector<std::string> files;
  std::string output{"report.html"};
  std::string title;
  std::string svg_dir;
};

int make_report(const ReportOptions& options) {
  std::vector<report::ReportSource> sources;
  for (const auto& path : options.files) {
    const auto text = read_text_file(path);
    if (!text) return report(text.error());
    auto source = report::read_report_source(*text, std::filesystem::path(path).filename().string());
    if (!source) return report(Error(source.error()).at({path, source.error().location().line}));
    sources.push_back(std::move(*source));
  }
  return write_report(std::move(sources), options.output, options.title, options.svg_dir, std::cout);
}

}  // namespace

int write_report(std::vector<report::ReportSource> sources, const std::string& output, std::string title,
                 const std::string& svg_dir, std::ostream& out) {
  const auto model = report::build_report(std::move(sources), std::move(title));
  const auto written = report::write_report_files(
      model, output, svg_dir.empty() ? std::nullopt : std::optional<std::filesystem::path>(svg_dir));
  if (!written) return report(written.error());
  out << "report: " << written->charts << " charts, " << written->html_bytes << " bytes in " << output;
  if (!svg_dir.empty()) out << " (each chart also in " << svg_dir << "/)";
  out << '\n';
  return static_cast<int>(ExitCode::ok);
}

report::ReportSource measured_series_source(const controller::SeriesOutcome& outcome, std::string name) {
  report::ReportSource source;
  source.format = "iomark run";
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
  return source;
}

void add_report_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<ReportOptions>();  // lives as long as the callback reading it
  auto* command = app.add_subcommand("report", "An HTML report with SVG charts from results files");
  command->add_option("FILE", options->files, "iomark JSON or IOmeter results.csv files; several are compared")
      ->required();
  command->add_option("-o,--output", options->output, "The HTML file to write (default report.html)");
  command->add_option("--title", options->title, "The report's title");
  command->add_option("--svg", options->svg_dir, "Also write each chart as DIR/<chart>.svg");
  command->callback([&exit_code, options] { exit_code = make_report(*options); });
}

}  // namespace iomark::cli
