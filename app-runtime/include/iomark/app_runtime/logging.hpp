// Logging for the iomark programs: one spdlog default logger, set up from --log-level,
// --log-file, -q and -v. Libraries never log; they return errors as values and report events
// through observers, and the programs log what those tell them.
#pragma once

#include <CLI/CLI.hpp>
#include <functional>
#include <string>

#include "iomark/common/result.hpp"

namespace iomark::app_runtime {

struct LogOptions {
  std::string level;  // trace, debug, info, warn or error; empty: info, moved by -q and -v
  std::string file;   // also log here, every line with a timestamp and its level
  int quieter{};      // -q given this many times: warn, then error
  int louder{};       // -v given this many times: debug, then trace
};

// How lines look on stderr. Under systemd (JOURNAL_STREAM names stderr) either style gives
// way to journald priority prefixes ("<3>...") without timestamps: the journal adds its own.
enum class ConsoleStyle {
  timestamped,  // a daemon's stderr: "2026-11-25 13:02:17.123 info  listening on ..."
  plain,        // a command's stderr: info as it is, "PROGRAM: warning: ..." and "PROGRAM: ..." (errors)
};

// Registers --log-level, --log-file, -q and -v on `app` (call it before adding subcommands:
// they then take the flags too), and starts logging in `style_of()` once the command line is
// parsed, before any command runs. A log file that cannot be opened is reported and thrown as
// CLI::RuntimeError carrying ExitCode::bad_input: catch it before CLI::ParseError.
void add_log_options(CLI::App& app, LogOptions& options, std::string program, std::function<ConsoleStyle()> style_of);

// Makes the default spdlog logger write to stderr (and the file) at the chosen level.
// invalid_argument for an unknown level; io_error when the file cannot be opened.
// `program` ("iomark") starts the plain style's warnings and errors, as Unix tools do.
[[nodiscard]] Result<void> start_logging(const LogOptions& options, ConsoleStyle style, const std::string& program);

// True when stderr is the stream systemd's JOURNAL_STREAM ("DEVICE:INODE") names, as
// sd_journal_stream_fd's readers are told to check (a child of a service inherits the
// variable but not necessarily the stream).
[[nodiscard]] bool stderr_is_journal();

}  // namespace iomark::app_runtime
