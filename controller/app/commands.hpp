// The `iomark` verbs. Each add_* function registers one group of subcommands on the CLI
// and sets `exit_code` when its subcommand runs.
#pragma once

#include <CLI/CLI.hpp>

#include <string>

#include "iomark/app_runtime/stop_signals.hpp"
#include "iomark/icf/icf.hpp"

namespace iomark::cli {

// An imported plan's warnings on stderr, one line per kind ("FILE:LINE: warning: ...", with a
// count where the kind repeats).
void print_warnings(const std::string& path, const icf::IcfImport& imported);

void add_icf_commands(CLI::App& app, int& exit_code);
void add_specs_commands(CLI::App& app, int& exit_code);
void add_results_commands(CLI::App& app, int& exit_code);
// A series ends early on the first SIGINT or SIGTERM `stop_signals` takes.
void add_run_command(CLI::App& app, int& exit_code, app_runtime::StopSignals& stop_signals);
// `iomark pts iops`: `iomark run`'s series over the PTS-E matrix, in rounds until steady.
void add_pts_command(CLI::App& app, int& exit_code, app_runtime::StopSignals& stop_signals);
void add_report_command(CLI::App& app, int& exit_code);
void add_history_commands(CLI::App& app, int& exit_code);
void add_agents_command(CLI::App& app, int& exit_code);

}  // namespace iomark::cli
