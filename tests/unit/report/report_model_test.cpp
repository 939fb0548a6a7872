#include "iomark/report/report_model.hpp"

#include <gtest/gtest.h>

#include "pts_table_fixture.hpp"

#include <algorithm>

namespace iomark::report {
namespace {

using results::RunPoint;

RunPoint point(std::size_t run, std::string spec, std::string manager, std::uint32_t depth, double iops) {
  RunPoint p;
  p.run = run;
  p.description = "series";
  p.spec = std::move(spec);
  p.manager = std::move(manager);
  p.queue_depth = depth;
  p.iops = iops;
  p.mb_per_s = iops / 100;
  p.average_response_ms = depth / 10.0;
  return p;
}

// Runs at QD 1, 2, 4 of one spec on two managers: ALL IOPS = base * QD, each manager half.
ReportSource two_manager_source(std::string name, double base, std::string spec = "4K read") {
  ReportSource source;
  source.name = std::move(name);
  std::size_t run = 0;
  for (const std::uint32_t depth : {1U, 2U, 4U}) {
    source.points.push_back(point(run, spec, "", depth, base * depth));
    source.points.push_back(point(run, spec, "hostA", depth, base * depth / 2));
    source.points.push_back(point(run, spec, "hostB", depth, base * depth / 2));
    ++run;
  }
  return source;
}

ReportSource source_of(std::string name, std::vector<RunPoint> points) {
  ReportSource source;
  source.name = std::move(name);
  source.points = std::move(points);
  return source;
}

const Chart* find_chart(const SpecSection& section, std::string_view id) {
  const auto found = std::find_if(section.charts.begin(), section.charts.end(),
                                  [id](const Chart& chart) { return chart.id == id; });
  return found == section.charts.end() ? nullptr : &*found;
}

TEST(BuildReport, OneCurveForAllAndOnePerManagerWithAPointPerRun) {
  const auto model = build_report({two_manager_source("a.csv", 1000)}, "");
  EXPECT_EQ(model.title, "iomark report");
  ASSERT_EQ(model.sections.size(), 1U);
  const SpecSection& section = model.sections.front();
  EXPECT_EQ(section.spec, "4K read");
  const Chart* iops = find_chart(section, "4k-read-iops");
  ASSERT_NE(iops, nullptr);
  EXPECT_EQ(iops->x_scale, XScale::log2);
  ASSERT_EQ(iops->curves.size(), 3U);
  EXPECT_EQ(iops->curves[0].label, "ALL");
  EXPECT_EQ(iops->curves[1].label, "hostA");
  EXPECT_EQ(iops->curves[2].label, "hostB");
  for (const auto& curve : iops->curves) EXPECT_EQ(curve.points.size(), 3U);
  EXPECT_EQ(iops->curves[0].points[2], (ChartPoint{4, 4000}));
  EXPECT_EQ(iops->curves[1].points[0], (ChartPoint{1, 500}));
  EXPECT_NE(find_chart(section, "4k-read-avg-ms"), nullptr);
  EXPECT_NE(find_chart(section, "4k-read-mbps"), nullptr);
  // No histogram, no CPU figures, a single source: those charts are left out.
  EXPECT_EQ(find_chart(section, "4k-read-p99-ms"), nullptr);
  EXPECT_EQ(find_chart(section, "4k-read-cpu"), nullptr);
  EXPECT_EQ(find_chart(section, "4k-read-iops-ratio"), nullptr);
  EXPECT_TRUE(model.comparison.empty());
  EXPECT_EQ(model.chart_count(), 3U);
}

TEST(BuildReport, ASingleManagerAddsNoCurveOfItsOwn) {
  const auto model = build_report({source_of("one", {point(0, "s", "", 1, 10), point(0, "s", "hostA", 1, 10)})}, "t");
  ASSERT_EQ(model.sections.size(), 1U);
  EXPECT_EQ(model.sections[0].charts[0].curves.size(), 1U);
}

TEST(BuildReport, RunsAtOneQueueDepthArePlottedInFileOrder) {
  ReportSource source;
  source.name = "batch.csv";
  std::size_t run = 0;
  for (const char* description : {"512B read", "4K read", "16K read"}) {
    for (const char* manager : {"", "hostA", "hostB"}) {
      source.points.push_back(point(run, "spec", manager, 1, 100.0 * static_cast<double>(run + 1)));
      source.points.back().description = description;
    }
    ++run;
  }
  const auto model = build_report({source}, "");
  const Chart* iops = find_chart(model.sections.front(), "spec-iops");
  ASSERT_NE(iops, nullptr);
  EXPECT_EQ(iops->x_scale, XScale::linear);
  EXPECT_EQ(iops->x_label, "run (in file order)");
  ASSERT_EQ(iops->curves.size(), 3U);
  EXPECT_EQ(iops->curves[0].label, "ALL");
  EXPECT_EQ(iops->curves[0].points, (std::vector<ChartPoint>{{1, 100}, {2, 200}, {3, 300}}));
  EXPECT_EQ(iops->curves[2].label, "hostB");
  EXPECT_EQ(iops->curves[2].points.size(), 3U);
}

TEST(BuildReport, CpuIsDrawnForAllRowsOnly) {
  auto source = two_manager_source("a", 10);
  for (auto& p : source.points) p.cpu_percent = 12.5;
  const auto model = build_report({source}, "");
  const Chart* cpu = find_chart(model.sections[0], "4k-read-cpu");
  ASSERT_NE(cpu, nullptr);
  ASSERT_EQ(cpu->curves.size(), 1U);
  EXPECT_EQ(cpu->curves[0].label, "ALL");
}

TEST(BuildReport, SeveralSourcesAreComparedWithTheFirst) {
  auto second = two_manager_source("b.json", 1500);
  second.points.erase(second.points.begin() + 6, second.points.end());  // no QD 4 run
  const auto model = build_report({two_manager_source("a.csv", 1000), second}, "compare");
  const SpecSection& section = model.sections.front();
  const Chart* iops = find_chart(section, "4k-read-iops");
  ASSERT_NE(iops, nullptr);
  EXPECT_EQ(iops->curves.size(), 6U);
  EXPECT_EQ(iops->curves[3].label, "b.json | ALL");
  const Chart* ratio = find_chart(section, "4k-read-iops-ratio");
  ASSERT_NE(ratio, nullptr);
  ASSERT_EQ(ratio->curves.size(), 1U);
  EXPECT_EQ(ratio->curves[0].label, "b.json");
  EXPECT_EQ(ratio->curves[0].points, (std::vector<ChartPoint>{{1, 1.5}, {2, 1.5}}));
  ASSERT_EQ(model.comparison.size(), 3U);
  EXPECT_EQ(model.comparison[0].queue_depth, 1U);
  EXPECT_EQ(model.comparison[0].ratio, (std::vector<std::optional<double>>{1.0, 1.5}));
  EXPECT_EQ(model.comparison[2].queue_depth, 4U);
  EXPECT_EQ(model.comparison[2].iops, (std::vector<std::optional<double>>{4000.0, std::nullopt}));
  EXPECT_EQ(model.comparison[2].ratio[1], std::nullopt);
}

TEST(BuildReport, RepeatedRunsAreAveragedForTheRatio) {
  const auto model = build_report({source_of("first", {point(0, "s", "", 1, 100), point(1, "s", "", 1, 300)}),
                                   source_of("second", {point(0, "s", "", 1, 100)})},
                                  "");
  ASSERT_EQ(model.comparison.size(), 1U);
  EXPECT_EQ(model.comparison[0].iops[0], 200.0);
  EXPECT_EQ(model.comparison[0].ratio[1], 0.5);
}

TEST(BuildReport, RunsWithoutAQueueDepthAreCountedNotPlotted) {
  ReportSource source;
  source.name = "mixed";
  auto odd = point(0, "", "", 1, 10);
  odd.queue_depth.reset();
  source.points = {odd, point(1, "s", "", 2, 10)};
  const auto model = build_report({source}, "");
  EXPECT_EQ(model.runs_without_queue_depth, 1U);
  ASSERT_EQ(model.sections.size(), 2U);
  EXPECT_EQ(model.sections[0].spec, "(mixed specs)");
  EXPECT_TRUE(model.sections[0].charts.empty());
}

TEST(BuildReport, LatencyPercentilesOrBinsAtMostEightRunsPerSource) {
  ReportSource with_histograms;
  with_histograms.name = "json";
  for (std::uint32_t depth = 1; depth <= 20; ++depth) {
    auto p = point(depth - 1, "s", "", depth, 100);
    results::LatencyProfile profile;
    profile.bins[0] = 10;
    for (const double percentile : results::kProfilePercentiles) profile.percentiles.push_back({percentile, depth * 0.1});
    p.latency = profile;
    p.p99_response_ms = depth * 0.1;
    with_histograms.points.push_back(p);
  }
  ReportSource with_bins;
  with_bins.name = "csv";
  auto binned = point(0, "s", "", 1, 100);
  results::LatencyProfile bins;
  bins.bins[0] = 1;
  bins.bins[3] = 3;
  binned.latency = bins;
  with_bins.points.push_back(binned);
  const auto model = build_report({with_histograms, with_bins}, "");
  const SpecSection& section = model.sections.front();
  const Chart* percentiles = find_chart(section, "s-latency-percentiles");
  ASSERT_NE(percentiles, nullptr);
  EXPECT_EQ(percentiles->categories.front(), "p50");
  EXPECT_EQ(percentiles->categories.back(), "p99.99");
  ASSERT_EQ(percentiles->curves.size(), kMaxLatencyCurves);
  EXPECT_EQ(percentiles->curves.front().label, "json | QD 1");
  EXPECT_EQ(percentiles->curves.back().label, "json | QD 20");
  EXPECT_EQ(percentiles->curves.front().points.size(), results::kProfilePercentiles.size());
  const Chart* bin_chart = find_chart(section, "s-latency-bins");
  ASSERT_NE(bin_chart, nullptr);
  ASSERT_EQ(bin_chart->curves.size(), 1U);
  EXPECT_EQ(bin_chart->curves[0].points.size(), 21U);
  EXPECT_DOUBLE_EQ(bin_chart->curves[0].points[0].y, 25.0);
  EXPECT_DOUBLE_EQ(bin_chart->curves[0].points[3].y, 75.0);
  EXPECT_NE(find_chart(section, "s-p99-ms"), nullptr);
}

TEST(BuildReport, ASourceRunInRoundsGetsItsSteadyStateChartAsSniaDrawsIt) {
  auto rounds = two_manager_source("steady.json", 1000);
  rounds.steady_state = results::SteadyStateRecord{.figure = "iops",
                                                   .max_rounds = 25,
                                                   .window = 5,
                                                   .rounds = {1500, 1100, 1000, 1010, 990, 1000, 1000},
                                                   .steady = true,
                                                   .window_first = 2,
                                                   .average = 1000,
                                                   .data_excursion = 0.02,
                                                   .slope_excursion = 0.0,
                                                   .slope = 0,
                                                   .reason = ""};
  const auto model = build_report({two_manager_source("plain.csv", 1000), rounds}, "");
  ASSERT_EQ(model.steady_states.size(), 1U) << "only the source run in rounds";
  const auto& view = model.steady_states.front();
  EXPECT_EQ(view.source, "steady.json");
  EXPECT_EQ(view.chart.id, "steady-state-steady-json");
  EXPECT_EQ(view.chart.x_scale, XScale::linear);
  EXPECT_EQ(view.chart.y_label, "IOPS");
  ASSERT_EQ(view.chart.curves.size(), 5U);
  EXPECT_EQ(view.chart.curves[0].points.size(), 7U);
  EXPECT_EQ(view.chart.curves[0].points[0], (ChartPoint{1, 1500}));
  // The window is rounds 3-7: its average, 110% and 90% of it.
  EXPECT_EQ(view.chart.curves[1].points, (std::vector<ChartPoint>{{3, 1000}, {7, 1000}}));
  EXPECT_EQ(view.chart.curves[2].points, (std::vector<ChartPoint>{{3, 1100}, {7, 1100}}));
  EXPECT_EQ(view.chart.curves[3].points, (std::vector<ChartPoint>{{3, 900}, {7, 900}}));
  EXPECT_EQ(view.chart.curves[4].label, "least-squares line");
  EXPECT_EQ(view.chart.curves[4].points, (std::vector<ChartPoint>{{3, 1000}, {7, 1000}})) << "slope 0: flat";
  EXPECT_EQ(model.chart_count(), 1 + model.sections.front().charts.size());

  rounds.steady_state->slope = -2.5;  // the line falls 10 over the 4 rounds of the window
  EXPECT_EQ(build_report({rounds}, "").steady_states.front().chart.curves[4].points,
            (std::vector<ChartPoint>{{3, 1005}, {7, 995}}));

  rounds.steady_state->rounds.resize(3);  // the window not full yet: the rounds alone
  rounds.steady_state->steady = false;
  EXPECT_EQ(build_report({rounds}, "").steady_states.front().chart.curves.size(), 1U);
}

// QD 1, 2, 4, 8 as fast as they go, then rates between what QD 4 and QD 8 achieved, out of
// IOPS order as a bisection runs them.
results::MaxIopsRecord bisected_search() {
  return results::MaxIopsRecord{
      .figure = "p99",
      .limit_ms = 2,
      .steps = {{.run = 1, .outstanding_ios = 1, .iops = 1000, .latency_ms = 0.9, .within = true},
                {.run = 2, .outstanding_ios = 2, .iops = 1900, .latency_ms = 1.1, .within = true},
                {.run = 3, .outstanding_ios = 4, .iops = 3000, .latency_ms = 1.6, .within = true},
                {.run = 4, .outstanding_ios = 8, .iops = 3600, .latency_ms = 4.5, .within = false},
                {.run = 5, .outstanding_ios = 8, .rate_iops = 3300, .iops = 3299.6, .latency_ms = 2.4, .within = false},
                {.run = 6, .outstanding_ios = 8, .rate_iops = 3150, .iops = 3150.4, .latency_ms = 1.9, .within = true}},
      .chosen = 5,
      .finished = true,
      .conclusion = "3150 IOPS at QD 8 (p99 1.90 ms <= 2 ms)"};
}

TEST(BuildReport, ASourceWithAMaxIopsSearchGetsItsLatencyAgainstIopsChart) {
  auto search = two_manager_source("search.json", 1000);
  search.max_iops_search = bisected_search();
  const auto model = build_report({two_manager_source("plain.csv", 1000), search}, "");
  ASSERT_EQ(model.max_iops_searches.size(), 1U) << "only the source with a search";
  const auto& view = model.max_iops_searches.front();
  EXPECT_EQ(view.source, "search.json");
  EXPECT_EQ(view.record, bisected_search());
  EXPECT_EQ(view.chart.id, "max-iops-search-json");
  EXPECT_EQ(view.chart.title, "Latency against IOPS");
  EXPECT_EQ(view.chart.x_scale, XScale::linear);
  EXPECT_EQ(view.chart.x_label, "IOPS");
  EXPECT_EQ(view.chart.y_label, "99th percentile response time, ms");
  ASSERT_EQ(view.chart.curves.size(), 3U);
  EXPECT_EQ(view.chart.curves[0].label, "each run");
  EXPECT_EQ(view.chart.curves[0].points,
            (std::vector<ChartPoint>{{1000, 0.9}, {1900, 1.1}, {3000, 1.6}, {3150.4, 1.9}, {3299.6, 2.4}, {3600, 4.5}}))
      << "in IOPS order, not run order";
  EXPECT_EQ(view.chart.curves[1].label, "bound: p99 <= 2 ms");
  EXPECT_EQ(view.chart.curves[1].points, (std::vector<ChartPoint>{{1000, 2}, {3600, 2}}));
  EXPECT_EQ(view.chart.curves[2].label, "chosen: 3150 IOPS at QD 8");
  EXPECT_EQ(view.chart.curves[2].points, (std::vector<ChartPoint>{{3150.4, 1.9}}));
  EXPECT_EQ(view.chart.y_scale, YScale::linear);
  EXPECT_EQ(model.chart_count(), 1 + model.sections.front().charts.size());

  search.max_iops_search->chosen.reset();  // nothing within the bound yet: no chosen point
  search.max_iops_search->figure = "p99.9";
  search.max_iops_search->limit_ms = 0.25;
  const auto unchosen = build_report({search}, "").max_iops_searches.front().chart;
  ASSERT_EQ(unchosen.curves.size(), 2U);
  EXPECT_EQ(unchosen.curves[1].label, "bound: p99.9 <= 0.25 ms");
  EXPECT_EQ(unchosen.y_label, "99.9th percentile response time, ms");

  search.max_iops_search = bisected_search();
  search.max_iops_search->steps[3].latency_ms = 40;  // QD 8 overshot to 20 times the bound
  EXPECT_EQ(build_report({search}, "").max_iops_searches.front().chart.y_scale, YScale::log10)
      << "on a linear axis the steps near the bound would lie flat on its bottom edge";

  search.steady_state = results::SteadyStateRecord{.figure = "iops", .rounds = {1000}};
  const auto both = build_report({search}, "");
  EXPECT_NE(both.steady_states.front().chart.id, both.max_iops_searches.front().chart.id);
  EXPECT_EQ(both.chart_count(), 2 + both.sections.front().charts.size());
}

TEST(BuildReport, APtsIopsSourceGetsItsTableAndIopsByBlockSize) {
  auto pts = two_manager_source("pts.json", 1000);
  pts.pts_iops = two_by_two_table();
  const auto model = build_report({two_manager_source("plain.csv", 1000), pts}, "");
  ASSERT_EQ(model.pts_iops.size(), 1U) << "only the source with a table";
  const auto& view = model.pts_iops.front();
  EXPECT_EQ(view.source, "pts.json");
  EXPECT_EQ(view.mixes, (std::vector<std::string>{"100/0", "0/100"}));
  EXPECT_EQ(view.blocks, (std::vector<std::string>{"64 KiB", "4 KiB"})) << "the record's order";
  EXPECT_EQ(view.iops, (std::vector<std::vector<std::string>>{{"1200", "25001"}, {"-", "9000"}}));
  EXPECT_EQ(view.caption, "average of rounds 3-7, the steady-state window");
  EXPECT_EQ(view.chart.id, "pts-iops-pts-json");
  EXPECT_EQ(view.chart.title, "IOPS by block size");
  EXPECT_EQ(view.chart.x_scale, XScale::categories);
  EXPECT_EQ(view.chart.categories, (std::vector<std::string>{"4 KiB", "64 KiB"})) << "small to large";
  EXPECT_EQ(view.chart.y_label, "IOPS");
  ASSERT_EQ(view.chart.curves.size(), 2U) << "one per mix";
  EXPECT_EQ(view.chart.curves[0].label, "100/0 R/W");
  EXPECT_EQ(view.chart.curves[0].points, (std::vector<ChartPoint>{{0, 25000.6}, {1, 1200.4}}));
  EXPECT_EQ(view.chart.curves[1].label, "0/100 R/W");
  EXPECT_EQ(view.chart.curves[1].points, (std::vector<ChartPoint>{{0, 9000}})) << "no point for the missing cell";
  EXPECT_EQ(model.chart_count(), 1 + model.sections.front().charts.size());

  pts.pts_iops->steady = false;
  EXPECT_EQ(build_report({pts}, "").pts_iops.front().caption, "average of rounds 3-7 (not steady)");
  pts.pts_iops->last_round = 3;
  EXPECT_EQ(build_report({pts}, "").pts_iops.front().caption, "average of round 3 (not steady)");
  pts.pts_iops->first_round = 0;
  pts.pts_iops->last_round = 0;
  EXPECT_EQ(build_report({pts}, "").pts_iops.front().caption, "no round completed");

  pts.pts_iops->iops.pop_back();  // a hand-made table short of a row: its cells are missing
  const auto ragged = build_report({pts}, "").pts_iops.front();
  EXPECT_EQ(ragged.iops.back(), (std::vector<std::string>{"-", "-"}));
  EXPECT_EQ(ragged.chart.curves.size(), 1U) << "a mix with no cell has no line";
}

TEST(BuildReport, APreconditionedSourceSaysHowItsTargetsWereWritten) {
  auto preconditioned = two_manager_source("pre.json", 1000);
  preconditioned.precondition = results::PreconditionRecord{
      .passes = 2, .block_bytes = 131072, .targets = {"hostA: /dev/sdb", "hostB: /dev/sdc"}};
  const auto model = build_report({two_manager_source("plain.csv", 1000), preconditioned}, "");
  ASSERT_EQ(model.preconditions.size(), 1U) << "only the preconditioned source";
  const auto& view = model.preconditions.front();
  EXPECT_EQ(view.source, "pre.json");
  EXPECT_EQ(view.text,
            "Preconditioned: every target written whole twice in 128 KiB sequential writes before the first run "
            "(2 targets)");
  EXPECT_EQ(view.targets, (std::vector<std::string>{"hostA: /dev/sdb", "hostB: /dev/sdc"}));

  preconditioned.precondition =
      results::PreconditionRecord{.passes = 1, .block_bytes = 1 << 20, .targets = {"hostA: f"}};
  EXPECT_EQ(build_report({preconditioned}, "").preconditions.front().text,
            "Preconditioned: every target written whole once in 1 MiB sequential writes before the first run "
            "(1 target)");
  preconditioned.precondition->passes = 3;
  EXPECT_NE(build_report({preconditioned}, "").preconditions.front().text.find("written whole 3 times in"),
            std::string::npos);
}

TEST(ChartIds, UniqueEvenWhenSpecsSlugAlike) {
  const auto model = build_report({source_of("x", {point(0, "4K Read", "", 1, 1), point(1, "4k-read", "", 1, 1)})}, "");
  ASSERT_EQ(model.sections.size(), 2U);
  EXPECT_EQ(model.sections[0].charts[0].id, "4k-read-iops");
  EXPECT_EQ(model.sections[1].charts[0].id, "4k-read-iops-2");
}

TEST(RatioOf, MissingOrZeroBaseHasNoRatio) {
  EXPECT_EQ(ratio_of(3.0, 2.0), 1.5);
  EXPECT_EQ(ratio_of(3.0, 0.0), std::nullopt);
  EXPECT_EQ(ratio_of(std::nullopt, 2.0), std::nullopt);
  EXPECT_EQ(ratio_of(3.0, std::nullopt), std::nullopt);
}

TEST(Slug, FileNameSafe) {
  EXPECT_EQ(slug("4K Random Read"), "4k-random-read");
  EXPECT_EQ(slug("8k 0% Read; 100% Random 8k-iops"), "8k-0-read-100-random-8k-iops");
  EXPECT_EQ(slug("../../etc/passwd"), "etc-passwd");
  EXPECT_EQ(slug("<>"), "chart");
}

}  // namespace
}  // namespace iomark::report
