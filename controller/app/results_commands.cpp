// iomark results show FILE.csv
#include <iostream>
#include <memory>

#include "cli_support.hpp"
#include "commands.hpp"
#include "iomark/cli_text/text_table.hpp"
#include "iomark/results/csv_reader.hpp"

namespace iomark::cli {

namespace {

using cli_text::Align;
using cli_text::format_fixed;
using cli_text::TextTable;

std::string cell(const std::optional<double>& value, int decimals) {
  return value ? format_fixed(*value, decimals) : std::string("-");
}

std::string_view ending_of(const results::CsvSeries& series) {
  switch (series.end) {
    case results::CsvSeriesEnd::end_test: return "completed ('End Test)";
    case results::CsvSeriesEnd::aborted: return "aborted";
    case results::CsvSeriesEnd::none: return "no end marker";
  }
  return "";
}

std::string layout_of(const results::CsvSeries& series) {
  if (series.runs.empty()) return "no results";
  switch (series.runs.front().layout) {
    case results::CsvLayout::legacy: return "56-column pre-1.1.0 layout";
    case results::CsvLayout::iometer_1_1_0: return "80-column 1.1.0 layout";
    case results::CsvLayout::instantaneous: return "instantaneous time series";
  }
  return "";
}

void print_series(std::size_t number, const results::CsvSeries& series) {
  std::cout << "Series " << number << ": \"" << series.description << "\", test type "
            << access_specs::to_string(series.test_type) << ", IOmeter " << series.version << ", started "
            << series.time_stamp << ", " << series.runs.size() << (series.runs.size() == 1 ? " run" : " runs")
            << ", " << ending_of(series) << ", " << layout_of(series) << "\n";
  for (const auto& error : series.errors) std::cout << "  ERROR: " << error << '\n';
  TextTable table({{"run", Align::right},
                   {"access specification"},
                   {"workers", Align::right},
                   {"disks", Align::right},
                   {"QD", Align::right},
                   {"IOPS", Align::right},
                   {"MB/s", Align::right},
                   {"MiB/s", Align::right},
                   {"avg ms", Align::right},
                   {"max ms", Align::right},
                   {"errors", Align::right},
                   {"CPU %", Align::right},
                   {"time stamp"}});
  for (std::size_t r = 0; r < series.runs.size(); ++r) {
    const auto& run = series.runs[r];
    // The instantaneous side file has no ALL row until the end of a run.
    const auto* total = run.find_row("ALL");
    if (total == nullptr) {
      table.add_row({std::to_string(r + 1), "(no ALL row: " + std::to_string(run.rows.size()) + " rows)"});
      continue;
    }
    const auto& s = total->stats;
    table.add_row({std::to_string(r + 1), total->spec, cell(s.workers, 0), cell(s.disks, 0), cell(s.queue_depth, 0),
                   cell(s.iops, 1), cell(s.mb_per_s, 2), cell(s.mib_per_s, 2), cell(s.average_response_ms, 3),
                   cell(s.maximum_response_ms, 3), cell(s.errors, 0), cell(s.cpu_percent, 1),
                   total->time_stamp.empty() ? run.time_stamp : total->time_stamp});
  }
  std::cout << table.render();
}

int show(const std::string& path) {
  const auto text = read_text_file(path);
  if (!text) return bad_input(text.error());
  const auto series = results::read_results_csv(*text, path);
  if (!series) return bad_input(series.error());
  if (series->empty()) {
    return bad_input(Error(ErrorCode::parse_error, "no IOmeter results series in this file").at({path, 0}));
  }
  for (std::size_t s = 0; s < series->size(); ++s) {
    if (s > 0) std::cout << '\n';
    print_series(s + 1, (*series)[s]);
  }
  return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_results_commands(CLI::App& app, int& exit_code) {
  auto* results_command = app.add_subcommand("results", "Read IOmeter and iomark results files");
  results_command->require_subcommand(1);
  auto* show_command = results_command->add_subcommand("show", "A summary table per run of a results.csv");
  auto path = std::make_shared<std::string>();  // lives as long as the callback reading it
  show_command->add_option("FILE", *path, "A results.csv of IOmeter 2004-1.1.0 or iomark")->required();
  show_command->callback([&exit_code, path] { exit_code = show(*path); });
}

}  // namespace iomark::cli
