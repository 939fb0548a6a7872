// A bash completion script made from a parsed-ready CLI11 command tree, so the completion
// offers exactly the flags and subcommands the program declares (the option table included).
// Installed by the packages under /usr/share/bash-completion/completions/.
#pragma once

#include <CLI/CLI.hpp>
#include <string>

namespace iomark::run_options {

// The script for `app` (its name is the program's): subcommand names, each command's long
// flags, file names after flags whose value name is FILE or PATH, the engine names after
// --engine. Uses bash-completion's _init_completion and _filedir.
[[nodiscard]] std::string bash_completion(const CLI::App& app);

// Adds a hidden `completion` subcommand that prints bash_completion(app) on standard output
// (the build runs it to make the installed file).
void add_completion_command(CLI::App& app);

}  // namespace iomark::run_options
