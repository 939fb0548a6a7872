#include "iomark/report/report_source.hpp"

#include <gtest/gtest.h>

#include <chrono>

#include "iomark/results/results_csv.hpp"
#include "iomark/results/results_json.hpp"
#include "results/fixtures.hpp"

namespace iomark::report {
namespace {

using results::test_support::example_run;

// The example run at QD 1, 2 and 4, and one failed run.
results::SeriesResults example_series() {
  results::SeriesResults series;
  series.info.description = "example series";
  series.info.iomark_version = "0.1.0";
  series.info.start_time = results::WallClockTime{1714997007512, 120};
  for (const std::uint32_t depth : {1U, 2U, 4U}) {
    auto run = example_run();
    run.managers[0].workers[0].queue_depth = depth;
    series.runs.push_back(run);
  }
  results::FailedRun failed;
  failed.position = 4;
  failed.error = "agent 'hostB' lost";
  series.failed_runs.push_back(failed);
  series.outcome = results::SeriesOutcome::aborted;
  return series;
}

TEST(ReadReportSource, IomarkJson) {
  const auto source = read_report_source(results::write_results_json(example_series()), "run.json");
  ASSERT_TRUE(source) << source.error().describe();
  EXPECT_EQ(source->name, "run.json");
  EXPECT_EQ(source->format, "iomark JSON");
  ASSERT_EQ(source->series.size(), 1U);
  EXPECT_EQ(source->series[0].description, "example series");
  EXPECT_EQ(source->series[0].tool, "iomark 0.1.0");
  EXPECT_EQ(source->series[0].start_time, "2024-05-06T14:03:27.512+02:00");
  EXPECT_EQ(source->series[0].outcome, "aborted");
  ASSERT_EQ(source->hosts.size(), 1U);
  EXPECT_EQ(source->hosts[0].name, "hostA");
  EXPECT_EQ(source->hosts[0].facts, "2 CPUs, Linux 6.1.0-18-amd64, iomark 0.1.0");
  ASSERT_EQ(source->failures.size(), 1U);
  EXPECT_EQ(source->failures[0].run, "run 4");
  EXPECT_EQ(source->failures[0].error, "agent 'hostB' lost");
  // ALL and hostA per run.
  ASSERT_EQ(source->points.size(), 6U);
  EXPECT_EQ(source->points[4].queue_depth, 4U);
  EXPECT_TRUE(source->points[0].p99_response_ms.has_value());
}

TEST(ReadReportSource, IomarkJsonKeepsItsMaxIopsSearch) {
  auto series = example_series();
  EXPECT_FALSE(read_report_source(results::write_results_json(series), "run.json")->max_iops_search);
  series.max_iops_search = results::MaxIopsRecord{
      .figure = "avg",
      .limit_ms = 0.5,
      .steps = {{.run = 1, .outstanding_ios = 1, .iops = 800, .latency_ms = 0.3, .within = true}},
      .chosen = 0,
      .finished = true,
      .conclusion = "800 IOPS at QD 1 (avg 0.30 ms <= 0.5 ms)"};
  const auto source = read_report_source(results::write_results_json(series), "search.json");
  ASSERT_TRUE(source) << source.error().describe();
  EXPECT_EQ(source->max_iops_search, series.max_iops_search);
}

// `iomark pts iops` of 100/0 and 0/100 by 64 KiB and 4 KiB over 3 rounds: the run at
// position p is round (p - 1) / 4 + 1, cell (p - 1) % 4 (mix cell / 2, block cell % 2), and
// does 1000 x p IOPS. Both 100/0 4 KiB runs of the steady-state window (6 and 10) failed.
TEST(ReportSource, APtsIopsSeriesGetsItsTableOverTheSteadyStateWindow) {
  results::SeriesResults series;
  series.pts_iops = results::PtsIopsRecord{.read_percents = {100, 0}, .block_bytes = {65536, 4096}};
  series.steady_state = results::SteadyStateRecord{.figure = "iops", .max_rounds = 25, .window = 2,
                                                   .rounds = {1000, 1100, 1050}, .steady = true, .window_first = 1};
  const auto example = example_run();  // 600000 I/Os
  for (std::uint32_t position = 1; position <= 12; ++position) {
    if (position == 6 || position == 10) {
      results::FailedRun failed;
      failed.position = position;
      failed.error = "target lost";
      series.failed_runs.push_back(failed);
      continue;
    }
    auto run = example;
    run.managers[0].workers[0].recording_window = std::chrono::nanoseconds(600'000'000'000 / position);
    series.runs.push_back(run);
  }
  const auto source = report_source(series, "pts.json");
  ASSERT_TRUE(source.pts_iops);
  const auto& table = *source.pts_iops;
  EXPECT_EQ(table.read_percents, (std::vector<std::uint32_t>{100, 0}));
  EXPECT_EQ(table.block_bytes, (std::vector<std::uint64_t>{65536, 4096}));
  EXPECT_EQ(table.first_round, 2U);
  EXPECT_EQ(table.last_round, 3U);
  EXPECT_TRUE(table.steady);
  ASSERT_EQ(table.iops.size(), 2U);
  ASSERT_EQ(table.iops[0].size(), 2U);
  ASSERT_EQ(table.iops[1].size(), 2U);
  EXPECT_NEAR(table.iops[0][0].value_or(0), 7000, 0.01) << "runs 5 and 9; round 1 is before the window";
  EXPECT_FALSE(table.iops[0][1]) << "runs 6 and 10 failed";
  EXPECT_NEAR(table.iops[1][0].value_or(0), 9000, 0.01) << "runs 7 and 11";
  EXPECT_NEAR(table.iops[1][1].value_or(0), 10000, 0.01) << "runs 8 and 12";
  EXPECT_FALSE(source.precondition);

  series.precondition = results::PreconditionRecord{.passes = 2, .block_bytes = 131072, .targets = {"hostA: /dev/sdb"}};
  EXPECT_EQ(report_source(series, "pts.json").precondition, series.precondition);
  EXPECT_FALSE(report_source(example_series(), "run.json").pts_iops);
}

TEST(ReadReportSource, IometerResultsCsv) {
  const auto series = example_series();
  results::ResultsCsvAppender appender;
  std::string text = appender.begin_series(series.info);
  for (const auto& run : series.runs) text += appender.append_run(run);
  text += appender.append_error("agent 'hostB' lost");
  text += appender.end_series(results::SeriesOutcome::aborted);
  const auto source = read_report_source(text, "results.csv");
  ASSERT_TRUE(source) << source.error().describe();
  EXPECT_EQ(source->format, "IOmeter results.csv");
  ASSERT_EQ(source->series.size(), 1U);
  EXPECT_EQ(source->series[0].tool, "IOmeter 1.1.0");
  EXPECT_EQ(source->series[0].outcome, "aborted");
  ASSERT_EQ(source->hosts.size(), 1U);
  EXPECT_EQ(source->hosts[0].name, "hostA");
  ASSERT_EQ(source->failures.size(), 1U);
  EXPECT_EQ(source->failures[0].error, "agent 'hostB' lost");
  ASSERT_EQ(source->points.size(), 6U);
  EXPECT_EQ(source->points[2].queue_depth, 2U);
  // results.csv keeps the 21 bins but no histogram.
  ASSERT_TRUE(source->points[0].latency.has_value());
  EXPECT_TRUE(source->points[0].latency->percentiles.empty());
}

TEST(ReadReportSource, NeitherFormatIsAnErrorNamingTheFile) {
  const auto source = read_report_source("just some text\n", "notes.txt");
  ASSERT_FALSE(source);
  EXPECT_EQ(source.error().code(), ErrorCode::parse_error);
  EXPECT_EQ(source.error().location().file, "notes.txt");
}

TEST(ReadReportSource, BrokenJsonIsTheReadersError) {
  const auto source = read_report_source("{\"format\": \"something else\"}", "x.json");
  ASSERT_FALSE(source);
}

}  // namespace
}  // namespace iomark::report
