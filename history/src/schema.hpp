// The history's schema and its migrations. Private to the history library.
#pragma once

#include <cstdint>
#include <string>

#include "iomark/common/result.hpp"
#include "sqlite.hpp"

namespace iomark::history {

enum class FileState : std::uint8_t {
  empty,    // no schema objects and user_version 0: a new file (a 0-byte file reads so too)
  history,  // iomark's tables and a user_version from 1 to kSchemaVersion
  newer,    // iomark's tables and a user_version above kSchemaVersion
  foreign,  // anything else: another program's database, a negative or unknown version
};

struct FileKind {
  FileState state{FileState::foreign};
  int version{};  // PRAGMA user_version as stored
};

// What the open file holds, read in one read transaction without changing it.
[[nodiscard]] Result<FileKind> inspect(sqlite::Database& db);
// Why a file of this kind is refused, for an error message.
[[nodiscard]] std::string describe_refusal(const FileKind& kind);

// For read-only connections: refuses (validation_error, unsupported for newer) anything but
// an iomark history, and lets an older version's tables read as the current ones without
// changing the file.
[[nodiscard]] Result<void> open_for_reading(sqlite::Database& db);

// For writers: refuses anything but an empty file or an iomark history before changing a
// byte, then switches the file to WAL and brings it from its PRAGMA user_version up to
// kSchemaVersion in one transaction (all steps or none); unsupported when the file is newer
// than this build, validation_error when it is not an iomark history.
[[nodiscard]] Result<void> migrate(sqlite::Database& db);

}  // namespace iomark::history
