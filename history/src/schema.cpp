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
    // 2 -> 3: what rate control (--rate-iops) measured besides the response time, which then
    // runs from each I/O's scheduled time; and what a series concluded about its runs. The
    // whole --steady-state verdict and --find-max-iops search go into the series document
    // (as in the results JSON); the columns are the part `list` marks runs with, so that
    // listing reads no document.
    R"sql(
      ALTER TABLE runs ADD COLUMN average_service_ms REAL;
      ALTER TABLE runs ADD COLUMN average_issue_lag_ms REAL;
      ALTER TABLE series ADD COLUMN steady INTEGER;          -- 0 or 1 once a round was judged
      ALTER TABLE series ADD COLUMN steady_rounds INTEGER;   -- rounds judged so far
      ALTER TABLE series ADD COLUMN steady_run INTEGER;      -- position of the run the last round judged
      ALTER TABLE series ADD COLUMN max_iops_figure TEXT;    -- avg, p99 or p99.9
      ALTER TABLE series ADD COLUMN max_iops_limit_ms REAL;
      ALTER TABLE series ADD COLUMN max_iops_run INTEGER;    -- position of the chosen run; NULL while none
      ALTER TABLE series ADD COLUMN max_iops_finished INTEGER;
    )sql",
};

Result<int> user_version(sqlite::Database& db) {
  auto statement = db.prepare("PRAGMA user_version");
  if (!statement) return fail(statement.error());
  auto row = statement->step();
  if (!row) return fail(row.error());
  // user_version is a signed 32-bit field of the file's header: any value may be there.
  return static_cast<int>(statement->integer(0));
}

// What the file holds, read in whatever transaction the caller has open.
Result<FileKind> classify(sqlite::Database& db) {
  auto version = user_version(db);
  if (!version) return fail(version.error());
  auto objects = db.prepare(
      "SELECT count(*), count(CASE WHEN type = 'table' AND name IN ('series', 'runs', 'run_hosts') THEN 1 END) "
      "FROM sqlite_master");
  if (!objects) return fail(objects.error());
  if (auto row = objects->step(); !row) return fail(row.error());
  const auto object_count = objects->integer(0);
  const bool has_tables = objects->integer(1) == 3;
  FileKind kind;
  kind.version = *version;
  if (object_count == 0 && *version == 0) {
    kind.state = FileState::empty;
  } else if (*version > kSchemaVersion && has_tables) {
    kind.state = FileState::newer;
  } else if (*version >= 1 && *version <= kSchemaVersion && has_tables) {
    kind.state = FileState::history;
  } else {
    kind.state = FileState::foreign;
  }
  return kind;
}

}  // namespace

std::string describe_refusal(const FileKind& kind) {
  switch (kind.state) {
    case FileState::empty:
      return "holds no iomark history (an empty database)";
    case FileState::newer:
      return "the history database has schema version " + std::to_string(kind.version) +
             "; this iomark knows versions 1 to " + std::to_string(kSchemaVersion);
    case FileState::foreign:
      return "not an iomark history (SQLite user_version " + std::to_string(kind.version) +
             (kind.version >= 1 && kind.version <= kSchemaVersion ? ", without iomark's tables)" : ")");
    case FileState::history:
      break;
  }
  return {};
}

Result<FileKind> inspect(sqlite::Database& db) {
  // A read transaction, so that the version and the tables are read from one state of the file.
  if (auto begun = db.execute("BEGIN"); !begun) return fail(begun.error());
  auto kind = classify(db);
  (void)db.execute("COMMIT");
  if (!kind && kind.error().code() != ErrorCode::timed_out) {
    return fail(ErrorCode::io_error, "not a usable history database: " + kind.error().message());
  }
  return kind;
}

Result<void> open_for_reading(sqlite::Database& db) {
  auto kind = inspect(db);
  if (!kind) return fail(kind.error());
  if (kind->state != FileState::history) {
    return fail(kind->state == FileState::newer ? ErrorCode::unsupported : ErrorCode::validation_error,
                describe_refusal(*kind));
  }
  // An older file reads as the current schema through views in the connection's private temp
  // schema, which names resolve first, with the columns later versions added empty: the file
  // is not migrated, since only writers change it.
  std::string runs_added;
  std::string series_added;
  if (kind->version < 2) runs_added += ", NULL AS p99_ms, NULL AS latency_histogram";
  if (kind->version < 3) {
    runs_added += ", NULL AS average_service_ms, NULL AS average_issue_lag_ms";
    series_added +=
        ", NULL AS steady, NULL AS steady_rounds, NULL AS steady_run, NULL AS max_iops_figure, "
        "NULL AS max_iops_limit_ms, NULL AS max_iops_run, NULL AS max_iops_finished";
  }
  if (!runs_added.empty()) {
    auto view = db.execute("CREATE TEMP VIEW runs AS SELECT *" + runs_added + " FROM main.runs");
    if (!view) return view;
  }
  if (!series_added.empty()) {
    return db.execute("CREATE TEMP VIEW series AS SELECT *" + series_added + " FROM main.series");
  }
  return {};
}

Result<void> migrate(sqlite::Database& db) {
  // Nothing is changed in a file that is neither empty nor an iomark history: not even its
  // journal mode, which the WAL switch below would rewrite.
  auto kind = inspect(db);
  if (!kind) return fail(kind.error());
  if (kind->state != FileState::empty && kind->state != FileState::history) {
    return fail(kind->state == FileState::newer ? ErrorCode::unsupported : ErrorCode::validation_error,
                describe_refusal(*kind));
  }
  // WAL: readers (`iomark history list` during a series) never block the recording run.
  // Switching a new file to WAL needs it to itself, and SQLite answers "busy" at once rather
  // than through the busy handler when another opener holds a read lock: retry for a while.
  const auto give_up = std::chrono::steady_clock::now() + std::chrono::seconds(10);
  for (;;) {
    auto wal = db.execute("PRAGMA journal_mode = WAL; PRAGMA synchronous = FULL; PRAGMA foreign_keys = ON");
    if (wal) break;
    if ((sqlite3_errcode(db.handle()) & 0xff) != SQLITE_BUSY || std::chrono::steady_clock::now() > give_up) {
      if (wal.error().code() == ErrorCode::timed_out) return fail(wal.error());
      return fail(ErrorCode::io_error, "not a usable history database: " + wal.error().message());
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(10));
  }
  // The check and every step in one write transaction (BEGIN IMMEDIATE): two processes opening
  // a new file at once (two recording runs) cannot both apply a step, a file another process
  // changed since the check above is checked again, and a failed step leaves the file as it was.
  if (auto begun = db.execute("BEGIN IMMEDIATE"); !begun) return fail(begun.error());
  kind = classify(db);
  if (!kind || (kind->state != FileState::empty && kind->state != FileState::history)) {
    (void)db.execute("ROLLBACK");
    if (!kind) return fail(kind.error());
    return fail(kind->state == FileState::newer ? ErrorCode::unsupported : ErrorCode::validation_error,
                describe_refusal(*kind));
  }
  // Only now index the table: the version is known to be within 0 .. kSchemaVersion.
  for (int version = kind->version; version < kSchemaVersion; ++version) {
    auto applied = db.execute(kMigrations[static_cast<std::size_t>(version)]);
    if (applied) applied = db.execute("PRAGMA user_version = " + std::to_string(version + 1));
    if (!applied) {
      (void)db.execute("ROLLBACK");
      return fail(ErrorCode::io_error, "migrating the history database from version " + std::to_string(version) +
                                           ": " + applied.error().message());
    }
  }
  if (auto committed = db.execute("COMMIT"); !committed) {
    (void)db.execute("ROLLBACK");
    return fail(committed.error());
  }
  return {};
}

}  // namespace iomark::history
