// iomark history list | show | compare | import: the run history database.
#include <filesystem>
#include <iostream>
#include <memory>
#include <string>
#include <vector>

#include <spdlog/spdlog.h>

#include "cli_support.hpp"
#include "commands.hpp"
#include "history_file.hpp"
#include "iomark/access_specs/run_request.hpp"
#include "iomark/cli_text/max_iops_text.hpp"
#include "iomark/cli_text/pts_text.hpp"
#include "iomark/cli_text/text_table.hpp"
#include "iomark/history/comparison.hpp"
#include "iomark/history/history.hpp"
#include "iomark/results/max_iops_curve.hpp"

namespace iomark::cli {

namespace {

using cli_text::Align;
using cli_text::format_fixed;
using cli_text::TextTable;

struct HistoryOptions {
  std::string database{history::default_database_path()};
  std::string since;
  std::string spec;
  std::string host;
  std::size_t limit{0};
  history::RunId id{};
  std::vector<history::RunId> compared;
  std::vector<std::string> csv_files;
};

std::string figure(const std::optional<double>& value, int decimals) {
  return value ? format_fixed(*value, decimals) : std::string("-");
}

std::string depth_text(std::optional<std::uint32_t> depth) { return depth ? std::to_string(*depth) : "-"; }

// What the run's series said of it and how its latency was measured, for `list`: "steady r6",
// "max IOPS p99<=2 ms", "rate-controlled".
std::string run_note(const history::RunRecord& run) {
  std::vector<std::string> notes;
  if (run.steady_state) {
    notes.push_back((run.steady_state->steady ? "steady r" : "not steady r") + std::to_string(run.steady_state->round));
  }
  if (run.max_iops) {
    notes.push_back("max IOPS " + run.max_iops->figure + "<=" + results::limit_ms_text(run.max_iops->limit_ms) +
                    (run.max_iops->finished ? "" : " (unfinished)"));
  }
  if (run.average_service_ms) notes.emplace_back("rate-controlled");
  std::string text;
  for (const auto& note : notes) text += (text.empty() ? "" : ", ") + note;
  return text;
}

// A steady-state figure as the console shows it: as many decimals as it deserves, its unit.
struct FigureFormat {
  int decimals{3};
  std::string unit;
};

FigureFormat steady_format(const std::string& figure) {
  const auto parsed = access_specs::parse_steady_figure(figure);
  if (!parsed) return {.decimals = 3, .unit = figure};
  switch (*parsed) {
    case access_specs::SteadyFigure::iops: return {.decimals = 0, .unit = "IOPS"};
    case access_specs::SteadyFigure::mb_per_s: return {.decimals = 2, .unit = "MB/s"};
    case access_specs::SteadyFigure::average_ms: return {.decimals = 3, .unit = "ms avg"};
    case access_specs::SteadyFigure::p99_ms: return {.decimals = 3, .unit = "ms p99"};
  }
  return {.decimals = 3, .unit = figure};
}

// The verdict as the console gave it at the end of the series, then every round's figure.
void print_steady_state(const results::SteadyStateRecord& record, const history::RunRecord& run) {
  const auto format = steady_format(record.figure);
  const auto rounds = record.rounds.size();
  std::cout << "steady state (" << record.figure << "): ";
  if (record.steady) {
    std::cout << "reached in round " << rounds << " of at most " << record.max_rounds;
  } else {
    std::cout << "not reached in " << rounds << " of at most " << record.max_rounds << " round(s): " << record.reason;
  }
  std::cout << '\n';
  // The window's average and excursions exist only once the window is full.
  if (record.window >= 2 && rounds >= record.window && record.average > 0) {
    std::cout << "  rounds " << record.window_first + 1 << "-" << record.window_first + record.window << ": average "
              << format_fixed(record.average, format.decimals) << ' ' << format.unit << ", range "
              << format_fixed(record.data_excursion * 100.0, 1) << "%, slope "
              << format_fixed(record.slope_excursion * 100.0, 1) << "% of the average\n";
  }
  std::cout << "  rounds (" << format.unit << "):";
  for (const double value : record.rounds) std::cout << ' ' << format_fixed(value, format.decimals);
  std::cout << '\n';
  if (run.steady_state) {
    std::cout << "  round " << run.steady_state->round << " judged this run's " << record.figure << '\n';
  }
}

// "2026-11-25" (midnight UTC) or any RFC 3339 time.
Result<results::WallClockTime> parse_since(const std::string& text) {
  auto parsed = results::parse_rfc3339(text.size() == 10 ? text + "T00:00:00Z" : text);
  if (!parsed) {
    return fail(Error(ErrorCode::invalid_argument, "expected YYYY-MM-DD or an RFC 3339 time, got \"" + text + "\"")
                    .in_field("--since"));
  }
  return *parsed;
}

Result<history::History> open_history(const HistoryOptions& options, HistoryFile missing = HistoryFile::must_exist) {
  return open_history_database(options.database, missing);
}

int list(const HistoryOptions& options) {
  history::RunFilter filter{std::nullopt, options.spec, options.host, options.limit};
  if (!options.since.empty()) {
    auto since = parse_since(options.since);
    if (!since) return bad_input(since.error());
    filter.since = *since;
  }
  auto db = open_history(options);
  if (!db) return report_history_error(db.error());
  auto runs = db->list(filter);
  if (!runs) return report_history_error(runs.error());
  TextTable table({{"id", Align::right}, {"series", Align::right}, {"run", Align::right}, {"started"},
                   {"spec"}, {"QD", Align::right}, {"hosts"}, {"IOPS", Align::right}, {"MB/s", Align::right},
                   {"avg ms", Align::right}, {"p99 ms", Align::right}, {"errors", Align::right}, {"note"},
                   {"status"}});
  for (const auto& run : *runs) {
    table.add_row({std::to_string(run.id), std::to_string(run.series_id), std::to_string(run.position),
                   results::format_iometer_time(run.start_time), run.spec, depth_text(run.queue_depth), run.hosts,
                   figure(run.iops, 0), figure(run.mb_per_s, 2), figure(run.average_ms, 3), figure(run.p99_ms, 3),
                   run.errors ? std::to_string(*run.errors) : "-", run_note(run),
                   run.status == history::RunStatus::failed ? "failed: " + run.error : std::string("ok")});
  }
  std::cout << table.render() << runs->size() << (runs->size() == 1 ? " run\n" : " runs\n");
  return static_cast<int>(ExitCode::ok);
}

int show(const HistoryOptions& options) {
  auto db = open_history(options);
  if (!db) return report_history_error(db.error());
  auto stored = db->show(options.id);
  if (!stored) return report_history_error(stored.error());
  const auto& run = stored->record;
  std::cout << "run " << run.id << ": run " << run.position << " of series " << run.series_id << " (\""
            << run.description << "\", " << run.source << ")\n"
            << "  started     " << results::format_rfc3339(run.start_time) << '\n'
            << "  status      " << to_string(run.status) << (run.error.empty() ? "" : ": " + run.error)
            << (stored->results && stored->results->end == results::RunEnd::interrupted
                    ? " (interrupted: a stop cut it short; the figures cover its recording until then)"
                    : "")
            << '\n'
            << "  test type   " << access_specs::to_string(stored->series.test_type) << '\n'
            << "  controller  iomark " << stored->series.iomark_version << '\n'
            << "  spec        " << run.spec << ", QD " << depth_text(run.queue_depth) << '\n'
            << "  IOPS " << figure(run.iops, 2) << ", MB/s " << figure(run.mb_per_s, 3) << ", avg "
            << figure(run.average_ms, 3) << " ms, p99 " << figure(run.p99_ms, 3) << " ms, max "
            << figure(run.maximum_ms, 3) << " ms, CPU " << figure(run.cpu_percent, 1) << " %, errors "
            << (run.errors ? std::to_string(*run.errors) : "-") << '\n';
  if (run.average_service_ms) {
    std::cout << "  rate        service avg " << figure(run.average_service_ms, 3) << " ms, issue lag avg "
              << figure(run.average_issue_lag_ms, 3)
              << " ms (rate-controlled: avg, p99 and max run from each I/O's scheduled time)\n";
  }
  TextTable hosts({{"manager"}, {"OS"}, {"kernel"}, {"agent"}, {"CPUs", Align::right}});
  for (const auto& host : stored->hosts) {
    hosts.add_row({host.manager, host.facts.os_name, host.facts.kernel_release, host.facts.iomark_version,
                   std::to_string(host.facts.cpu_count)});
  }
  if (!hosts.empty()) std::cout << '\n' << hosts.render();
  if (stored->results) {
    const auto summary = results::summarize_run(*stored->results);
    TextTable managers({{"manager"}, {"workers", Align::right}, {"IOPS", Align::right}, {"MB/s", Align::right},
                        {"avg ms", Align::right}, {"p99 ms", Align::right}, {"errors", Align::right}});
    for (std::size_t m = 0; m < summary.managers.size(); ++m) {
      const auto& total = summary.managers[m].total;
      managers.add_row({stored->results->managers[m].name, std::to_string(total.worker_count),
                        format_fixed(total.rates.iops, 0), format_fixed(total.rates.mb_per_s, 2),
                        format_fixed(total.average_response_ms(), 3),
                        format_fixed(static_cast<double>(total.counters.latency.percentile(99.0).count()) / 1e6, 3),
                        std::to_string(total.counters.error_count())});
    }
    std::cout << '\n' << managers.render();
  }
  if (stored->steady_state) {
    std::cout << '\n';
    print_steady_state(*stored->steady_state, run);
  }
  if (stored->max_iops_search) std::cout << '\n' << cli_text::search_report(*stored->max_iops_search);
  if (stored->pts_iops) std::cout << '\n' << cli_text::pts_matrix_line(*stored->pts_iops) << '\n';
  if (stored->precondition) std::cout << '\n' << cli_text::precondition_line(*stored->precondition) << '\n';
  return static_cast<int>(ExitCode::ok);
}

int compare(const HistoryOptions& options) {
  auto db = open_history(options);
  if (!db) return report_history_error(db.error());
  auto base = db->show(options.compared[0]);
  if (!base) return report_history_error(base.error());
  auto other = db->show(options.compared[1]);
  if (!other) return report_history_error(other.error());
  auto base_variation = db->variation_of(base->record, other->record.id);
  if (!base_variation) return report_history_error(base_variation.error());
  auto other_variation = db->variation_of(other->record, base->record.id);
  if (!other_variation) return report_history_error(other_variation.error());
  for (const auto* stored : {&*base, &*other}) {
    const auto& run = stored->record;
    const auto& variation = stored == &*base ? *base_variation : *other_variation;
    std::cout << "run " << run.id << ": " << run.spec << " QD " << depth_text(run.queue_depth) << " on "
              << run.hosts << ", " << results::format_iometer_time(run.start_time) << "; " << variation.iops.runs
              << " run(s) with this spec, QD and hosts (run " << (stored == &*base ? other : base)->record.id
              << " not counted)\n";
  }
  TextTable table({{"figure"}, {"run " + std::to_string(base->record.id), Align::right},
                   {"run " + std::to_string(other->record.id), Align::right}, {"delta %", Align::right},
                   {"run-to-run CV %", Align::right}, {"verdict"}});
  for (const auto& delta : history::compare_runs(base->record, *base_variation, other->record, *other_variation)) {
    table.add_row({std::string(delta.figure), figure(delta.base, 3), figure(delta.other, 3),
                   delta.delta_percent ? (*delta.delta_percent > 0 ? "+" : "") + format_fixed(*delta.delta_percent, 2)
                                       : std::string("-"),
                   figure(delta.variation_percent, 2), std::string(history::to_string(delta.verdict))});
  }
  std::cout << '\n' << table.render();
  return static_cast<int>(ExitCode::ok);
}

int import_files(const HistoryOptions& options) {
  auto db = open_history(options, HistoryFile::create);
  if (!db) return report_history_error(db.error());
  for (const auto& file : options.csv_files) {
    auto text = read_text_file(file);
    if (!text) return bad_input(text.error());
    auto imported = db->import_results_csv(*text, file);
    if (!imported) return report_history_error(imported.error());
    std::cout << file << ": " << imported->runs << " run(s) of " << imported->series << " series imported\n";
  }
  return static_cast<int>(ExitCode::ok);
}

}  // namespace

Result<history::History> open_history_database(const std::string& database, HistoryFile missing) {
  if (database.empty()) {
    return fail(ErrorCode::invalid_argument,
                "no history database: give --history DB (neither XDG_DATA_HOME nor HOME is set)");
  }
  // Reading commands refuse a missing file rather than leave an empty database behind a typo.
  if (missing == HistoryFile::must_exist && !std::filesystem::exists(database)) {
    return fail(ErrorCode::not_found, "no history database at " + database + " (iomark run --history records one)");
  }
  const auto access = missing == HistoryFile::must_exist ? history::Access::read_only : history::Access::read_write;
  return history::History::open(database, {.access = access, .lock_wait = std::nullopt});
}

int report_history_error(const Error& error) {
  return app_runtime::exit_with(error.code() == ErrorCode::timed_out ? ExitCode::cannot_connect : ExitCode::bad_input,
                                error);
}

void add_history_database_option(CLI::App& command, std::string& database, const std::string& description) {
  command.add_option("--history", database, description)->type_name("DB");
  // The spelling `iomark history` had before run and report agreed on --history.
  command.add_option("--db", database)
      ->group("")
      ->type_name("DB")
      ->each([](const std::string&) { spdlog::warn("--db is deprecated: use --history DB"); });
}

void add_history_commands(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<HistoryOptions>();
  auto* group = app.add_subcommand("history", "The run history database (SQLite)");
  group->require_subcommand(1);
  group->fallthrough();  // `history list --history DB` as well as `history --history DB list`
  add_history_database_option(*group, options->database,
                              "History database (default " +
                                  (options->database.empty() ? std::string("none") : options->database) + ")");

  auto* list_command = group->add_subcommand("list", "Stored runs, newest first");
  list_command->add_option("--since", options->since, "Runs started at or after YYYY-MM-DD (UTC) or an RFC 3339 time");
  list_command->add_option("--spec", options->spec, "Runs of this access spec");
  list_command->add_option("--host", options->host, "Runs that included this manager");
  list_command->add_option("--limit", options->limit, "The newest N runs only");
  list_command->callback([options, &exit_code] { exit_code = list(*options); });

  auto* show_command = group->add_subcommand("show", "One run: identity, hosts, figures per manager");
  show_command->add_option("ID", options->id, "Run id (from list)")->required();
  show_command->callback([options, &exit_code] { exit_code = show(*options); });

  auto* compare_command = group->add_subcommand(
      "compare", "Deltas of run B against run A, next to the run-to-run variation of their repeats");
  compare_command->add_option("IDS", options->compared, "Run ids A B")->required()->expected(2);
  compare_command->callback([options, &exit_code] { exit_code = compare(*options); });

  auto* import_command = group->add_subcommand("import", "Add the runs of IOmeter or iomark results.csv files");
  import_command->add_option("FILES", options->csv_files, "results.csv files")->required()->check(CLI::ExistingFile);
  import_command->callback([options, &exit_code] { exit_code = import_files(*options); });
}

}  // namespace iomark::cli
