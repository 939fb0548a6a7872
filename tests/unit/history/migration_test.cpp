// Databases written by older iomark builds: opened, migrated in order, nothing lost.
#include <sqlite3.h>

#include <gtest/gtest.h>

#include <filesystem>
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

  std::filesystem::path path_;
};

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
  EXPECT_FALSE(run.p99_ms);  // the column the migration added is empty for old runs
  RunFilter by_host;
  by_host.host = "db1";
  EXPECT_EQ(history->list(by_host)->size(), 1U);
  // The migrated file takes new runs with the new columns.
  auto series = history->begin_series({}, std::nullopt, "iomark run");
  ASSERT_TRUE(series) << series.error().describe();
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
  write_raw("CREATE TABLE future (x); PRAGMA user_version = " + std::to_string(kSchemaVersion + 1) + ";");
  auto history = History::open(path_.string());
  ASSERT_FALSE(history);
  EXPECT_EQ(history.error().code(), ErrorCode::unsupported);
  EXPECT_NE(history.error().message().find("schema version"), std::string::npos);
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

}  // namespace
}  // namespace iomark::history
