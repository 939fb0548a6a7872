#include "iomark/report/report_source.hpp"

#include <gtest/gtest.h>

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
