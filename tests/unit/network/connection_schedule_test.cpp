#include "iomark/network/connection_schedule.hpp"

#include <gtest/gtest.h>

#include <string>

namespace iomark::network {
namespace {

// Runs the schedule for `steps` steps and spells what it asked for: o(pen), t(ransfer), c(lose).
std::string walk(ConnectionSchedule schedule, int steps) {
  std::string seen;
  for (int i = 0; i < steps; ++i) {
    switch (schedule.next()) {
      case ConnectionStep::open: seen += 'o'; schedule.opened(); break;
      case ConnectionStep::transfer: seen += 't'; schedule.transferred(); break;
      case ConnectionStep::close: seen += 'c'; schedule.closed(); break;
    }
  }
  return seen;
}

TEST(ConnectionSchedule, WithoutConnectionRateConnectsOnceForTheWholeRun) {
  EXPECT_EQ(walk(ConnectionSchedule(false, 3), 8), "ottttttt");
}

TEST(ConnectionSchedule, ReconnectsAfterTransactionsPerConnection) {
  EXPECT_EQ(walk(ConnectionSchedule(true, 3), 11), "otttcotttco");
  EXPECT_EQ(walk(ConnectionSchedule(true, 1), 7), "otcotco");
}

TEST(ConnectionSchedule, ZeroTransactionsOpensAndClosesWithNoIo) {
  EXPECT_EQ(walk(ConnectionSchedule(true, 0), 6), "ocococ");
}

}  // namespace
}  // namespace iomark::network
