#include "sqlite.hpp"

#include <utility>

namespace iomark::history::sqlite {

namespace {

// SQLITE_BUSY and SQLITE_LOCKED come after the busy timeout ran out: another process kept
// its lock for longer than this one waits, which may pass (timed_out), unlike a broken file.
tl::unexpected<Error> sqlite_error(sqlite3* db, std::string_view what) {
  if (db == nullptr) return fail(ErrorCode::io_error, std::string(what) + ": out of memory");
  const int primary = sqlite3_errcode(db) & 0xff;
  const bool locked = primary == SQLITE_BUSY || primary == SQLITE_LOCKED;
  return fail(locked ? ErrorCode::timed_out : ErrorCode::io_error,
              std::string(what) + ": " + sqlite3_errmsg(db) +
                  (locked ? " (another process holds the database; gave up waiting for it)" : ""));
}

}  // namespace

Result<Database> Database::open(const std::string& path, Access access, std::chrono::milliseconds lock_wait) {
  sqlite3* db = nullptr;
  const int flags = access == Access::read_only ? SQLITE_OPEN_READONLY : SQLITE_OPEN_READWRITE | SQLITE_OPEN_CREATE;
  const int code = sqlite3_open_v2(path.c_str(), &db, flags, nullptr);
  Database opened(db);  // closes the handle on every path, as sqlite3_open_v2 asks
  if (code != SQLITE_OK) return sqlite_error(db, "cannot open " + path);
  // Another process (a second `iomark run`, `iomark history list`) may hold the write lock
  // for the length of one run's transaction: wait for it rather than fail, but not for ever.
  sqlite3_busy_timeout(db, static_cast<int>(lock_wait.count()));
  return opened;
}

Database& Database::operator=(Database&& other) noexcept {
  if (this != &other) {
    if (db_ != nullptr) sqlite3_close_v2(db_);
    db_ = std::exchange(other.db_, nullptr);
  }
  return *this;
}

Database::~Database() {
  if (db_ != nullptr) sqlite3_close_v2(db_);
}

Result<void> Database::execute(std::string_view sql) {
  char* message = nullptr;
  if (sqlite3_exec(db_, std::string(sql).c_str(), nullptr, nullptr, &message) != SQLITE_OK) {
    std::string text = message != nullptr ? message : "unknown error";
    sqlite3_free(message);
    const int primary = sqlite3_errcode(db_) & 0xff;
    if (primary == SQLITE_BUSY || primary == SQLITE_LOCKED) {
      return fail(ErrorCode::timed_out, text + " (another process holds the database; gave up waiting for it)");
    }
    return fail(ErrorCode::io_error, text);
  }
  return {};
}

Result<Statement> Database::prepare(std::string_view sql) {
  sqlite3_stmt* statement = nullptr;
  if (sqlite3_prepare_v2(db_, sql.data(), static_cast<int>(sql.size()), &statement, nullptr) != SQLITE_OK) {
    return sqlite_error(db_, "cannot prepare `" + std::string(sql.substr(0, 40)) + "...`");
  }
  return Statement(statement);
}

Statement::~Statement() {
  if (statement_ != nullptr) sqlite3_finalize(statement_);
}

Statement& Statement::bind(int index, std::int64_t value) {
  sqlite3_bind_int64(statement_, index, value);
  return *this;
}
Statement& Statement::bind(int index, double value) {
  sqlite3_bind_double(statement_, index, value);
  return *this;
}
Statement& Statement::bind(int index, std::string_view value) {
  sqlite3_bind_text(statement_, index, value.data(), static_cast<int>(value.size()), SQLITE_TRANSIENT);
  return *this;
}
Statement& Statement::bind_or_null(int index, std::optional<std::int64_t> value) {
  if (!value) sqlite3_bind_null(statement_, index);
  return value ? bind(index, *value) : *this;
}
Statement& Statement::bind_or_null(int index, std::optional<double> value) {
  if (!value) sqlite3_bind_null(statement_, index);
  return value ? bind(index, *value) : *this;
}
Statement& Statement::bind_or_null(int index, std::optional<std::string_view> value) {
  if (!value) sqlite3_bind_null(statement_, index);
  return value ? bind(index, *value) : *this;
}

Result<bool> Statement::step() {
  const int code = sqlite3_step(statement_);
  if (code == SQLITE_ROW) return true;
  if (code == SQLITE_DONE) return false;
  return sqlite_error(sqlite3_db_handle(statement_), "statement failed");
}

Result<void> Statement::run() {
  for (;;) {
    auto stepped = step();
    if (!stepped) return fail(stepped.error());
    if (!*stepped) return {};
  }
}

void Statement::reset() noexcept {
  sqlite3_reset(statement_);
  sqlite3_clear_bindings(statement_);
}

bool Statement::is_null(int column) const noexcept { return sqlite3_column_type(statement_, column) == SQLITE_NULL; }
std::int64_t Statement::integer(int column) const noexcept { return sqlite3_column_int64(statement_, column); }
double Statement::real(int column) const noexcept { return sqlite3_column_double(statement_, column); }
std::string Statement::text(int column) const {
  const auto* text = sqlite3_column_text(statement_, column);
  if (text == nullptr) return {};
  return {reinterpret_cast<const char*>(text), static_cast<std::size_t>(sqlite3_column_bytes(statement_, column))};
}
std::optional<std::int64_t> Statement::optional_integer(int column) const noexcept {
  if (is_null(column)) return std::nullopt;
  return integer(column);
}
std::optional<double> Statement::optional_real(int column) const noexcept {
  if (is_null(column)) return std::nullopt;
  return real(column);
}

Result<Savepoint> Savepoint::begin(Database& db) {
  if (auto begun = db.execute("SAVEPOINT history_write"); !begun) return fail(begun.error());
  return Savepoint(db);
}

Savepoint::~Savepoint() {
  if (db_ != nullptr) {
    (void)db_->execute("ROLLBACK TO history_write");
    (void)db_->execute("RELEASE history_write");
  }
}

Result<void> Savepoint::commit() {
  auto released = db_->execute("RELEASE history_write");
  if (released) db_ = nullptr;
  return released;
}

}  // namespace iomark::history::sqlite
