// The instantaneous side file of docs/iometer-reference.md#results-instantaneous.
#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>

#include "fixtures.hpp"
#include "icf_corpus.hpp"
#include "iomark/results/csv_reader.hpp"
#include "iomark/results/results_csv.hpp"
#include "iomark/results/timeseries_csv.hpp"

namespace iomark::results {
namespace {

using test_support::corpus_file;
using namespace std::chrono_literals;
using test_support::mixed_run;
using test_support::split_csv;
using test_support::split_lines;

TEST(TimeSeriesCsv, HeaderMatchesIometer110) {
  IOMARK_SKIP_WITHOUT_ICF_CORPUS();
  const std::string corpus =
      corpus_file("QuarchTechnologyLtd__AN-016-QPS-performance-test-with-Iometer__insttestfile.csv");
  std::string iometer_header;
  for (const std::string& line : split_lines(corpus)) {
    if (line.starts_with("TimeStamp,")) iometer_header = line;
  }
  // IOmeter's columns as IOmeter writes them, then iomark's (docs/results-format.md).
  EXPECT_EQ(timeseries_csv_header(), iometer_header + ",iomark Data Pattern");
  const std::vector<std::string> captions = split_csv(timeseries_csv_header());
  ASSERT_EQ(captions.size(), kResultsCsvColumnCount + 1);
  EXPECT_EQ(captions[10], "MBps (Binary)");
  EXPECT_EQ(captions[13], "MBps (Decimal)");
}

RunResults interval_of(const RunResults& run, std::uint64_t divisor) {
  RunResults interval = run;
  for (ManagerResult& manager : interval.managers) {
    for (WorkerResult& worker : manager.workers) {
      worker.recording_window = 1s;
      for (TargetResult& target : worker.targets) {
        target.counters = test_support::uniform_target(target.name, target.counters.reads.count / divisor,
                                                       target.counters.writes.count / divisor, 4096, 1000)
                              .counters;
      }
    }
  }
  return interval;
}

TEST(TimeSeriesCsv, OneSeriesWithSamplesAndTheWholeRun) {
  const RunResults run = mixed_run(0, 0);
  SeriesInfo series;
  series.description = "time series";
  series.start_time = run.info.start_time;
  TimeSeriesCsvAppender appender;
  std::string text = appender.begin_series(series);
  text += appender.begin_run(run.info);
  const WallClockTime first{run.info.start_time.unix_ms + 1000, run.info.start_time.utc_offset_minutes};
  const WallClockTime second{run.info.start_time.unix_ms + 2000, run.info.start_time.utc_offset_minutes};
  text += appender.append_sample(interval_of(run, 10), first);
  text += appender.append_sample(interval_of(run, 5), second);
  text += appender.end_run(run);
  text += appender.end_series(SeriesOutcome::completed);

  for (const std::string& line : split_lines(text)) {
    if (line.starts_with("20")) {
      const std::size_t fields = split_csv(line).size();
      EXPECT_TRUE(fields == 1 || fields == kResultsCsvColumnCount + 1) << line;
    }
  }

  const auto parsed = read_results_csv(text, "inst.csv");
  ASSERT_TRUE(parsed) << parsed.error().describe();
  ASSERT_EQ(parsed->size(), 1u);
  const CsvSeries& read = parsed->front();
  EXPECT_EQ(read.description, "time series");
  EXPECT_EQ(read.end, CsvSeriesEnd::end_test);
  ASSERT_EQ(read.spec_blocks.size(), 1u);
  EXPECT_EQ(read.spec_blocks[0].specs, run.info.specs);
  ASSERT_EQ(read.runs.size(), 1u);
  const CsvRun& block = read.runs.front();
  EXPECT_EQ(block.layout, CsvLayout::instantaneous);
  ASSERT_EQ(block.rows.size(), 3u * 3u + 1u);  // 3 workers x (2 samples + whole run) + ALL
  EXPECT_EQ(block.rows[0].time_stamp, format_iometer_time(first));
  EXPECT_EQ(block.rows[3].time_stamp, format_iometer_time(second));
  EXPECT_EQ(block.rows[6].time_stamp, format_iometer_time(run.info.end_time));
  EXPECT_EQ(block.time_stamp, format_iometer_time(run.info.end_time));
  // Worker 1 of hostA did 900 + 50 reads and 100 writes; a tenth of them in one second.
  EXPECT_EQ(block.rows[0].type, "WORKER");
  EXPECT_EQ(block.rows[0].name, "Worker 1");
  EXPECT_DOUBLE_EQ(*block.rows[0].stats.iops, 90.0 + 5.0 + 10.0);
  EXPECT_DOUBLE_EQ(*block.rows[3].stats.iops, 180.0 + 10.0 + 20.0);
  const CsvRow* all = block.find_row("ALL");
  ASSERT_NE(all, nullptr);
  EXPECT_EQ(all->line, block.rows.back().line);
  EXPECT_NEAR(*all->stats.iops, summarize_run(run).all.rates.iops, 1e-6);
  EXPECT_DOUBLE_EQ(*all->stats.managers, 2.0);
}

TEST(TimeSeriesCsv, SpecBlockOncePerAccessIndex) {
  TimeSeriesCsvAppender appender;
  (void)appender.begin_series(SeriesInfo{});
  EXPECT_TRUE(appender.begin_run(mixed_run(0, 0).info).starts_with("'Access specifications\n"));
  EXPECT_EQ(appender.begin_run(mixed_run(0, 1).info), "'Results\n" + std::string(timeseries_csv_header()) + "\n");
  EXPECT_TRUE(appender.begin_run(mixed_run(1, 0).info).starts_with("'Access specifications\n"));
  EXPECT_EQ(appender.end_series(SeriesOutcome::aborted), "Aborted test\n");
}

}  // namespace
}  // namespace iomark::results
