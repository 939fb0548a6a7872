// A thin RAII layer over the SQLite C API: a connection, prepared statements with typed
// binds and columns, and savepoints. Every failure becomes an Error naming the statement's
// purpose and SQLite's message. Private to the history library.
//
// Threading: one Database per thread (SQLite's default serialized mode would allow more, but
// the history never shares a connection).
#pragma once

#include <sqlite3.h>

#include <chrono>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>

#include "iomark/common/result.hpp"

namespace iomark::history::sqlite {

class Statement;

enum class Access : std::uint8_t {
  read_only,   // SQLITE_OPEN_READONLY: the file must exist and is never written
  read_write,  // creates the file when missing
};

class Database {
 public:
  // Opens the file; ":memory:" gives a private in-memory database. While another process
  // holds a conflicting lock, each statement waits up to `lock_wait`, then fails with
  // timed_out (SQLITE_BUSY); every other SQLite failure is io_error.
  [[nodiscard]] static Result<Database> open(const std::string& path, Access access,
                                             std::chrono::milliseconds lock_wait);

  Database(Database&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}
  Database& operator=(Database&& other) noexcept;
  Database(const Database&) = delete;
  Database& operator=(const Database&) = delete;
  ~Database();

  // Runs one or more statements that return no rows.
  [[nodiscard]] Result<void> execute(std::string_view sql);
  [[nodiscard]] Result<Statement> prepare(std::string_view sql);
  [[nodiscard]] std::int64_t last_insert_rowid() const noexcept { return sqlite3_last_insert_rowid(db_); }
  [[nodiscard]] sqlite3* handle() const noexcept { return db_; }

 private:
  explicit Database(sqlite3* db) : db_(db) {}
  sqlite3* db_{};
};

class Statement {
 public:
  Statement(Statement&& other) noexcept : statement_(std::exchange(other.statement_, nullptr)) {}
  Statement& operator=(Statement&&) = delete;
  Statement(const Statement&) = delete;
  Statement& operator=(const Statement&) = delete;
  ~Statement();

  // Parameters are 1-based, as in SQL's `?1`; bind_or_null binds NULL for nullopt.
  Statement& bind(int index, std::int64_t value);
  Statement& bind(int index, double value);
  Statement& bind(int index, std::string_view value);
  Statement& bind_or_null(int index, std::optional<std::int64_t> value);
  Statement& bind_or_null(int index, std::optional<double> value);
  Statement& bind_or_null(int index, std::optional<std::string_view> value);

  // true: a row is ready to read; false: done. Errors carry SQLite's message.
  [[nodiscard]] Result<bool> step();
  // Steps to completion, for statements that return no rows.
  [[nodiscard]] Result<void> run();
  void reset() noexcept;

  // Columns are 0-based, as SQLite numbers them.
  [[nodiscard]] bool is_null(int column) const noexcept;
  [[nodiscard]] std::int64_t integer(int column) const noexcept;
  [[nodiscard]] double real(int column) const noexcept;
  [[nodiscard]] std::string text(int column) const;
  [[nodiscard]] std::optional<std::int64_t> optional_integer(int column) const noexcept;
  [[nodiscard]] std::optional<double> optional_real(int column) const noexcept;

 private:
  friend class Database;
  explicit Statement(sqlite3_stmt* statement) : statement_(statement) {}
  sqlite3_stmt* statement_{};
};

// A savepoint: rolled back on destruction unless commit() succeeded. Savepoints nest, so a
// bulk caller may wrap many recorded runs in one outer savepoint.
class Savepoint {
 public:
  [[nodiscard]] static Result<Savepoint> begin(Database& db);
  Savepoint(Savepoint&& other) noexcept : db_(std::exchange(other.db_, nullptr)) {}
  Savepoint& operator=(Savepoint&&) = delete;
  Savepoint(const Savepoint&) = delete;
  Savepoint& operator=(const Savepoint&) = delete;
  ~Savepoint();
  [[nodiscard]] Result<void> commit();

 private:
  explicit Savepoint(Database& db) : db_(&db) {}
  Database* db_{};
};

}  // namespace iomark::history::sqlite
