// Opening the run history from the command line, shared by `iomark history` and
// `iomark report --runs`.
#pragma once

#include <cstdint>
#include <string>

#include <CLI/CLI.hpp>

#include "iomark/common/result.hpp"
#include "iomark/history/history.hpp"

namespace iomark::cli {

enum class HistoryFile : std::uint8_t {
  create,      // `history import`: creates or migrates the file (history::Access::read_write)
  must_exist,  // list, show, compare, report --runs: opened read-only, never changed
};

// The run history at `database`; must_exist refuses a missing file (not_found) rather than
// leave an empty database behind a typo, and opens it read-only.
[[nodiscard]] Result<history::History> open_history_database(const std::string& database, HistoryFile missing);

// Logs a failure of the run history and returns its exit code: 4 when another process held
// the database locked for longer than iomark waits (it may pass), else 3.
[[nodiscard]] int report_history_error(const Error& error);

// `--history DB` of `iomark history`, `run` and `report`, and the deprecated spelling `--db`
// (hidden from --help, warns when used) writing the same string.
void add_history_database_option(CLI::App& command, std::string& database, const std::string& description);

}  // namespace iomark::cli
