#include "iomark/report/html_report.hpp"

#include <gtest/gtest.h>

#include "pts_table_fixture.hpp"

#include "report/count_of.hpp"

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <unistd.h>

namespace iomark::report {
namespace {

using test_support::count_of;

results::RunPoint all_point(std::size_t run, std::string spec, std::uint32_t depth, double iops) {
  results::RunPoint p;
  p.run = run;
  p.spec = std::move(spec);
  p.queue_depth = depth;
  p.iops = iops;
  p.cpu_percent = 10;
  return p;
}

ReportModel two_source_model(std::string hostile) {
  ReportSource first;
  first.name = "first.csv";
  first.format = "IOmeter results.csv";
  first.series.push_back({"nightly", "IOmeter 1.1.0", "2024-05-06 14:03:27:512", "completed"});
  first.hosts.push_back({hostile, "2 CPUs"});
  first.failures.push_back({"run 3", hostile});
  first.points = {all_point(0, hostile, 1, 100), all_point(1, hostile, 2, 180)};
  ReportSource second = first;
  second.name = hostile;
  second.points = {all_point(0, hostile, 1, 150), all_point(1, hostile, 2, 90)};
  return build_report({first, second}, hostile);
}

TEST(RenderHtmlReport, SelfContainedWithoutScriptOrExternalReference) {
  const auto html = render_html_report(two_source_model("spec"));
  EXPECT_EQ(html.rfind("<!DOCTYPE html>", 0), 0U);
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<link"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(html.find("src="), std::string::npos);
  EXPECT_EQ(html.find("href="), std::string::npos);
  EXPECT_EQ(html.find("url("), std::string::npos);
  EXPECT_EQ(html.find("@import"), std::string::npos);
  // The only URL is the SVG namespace name, which nothing fetches.
  const std::regex url("https?://[^\"]*");
  for (auto it = std::sregex_iterator(html.begin(), html.end(), url); it != std::sregex_iterator(); ++it) {
    EXPECT_EQ(it->str(), "http://www.w3.org/2000/svg");
  }
}

TEST(RenderHtmlReport, EveryChartSummaryComparisonAndRun) {
  const auto model = two_source_model("4K read");
  const auto html = render_html_report(model);
  EXPECT_EQ(count_of(html, "<svg "), model.chart_count());
  EXPECT_EQ(count_of(html, "<figure class=\"chart\""), model.chart_count());
  EXPECT_EQ(count_of(html, "<tr class=\"run\">"), 4U);
  EXPECT_NE(html.find("<section id=\"comparison\">"), std::string::npos);
  EXPECT_NE(html.find("<h3>Failed runs: 2</h3>"), std::string::npos);
  EXPECT_NE(html.find("<td class=\"n\">0.500</td>"), std::string::npos);  // 90 / 180 at QD 2
  EXPECT_NE(html.find("<td class=\"n\">1.500</td>"), std::string::npos);  // 150 / 100 at QD 1
}

TEST(RenderHtmlReport, HostileNamesAreEscapedEverywhere) {
  const std::string hostile = "</title><script>alert(1)</script><img src=x onerror=alert(2)>";
  const auto html = render_html_report(two_source_model(hostile));
  EXPECT_EQ(html.find("<script"), std::string::npos);
  EXPECT_EQ(html.find("<img"), std::string::npos);
  EXPECT_EQ(count_of(html, "</title>"), 1U);
  EXPECT_GT(count_of(html, "&lt;/title&gt;&lt;script&gt;alert(1)&lt;/script&gt;"), 5U);
}

TEST(RenderHtmlReport, SeriesOfOneDescriptionShareASummaryRow) {
  ReportSource source;
  source.name = "batch.csv";
  for (const char* stamp : {"2023-03-25 03:05:43:661", "2023-03-25 03:07:27:431", "2023-03-27 13:11:29:122"}) {
    source.series.push_back({"512B Random Read", "IOmeter 1.1.0", stamp, "completed"});
  }
  source.series.push_back({"4K Random Read", "IOmeter 1.1.0", "2023-03-27 13:12:00:000", "completed"});
  const auto html = render_html_report(build_report({source}, ""));
  EXPECT_NE(html.find("<td>512B Random Read (3 series)</td><td>IOmeter 1.1.0</td>"
                      "<td>2023-03-25 03:05:43:661 to 2023-03-27 13:11:29:122</td>"),
            std::string::npos);
  EXPECT_NE(html.find("<td>4K Random Read</td>"), std::string::npos);
  EXPECT_NE(html.find("rowspan=\"2\""), std::string::npos);
}

TEST(RenderHtmlReport, TheSteadyStateVerdictAndItsChart) {
  ReportSource source;
  source.name = "steady.json";
  source.points = {all_point(0, "4K write", 32, 900), all_point(1, "4K write", 32, 950)};
  source.steady_state = results::SteadyStateRecord{
      .figure = "iops", .max_rounds = 6, .window = 5, .rounds = {900, 950}, .reason = "2 of 5 rounds; 3 more needed"};
  auto html = render_html_report(build_report({source}, "rounds"));
  EXPECT_EQ(count_of(html, "<section id=\"steady-state\">"), 1U);
  EXPECT_NE(html.find("steady.json: iops not steady after 2 of 6 rounds: 2 of 5 rounds; 3 more needed"), std::string::npos);
  EXPECT_NE(html.find("id=\"steady-state-steady-json\""), std::string::npos);

  source.steady_state = results::SteadyStateRecord{.figure = "iops", .max_rounds = 6, .window = 5,
                                                   .rounds = {900, 1000, 1010, 990, 1000, 1000}, .steady = true,
                                                   .window_first = 1, .average = 1000, .data_excursion = 0.02,
                                                   .slope_excursion = 0.004, .slope = -1, .reason = ""};
  html = render_html_report(build_report({source}, "rounds"));
  EXPECT_NE(html.find("steady.json: iops steady in round 6 (rounds 2-6: average 1000.000, range 2.0%, slope 0.4% of the "
                      "average)"),
            std::string::npos);
  EXPECT_EQ(count_of(render_html_report(two_source_model("spec")), "steady-state"), 0U);
}

TEST(RenderHtmlReport, TheMaxIopsConclusionItsChartAndItsSteps) {
  ReportSource source;
  source.name = "search.json";
  source.points = {all_point(0, "8K read", 1, 1000), all_point(1, "8K read", 2, 1900)};
  source.max_iops_search = results::MaxIopsRecord{
      .figure = "p99",
      .limit_ms = 2,
      .steps = {{.run = 1, .outstanding_ios = 1, .iops = 1000, .latency_ms = 0.9, .within = true},
                {.run = 2, .outstanding_ios = 2, .iops = 1900, .latency_ms = 2.5, .within = false},
                {.run = 3, .outstanding_ios = 2, .rate_iops = 1450, .iops = 1449.5, .latency_ms = 1.25, .within = true}},
      .chosen = 2,
      .finished = true,
      .conclusion = "1450 IOPS at QD 2 (p99 1.25 ms <= 2 ms)"};
  auto html = render_html_report(build_report({source}, "search"));
  EXPECT_EQ(count_of(html, "<section id=\"max-iops\">"), 1U);
  EXPECT_NE(html.find("<p class=\"conclusion\">search.json: 1450 IOPS at QD 2 (p99 1.25 ms &lt;= 2 ms)</p>"),
            std::string::npos);
  EXPECT_NE(html.find("id=\"max-iops-search-json\""), std::string::npos);
  EXPECT_NE(html.find("data-label=\"bound: p99 &lt;= 2 ms\""), std::string::npos);
  EXPECT_NE(html.find("data-label=\"chosen: 1450 IOPS at QD 2\""), std::string::npos);
  EXPECT_NE(html.find("<th>p99 ms</th><th>within</th>"), std::string::npos);
  EXPECT_NE(html.find("<tr><td class=\"n\">1</td><td class=\"n\">1</td><td class=\"n\">-</td><td class=\"n\">1000.0</td>"
                      "<td class=\"n\">0.900</td><td>yes</td></tr>"),
            std::string::npos)
      << "unrated: no asked rate";
  EXPECT_NE(html.find("<td class=\"n\">2.500</td><td>no</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr class=\"chosen\"><td class=\"n\">3</td><td class=\"n\">2</td><td class=\"n\">1450</td>"),
            std::string::npos);
  EXPECT_EQ(html.find("cut short"), std::string::npos);

  source.max_iops_search->finished = false;
  html = render_html_report(build_report({source}, "search"));
  EXPECT_NE(html.find("(p99 1.25 ms &lt;= 2 ms) (the search was cut short)</p>"), std::string::npos);
  EXPECT_EQ(count_of(render_html_report(two_source_model("spec")), "id=\"max-iops"), 0U);
}

TEST(RenderHtmlReport, ThePtsIopsTableItsChartAndThePreconditioning) {
  ReportSource source;
  source.name = "pts.json";
  source.points = {all_point(0, "PTS 64 KiB 100/0", 1, 1200), all_point(1, "PTS 4 KiB 100/0", 1, 25000)};
  source.pts_iops = two_by_two_table();
  source.precondition =
      results::PreconditionRecord{.passes = 2, .block_bytes = 131072, .targets = {"hostA: /dev/sdb", "hostA: <f>"}};
  const auto model = build_report({source}, "pts");
  const auto html = render_html_report(model);
  EXPECT_EQ(count_of(html, "<section id=\"pts-iops\">"), 1U);
  EXPECT_NE(html.find("<p class=\"caption\">pts.json: IOPS of each read/write mix and block size, average of rounds "
                      "3-7, the steady-state window</p>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><th>read/write</th><th>64 KiB</th><th>4 KiB</th></tr>"), std::string::npos);
  EXPECT_NE(html.find("<tr><th>100/0</th><td class=\"n\">1200</td><td class=\"n\">25001</td></tr>"),
            std::string::npos);
  EXPECT_NE(html.find("<tr><th>0/100</th><td class=\"n\">-</td><td class=\"n\">9000</td></tr>"), std::string::npos);
  EXPECT_NE(html.find("id=\"pts-iops-pts-json\""), std::string::npos);
  EXPECT_NE(html.find("data-label=\"0/100 R/W\""), std::string::npos);
  EXPECT_EQ(count_of(html, "<svg "), model.chart_count());
  EXPECT_NE(html.find("<p class=\"precondition\">pts.json: Preconditioned: every target written whole twice in 128 "
                      "KiB sequential writes before the first run (2 targets)</p>"),
            std::string::npos);
  EXPECT_NE(html.find("<li>hostA: /dev/sdb</li>\n<li>hostA: &lt;f&gt;</li>"), std::string::npos);

  const auto plain = render_html_report(two_source_model("spec"));
  EXPECT_EQ(count_of(plain, "id=\"pts-iops"), 0U);
  EXPECT_EQ(count_of(plain, "Preconditioned"), 0U);
}

TEST(WriteReportFiles, TheHtmlAndOneSvgPerChart) {
  const auto dir = std::filesystem::temp_directory_path() / ("iomark-report-test-" + std::to_string(::getpid()));
  std::filesystem::remove_all(dir);
  const auto model = two_source_model("4K read");
  const auto written = write_report_files(model, dir / "report.html", std::nullopt);
  ASSERT_FALSE(written) << "the folder of report.html does not exist yet";
  std::filesystem::create_directories(dir);
  const auto again = write_report_files(model, dir / "report.html", dir / "svg");
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_EQ(again->charts, model.chart_count());
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(dir / "svg")) {
    ++files;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    EXPECT_EQ(text.str().rfind("<svg xmlns=\"http://www.w3.org/2000/svg\"", 0), 0U) << entry.path();
  }
  EXPECT_EQ(files, model.chart_count());
  EXPECT_EQ(std::filesystem::file_size(dir / "report.html"), again->html_bytes);

  // A source run in rounds adds its steady-state chart to the folder.
  auto sources = model.sources;
  sources.front().steady_state = results::SteadyStateRecord{.figure = "avg", .rounds = {0.5, 0.6}};
  const auto with_rounds = build_report(sources, "rounds");
  ASSERT_TRUE(write_report_files(with_rounds, dir / "rounds.html", dir / "svg-rounds"));
  EXPECT_TRUE(std::filesystem::exists(dir / "svg-rounds" / (with_rounds.steady_states.front().chart.id + ".svg")));
  EXPECT_EQ(static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir / "svg-rounds"),
                                                   std::filesystem::directory_iterator())),
            with_rounds.chart_count());

  // So does a --find-max-iops search its latency-against-IOPS chart.
  sources.front().max_iops_search = results::MaxIopsRecord{
      .figure = "avg", .limit_ms = 1, .steps = {{.run = 1, .outstanding_ios = 1, .iops = 100, .latency_ms = 0.5}}};
  const auto with_search = build_report(sources, "search");
  ASSERT_TRUE(write_report_files(with_search, dir / "search.html", dir / "svg-search"));
  EXPECT_TRUE(std::filesystem::exists(dir / "svg-search" / (with_search.max_iops_searches.front().chart.id + ".svg")));
  EXPECT_EQ(static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir / "svg-search"),
                                                   std::filesystem::directory_iterator())),
            with_search.chart_count());

  // And a PTS IOPS table its IOPS-by-block-size chart.
  sources.front().pts_iops = two_by_two_table();
  const auto with_pts = build_report(sources, "pts");
  ASSERT_TRUE(write_report_files(with_pts, dir / "pts.html", dir / "svg-pts"));
  EXPECT_TRUE(std::filesystem::exists(dir / "svg-pts" / (with_pts.pts_iops.front().chart.id + ".svg")));
  EXPECT_EQ(static_cast<std::size_t>(std::distance(std::filesystem::directory_iterator(dir / "svg-pts"),
                                                   std::filesystem::directory_iterator())),
            with_pts.chart_count());
  std::filesystem::remove_all(dir);
}

}  // namespace
}  // namespace iomark::report
