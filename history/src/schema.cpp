#include "schema.hpp"

#include <array>
#include <chrono>
#include <thread>
#include <string>
#include <string_view>

#include "iomark/history/history.hpp"

namespace iomark::history {

namespace {

// kMigrations[n] takes a database from user_version n to n + 1. Never edit a step once it
// has shipped: databases in the field already ran it; add a step instead.
constexpr std::array<std::string_view, kSchemaVersion> kMigrations = {
    // 0 -> 1: series, runs with their ALL figures and the run document, hosts.
    R"sql(
      CREATE TABLE series (
        id INTEGER PRIMARY KEY,
        started_at_ms INTEGER NOT NULL,
        utc_offset_minutes INTEGER NOT NULL DEFAULT 0,
        description TEXT NOT NULL DEFAULT '',
        controller_version TEXT NOT NULL DEFAULT '',
        source TEXT NOT NULL,
        document TEXT                      -- iomark JSON: series identity and plan, no runs
      );
      CREATE TABLE runs (
        id INTEGER PRIMARY KEY,
        series_id INTEGER NOT NULL REFERENCES series(id),
        position INTEGER NOT NULL,
        started_at_ms INTEGER NOT NULL,
        utc_offset_minutes INTEGER NOT NULL DEFAULT 0,
        status TEXT NOT NULL CHECK (status IN ('completed', 'failed')),
        error TEXT NOT NULL DEFAULT '',
        spec TEXT NOT NULL,
        queue_depth INTEGER,
        hosts TEXT NOT NULL,
        iops REAL,
        mb_per_s REAL,
        average_ms REAL,
        maximum_ms REAL,
        cpu_percent REAL,
        errors INTEGER,
        document TEXT                      -- iomark JSON of this run alone; NULL for imports
      );
      CREATE INDEX runs_by_start ON runs(started_at_ms);
      CREATE TABLE run_hosts (
        run_id INTEGER NOT NULL REFERENCES runs(id),
        manager TEXT NOT NULL,
        os_name TEXT NOT NULL DEFAULT '',
        kernel_release TEXT NOT NULL DEFAULT '',
        iomark_version TEXT NOT NULL DEFAULT '',
        cpu_count INTEGER NOT NULL DEFAULT 0
      );
      CREATE INDEX run_hosts_by_run ON run_hosts(run_id);
      CREATE INDEX run_hosts_by_manager ON run_hosts(manager);
    )sql",
    // 1 -> 2: p99 and the merged latency histogram of each run, and an index on what makes
    // runs repeats of each other that also holds the figures compare takes the variation of,
    // so that variation never reads the runs' rows (100,000 runs: well under a second).
    R"sql(
      ALTER TABLE runs ADD COLUMN p99_ms REAL;
      ALTER TABLE runs ADD COLUMN latency_histogram TEXT;  -- JSON [[bucket, count], ...], non-empty buckets
      CREATE INDEX runs_by_repeat ON runs(spec, queue_depth, hosts, status, iops, mb_per_s, average_ms, p99_ms);
    )sql",
};

Result<int> user_version(sqlite::Database& db) {
  auto statement = db.prepare("PRAGMA user_version");
  if (!statement) return fail(statement.error());
  auto row = statement->step();
  if (!row) return fail(row.error());
  return static_cast<int>(statement->integer(0));
}

}  // namespace

Result<void> migrate(sqlite::Database& db) {
  // WAL: readers (`iomark history list` during a series) never block the recording run.
  // Switching a new file to WAL needs it to itself, and SQLite answers "busy" at once rather
  // than through the busy handler when another opener holds a read lock: retry for a while.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    auto wal = db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON");
    if (wal) break;
    if ((sqlite3_errcode(db.handle()) & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() > give_up) {
      return fail(ErrorCode::io_error, "not a usable history database: " + wal.error().message());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // Each step reads the version inside a write transaction (BEGIN IMMEDIATE), so two
  // processes opening a new file at once (a recording run, a `history list`) cannot both
  // apply the same step: the second waits on the lock, then sees the step done.
  for (;;) {
    if (auto begun = db.execute("BEGIN IMMEDIATE"); !begun) {
      return fail(ErrorCode::io_error, "not a usable history database: " + begun.error().message());
    }
    auto version = user_version(db);
    if (!version || *version >= kSchemaVersion) {
      (void)db.execute("ROLLBACK");
      if (!version) return fail(ErrorCode::io_error, "not a usable history database: " + version.error().message());
      if (*version == kSchemaVersion) return {};
      return fail(ErrorCode::unsupported, "the history database has schema version " + std::to_string(*version) +
                                              "; this iomark knows versions up to " + std::to_string(kSchemaVersion));
    }
    auto applied = db.execute(kMigrations[static_cast<std::size_t>(*version)]);
    if (applied) applied = db.execute("PRAGMA user_version = " + std::to_string(*version + 1) + "; COMMIT");
    if (!applied) {
      (void)db.execute("ROLLBACK");
      return fail(ErrorCode::io_error, "migrating the history database from version " + std::to_string(*version) +
                                           ": " + applied.error().message());
    }
  }
}

}  // namespace iomark::history
