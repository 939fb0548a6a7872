// iomark: the headless controller. main() only wires the verbs together.
#include <CLI/CLI.hpp>

#include "cli_support.hpp"
#include "commands.hpp"
#include "iomark/app_runtime/logging.hpp"
#include "iomark/app_runtime/stop_signals.hpp"
#include "iomark/app_runtime/heap_arenas.hpp"
#include "iomark/run_options/bash_completion.hpp"

int main(int argc, char** argv) {
  iomark::app_runtime::StopSignals stop_signals;  // first: before any thread exists
  iomark::app_runtime::limit_heap_arenas();
  CLI::App app{"iomark: IOmeter-compatible distributed storage benchmark (controller)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "iomark " IOMARK_VERSION);
  int exit_code = 0;
  iomark::app_runtime::LogOptions log_options;
  iomark::app_runtime::add_log_options(app, log_options, "iomark",
                                      [] { return iomark::app_runtime::ConsoleStyle::plain; });
  iomark::cli::add_icf_commands(app, exit_code);
  iomark::cli::add_specs_commands(app, exit_code);
  iomark::cli::add_results_commands(app, exit_code);
  iomark::cli::add_run_command(app, exit_code, stop_signals);
  iomark::cli::add_pts_command(app, exit_code, stop_signals);
  iomark::run_options::add_completion_command(app);
  iomark::cli::add_report_command(app, exit_code);
  iomark::cli::add_history_commands(app, exit_code);
  iomark::cli::add_agents_command(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& success) {
    return app.exit(success);
  } catch (const CLI::RuntimeError& failed) {  // reported where it was thrown
    return failed.get_exit_code();
  } catch (const CLI::ParseError& error) {
    app.exit(error);
    return iomark::to_int(iomark::ExitCode::usage);
  }
  return exit_code;
}
