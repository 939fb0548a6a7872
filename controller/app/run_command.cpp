// iomark run: a series on the embedded agent, on agents that log in, or on listening agents.
#include <unistd.h>

#include <csignal>
#include <filesystem>
#include <cstdio>
#include <iostream>
#include <map>
#include <memory>

#include "cli_support.hpp"
#include "commands.hpp"
#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/common/host_name.hpp"
#include "iomark/common/units.hpp"
#include "iomark/controller/embedded_agent.hpp"
#include "iomark/controller/manager_registry.hpp"
#include "iomark/controller/plan_series.hpp"
#include "iomark/controller/quick_series.hpp"
#include "iomark/icf/icf.hpp"
#include "iomark/controller/series_runner.hpp"
#include "iomark/controller/text_table.hpp"
#include "iomark/transport/host_port.hpp"
#include "iomark/transport/key_file.hpp"
#include "iomark/transport/session_config.hpp"
#include "iomark/transport/tls.hpp"

namespace iomark::cli {

namespace {

using controller::Align;
using controller::format_fixed;
using controller::TextTable;

struct RunOptions {
  std::string plan_file;  // PLAN.icf; empty = the quick series from the flags
  std::vector<std::string> manager_map;
  std::vector<std::string> targets;
  std::string spec_name;
  std::string spec_line;
  std::string queue_depths{"1"};
  std::uint32_t workers{1};
  std::optional<std::uint32_t> ramp_s;  // default: the plan's, or 0
  std::optional<std::uint32_t> time_s;  // default: the plan's, or 10
  std::string engine;
  std::string size{"1G"};
  std::string data_pattern{"repeating"};
  std::optional<std::uint64_t> seed;
  bool buffered{false};
  std::string results_csv{"results.csv"};
  std::string results_json;
  std::string results_timeseries;
  std::string listen;
  std::vector<std::string> managers;
  std::uint32_t wait_managers{0};
  std::uint32_t wait_timeout_s{30};
  std::string key_file;
  bool insecure{false};
  std::string tls_cert;  // --tls-cert, --tls-key, --tls-ca: all three, or none (plain TCP)
  std::string tls_key;
  std::string tls_ca;
  std::string description;
  std::string on_agent_loss{"stop"};
};

// Stops the series on Ctrl-C; a second Ctrl-C kills as usual.
std::stop_source* interrupt_target = nullptr;
extern "C" void on_interrupt(int) {
  if (interrupt_target != nullptr) interrupt_target->request_stop();
  std::signal(SIGINT, SIG_DFL);
}

// The console: a rewritten status line on a terminal, plain lines otherwise.
class ConsoleObserver final : public controller::SeriesObserver {
 public:
  ConsoleObserver() : terminal_(::isatty(STDERR_FILENO) != 0) {}

  void notice(const std::string& message) override { line(message, true); }

  void run_started(std::size_t index, std::size_t count, const controller::RunPlan& run) override {
    line("run " + std::to_string(index + 1) + "/" + std::to_string(count) + ": " + run.label, true);
  }

  void live(const controller::LiveFigures& figures) override {
    char text[256];
    if (figures.phase == controller::LivePhase::preparing) {
      std::snprintf(text, sizeof text, "  preparing test files: %s of %s",
                    format_size(Bytes(static_cast<std::uint64_t>(figures.elapsed_s))).c_str(),
                    format_size(Bytes(static_cast<std::uint64_t>(figures.phase_s))).c_str());
    } else {
      std::snprintf(text, sizeof text,
                    "  run %zu/%zu %s %s %.0f/%.0f s: %.0f IOPS, %.1f MB/s, avg %.3f ms, p99 %.3f ms, ETA %.0f s",
                    figures.run_index + 1, figures.run_count, figures.run->label.c_str(),
                    figures.phase == controller::LivePhase::ramp_up ? "ramp-up" : "recording", figures.elapsed_s,
                    figures.phase_s, figures.iops, figures.mb_per_s, figures.average_ms, figures.p99_ms,
                    figures.remaining_s);
    }
    // Without a terminal, one line every 10 s is enough for a log.
    if (!terminal_ && ++live_lines_ % 10 != 0) return;
    line(text, false);
  }

  void run_finished(std::size_t, const results::RunResults& run, const results::RunSummary& summary) override {
    // Each worker's engine and why, when it is new: a series repeats the choice run after run.
    for (const auto& manager : run.managers) {
      for (const auto& worker : manager.workers) {
        auto& shown = engines_shown_[manager.name + "/" + worker.name];
        if (worker.engine.empty() || shown == worker.engine) continue;
        shown = worker.engine;
        line("  engine " + manager.name + "/" + worker.name + ": " + worker.engine_reason, true);
      }
    }
    const auto& all = summary.all;
    char text[256];
    std::snprintf(text, sizeof text, "  done: %.0f IOPS, %.2f MB/s, avg %.3f ms, max %.3f ms, %llu errors",
                  all.rates.iops, all.rates.mb_per_s, all.average_response_ms(), all.maximum_response_ms(),
                  static_cast<unsigned long long>(all.counters.error_count()));
    line(text, true);
  }

  void run_failed(std::size_t, const controller::RunPlan&, const Error& error) override {
    line("  failed: " + error.describe(), true);
  }

 private:
  void line(const std::string& text, bool keep) {
    if (terminal_) {
      std::cerr << "\r\033[K" << text << (keep ? "\n" : "") << std::flush;
    } else {
      std::cerr << text << '\n';
    }
  }

  bool terminal_;
  std::size_t live_lines_{};
  std::map<std::string, std::string> engines_shown_;  // "manager/worker" -> engine last printed
};

void print_summary(const controller::SeriesOutcome& outcome) {
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
    table.add_row({std::to_string(run.index + 1), all.spec,
                   run.info.queue_depth ? std::to_string(*run.info.queue_depth) : std::string("-"),
                   format_fixed(all.iops, 0), format_fixed(all.mb_per_s, 2), format_fixed(all.average_response_ms, 3),
                   all.p99_response_ms ? format_fixed(*all.p99_response_ms, 3) : std::string("-"),
                   format_fixed(all.maximum_response_ms, 3), std::to_string(all.errors),
                   all.cpu_percent ? format_fixed(*all.cpu_percent, 1) : std::string("-")});
  }
  std::cout << table.render();
}

// Prints managers as they join, and logins refused (wrong key, version mismatch).
class ConsoleManagerEvents final : public controller::ManagerEvents {
 public:
  void manager_joined(const controller::ManagerLink& link) override {
    std::cerr << "manager '" << link.name() << "' (" << link.peer().endpoint << ", " << link.inventory().cpu_count
              << " CPUs, " << link.peer().build << ")\n";
  }
  void manager_refused(const Error& error) override { std::cerr << "refused: " << error.describe() << '\n'; }
};

// The managers of this series: agents dialled (--manager), agents logging in (--listen),
// or, when neither is asked for, the embedded agent in this process, which may touch only
// `allowed_paths` (what the command line or the plan names).
Result<void> connect_managers(controller::ManagerRegistry& registry, const RunOptions& options,
                              const std::vector<std::string>& allowed_paths) {
  if (options.managers.empty() && options.listen.empty()) return controller::add_embedded_agent(registry, allowed_paths);
  for (const auto& manager : options.managers) {
    auto address = transport::parse_host_port(manager, transport::kDefaultPort);
    if (!address) return fail(Error(address.error()).in_field("--manager"));
    if (auto dialled = registry.dial(*address); !dialled) return dialled;
  }
  if (options.listen.empty()) return {};
  auto address = transport::parse_listen_address(options.listen, "0.0.0.0");
  if (!address) return fail(Error(address.error()).in_field("--listen"));
  auto endpoint = registry.listen(*address);
  if (!endpoint) return fail(endpoint.error());
  const auto wanted = registry.size() + std::max<std::size_t>(options.wait_managers, 1);
  std::cerr << "waiting for " << wanted - registry.size() << " agent(s) on " << *endpoint << '\n';
  auto arrived = registry.wait_for(wanted, std::chrono::seconds(options.wait_timeout_s));
  // Later logins would only wait for a series they are not part of.
  registry.stop_listening();
  return arrived;
}

// The absolute paths a plan names that exist here: what the embedded agent may use.
std::vector<std::string> existing_plan_paths(const access_specs::TestPlan& plan) {
  std::vector<std::string> paths;
  for (const auto& manager : plan.managers.value_or(std::vector<access_specs::Manager>{})) {
    for (const auto& worker : manager.workers) {
      for (const auto& target : worker.targets.value_or(std::vector<access_specs::Target>{})) {
        std::error_code error;
        if (target.name.starts_with('/') && std::filesystem::exists(target.name, error)) paths.push_back(target.name);
      }
    }
  }
  return paths;
}

Result<controller::SeriesPlan> plan_file_series(const RunOptions& options, const access_specs::TestPlan& plan,
                                                const std::vector<controller::ManagerLink*>& links,
                                                std::uint64_t test_file_bytes) {
  controller::PlanSeriesOptions plan_options;
  for (const auto& text : options.manager_map) {
    auto pair = controller::parse_manager_map(text);
    if (!pair) return fail(pair.error());
    plan_options.manager_map.push_back(std::move(*pair));
  }
  plan_options.default_test_file_bytes = test_file_bytes;
  plan_options.run_time_s = options.time_s;
  plan_options.ramp_up_s = options.ramp_s;
  plan_options.engine = options.engine;
  plan_options.buffered = options.buffered;
  auto planned = controller::plan_series(plan, links, plan_options);
  if (!planned) return fail(Error(planned.error()).at({options.plan_file, 0}));
  for (const auto& note : planned->notes) std::cerr << "note: " << note << '\n';
  return std::move(planned->series);
}

int run(const RunOptions& options) {
  const auto size = parse_size(options.size);
  if (!size) return report(Error(ErrorCode::invalid_argument, "not a size: \"" + options.size + "\"").in_field("--size"));
  std::optional<access_specs::TestPlan> plan;
  if (!options.plan_file.empty()) {
    auto text = read_text_file(options.plan_file);
    if (!text) return report(text.error());
    auto imported = icf::read_icf(*text, options.plan_file);
    if (!imported) return report(imported.error());
    for (const auto& warning : imported->warnings) {
      std::cerr << options.plan_file << ':' << warning.line << ": warning: " << warning.message << '\n';
    }
    plan = std::move(imported->plan);
  } else if (options.targets.empty()) {
    return report(Error(ErrorCode::invalid_argument, "name a plan file or at least one --target"));
  }

  controller::RegistryOptions registry_options;
  registry_options.controller_name = local_host_name();
  registry_options.build = "iomark " IOMARK_VERSION;
  // The embedded agent is this process: neither a key nor TLS stands between us.
  const bool embedded = options.managers.empty() && options.listen.empty();
  if (!options.insecure && !embedded) {
    auto loaded = transport::load_key(options.key_file.empty() ? std::nullopt
                                                               : std::optional<std::filesystem::path>(options.key_file));
    if (!loaded) return report(loaded.error());
    registry_options.key = std::move(*loaded);
  }
  if (!embedded) {
    auto tls = transport::load_tls(options.tls_cert, options.tls_key, options.tls_ca);
    if (!tls) return report(tls.error());
    registry_options.tls = std::move(*tls);
  }
  ConsoleManagerEvents manager_events;
  controller::ManagerRegistry managers(std::move(registry_options), manager_events);
  if (auto connected = connect_managers(managers, options, plan ? existing_plan_paths(*plan) : options.targets);
      !connected) {
    return report(connected.error());
  }
  Result<controller::SeriesPlan> series = fail(ErrorCode::internal, "no series");
  if (plan) {
    series = plan_file_series(options, *plan, managers.links(), size->count());
  } else {
    // Database unless asked otherwise: the pattern storage engineers start with.
    auto spec = access_specs::spec_from_name_or_line(options.spec_name.empty() ? "Database" : options.spec_name,
                                                     options.spec_line);
    if (!spec) return report(spec.error());
    auto depths = controller::parse_queue_depths(options.queue_depths);
    if (!depths) return report(depths.error());
    controller::QuickSeriesOptions quick{options.targets, *spec, *depths, options.workers, options.ramp_s.value_or(0),
                                         options.time_s.value_or(10), options.engine, options.buffered, size->count(),
                                         access_specs::parse_data_pattern(options.data_pattern)
                                             .value_or(access_specs::DataPattern::repeating_bytes),
                                         options.seed, options.description.empty() ? "iomark run" : options.description};
    series = controller::quick_series(quick, managers.links());
  }
  if (!series) return report(series.error());
  auto on_agent_loss = controller::parse_agent_loss_policy(options.on_agent_loss);
  if (!on_agent_loss) return report(on_agent_loss.error());
  series->on_agent_loss = *on_agent_loss;

  std::stop_source stop;
  interrupt_target = &stop;
  std::signal(SIGINT, on_interrupt);
  ConsoleObserver observer;
  controller::ResultsRecorder recorder(options.results_csv, options.results_json, options.results_timeseries);
  const auto outcome = controller::run_series(managers.links(), *series, observer, recorder, stop.get_token());
  interrupt_target = nullptr;
  std::signal(SIGINT, SIG_DFL);

  std::cout << '\n';
  print_summary(outcome);
  if (!options.results_csv.empty()) std::cout << "results appended to " << options.results_csv << '\n';
  if (!options.results_json.empty()) std::cout << "JSON results in " << options.results_json << '\n';
  if (!options.results_timeseries.empty()) std::cout << "time series in " << options.results_timeseries << '\n';
  std::cout << "samples: " << outcome.samples_received << " received, " << outcome.samples_lost << " lost\n";
  if (outcome.error) {
    std::cerr << "iomark: the series stopped: " << outcome.error->describe() << '\n';
    return static_cast<int>(ExitCode::failure);
  }
  if (!outcome.failed_runs.empty()) {
    std::cerr << "iomark: " << outcome.failed_runs.size() << " run(s) failed; the others are recorded\n";
    return static_cast<int>(ExitCode::failure);
  }
  return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_run_command(CLI::App& app, int& exit_code) {
  auto options = std::make_shared<RunOptions>();  // lives as long as the callback reading it
  auto* command = app.add_subcommand("run", "Run a test series (embedded agent unless --manager/--listen)");
  command->footer("With PLAN.icf the plan's setup, specs, workers and targets are used; the quick flags\n"
                  "(--target, --spec, --qd, --workers, --data-pattern, --seed) apply without one.");
  command->add_option("PLAN", options->plan_file, "An IOmeter .icf plan (otherwise the flags below make one)");
  command->add_option("--map", options->manager_map, "Run the plan's manager OLD on the connected manager NEW");
  command->add_option("--target", options->targets, "Device, file or directory (iobw.tst) on every manager");
  auto* spec = command->add_option("--spec", options->spec_name, "Built-in access spec (default Database)");
  auto* line = command->add_option("--spec-line", options->spec_line,
                                   "One spec line: size,%size,%read,%random,delay,burst,align,reply");
  spec->excludes(line);
  line->excludes(spec);
  command->add_option("--qd", options->queue_depths, "Outstanding I/Os per target; a list cycles: 1,2,4,8");
  command->add_option("--workers", options->workers, "Workers per manager")->check(CLI::Range(1, 1024));
  command->add_option("--ramp", options->ramp_s, "Ramp-up seconds per run");
  command->add_option("--time", options->time_s, "Recorded seconds per run")->check(CLI::Range(1, 31'536'000));
  command->add_option("--engine", options->engine, "io_uring, libaio, threadpool, sync or null (default: probe)");
  command->add_option("--size", options->size,
                      "Size of iobw.tst made in a directory target (plans: where Maximum Disk Size is 0)");
  command->add_option("--data-pattern", options->data_pattern, "repeating, pseudo-random or full-random")
      ->check(CLI::IsMember({"repeating", "pseudo-random", "full-random"}));
  command->add_option("--seed", options->seed, "Fixed seed: the same offsets every run");
  command->add_flag("--buffered-io", options->buffered, "Use the page cache where O_DIRECT is refused");
  command->add_option("--results", options->results_csv, "IOmeter results.csv to append to (\"\" for none)");
  command->add_option("--json", options->results_json, "Write iomark JSON results here");
  command->add_option("--timeseries", options->results_timeseries,
                      "Append IOmeter's time-series side file here (one row per worker and update)");
  command->add_option("--description", options->description, "Test description recorded in the results");
  command->add_option("--on-agent-loss", options->on_agent_loss,
                      "When an agent is lost mid-series: stop (default), or continue without it")
      ->check(CLI::IsMember({"stop", "continue"}));
  command->add_option("--listen", options->listen, "Wait for agents logging in on [ADDR:]PORT (dynamo: 1066)");
  command->add_option("--manager", options->managers, "Dial a listening agent at HOST:PORT (repeatable)");
  command->add_option("--wait-managers", options->wait_managers, "With --listen: agents to wait for (default 1)");
  command->add_option("--wait-timeout", options->wait_timeout_s, "With --listen: seconds to wait for them");
  command->add_option("--key-file", options->key_file, "Pre-shared key file (or IOMARK_KEY)");
  command->add_flag("--insecure", options->insecure, "No authentication (the agents must say so too)");
  command->add_option("--tls-cert", options->tls_cert,
                      "TLS with the agents: this controller's certificate (PEM; with --tls-key and --tls-ca)");
  command->add_option("--tls-key", options->tls_key, "TLS: the private key of --tls-cert (PEM, chmod 600)");
  command->add_option("--tls-ca", options->tls_ca, "TLS: the CA certificate the agents' certificates must be signed by");
  command->callback([&exit_code, options] { exit_code = run(*options); });
}

}  // namespace iomark::cli
