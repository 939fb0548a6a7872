// The history's schema and its migrations. Private to the history library.
#pragma once

#include "iomark/common/result.hpp"
#include "sqlite.hpp"

namespace iomark::history {

// Brings the database from its PRAGMA user_version up to kSchemaVersion, one step per
// transaction, in order; unsupported when the file is newer than this build.
[[nodiscard]] Result<void> migrate(sqlite::Database& db);

}  // namespace iomark::history
