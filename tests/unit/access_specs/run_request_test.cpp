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

TEST(LatencyBound, ReadsEachFigureAndUnit) {
  EXPECT_EQ(parse_latency_bound("p99<=2ms"), (LatencyBound{LatencyFigure::p99_ms, 2.0}));
  EXPECT_EQ(parse_latency_bound("avg<=500us"), (LatencyBound{LatencyFigure::average_ms, 0.5}));
  EXPECT_EQ(parse_latency_bound(" p99.9 <= 1.5 ms "), (LatencyBound{LatencyFigure::p99_9_ms, 1.5}));
  EXPECT_EQ(parse_latency_bound("p99<=2s"), (LatencyBound{LatencyFigure::p99_ms, 2000.0}));
}

TEST(LatencyBound, RefusesWhatIsNotABoundNamingTheFlag) {
  for (const char* text : {"p99=2ms", "p98<=2ms", "p99<=2", "p99<=ms", "p99<=-1ms", "p99<=0ms", "p99<=2msx",
                           "p99<=nanms", "p99<=61s", "p99<=0.5ns"}) {
    const auto refused = parse_latency_bound(text);
    ASSERT_FALSE(refused) << text;
    EXPECT_EQ(refused.error().field(), "--find-max-iops") << text;
    EXPECT_NE(refused.error().message().find(text), std::string::npos) << refused.error().message();
  }
}

}  // namespace
}  // namespace iomark::access_specs
