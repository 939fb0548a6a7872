#include "iomark/metrics/prometheus_text.hpp"

#include <gtest/gtest.h>

#include <sstream>

#include "fixtures.hpp"

namespace iomark::metrics {
namespace {

using results::test_support::mixed_run;

// Every sample line (no comments) of a family, by name prefix.
std::vector<std::string> samples_of(const std::string& text, const std::string& family) {
  std::vector<std::string> lines;
  std::istringstream in(text);
  for (std::string line; std::getline(in, line);) {
    if (line.rfind(family + "{", 0) == 0 || line.rfind(family + " ", 0) == 0) lines.push_back(line);
  }
  return lines;
}

TEST(PrometheusText, BeforeAnyRunOnlyTheSeriesIsDescribed) {
  const auto text = render_prometheus_text({}, nullptr, nullptr);
  EXPECT_NE(text.find("iomark_series_phase{phase=\"idle\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("iomark_series_phase{phase=\"recording\"} 0\n"), std::string::npos);
  EXPECT_NE(text.find("iomark_series_run_index 0\n"), std::string::npos);
  EXPECT_TRUE(samples_of(text, "iomark_iops").empty());
}

TEST(PrometheusText, EveryLevelOfTheRunHasEveryFigure) {
  const auto run = mixed_run(0, 0);
  const auto summary = results::summarize_run(run);
  const SeriesProgress progress{SeriesPhase::recording, 2, 5, 1, 0};
  const auto text = render_prometheus_text(progress, &run, &summary);

  EXPECT_NE(text.find("iomark_series_phase{phase=\"recording\"} 1\n"), std::string::npos);
  EXPECT_NE(text.find("iomark_series_run_index 2\n"), std::string::npos);
  EXPECT_NE(text.find("iomark_series_runs_planned 5\n"), std::string::npos);
  EXPECT_NE(text.find("iomark_series_runs_completed_total 1\n"), std::string::npos);
  EXPECT_NE(text.find("# TYPE iomark_iops gauge\n"), std::string::npos);

  std::size_t rows = 1;  // ALL
  for (const auto& manager : run.managers) {
    rows += 1;
    for (const auto& worker : manager.workers) rows += 1 + worker.targets.size();
  }
  for (const char* family : {"iomark_iops", "iomark_bytes_per_second", "iomark_average_latency_seconds",
                             "iomark_p99_latency_seconds", "iomark_errors_per_second"}) {
    EXPECT_EQ(samples_of(text, family).size(), rows) << family;
  }
  std::ostringstream all;
  all << "iomark_iops{scope=\"all\",manager=\"\",worker=\"\",target=\"\",spec=\"" << summary.all.spec_name << "\"} ";
  const auto all_line = samples_of(text, "iomark_iops").front();
  EXPECT_EQ(all_line.rfind(all.str(), 0), 0U) << all_line;
  EXPECT_DOUBLE_EQ(std::stod(all_line.substr(all.str().size())), summary.all.rates.iops);

  const auto& manager = run.managers.front();
  const auto& target = manager.workers.front().targets.front();
  const std::string target_labels = "{scope=\"target\",manager=\"" + manager.name + "\",worker=\"" +
                                    manager.workers.front().name + "\",target=\"" + target.name + "\"";
  EXPECT_NE(text.find("iomark_p99_latency_seconds" + target_labels), std::string::npos) << text;
}

TEST(PrometheusText, LabelValuesAreEscaped) {
  auto run = mixed_run(0, 0);
  run.managers.front().name = "a\"b\\c\nd";
  const auto summary = results::summarize_run(run);
  const auto text = render_prometheus_text({}, &run, &summary);
  EXPECT_NE(text.find("manager=\"a\\\"b\\\\c\\nd\""), std::string::npos);
}

}  // namespace
}  // namespace iomark::metrics
