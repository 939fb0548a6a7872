// One waiter woken by many sources: what wait_until() returns and when it returns.
#include "iomark/protocol/arrival_signal.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

namespace iomark::protocol {
namespace {

using namespace std::chrono_literals;
using Clock = ArrivalSignal::Clock;

TEST(ArrivalSignal, ReturnsEachReadySourceOnceInTheOrderItBecameReady) {
  ArrivalSignal signal;
  signal.notify(7);
  signal.notify(2);
  signal.notify(7);  // still unread: not listed twice
  signal.notify(1000);
  EXPECT_EQ(signal.wait_until(Clock::now() + 10s), (std::vector<std::size_t>{7, 2, 1000}));
  signal.notify(2);  // read since: ready again
  EXPECT_EQ(signal.wait_until(Clock::now() + 10s), (std::vector<std::size_t>{2}));
}

TEST(ArrivalSignal, NothingReadyWaitsUntilTheDeadlineAndReturnsNone) {
  ArrivalSignal signal;
  const auto deadline = Clock::now() + 30ms;
  EXPECT_TRUE(signal.wait_until(deadline).empty());
  EXPECT_GE(Clock::now(), deadline);
}

TEST(ArrivalSignal, ANotifyFromAnotherThreadWakesTheWaiter) {
  ArrivalSignal signal;
  std::thread source([&signal] {
    std::this_thread::sleep_for(20ms);
    signal.notify(3);
  });
  // Far beyond what the notify takes: returning before the deadline is the point.
  const auto deadline = Clock::now() + 60s;
  EXPECT_EQ(signal.wait_until(deadline), (std::vector<std::size_t>{3}));
  EXPECT_LT(Clock::now(), deadline);
  source.join();
}

TEST(ArrivalSignal, InterruptEndsTheWaitWithNoneReadyOnce) {
  ArrivalSignal signal;
  std::thread stopper([&signal] {
    std::this_thread::sleep_for(20ms);
    signal.interrupt();
  });
  const auto deadline = Clock::now() + 60s;
  EXPECT_TRUE(signal.wait_until(deadline).empty());
  EXPECT_LT(Clock::now(), deadline);
  stopper.join();
  // Interrupted before the wait: that wait returns at once, the next one waits again.
  signal.interrupt();
  EXPECT_TRUE(signal.wait_until(Clock::now() + 60s).empty());
  const auto short_deadline = Clock::now() + 20ms;
  EXPECT_TRUE(signal.wait_until(short_deadline).empty());
  EXPECT_GE(Clock::now(), short_deadline);
}

TEST(ArrivalSignal, AGatherTakesInWhatArrivesSoonAfterTheFirst) {
  ArrivalSignal signal;
  std::thread sources([&signal] {
    signal.notify(3);
    std::this_thread::sleep_for(20ms);
    signal.notify(4);
    signal.notify(5);
  });
  // The first wakes the waiter; the others, 20 ms later, are well within the gather.
  EXPECT_EQ(signal.wait_until(Clock::now() + 60s, 1s), (std::vector<std::size_t>{3, 4, 5}));
  sources.join();
}

TEST(ArrivalSignal, AGatherEndsAtTheDeadlineOrAnInterrupt) {
  ArrivalSignal signal;
  signal.notify(1);
  const auto deadline = Clock::now() + 50ms;
  EXPECT_EQ(signal.wait_until(deadline, 60s), (std::vector<std::size_t>{1}));
  EXPECT_LT(Clock::now(), deadline + 30s) << "not the gather's 60 s";

  signal.notify(2);
  std::thread stopper([&signal] {
    std::this_thread::sleep_for(20ms);
    signal.interrupt();
  });
  const auto started = Clock::now();
  EXPECT_EQ(signal.wait_until(Clock::now() + 60s, 60s), (std::vector<std::size_t>{2}));
  EXPECT_LT(Clock::now() - started, 30s) << "the interrupt ends the gather";
  stopper.join();
}

}  // namespace
}  // namespace iomark::protocol
