// Opening the run history from the command line, shared by `iomark history` and
// `iomark report --runs`.
#pragma once

#include <cstdint>
#include <string>

#include "iomark/common/result.hpp"
#include "iomark/history/history.hpp"

namespace iomark::cli {

enum class HistoryFile : std::uint8_t { create, must_exist };

// The run history at `database`; must_exist refuses a missing file (not_found) rather than
// leave an empty database behind a typo.
[[nodiscard]] Result<history::History> open_history_database(const std::string& database, HistoryFile missing);

}  // namespace iomark::cli
