// iomark run: a series on the embedded agent, on agents that log in, or on listening agents.

#include <filesystem>
#include <fmt/format.h>
#include <iostream>
#include <map>
#include <memory>
#include <ostream>
#include <spdlog/spdlog.h>

#include "cli_support.hpp"
#include "history_file.hpp"
#include "commands.hpp"
#include "json_destination.hpp"
#include "report_command.hpp"
#include "run_observers.hpp"
#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/app_runtime/descriptor_limit.hpp"
#include "iomark/app_runtime/progress_line.hpp"
#include "iomark/common/units.hpp"
#include "iomark/cli_text/console_lines.hpp"
#include "iomark/cli_text/max_iops_text.hpp"
#include "iomark/cli_text/pts_text.hpp"
#include "iomark/cli_text/steady_state_text.hpp"
#include "iomark/dynamo_adapter/dynamo_acceptor.hpp"
#include "iomark/controller/embedded_agent.hpp"
#include "iomark/controller/embedded_paths.hpp"
#include "iomark/controller/manager_registry.hpp"
#include "iomark/controller/plan_series.hpp"
#include "iomark/controller/preparing_rate.hpp"
#include "iomark/controller/quick_series.hpp"
#include "iomark/icf/icf.hpp"
#include "iomark/results/verify_summary.hpp"
#include "iomark/run_options/run_flags.hpp"
#include "iomark/controller/series_runner.hpp"
#include "iomark/controller/target_map.hpp"
#include "iomark/cli_text/text_table.hpp"
#include "iomark/transport/host_port.hpp"
#include "iomark/transport/session_config.hpp"

namespace iomark::cli {

namespace {

using cli_text::Align;
using cli_text::format_fixed;
using cli_text::TextTable;

struct RunOptions {
  std::string plan_file;  // PLAN.icf; empty = the quick series from the flags
  std::vector<std::string> manager_map;
  std::vector<std::string> target_map;  // [MANAGER:]OLD=NEW
  run_options::RunFlags run;
  std::string report_html;
  std::string listen;
  std::optional<std::string> legacy_dynamo;  // [ADDR:]PORT for Dynamo 1.1.0 logins; empty: --listen's port
  std::vector<std::string> managers;
  std::uint32_t wait_managers{0};
  std::uint32_t wait_timeout_s{30};
  run_options::ConnectionFlags connection;
  std::string on_agent_loss{"stop"};
  RunObserverOptions observers;  // --history, --metrics-listen
};

// The console: a rewritten status line on a terminal, log lines otherwise (and always in the
// log file), so -q silences the progress and --log-file keeps it.
class ConsoleObserver final : public controller::SeriesObserver {
 public:
  void notice(const std::string& message) override { progress_.keep(message); }

  void run_started(std::size_t index, std::size_t count, const controller::RunPlan& run) override {
    progress_.keep(fmt::format("run {}/{}: {}", index + 1, count, run.label));
  }

  void preparing(const std::string& manager, std::size_t position, std::size_t count) override {
    show(cli_text::preparing_lines(manager, position, count));
  }

  void live(const controller::LiveFigures& figures) override {
    std::string text;
    if (figures.phase == controller::LivePhase::preparing) {
      text = preparing_text(figures.preparing);
    } else {
      text = fmt::format("  run {}/{} {} {} {:.0f}/{:.0f} s: {:.0f} IOPS, {:.1f} MB/s, avg {:.3f} ms, p99 {} ms, ETA {:.0f} s",
                         figures.run_index + 1, figures.run_count, figures.run->label,
                         figures.phase == controller::LivePhase::ramp_up ? "ramp-up" : "recording", figures.elapsed_s,
                         figures.phase_s, figures.iops, figures.mb_per_s, figures.average_ms,
                         figures.p99_ms ? fmt::format("{:.3f}", *figures.p99_ms) : std::string("-"), figures.remaining_s);
    }
    // Without a terminal, one line every 10 s is enough for a log.
    if (!progress_.on_terminal() && ++live_lines_ % 10 != 0) return;
    progress_.show(text);
  }

  void run_finished(std::size_t, const results::RunResults& run, const results::RunSummary& summary) override {
    show(engine_lines_.new_choices(run), "  ");
    for (const auto& text : results::verify_lines(run)) progress_.keep("  verify " + text);
    bad_blocks_ += results::bad_blocks(run);
    const auto& all = summary.all;
    progress_.keep(fmt::format("  done: {:.0f} IOPS, {:.2f} MB/s, avg {:.3f} ms, max {:.3f} ms, {} errors",
                               all.rates.iops, all.rates.mb_per_s, all.average_response_ms(), all.maximum_response_ms(),
                               all.counters.error_count()));
    if (all.rate_controlled()) {
      progress_.keep(fmt::format("  on schedule: issued avg {:.3f} ms late (max {:.3f} ms); from issue avg {:.3f} ms, "
                                 "max {:.3f} ms",
                                 all.average_issue_lag_ms(), all.maximum_issue_lag_ms(), all.average_service_ms(),
                                 all.maximum_service_ms()));
    }
  }

  void run_failed(std::size_t, const controller::RunPlan&, const Error& error) override {
    progress_.keep("  failed: " + error.describe());
  }

  void round_judged(const controller::SteadyStateProgress& progress) override {
    progress_.keep(cli_text::round_line(progress));
  }

  void search_step(const results::MaxIopsRecord& search) override {
    progress_.keep(cli_text::search_step_line(search));
  }

  // --verify: bad blocks found over the series so far.
  [[nodiscard]] std::uint64_t bad_blocks() const noexcept { return bad_blocks_; }

 private:

  // "  preparing /dev/sdb: 1.2 GiB of 8.0 GiB, 812.4 MB/s, ETA 9 s" (a test file, or
  // preconditioning passes).
  std::string preparing_text(const controller::PrepareFigures& preparing) {
    std::string text = fmt::format("  preparing {}: {} of {}", preparing.path, format_size(Bytes(preparing.bytes_done)),
                                   format_size(Bytes(preparing.bytes_total)));
    const auto estimate = preparing_rate_.update(preparing, std::chrono::steady_clock::now());
    if (!estimate) return text;
    return text + fmt::format(", {:.1f} MB/s, ETA {:.0f} s", estimate->bytes_per_s / 1e6, estimate->remaining_s);
  }

  // Lines folded for a fleet: the folded form on the console, every line of the detail under -v.
  void show(const cli_text::ConsoleLines& lines, std::string_view indent = "") {
    for (const auto& text : lines.shown) progress_.keep(std::string(indent) + text);
    if (lines.shown == lines.detail) return;
    for (const auto& text : lines.detail) spdlog::debug("{}{}", indent, text);
  }

  app_runtime::ProgressLine progress_;
  std::size_t live_lines_{};
  controller::PreparingRate preparing_rate_;
  cli_text::EngineLines engine_lines_;
  std::uint64_t bad_blocks_{};
};

void print_summary(const controller::SeriesOutcome& outcome, std::ostream& out) {
  TextTable table({{"run", Align::right},
                   {"spec"},
                   {"QD", Align::right},
                   {"IOPS", Align::right},
                   {"MB/s", Align::right},
                   {"avg ms", Align::right},
                   {"p99 ms", Align::right},
                   {"max ms", Align::right},
                   {"errors", Align::right},
                   {"CPU %", Align::right}});
  for (const auto& run : outcome.runs) {
    const auto& all = run.points.at(0);
    // The run a stop cut short keeps its figures; the mark says they cover less than its time.
    const bool cut = run.end == results::RunEnd::interrupted;
    table.add_row({std::to_string(run.index + 1) + (cut ? "*" : ""), all.spec,
                   run.info.queue_depth ? std::to_string(*run.info.queue_depth) : std::string("-"),
                   format_fixed(all.iops, 0), format_fixed(all.mb_per_s, 2), format_fixed(all.average_response_ms, 3),
                   all.p99_response_ms ? format_fixed(*all.p99_response_ms, 3) : std::string("-"),
                   format_fixed(all.maximum_response_ms, 3), std::to_string(all.errors),
                   all.cpu_percent ? format_fixed(*all.cpu_percent, 1) : std::string("-")});
  }
  out << table.render();
  if (!outcome.runs.empty() && outcome.runs.back().end == results::RunEnd::interrupted) {
    out << "* stopped early: the figures cover its recording until the stop\n";
  }
  if (outcome.steady_state) out << cli_text::verdict_line(*outcome.steady_state) << '\n';
  if (outcome.max_iops_search) out << '\n' << cli_text::search_report(*outcome.max_iops_search);
}

// Prints managers as they join, and logins refused (wrong key, version mismatch).
class ConsoleManagerEvents final : public controller::ManagerEvents {
 public:
  void manager_joined(const controller::ManagerLink& link) override {
    spdlog::info("manager '{}' ({}, {} CPUs, {})", link.name(), link.peer().endpoint, link.inventory().cpu_count,
                 link.peer().build);
  }
  void manager_refused(const Error& error) override { spdlog::warn("refused: {}", error.describe()); }
};

// Every manager holds a descriptor: the soft limit goes up to the hard one before a fleet
// connects, and a hard limit short of the managers asked for is said before they are refused.
void raise_descriptor_limit_for(std::uint64_t managers) {
  const auto limit = app_runtime::raise_descriptor_limit();
  if (!limit) {
    spdlog::warn("{}", limit.error().describe());
    return;
  }
  spdlog::debug("RLIMIT_NOFILE: {} (hard {})", limit->soft, limit->hard);
  if (const auto shortfall = app_runtime::descriptor_shortfall(*limit, managers)) spdlog::warn("{}", *shortfall);
}

// The managers of this series: agents dialled (--manager), agents logging in (--listen) and
// Dynamo 1.1.0 processes logging in (--legacy-dynamo),
// or, when neither is asked for, the embedded agent in this process, which may touch only
// `allowed_paths` (what the command line or the plan names).
Result<void> connect_managers(controller::ManagerRegistry& registry, controller::ManagerEvents& events,
                              const RunOptions& options, const std::vector<std::string>& allowed_paths) {
  if (options.managers.empty() && options.listen.empty() && !options.legacy_dynamo) {
    return controller::add_embedded_agent(registry, allowed_paths);
  }
  const bool logins = !options.listen.empty() || options.legacy_dynamo;
  const std::uint64_t listened_for = logins ? std::max<std::uint32_t>(options.wait_managers, 1) : 0;
  raise_descriptor_limit_for(options.managers.size() + listened_for);
  for (const auto& manager : options.managers) {
    auto address = transport::parse_host_port(manager, transport::kDefaultPort);
    if (!address) return fail(Error(address.error()).in_field("--manager"));
    if (auto dialled = registry.dial(*address); !dialled) return dialled;
  }
  std::unique_ptr<controller::DynamoAcceptor> dynamos;
  if (options.legacy_dynamo) {
    if (options.legacy_dynamo->empty() && options.listen.empty()) {
      return fail(Error(ErrorCode::invalid_argument, "without a port, Dynamo logins share the agents' port: add "
                                                     "--listen [ADDR:]PORT, or give --legacy-dynamo a port of its own")
                      .in_field("--legacy-dynamo"));
    }
    auto acceptor = controller::accept_dynamo_logins(*options.legacy_dynamo, registry, events);
    if (!acceptor) return fail(acceptor.error());
    dynamos = std::move(*acceptor);
    spdlog::warn("the legacy IOmeter protocol has no authentication: anyone who reaches {} can register a "
                 "Dynamo manager",
                 dynamos->endpoint());
  }
  std::optional<std::string> endpoint;
  if (!options.listen.empty()) {
    auto address = transport::parse_listen_address(options.listen, "0.0.0.0");
    if (!address) return fail(Error(address.error()).in_field("--listen"));
    auto listening = registry.listen(*address);
    if (!listening) return fail(listening.error());
    endpoint = *listening;
  }
  if (!endpoint && !dynamos) return {};
  const auto wanted = registry.size() + std::max<std::size_t>(options.wait_managers, 1);
  if (endpoint) spdlog::info("waiting for {} agent(s) on {}", wanted - registry.size(), *endpoint);
  if (dynamos) spdlog::info("waiting for Dynamo logins on {}", dynamos->endpoint());
  auto arrived = registry.wait_for(wanted, std::chrono::seconds(options.wait_timeout_s));
  // Later logins would only wait for a series they are not part of.
  registry.stop_listening();
  return arrived;
}

// The plan with --map-target's renames applied, each reported as a note.
Result<access_specs::TestPlan> map_plan_targets(const std::vector<std::string>& texts, access_specs::TestPlan plan) {
  std::vector<controller::TargetMapping> mappings;
  for (const auto& text : texts) {
    auto mapping = controller::parse_target_map(text, plan);
    if (!mapping) return fail(mapping.error());
    mappings.push_back(std::move(*mapping));
  }
  auto mapped = controller::map_targets(std::move(plan), mappings);
  for (const auto& note : mapped.notes) std::cerr << "note: " << note << '\n';
  return std::move(mapped.plan);
}

Result<controller::SeriesPlan> plan_file_series(const RunOptions& options, const access_specs::RunRequest& request,
                                                const access_specs::TestPlan& plan,
                                                const std::vector<controller::ManagerLink*>& links) {
  controller::PlanSeriesOptions plan_options;
  for (const auto& text : options.manager_map) {
    auto pair = controller::parse_manager_map(text);
    if (!pair) return fail(pair.error());
    plan_options.manager_map.push_back(std::move(*pair));
  }
  plan_options.request = request;
  auto planned = controller::plan_series(plan, links, plan_options);
  if (!planned) return fail(Error(planned.error()).at({options.plan_file, 0}));
  for (const auto& note : planned->notes) spdlog::info("note: {}", note);
  return std::move(planned->series);
}

int run(const RunOptions& options, app_runtime::StopSignals& stop_signals) {
  auto request = run_options::make_run_request(options.run);
  if (!request) return usage_error(request.error());
  if (request->description.empty()) request->description = "iomark run";
  std::optional<access_specs::TestPlan> plan;
  if (!options.plan_file.empty()) {
    auto text = read_text_file(options.plan_file);
    if (!text) return bad_input(text.error());
    auto imported = icf::read_icf(*text, options.plan_file);
    if (!imported) return bad_input(imported.error());
    print_warnings(options.plan_file, *imported);
    auto mapped = map_plan_targets(options.target_map, std::move(imported->plan));
    if (!mapped) return bad_input(Error(mapped.error()).at({options.plan_file, 0}));
    plan = std::move(*mapped);
  } else if (!options.target_map.empty()) {
    return bad_input(Error(ErrorCode::invalid_argument, "--map-target renames a plan's targets: name a PLAN.icf"));
  } else if (request->targets.empty() && request->network_pairs.empty()) {
    return bad_input(Error(ErrorCode::invalid_argument, "name a plan file, at least one --target or a --network-pair"));
  }

  // The embedded agent is this process: neither a key nor TLS stands between us.
  const bool embedded = options.managers.empty() && options.listen.empty() && !options.legacy_dynamo;
  auto registry_settings = registry_options(options.connection, embedded);
  if (!registry_settings) return bad_input(registry_settings.error());
  ConsoleManagerEvents manager_events;
  controller::ManagerRegistry managers(std::move(*registry_settings), manager_events);
  const auto embedded_paths = plan ? controller::embedded_agent_paths(*plan) : run_options::write_scope_paths(*request);
  if (auto connected = connect_managers(managers, manager_events, options, embedded_paths);
      !connected) {
    // The embedded agent cannot fail to connect: its error is a target the user named (a
    // missing directory), so bad input.
    return embedded ? bad_input(connected.error()) : connect_failure(connected.error());
  }
  // An engine a manager lacks would fail every run after its test files were made.
  for (const auto* link : managers.links()) {
    if (auto usable = run_options::check_engine_available(request->engine, link->inventory().engines, link->name());
        !usable) {
      return bad_input(usable.error());
    }
  }
  auto series = plan ? plan_file_series(options, *request, *plan, managers.links())
                     : controller::quick_series(*request, managers.links());
  if (!series) return bad_input(series.error());
  auto on_agent_loss = controller::parse_agent_loss_policy(options.on_agent_loss);
  if (!on_agent_loss) return bad_input(on_agent_loss.error());
  series->on_agent_loss = *on_agent_loss;

  // From here a signal ends the series: the agents are told to stop, what was measured is
  // written (`Aborted test`) and summed up.
  const auto stop = stop_signals.request_stop_on([](int signal_number) {
    spdlog::warn("SIG{}: stopping the series and writing its results (a second signal exits at once)",
                 sigabbrev_np(signal_number));
  });
  ConsoleObserver console;
  RunObservers observers;
  if (auto opened = observers.open(options.observers, console, *series); !opened) {
    return report_history_error(opened.error());
  }
  auto json = JsonDestination::open(request->results_json);
  if (!json) return bad_input(json.error());
  controller::ResultsRecorder recorder(request->results_csv, json->path(), request->results_timeseries);
  const auto outcome = controller::run_series(managers.links(), *series, observers.observer(), recorder, stop);

  // With --json - standard output carries the JSON alone; the report moves to stderr.
  std::ostream& out = json->to_standard_output() ? std::cerr : std::cout;
  out << '\n';
  print_summary(outcome, out);
  if (series->precondition && !outcome.runs.empty()) out << cli_text::precondition_line(*series->precondition) << '\n';
  if (series->pts_iops) out << '\n' << cli_text::pts_table_text(controller::pts_iops_table(outcome, *series->pts_iops));
  if (!request->results_csv.empty()) out << "results appended to " << request->results_csv << '\n';
  if (!request->results_json.empty() && !json->to_standard_output()) {
    out << "JSON results in " << request->results_json << '\n';
  }
  if (!request->results_timeseries.empty()) out << "time series in " << request->results_timeseries << '\n';
  if (!options.report_html.empty()) {
    const auto& name = request->description;
    if (const int code = write_report({measured_series_source(*series, outcome, name)}, options.report_html, name, {}, out);
        code != 0) {
      return code;
    }
  }
  const bool history_complete = observers.print_outcome(out);
  out << "samples: " << outcome.samples_received << " received, " << outcome.samples_lost << " lost\n";
  if (auto copied = json->copy_to_standard_output(); !copied) spdlog::error("{}", copied.error().describe());
  if (const int signal_number = stop_signals.first_signal(); signal_number != 0) {
    spdlog::warn("the series was stopped by SIG{}", sigabbrev_np(signal_number));
    return exit_code_for_signal(signal_number);
  }
  if (outcome.error) {
    spdlog::error("the series stopped: {}", outcome.error->describe());
    // An agent refusing a target outside its write scope: the input, not the run, is wrong.
    if (outcome.error->code() == ErrorCode::validation_error && outcome.error->field() == "--allow") {
      return to_int(ExitCode::bad_input);
    }
    return to_int(ExitCode::run_failed);
  }
  if (!outcome.failed_runs.empty()) {
    spdlog::error("{} run(s) failed; the others are recorded", outcome.failed_runs.size());
    return to_int(ExitCode::run_failed);
  }
  if (console.bad_blocks() != 0) {
    // The data did not survive: the series failed, whatever its figures say.
    spdlog::error("--verify found {} bad block(s)", console.bad_blocks());
    return to_int(ExitCode::run_failed);
  }
  return to_int(history_complete ? ExitCode::ok : ExitCode::run_failed);
}

}  // namespace

namespace {

// The flags `iomark run` and `iomark pts iops` share besides the run flags: the report, the
// outputs, and how the managers are reached.
void add_series_flags(CLI::App& command, RunOptions& options) {
  command.add_option("--report", options.report_html, "Write an HTML report of the series here at its end")
      ->type_name("FILE.html")
      ->group(std::string(run_options::kResultsGroup));
  add_run_observer_flags(command, options.observers);
  command.add_option("--on-agent-loss", options.on_agent_loss,
                     "When an agent is lost mid-series: stop, or continue without it")
      ->type_name("POLICY")
      ->capture_default_str()
      ->check(CLI::IsMember({"stop", "continue"}))
      ->group(std::string(run_options::kTimingGroup));
  const auto connection_group = std::string(run_options::kConnectionGroup);
  command.add_option("--listen", options.listen, "Wait for agents logging in on [ADDR:]PORT (dynamo: 1066)")
      ->type_name("[ADDR:]PORT")
      ->group(connection_group);
  command.add_option("--legacy-dynamo", options.legacy_dynamo,
                     "Also accept Dynamo 1.1.0 logins: alone on --listen's port, else on [ADDR:]PORT "
                     "(no authentication!)")
      ->type_name("[[ADDR:]PORT]")
      ->expected(0, 1)
      ->group(connection_group);
  command.add_option("--manager", options.managers, "Dial a listening agent at HOST:PORT (repeatable)")
      ->type_name("HOST:PORT")
      ->group(connection_group);
  command.add_option("--wait-managers", options.wait_managers, "With --listen: agents to wait for (default 1)")
      ->type_name("N")
      ->group(connection_group);
  command.add_option("--wait-timeout", options.wait_timeout_s, "With --listen: seconds to wait for them")
      ->type_name("SECONDS")
      ->capture_default_str()
      ->group(connection_group);
  run_options::add_connection_flags(command, options.connection, run_options::Peer::agents);
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code, app_runtime::StopSignals& stop_signals) {
  auto options = std::make_shared<RunOptions>();  // lives as long as the callback reading it
  auto* command = app.add_subcommand("run", "Run a test series (embedded agent unless --manager/--listen)");
  command->footer("With PLAN.icf the plan's setup, specs, workers and targets are used; the quick flags\n"
                  "(--target, --spec, --qd, --workers, --data-pattern, --seed) apply without one.");
  command->add_option("PLAN", options->plan_file, "An IOmeter .icf plan (otherwise the flags below make one)")
      ->type_name("PLAN.icf");
  command->add_option("--map", options->manager_map, "Run the plan's manager OLD on the connected manager NEW")
      ->type_name("OLD=NEW");
  command->add_option("--map-target", options->target_map,
                      "Run the plan's target OLD (another host's name, e.g. 'C: NTFS') as NEW; MANAGER:OLD=NEW for one "
                      "manager only")
      ->type_name("[MANAGER:]OLD=NEW");
  run_options::add_run_flags(*command, options->run, run_options::FrontEnd::controller_run);
  add_series_flags(*command, *options);
  command->callback([&exit_code, &stop_signals, options] { exit_code = run(*options, stop_signals); });
}

void add_pts_command(CLI::App& app, int& exit_code, app_runtime::StopSignals& stop_signals) {
  auto* pts = app.add_subcommand("pts", "SNIA PTS-style tests of an array");
  pts->require_subcommand(1);
  auto options = std::make_shared<RunOptions>();  // lives as long as the callback reading it
  auto* iops = pts->add_subcommand(
      "iops", "PTS-E's IOPS test: precondition, then rounds of every block size and read/write mix until 4 KiB "
              "random writes are steady");
  iops->footer("Each round runs every mix (outer) with every block size (inner), random, for --time seconds each;\n"
               "the table averages each cell over the steady-state window (docs/characterize.md#pts-iops).");
  run_options::add_run_flags(*iops, options->run, run_options::FrontEnd::controller_pts);
  add_series_flags(*iops, *options);
  iops->callback([&exit_code, &stop_signals, options] { exit_code = run(*options, stop_signals); });
}

}  // namespace iomark::cli
