// iomark: the headless controller. main() only wires the verbs together.
#include <CLI/CLI.hpp>

#include "cli_support.hpp"
#include "commands.hpp"
#include "iomark/controller/heap_arenas.hpp"

int main(int argc, char** argv) {
  iomark::controller::limit_heap_arenas();
  CLI::App app{"iomark: IOmeter-compatible distributed storage benchmark (controller)"};
  app.require_subcommand(1);
  app.set_version_flag("--version", "iomark " IOMARK_VERSION);
  int exit_code = 0;
  iomark::cli::add_icf_commands(app, exit_code);
  iomark::cli::add_specs_commands(app, exit_code);
  iomark::cli::add_results_commands(app, exit_code);
  iomark::cli::add_run_command(app, exit_code);
  iomark::cli::add_history_commands(app, exit_code);
  try {
    app.parse(argc, argv);
  } catch (const CLI::Success& success) {
    return app.exit(success);
  } catch (const CLI::ParseError& error) {
    app.exit(error);
    return static_cast<int>(iomark::cli::ExitCode::usage);
  }
  return exit_code;
}
