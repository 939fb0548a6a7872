// The project's own results files in tests/data/results, one per dialect the reader accepts
// (so the readers are tested without the corpus beside the checkout):
//   iomark_110_results.csv    iomark's results.csv (IOmeter 1.1.0, 80 columns, LF), two runs
//   iomark_110_inst.csv       iomark's instantaneous side file of the same series
//   iometer_2008_results.csv  the same series in the 2004-2008 layout: 56 columns, binary
//                             `MBps`, no decimal or bin columns, CRLF, no `'End Test`
//   two-managers.json         one series of a controller with two agents (an older layout)
//   two-managers.rewritten.json / .csv  that series as the writers gave it before the results
//                             model held compact histograms (b373a9f), for the test below
// Expected values were read off the files.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

#include "iomark/results/csv_reader.hpp"
#include "iomark/results/results_csv.hpp"
#include "iomark/results/results_json.hpp"
#include "test_paths.hpp"
#include "iomark/results/run_points.hpp"

namespace iomark::results {
namespace {

namespace fs = std::filesystem;

const fs::path kData = ::iomark::test_support::test_data_dir() / "results";
constexpr std::string_view kDescription = "tests/data fixture: 4K random read at QD 1 and 4";

std::string slurp(std::string_view name) {
  const fs::path path = kData / std::string(name);
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << path << " is missing";
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

CsvSeries read_one_series(std::string_view name) {
  auto series = read_results_csv(slurp(name), name);
  EXPECT_TRUE(series) << series.error().describe();
  if (!series || series->size() != 1) {
    ADD_FAILURE() << name << ": expected one series";
    return {};
  }
  return std::move(series->front());
}

std::size_t count_rows(const CsvRun& run, std::string_view type) {
  std::size_t count = 0;
  for (const CsvRow& row : run.rows) count += row.type == type ? 1 : 0;
  return count;
}

TEST(ResultsData, Iomark110ResultsCsv) {
  const CsvSeries series = read_one_series("iomark_110_results.csv");
  EXPECT_EQ(series.test_type, access_specs::TestType::cycle_outstanding_ios);
  EXPECT_EQ(series.description, kDescription);
  EXPECT_EQ(series.version, "1.1.0");
  EXPECT_EQ(series.end, CsvSeriesEnd::end_test);
  ASSERT_EQ(series.spec_blocks.size(), 1U);
  ASSERT_EQ(series.spec_blocks[0].specs.size(), 1U);
  EXPECT_EQ(series.spec_blocks[0].specs[0].name, "4K random read");
  EXPECT_EQ(series.spec_blocks[0].specs[0].lines.at(0),
            (access_specs::AccessSpecLine{4096, 100, 100, 100, 0, 1, 4096, 0}));
  ASSERT_EQ(series.runs.size(), 2U);
  const CsvRun& first = series.runs[0];
  EXPECT_EQ(first.layout, CsvLayout::iometer_1_1_0);
  EXPECT_EQ(first.columns.size(), 80U);
  EXPECT_EQ(first.time_stamp, "2026-11-25 13:09:54:439");
  EXPECT_EQ(count_rows(first, "PROCESSOR"), 2U);
  const CsvRow* all = first.find_row("ALL");
  ASSERT_NE(all, nullptr);
  EXPECT_DOUBLE_EQ(*all->stats.iops, 10874.766519);
  EXPECT_DOUBLE_EQ(*all->stats.mib_per_s, 42.479557);
  EXPECT_DOUBLE_EQ(*all->stats.mb_per_s, 44.543044);
  EXPECT_DOUBLE_EQ(*all->stats.queue_depth, 1.0);
  ASSERT_NE(first.find_row("DISK"), nullptr);
  EXPECT_EQ(first.find_row("DISK")->name, "/srv/bench");
  EXPECT_DOUBLE_EQ(*series.runs[1].find_row("ALL")->stats.queue_depth, 4.0);
  EXPECT_DOUBLE_EQ(*series.runs[1].find_row("ALL")->stats.iops, 27583.048032);
}

TEST(ResultsData, Iomark110InstantaneousSideFile) {
  const CsvSeries series = read_one_series("iomark_110_inst.csv");
  EXPECT_EQ(series.description, kDescription);
  EXPECT_EQ(series.end, CsvSeriesEnd::end_test);
  ASSERT_EQ(series.runs.size(), 2U);
  const CsvRun& first = series.runs[0];
  EXPECT_EQ(first.layout, CsvLayout::instantaneous);
  EXPECT_EQ(first.columns.front(), "TimeStamp");
  const CsvRow* all = first.find_row("ALL");
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->time_stamp, "2026-11-25 13:09:54:439");
  EXPECT_DOUBLE_EQ(*all->stats.iops, 10874.766519);  // the whole-run row matches results.csv
  EXPECT_GE(count_rows(first, "WORKER"), 1U);
}

TEST(ResultsData, Iometer2008LegacyLayout) {
  const CsvSeries series = read_one_series("iometer_2008_results.csv");
  EXPECT_EQ(series.version, "2008.06.18");
  EXPECT_EQ(series.end, CsvSeriesEnd::none);  // 'End Test came with 1.1.0
  ASSERT_EQ(series.runs.size(), 2U);
  const CsvRun& first = series.runs[0];
  EXPECT_EQ(first.layout, CsvLayout::legacy);
  EXPECT_EQ(first.columns.size(), 56U);
  EXPECT_EQ(count_rows(first, "PROCESSOR"), 2U);
  const CsvRow* all = first.find_row("ALL");
  ASSERT_NE(all, nullptr);
  EXPECT_DOUBLE_EQ(*all->stats.iops, 10874.766519);
  EXPECT_DOUBLE_EQ(*all->stats.mib_per_s, 42.479557);  // `MBps` is binary before 1.1.0
  EXPECT_FALSE(all->stats.mb_per_s.has_value());
  EXPECT_FALSE(all->value("0 to 50 uS").has_value());
  EXPECT_EQ(first.time_stamp, "2026-11-25 13:09:54:439");  // CRLF stripped
}

TEST(ResultsData, RunPointsAgreeAcrossDialects) {
  for (const std::string_view name : {"iomark_110_results.csv", "iometer_2008_results.csv", "iomark_110_inst.csv"}) {
    SCOPED_TRACE(name);
    const auto points = read_run_points(slurp(name), name);
    ASSERT_TRUE(points) << points.error().describe();
    std::vector<RunPoint> all;
    for (const RunPoint& point : *points) {
      if (point.manager.empty()) all.push_back(point);
    }
    ASSERT_EQ(all.size(), 2U);
    EXPECT_EQ(all[0].queue_depth, std::optional<std::uint32_t>(1));
    EXPECT_EQ(all[1].queue_depth, std::optional<std::uint32_t>(4));
    EXPECT_DOUBLE_EQ(all[0].iops, 10874.766519);
    EXPECT_EQ(all[0].spec, "4K random read");
    // MB/s is decimal: 1.1.0 has the column, the 2008 layout's binary MBps is converted.
    EXPECT_NEAR(all[0].mb_per_s, 44.543044, 1e-5);
  }
}

// The writers give, byte for byte, what they gave for this series before the results model
// held compact histograms: its JSON (every target's buckets and legacy bins, every level's
// percentiles) and its results.csv (the 21 legacy bins of every row).
TEST(ResultsData, TwoManagersSeriesIsWrittenAsBeforeByteForByte) {
  const auto series = read_results_json(slurp("two-managers.json"), "two-managers.json");
  ASSERT_TRUE(series) << series.error().describe();
  EXPECT_EQ(write_results_json(*series), slurp("two-managers.rewritten.json"));

  ResultsCsvAppender appender;
  std::string csv = appender.begin_series(series->info);
  for (const RunResults& run : series->runs) csv += appender.append_run(run);
  csv += appender.end_series(series->outcome);
  EXPECT_EQ(csv, slurp("two-managers.rewritten.csv"));
}

}  // namespace
}  // namespace iomark::results
