#include "iomark/access_specs/run_request.hpp"

#include <gtest/gtest.h>

namespace iomark::access_specs {
namespace {

TEST(SteadyFigure, EachNameReadsBackAsItsFigure) {
  for (const auto figure : {SteadyFigure::iops, SteadyFigure::mb_per_s, SteadyFigure::average_ms, SteadyFigure::p99_ms}) {
    EXPECT_EQ(parse_steady_figure(to_string(figure)), figure) << to_string(figure);
  }
  EXPECT_EQ(to_string(SteadyFigure::mb_per_s), "mbps");
  EXPECT_EQ(to_string(SteadyFigure::average_ms), "avg");
}

TEST(SteadyFigure, AnUnknownNameIsRefusedNamingTheFlagAndTheChoices) {
  const auto refused = parse_steady_figure("IOPS");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().field(), "--steady-state");
  EXPECT_NE(refused.error().message().find("iops, mbps, avg or p99"), std::string::npos) << refused.error().message();
}

}  // namespace
}  // namespace iomark::access_specs
