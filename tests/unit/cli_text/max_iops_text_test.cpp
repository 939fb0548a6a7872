#include "iomark/cli_text/max_iops_text.hpp"

#include <gtest/gtest.h>

namespace iomark::cli_text {
namespace {

results::MaxIopsRecord three_runs() {
  return {.figure = "p99",
          .limit_ms = 2,
          .steps = {{.run = 1, .outstanding_ios = 1, .rate_iops = {}, .iops = 3000, .latency_ms = 0.4, .within = true},
                    {.run = 2, .outstanding_ios = 2, .rate_iops = {}, .iops = 5000, .latency_ms = 2.5, .within = false},
                    {.run = 3, .outstanding_ios = 2, .rate_iops = 4000, .iops = 3999.6, .latency_ms = 1.2, .within = true}},
          .chosen = 2,
          .finished = true,
          .conclusion = "4000 IOPS at QD 2, rate 4000 (p99 1.200 ms within p99 <= 2 ms)"};
}

TEST(MaxIopsText, AStepLineSaysTheDepthTheRateAskedAndWhichSideOfTheBound) {
  auto search = three_runs();
  EXPECT_EQ(search_step_line(search), "search run 3: QD 2 at 4000 IOPS asked: 4000 IOPS, p99 1.200 ms: within 2 ms");
  search.steps.resize(2);
  EXPECT_EQ(search_step_line(search), "search run 2: QD 2: 5000 IOPS, p99 2.500 ms: over 2 ms");
}

TEST(MaxIopsText, TheReportListsTheCurveByIopsAndMarksTheChosenRun) {
  const auto text = search_report(three_runs());
  const auto first = text.find("\n  1 ");
  const auto third = text.find("\n  3 ");
  const auto second = text.find("\n  2 ");
  ASSERT_NE(first, std::string::npos) << text;
  ASSERT_NE(third, std::string::npos) << text;
  ASSERT_NE(second, std::string::npos) << text;
  EXPECT_LT(first, third) << "3000 IOPS before 4000";
  EXPECT_LT(third, second) << "4000 IOPS before 5000";
  EXPECT_NE(text.find("yes  <- chosen"), std::string::npos) << text;
  EXPECT_EQ(text.find("<- chosen"), text.rfind("<- chosen")) << "one chosen run";
  EXPECT_NE(text.find("most IOPS within p99 <= 2 ms: 4000 IOPS at QD 2, rate 4000"), std::string::npos) << text;
  EXPECT_EQ(text.find("cut short"), std::string::npos);
}

TEST(MaxIopsText, ASearchCutShortSaysSo) {
  auto search = three_runs();
  search.finished = false;
  EXPECT_NE(search_report(search).find("(the search was cut short)"), std::string::npos);
}

}  // namespace
}  // namespace iomark::cli_text
