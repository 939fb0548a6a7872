// StopSignals, each case in a child process (a death test): signals are process-wide.
#include "iomark/app_runtime/stop_signals.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <chrono>
#include <thread>

#include "iomark/common/exit_code.hpp"

namespace iomark::app_runtime {
namespace {

using namespace std::chrono_literals;

// Exits 0 when `stop` is requested within 5 s, 99 otherwise.
void exit_when_stopped(const std::stop_token& stop) {
  for (int i = 0; i < 500 && !stop.stop_requested(); ++i) std::this_thread::sleep_for(10ms);
  std::exit(stop.stop_requested() ? 0 : 99);
}

class StopSignalsTest : public ::testing::Test {
 protected:
  void SetUp() override { GTEST_FLAG_SET(death_test_style, "threadsafe"); }
};

TEST_F(StopSignalsTest, BeforeStopsAreWantedASignalEndsTheProcessAsIfUncaught) {
  EXPECT_EXIT(
      {
        StopSignals signals;
        ::kill(::getpid(), SIGINT);
        std::this_thread::sleep_for(5s);
        std::exit(99);
      },
      ::testing::ExitedWithCode(exit_code_for_signal(SIGINT)), "");
}

TEST_F(StopSignalsTest, TheFirstSignalRequestsAStopAndIsRemembered) {
  EXPECT_EXIT(
      {
        StopSignals signals;
        int told = 0;
        const auto stop = signals.request_stop_on([&told](int signal_number) { told = signal_number; });
        ::kill(::getpid(), SIGTERM);
        for (int i = 0; i < 500 && !stop.stop_requested(); ++i) std::this_thread::sleep_for(10ms);
        std::exit(stop.stop_requested() && told == SIGTERM && signals.first_signal() == SIGTERM ? 0 : 99);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(StopSignalsTest, TheSecondSignalExitsAtOnce) {
  EXPECT_EXIT(
      {
        StopSignals signals;
        const auto stop = signals.request_stop_on();
        ::kill(::getpid(), SIGINT);
        for (int i = 0; i < 500 && !stop.stop_requested(); ++i) std::this_thread::sleep_for(10ms);
        std::this_thread::sleep_for(600ms);
        ::kill(::getpid(), SIGTERM);
        std::this_thread::sleep_for(5s);  // the work a stop request did not end in time
        std::exit(99);
      },
      ::testing::ExitedWithCode(exit_code_for_signal(SIGTERM)), "");
}

TEST_F(StopSignalsTest, ASignalRepeatedAtOnceIsTheSameRequest) {
  // As `timeout` delivers it: to the process, then to its process group.
  EXPECT_EXIT(
      {
        StopSignals signals;
        const auto stop = signals.request_stop_on();
        ::kill(::getpid(), SIGTERM);
        for (int i = 0; i < 500 && !stop.stop_requested(); ++i) std::this_thread::sleep_for(10ms);
        ::kill(::getpid(), SIGTERM);
        std::this_thread::sleep_for(1s);
        std::exit(stop.stop_requested() ? 0 : 99);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST_F(StopSignalsTest, ThreadsStartedLaterDoNotTakeTheSignal) {
  // A thread busy elsewhere when the signal comes: the signal still becomes a stop request
  // rather than its default action (ending the process with 143 or by the signal).
  EXPECT_EXIT(
      {
        StopSignals signals;
        const auto stop = signals.request_stop_on();
        std::thread busy([] { std::this_thread::sleep_for(6s); });
        busy.detach();
        ::kill(::getpid(), SIGTERM);
        exit_when_stopped(stop);
      },
      ::testing::ExitedWithCode(0), "");
}

}  // namespace
}  // namespace iomark::app_runtime
