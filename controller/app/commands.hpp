// The `iomark` verbs. Each add_* function registers one group of subcommands on the CLI
// and sets `exit_code` when its subcommand runs.
#pragma once

#include <CLI/CLI.hpp>

namespace iomark::cli {

void add_icf_commands(CLI::App& app, int& exit_code);
void add_specs_commands(CLI::App& app, int& exit_code);
void add_results_commands(CLI::App& app, int& exit_code);
void add_run_command(CLI::App& app, int& exit_code);
void add_history_commands(CLI::App& app, int& exit_code);

}  // namespace iomark::cli
