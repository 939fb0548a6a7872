// Databases written by older iomark builds: opened, migrated in order, nothing lost.
#include <sqlite3.h>

#include <gtest/gtest.h>

#include <climits>
#include <filesystem>
#include <fstream>
#include <iterator>
#include <chrono>
#include <optional>
#include <string>
#include <thread>
#include <vector>
#include <unistd.h>

#include "iomark/history/history.hpp"

namespace iomark::history {
namespace {

// The schema iomark wrote at user_version 1 (before p99 and the merged histogram), with one
// imported series and run in it: what a user's file looks like before they upgrade.
constexpr const char* kVersion1Database = R"sql(
  CREATE TABLE series (id INTEGER PRIMARY KEY, started_at_ms INTEGER NOT NULL,
    utc_offset_minutes INTEGER NOT NULL DEFAULT 0, description TEXT NOT NULL DEFAULT '',
    controller_version TEXT NOT NULL DEFAULT '', source TEXT NOT NULL, document TEXT);
  CREATE TABLE runs (id INTEGER PRIMARY KEY, series_id INTEGER NOT NULL REFERENCES series(id),
    position INTEGER NOT NULL, started_at_ms INTEGER NOT NULL, utc_offset_minutes INTEGER NOT NULL DEFAULT 0,
    status TEXT NOT NULL CHECK (status IN ('completed', 'failed')), error TEXT NOT NULL DEFAULT '',
    spec TEXT NOT NULL, queue_depth INTEGER, hosts TEXT NOT NULL, iops REAL, mb_per_s REAL, average_ms REAL,
    maximum_ms REAL, cpu_percent REAL, errors INTEGER, document TEXT);
  CREATE INDEX runs_by_start ON runs(started_at_ms);
  CREATE TABLE run_hosts (run_id INTEGER NOT NULL REFERENCES runs(id), manager TEXT NOT NULL,
    os_name TEXT NOT NULL DEFAULT '', kernel_release TEXT NOT NULL DEFAULT '',
    iomark_version TEXT NOT NULL DEFAULT '', cpu_count INTEGER NOT NULL DEFAULT 0);
  INSERT INTO series VALUES (1, 1700000000000, 0, 'old', '', 'import old.csv',
    '{"format":"iomark-results","format_version":1,"series":{"test_type":"NORMAL"},"runs":[]}');
  INSERT INTO runs VALUES (7, 1, 1, 1700000000000, 0, 'completed', '', 'Database', 4, 'db1', 1234.5, 9.5, 0.8,
    12.0, 40.0, 0, NULL);
  INSERT INTO run_hosts VALUES (7, 'db1', '', '', '', 0);
  PRAGMA user_version = 1;
)sql";

// The schema iomark wrote at user_version 2 (before rate-control figures and the series'
// verdicts): version 1 with p99 and the merged histogram, one run of a series whose document
// is a real one, as a writer of that version left it.
const std::string kVersion2Database = std::string(kVersion1Database) + R"sql(
  ALTER TABLE runs ADD COLUMN p99_ms REAL;
  ALTER TABLE runs ADD COLUMN latency_histogram TEXT;
  CREATE INDEX runs_by_repeat ON runs(spec, queue_depth, hosts, status, iops, mb_per_s, average_ms, p99_ms);
  INSERT INTO series VALUES (2, 1700000100000, 60, 'steady rounds', '0.9.0', 'iomark run',
    '{"format":"iomark-results","format_version":1,"series":{"test_type":"NORMAL","description":"steady rounds",'
    || '"start_time":"2023-11-14T23:15:00+01:00","record_results":"ALL","iomark_version":"0.9.0"},"runs":[],'
    || '"failed_runs":[],"outcome":"in_progress"}');
  INSERT INTO runs VALUES (8, 2, 1, 1700000100000, 60, 'completed', '', 'Database', 8, 'db1', 2000.0, 16.0, 3.9,
    20.0, 50.0, 0, NULL, 4.5, '[[10,5]]');
  INSERT INTO run_hosts VALUES (8, 'db1', '', '', '', 0);
  PRAGMA user_version = 2;
)sql";

class Migration : public ::testing::Test {
 protected:
  void SetUp() override {
    path_ = std::filesystem::temp_directory_path() /
            ("iomark-migration-" + std::to_string(::getpid()) + "-" +
             ::testing::UnitTest::GetInstance()->current_test_info()->name() + ".sqlite");
    std::filesystem::remove(path_);
  }
  void TearDown() override {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path_.string() + suffix);
  }

  void write_raw(const std::string& sql) {
    sqlite3* db = nullptr;
    ASSERT_EQ(sqlite3_open(path_.c_str(), &db), SQLITE_OK);
    char* message = nullptr;
    const int code = sqlite3_exec(db, sql.c_str(), nullptr, nullptr, &message);
    const std::string text = message != nullptr ? message : "";
    sqlite3_free(message);
    sqlite3_close(db);
    ASSERT_EQ(code, SQLITE_OK) << text;
  }

  // The file's whole content, to check that an open changed nothing.
  std::string bytes() const {
    std::ifstream in(path_, std::ios::binary);
    return {std::istreambuf_iterator<char>(in), std::istreambuf_iterator<char>()};
  }
  bool has_side_files() const {
    return std::filesystem::exists(path_.string() + "-wal") || std::filesystem::exists(path_.string() + "-journal");
  }

  std::filesystem::path path_;
};

constexpr OpenOptions kReadOnly{.access = Access::read_only, .lock_wait = std::nullopt};
constexpr OpenOptions kWriter{.access = Access::read_write, .lock_wait = std::nullopt};

TEST_F(Migration, Version1GainsPercentilesAndKeepsItsRuns) {
  write_raw(kVersion1Database);
  auto history = History::open(path_.string());
  ASSERT_TRUE(history) << history.error().describe();
  EXPECT_EQ(history->schema_version().value(), kSchemaVersion);
  auto runs = history->list({});
  ASSERT_TRUE(runs) << runs.error().describe();
  ASSERT_EQ(runs->size(), 1U);
  const auto& run = runs->front();
  EXPECT_EQ(run.id, 7);
  EXPECT_EQ(run.spec, "Database");
  EXPECT_EQ(run.queue_depth, 4U);
  EXPECT_DOUBLE_EQ(run.iops.value(), 1234.5);
  EXPECT_FALSE(run.p99_ms);  // the columns the migrations added are empty for old runs
  EXPECT_FALSE(run.average_service_ms);
  EXPECT_FALSE(run.steady_state);
  RunFilter by_host;
  by_host.host = "db1";
  EXPECT_EQ(history->list(by_host)->size(), 1U);
  // The migrated file takes new runs with the new columns.
  auto series = history->begin_series({}, std::nullopt, "iomark run");
  ASSERT_TRUE(series) << series.error().describe();
}

TEST_F(Migration, Version2GainsRateFiguresAndSeriesVerdictsAndKeepsItsRuns) {
  write_raw(kVersion2Database);
  {
    auto history = History::open(path_.string());
    ASSERT_TRUE(history) << history.error().describe();
    EXPECT_EQ(history->schema_version().value(), kSchemaVersion);
    auto runs = history->list({});
    ASSERT_TRUE(runs) << runs.error().describe();
    ASSERT_EQ(runs->size(), 2U);
    const auto& run = runs->front();
    EXPECT_EQ(run.id, 8);
    EXPECT_DOUBLE_EQ(run.iops.value(), 2000.0);
    EXPECT_DOUBLE_EQ(run.p99_ms.value(), 4.5);  // what version 2 had stays
    EXPECT_FALSE(run.average_service_ms);
    EXPECT_FALSE(run.average_issue_lag_ms);
    EXPECT_FALSE(run.steady_state);
    EXPECT_FALSE(run.max_iops);
    auto shown = history->show(8);
    ASSERT_TRUE(shown) << shown.error().describe();
    EXPECT_EQ(shown->series.description, "steady rounds");
    EXPECT_FALSE(shown->steady_state);
    // The migrated series takes a verdict, and its old run is the one marked.
    results::SteadyStateRecord verdict;
    verdict.figure = "iops";
    verdict.window = 2;
    verdict.rounds = {2000.0, 2010.0};
    verdict.steady = true;
    ASSERT_TRUE(history->record_steady_state(2, 1, verdict));
    EXPECT_EQ(history->show(8)->steady_state, verdict);
    EXPECT_EQ(history->show(8)->record.steady_state, (SteadyMark{.round = 2, .steady = true}));
    EXPECT_EQ(history->show(8)->series.description, "steady rounds");
  }
  // Reopening a migrated file migrates nothing and keeps what was written.
  auto again = History::open(path_.string());
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ(again->schema_version().value(), kSchemaVersion);
  EXPECT_TRUE(again->show(8)->steady_state);
  EXPECT_EQ(again->list({})->size(), 2U);
}

TEST_F(Migration, ReaderOfVersion2ReadsWithoutMigrating) {
  write_raw(kVersion2Database);
  const auto before = bytes();
  {
    auto history = History::open(path_.string(), kReadOnly);
    ASSERT_TRUE(history) << history.error().describe();
    EXPECT_EQ(history->schema_version().value(), 2);
    auto runs = history->list({});
    ASSERT_TRUE(runs) << runs.error().describe();
    ASSERT_EQ(runs->size(), 2U);
    EXPECT_DOUBLE_EQ(runs->front().p99_ms.value(), 4.5);
    EXPECT_FALSE(runs->front().average_service_ms);
    EXPECT_FALSE(runs->front().steady_state);
    auto shown = history->show(8);
    ASSERT_TRUE(shown) << shown.error().describe();
    EXPECT_FALSE(shown->max_iops_search);
    EXPECT_TRUE(history->variation_of(runs->front()));
    EXPECT_FALSE(history->record_max_iops_search(2, results::MaxIopsRecord{}));
  }
  EXPECT_EQ(bytes(), before);
  EXPECT_FALSE(has_side_files());
}

TEST_F(Migration, EmptyFileIsCreatedAtTheCurrentVersion) {
  auto history = History::open(path_.string());
  ASSERT_TRUE(history);
  EXPECT_EQ(history->schema_version().value(), kSchemaVersion);
  // Opening again migrates nothing and keeps the version.
  auto again = History::open(path_.string());
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ(again->schema_version().value(), kSchemaVersion);
}

TEST_F(Migration, OpenersRacingOnANewFileMigrateItOnce) {
  // A recording run and a `history list` may open a new file at the same moment.
  for (int round = 0; round < 20; ++round) {
    std::filesystem::remove(path_);
    std::vector<std::optional<Error>> errors(4);
    std::vector<std::thread> openers;
    for (auto& error : errors) {
      openers.emplace_back([this, &error] {
        auto history = History::open(path_.string());
        if (!history) error = history.error();
      });
    }
    for (auto& opener : openers) opener.join();
    for (const auto& error : errors) ASSERT_FALSE(error) << "round " << round << ": " << error->describe();
  }
}

TEST_F(Migration, NewerDatabaseIsRefused) {
  write_raw(std::string(kVersion1Database) + "PRAGMA user_version = " + std::to_string(kSchemaVersion + 1) + ";");
  const auto before = bytes();
  for (const auto access : {Access::read_write, Access::read_only}) {
    auto history = History::open(path_.string(), {.access = access, .lock_wait = std::nullopt});
    ASSERT_FALSE(history);
    EXPECT_EQ(history.error().code(), ErrorCode::unsupported);
    EXPECT_NE(history.error().message().find("schema version"), std::string::npos);
    EXPECT_EQ(bytes(), before);
  }
}

TEST_F(Migration, FileThatIsNotADatabaseIsAnError) {
  write_raw("");  // creates the file
  std::filesystem::resize_file(path_, 0);
  {
    std::FILE* file = std::fopen(path_.c_str(), "w");
    ASSERT_NE(file, nullptr);
    std::fputs("this is a results.csv, not a database\n", file);
    std::fclose(file);
  }
  auto history = History::open(path_.string());
  ASSERT_FALSE(history);
  EXPECT_EQ(history.error().code(), ErrorCode::io_error);
}

// Another program's SQLite file named by mistake: neither a reader nor a writer touches it.
TEST_F(Migration, ForeignDatabaseIsRefusedAndLeftByteIdentical) {
  write_raw("CREATE TABLE customers (name TEXT); INSERT INTO customers VALUES ('ada');");
  const auto before = bytes();
  for (const auto& options : {kReadOnly, kWriter}) {
    auto history = History::open(path_.string(), options);
    ASSERT_FALSE(history);
    EXPECT_EQ(history.error().code(), ErrorCode::validation_error);
    EXPECT_NE(history.error().message().find(path_.string()), std::string::npos) << history.error().message();
    EXPECT_NE(history.error().message().find("not an iomark history"), std::string::npos) << history.error().message();
    EXPECT_EQ(bytes(), before);
    EXPECT_FALSE(has_side_files());
  }
}

// A foreign file that happens to use user_version 1 is still not a history: it lacks the tables.
TEST_F(Migration, ForeignDatabaseWithAKnownVersionIsRefused) {
  write_raw("CREATE TABLE runs (x); PRAGMA user_version = 1;");
  const auto before = bytes();
  for (const auto& options : {kReadOnly, kWriter}) {
    auto history = History::open(path_.string(), options);
    ASSERT_FALSE(history);
    EXPECT_EQ(history.error().code(), ErrorCode::validation_error);
    EXPECT_EQ(bytes(), before);
  }
}

TEST_F(Migration, ZeroByteFileIsRefusedByReadersAndCreatedByWriters) {
  { std::ofstream create(path_); }
  auto read = History::open(path_.string(), kReadOnly);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code(), ErrorCode::validation_error);
  EXPECT_NE(read.error().message().find("0 bytes"), std::string::npos) << read.error().message();
  EXPECT_EQ(std::filesystem::file_size(path_), 0U);
  EXPECT_FALSE(has_side_files());
  auto written = History::open(path_.string(), kWriter);
  ASSERT_TRUE(written) << written.error().describe();
  EXPECT_EQ(written->schema_version().value(), kSchemaVersion);
}

TEST_F(Migration, MissingFileIsNotCreatedByAReader) {
  auto read = History::open(path_.string(), kReadOnly);
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().code(), ErrorCode::not_found);
  EXPECT_FALSE(std::filesystem::exists(path_));
}

// A version below 1 once indexed the migration table below zero and ran whatever bytes lay
// there as SQL. Now the version is checked before anything is read from the table.
TEST_F(Migration, NegativeAndZeroVersionsOfAHistoryAreRefused) {
  for (const int version : {0, -1, -2, -37, -400, INT_MIN}) {
    std::filesystem::remove(path_);
    write_raw(std::string(kVersion1Database) + "PRAGMA user_version = " + std::to_string(version) + ";");
    const auto before = bytes();
    for (const auto& options : {kReadOnly, kWriter}) {
      auto history = History::open(path_.string(), options);
      ASSERT_FALSE(history) << "version " << version;
      EXPECT_EQ(history.error().code(), ErrorCode::validation_error) << "version " << version;
      EXPECT_NE(history.error().message().find("user_version " + std::to_string(version)), std::string::npos)
          << history.error().message();
      EXPECT_EQ(bytes(), before) << "version " << version;
      EXPECT_FALSE(has_side_files());
    }
  }
}

TEST_F(Migration, ReaderOfAnOlderVersionReadsWithoutMigrating) {
  write_raw(kVersion1Database);
  const auto before = bytes();
  {
    auto history = History::open(path_.string(), kReadOnly);
    ASSERT_TRUE(history) << history.error().describe();
    EXPECT_EQ(history->schema_version().value(), 1);
    auto runs = history->list({});
    ASSERT_TRUE(runs) << runs.error().describe();
    ASSERT_EQ(runs->size(), 1U);
    EXPECT_FALSE(runs->front().p99_ms);
    EXPECT_FALSE(runs->front().average_service_ms);
    EXPECT_FALSE(runs->front().max_iops);
    EXPECT_TRUE(history->variation_of(runs->front()));
    // Writing through a read-only history fails and changes nothing.
    EXPECT_FALSE(history->begin_series({}, std::nullopt, "iomark run"));
  }
  EXPECT_EQ(bytes(), before);
}

TEST_F(Migration, ReaderOfTheCurrentVersionChangesNothing) {
  {
    auto written = History::open(path_.string(), kWriter);
    ASSERT_TRUE(written);
    ASSERT_TRUE(written->begin_series({}, std::nullopt, "iomark run"));
  }
  const auto before = bytes();
  auto history = History::open(path_.string(), kReadOnly);
  ASSERT_TRUE(history) << history.error().describe();
  EXPECT_TRUE(history->list({}));
  EXPECT_EQ(bytes(), before);
}

// A holder of an exclusive lock (another program, a `sqlite3` shell in a transaction): readers
// and writers give up after their lock wait with timed_out, and the file is unchanged.
TEST_F(Migration, LockedDatabaseTimesOutForReadersAndWriters) {
  write_raw(kVersion1Database);
  const auto before = bytes();
  sqlite3* holder = nullptr;
  ASSERT_EQ(sqlite3_open(path_.c_str(), &holder), SQLITE_OK);
  ASSERT_EQ(sqlite3_exec(holder, "BEGIN EXCLUSIVE", nullptr, nullptr, nullptr), SQLITE_OK);
  for (const auto access : {Access::read_only, Access::read_write}) {
    auto history = History::open(path_.string(), {.access = access, .lock_wait = std::chrono::milliseconds(50)});
    ASSERT_FALSE(history);
    EXPECT_EQ(history.error().code(), ErrorCode::timed_out) << history.error().describe();
    EXPECT_NE(history.error().message().find(path_.string()), std::string::npos) << history.error().message();
  }
  ASSERT_EQ(sqlite3_exec(holder, "ROLLBACK", nullptr, nullptr, nullptr), SQLITE_OK);
  sqlite3_close(holder);
  EXPECT_EQ(bytes(), before);
}

// All migration steps commit together: a step that fails leaves the file at its old version.
TEST_F(Migration, FailedLaterStepLeavesVersion1Unmigrated) {
  // Step 2 applies, then step 3's ALTER of series fails: step 2 is rolled back with it.
  write_raw(std::string(kVersion1Database) + "ALTER TABLE series ADD COLUMN steady INTEGER;");
  auto history = History::open(path_.string(), kWriter);
  ASSERT_FALSE(history);
  EXPECT_EQ(history.error().code(), ErrorCode::io_error);
  EXPECT_NE(history.error().message().find("from version 2"), std::string::npos) << history.error().message();
  auto read = History::open(path_.string(), kReadOnly);
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read->schema_version().value(), 1);
}

TEST_F(Migration, FailedStepLeavesTheOldVersion) {
  // A version-1 file that already has a column step 2 adds: the ALTER fails.
  write_raw(std::string(kVersion1Database) + "ALTER TABLE runs ADD COLUMN p99_ms REAL;");
  auto history = History::open(path_.string(), kWriter);
  ASSERT_FALSE(history);
  EXPECT_EQ(history.error().code(), ErrorCode::io_error);
  auto read = History::open(path_.string(), kReadOnly);
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read->schema_version().value(), 1);
}

}  // namespace
}  // namespace iomark::history
