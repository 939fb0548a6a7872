// Run points and QD curves from our model, our JSON and the corpus's results.csv files.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>

#include "fixtures.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/results/run_points.hpp"

namespace iomark::results {
namespace {

using test_support::example_run;
using test_support::mixed_run;

std::string corpus_file(std::string_view name) {
  const std::string path = std::string(IOMARK_ICF_CORPUS_DIR) + "/" + std::string(name);
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "corpus file missing: " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

std::vector<RunPoint> read_corpus(std::string_view name) {
  auto points = read_run_points(corpus_file(name), name);
  EXPECT_TRUE(points) << points.error().describe();
  return points ? std::move(*points) : std::vector<RunPoint>{};
}

SeriesResults series_of(std::vector<RunResults> runs) {
  SeriesResults series;
  series.info.description = "bench";
  series.runs = std::move(runs);
  series.outcome = SeriesOutcome::completed;
  return series;
}

TEST(RunPoints, AllThenManagersFromTheSummary) {
  const RunResults run = example_run();
  const RunSummary summary = summarize_run(run);
  const auto points = run_points(run, summary, 3, "desc", 2);
  ASSERT_EQ(points.size(), 2u);
  const RunPoint& all = points[0];
  EXPECT_EQ(all.manager, "");
  EXPECT_EQ(all.series, 2u);
  EXPECT_EQ(all.run, 3u);
  EXPECT_EQ(all.description, "desc");
  EXPECT_EQ(all.spec, test_support::kExampleSpecName);
  EXPECT_EQ(all.queue_depth, 16u);
  EXPECT_DOUBLE_EQ(all.iops, summary.all.rates.iops);
  EXPECT_DOUBLE_EQ(all.mb_per_s, summary.all.rates.mb_per_s);
  EXPECT_DOUBLE_EQ(all.average_response_ms, summary.all.average_response_ms());
  EXPECT_DOUBLE_EQ(all.maximum_response_ms, summary.all.maximum_response_ms());
  ASSERT_TRUE(all.p99_response_ms);
  EXPECT_NEAR(*all.p99_response_ms, 17.0, 0.17);  // 591,000 of 600,000 I/Os take <= 12 ms, 597,000 <= 17 ms
  ASSERT_TRUE(all.cpu_percent);
  EXPECT_DOUBLE_EQ(*all.cpu_percent, summary.all.cpu->total_percent);
  ASSERT_TRUE(all.latency);
  EXPECT_EQ(all.latency->bins, summary.all.counters.latency.legacy_bins());
  ASSERT_EQ(all.latency->percentiles.size(), kProfilePercentiles.size());
  EXPECT_EQ(all.latency->percentiles.back().percentile, 99.99);
  EXPECT_EQ(points[1].manager, "hostA");
}

TEST(RunPoints, MixedQueueDepthsHaveNone) {
  const RunResults run = mixed_run(0, 0);
  const auto points = run_points(run, summarize_run(run), 0, "");
  ASSERT_EQ(points.size(), 3u);  // ALL, hostA, hostB
  EXPECT_FALSE(points[0].queue_depth);
  EXPECT_EQ(points[0].spec, "");
  EXPECT_EQ(points[2].manager, "hostB");
  EXPECT_EQ(points[2].queue_depth, 1u);
}

TEST(RunPoints, JsonTextGivesTheModelsPoints) {
  const SeriesResults series = series_of({example_run(), mixed_run(1, 0)});
  const auto points = read_run_points("\n  " + write_results_json(series), "r.json");
  ASSERT_TRUE(points) << points.error().describe();
  EXPECT_EQ(*points, run_points(series));
  EXPECT_EQ(points->size(), 5u);
  EXPECT_EQ(points->at(2).run, 1u);
}

TEST(RunPoints, SqlServerIoLegacyCsvCurves) {
  const auto points = read_corpus("SQLServerIO__IometerParser__iometeroutput.csv");
  ASSERT_EQ(points.size(), 128u);  // 64 runs: ALL and one MANAGER each
  const RunPoint& first = points[0];
  EXPECT_EQ(first.line, 15u);
  EXPECT_EQ(first.spec, "8k 0% Read; 100% Random 8k");
  EXPECT_EQ(first.queue_depth, 1u);
  EXPECT_DOUBLE_EQ(first.iops, 1196.489673);
  EXPECT_NEAR(first.mb_per_s, 9.347576 * 1.048576, 1e-9);  // pre-1.1.0 `MBps` is binary
  EXPECT_DOUBLE_EQ(first.average_response_ms, 0.835007);
  EXPECT_FALSE(first.p99_response_ms);
  EXPECT_FALSE(first.latency);  // 56 columns: no latency bins
  EXPECT_EQ(points[1].manager, "JUDE1OLD");

  const auto curves = qd_curves(points);
  ASSERT_EQ(curves.size(), 16u);  // 8 specs, ALL and the manager
  EXPECT_EQ(curves[0].label, "8k 0% Read; 100% Random 8k");
  EXPECT_EQ(curves[1].label, "8k 0% Read; 100% Random 8k @ JUDE1OLD");
  for (const QdCurve& curve : curves) {
    ASSERT_EQ(curve.points.size(), 8u) << curve.label;
    EXPECT_EQ(curve.points.front().queue_depth, 1u);
    EXPECT_EQ(curve.points.back().queue_depth, 128u);
  }
  EXPECT_DOUBLE_EQ(curves[0].points.back().iops, 19536.587507);
}

TEST(RunPoints, Quarch110CsvHasBinsAndDescriptions) {
  const auto points = read_corpus("QuarchTechnologyLtd__AN-016-QPS-performance-test-with-Iometer__testfile.csv");
  ASSERT_EQ(points.size(), 118u);  // 59 one-run series
  EXPECT_EQ(points.back().series, 58u);
  ASSERT_TRUE(points[0].latency);
  EXPECT_TRUE(points[0].latency->percentiles.empty());
  std::uint64_t binned = 0;
  for (const auto count : points[0].latency->bins) binned += count;
  EXPECT_EQ(binned, 452'611u);  // every read I/O of the run
  const auto curves = qd_curves(points);
  ASSERT_EQ(curves.size(), 16u);  // 8 descriptions, ALL and the manager
  EXPECT_EQ(curves[0].label, "512B Random Read: quarch-autogenerated-spec");
  EXPECT_EQ(curves[0].points.size(), 13u);
}

TEST(RunPoints, InstantaneousSideFileGivesItsWholeRunAllRow) {
  const auto points = read_corpus("QuarchTechnologyLtd__AN-016-QPS-performance-test-with-Iometer__insttestfile.csv");
  ASSERT_EQ(points.size(), 1u);  // the per-second rows are WORKER rows; no MANAGER rows
  EXPECT_EQ(points[0].manager, "");
  EXPECT_DOUBLE_EQ(points[0].iops, 8527.872164);
  EXPECT_EQ(points[0].queue_depth, 1u);
}

TEST(RunPoints, RunsWithoutAnAllRowAreLeftOut) {
  const auto points = read_run_points(
      "'Test Type,Test Description\n0,x\n'Version\n1.1.0\n'Results\n"
      "TimeStamp,'Target Type,Target Name,IOps\n2023-03-27 13:14:32:804,WORKER,Worker 1,5\n",
      "cut.csv");
  ASSERT_TRUE(points) << points.error().describe();
  EXPECT_TRUE(points->empty());
}

TEST(RunPoints, BadFilesNameFileAndLine) {
  const auto broken = read_run_points("'Test Type,Test Description\n0,x\n'Version\n1.1.0\nALL,All,1\n", "bad.csv");
  ASSERT_FALSE(broken);
  EXPECT_EQ(broken.error().location(), (SourceLocation{"bad.csv", 5}));
  const auto not_results = read_run_points("", "empty.csv");
  ASSERT_FALSE(not_results);
  EXPECT_EQ(not_results.error().location(), (SourceLocation{"empty.csv", 1}));
  const auto bad_json = read_run_points("{\n\"format\": 1,\n", "bad.json");
  ASSERT_FALSE(bad_json);
  EXPECT_EQ(bad_json.error().location().file, "bad.json");
  EXPECT_GT(bad_json.error().location().line, 0u);
}

RunPoint point(std::string description, std::string spec, std::optional<std::uint32_t> qd, double iops) {
  RunPoint p;
  p.description = std::move(description);
  p.spec = std::move(spec);
  p.queue_depth = qd;
  p.iops = iops;
  return p;
}

TEST(QdCurves, SortsByDepthKeepingRepeatsInOrderAndSkipsMixedDepths) {
  const std::vector<RunPoint> points{point("d", "A", 4, 1), point("d", "B", 1, 2), point("d", "A", 1, 3),
                                     point("d", "A", std::nullopt, 4), point("d", "A", 4, 5), point("d", "", 2, 6)};
  const auto curves = qd_curves(points);
  ASSERT_EQ(curves.size(), 3u);
  EXPECT_EQ(curves[0].label, "A");
  ASSERT_EQ(curves[0].points.size(), 3u);
  EXPECT_EQ(curves[0].points[0].iops, 3);
  EXPECT_EQ(curves[0].points[1].iops, 1);
  EXPECT_EQ(curves[0].points[2].iops, 5);
  EXPECT_EQ(curves[1].label, "B");
  EXPECT_EQ(curves[2].label, "(mixed specs)");
}

}  // namespace
}  // namespace iomark::results
