#include "iomark/common/io_clock.hpp"

#include <gtest/gtest.h>
#include <pthread.h>
#include <sched.h>

#include <cstdint>
#include <thread>

#include "iomark/common/cpu_affinity.hpp"

namespace iomark {
namespace {

// A machine whose true time advances 10 ns with every read of either source, and whose tick
// counter runs at 3 ticks per ns from an offset that a test can move (a jump).
struct FakeTime {
  static inline std::uint64_t true_ns = 0;
  static inline std::uint64_t tick_offset = 0;
  static inline std::uint64_t ticks_per_ns = 3;
  static inline int monotonic_reads = 0;
  static inline bool ticks_go_backwards = false;
  static inline std::uint64_t backwards_ticks = 1ULL << 40;

  static std::uint64_t ticks() noexcept {
    true_ns += 10;
    if (ticks_go_backwards) return backwards_ticks -= 1000;
    return tick_offset + true_ns * ticks_per_ns;
  }
  static std::uint64_t monotonic_ns() noexcept {
    true_ns += 10;
    ++monotonic_reads;
    return true_ns;
  }
  static void reset() {
    true_ns = 1'000'000'000;
    tick_offset = 123'456;
    ticks_per_ns = 3;
    monotonic_reads = 0;
    ticks_go_backwards = false;
  }
};

using FakeClock = BasicIoClock<FakeTime>;

class IoClockTest : public ::testing::Test {
 protected:
  void SetUp() override { FakeTime::reset(); }

  struct Run {
    std::uint64_t worst_ns{};  // the largest distance of a stamp from the true time
    int stamps{};
    std::uint64_t first_ns{};
    bool went_back{};
    bool left_ticks{};  // reads_ticks() was false after some stamp
  };

  // Calls now_ns() every `step_ns` of true time for `span_ns`.
  static Run run_for(FakeClock& clock, std::uint64_t span_ns, std::uint64_t step_ns) {
    Run run;
    std::uint64_t previous = 0;
    const auto until = FakeTime::true_ns + span_ns;
    while (FakeTime::true_ns < until) {
      FakeTime::true_ns += step_ns;
      const auto before = FakeTime::true_ns;
      const auto stamp = clock.now_ns();
      const auto after = FakeTime::true_ns;
      const auto distance = stamp < before ? before - stamp : stamp > after ? stamp - after : 0;
      if (distance > run.worst_ns) run.worst_ns = distance;
      if (run.stamps == 0) run.first_ns = stamp;
      if (stamp < previous) run.went_back = true;
      previous = stamp;
      if (!clock.reads_ticks()) run.left_ticks = true;
      ++run.stamps;
    }
    return run;
  }
};

TEST_F(IoClockTest, WithoutTicksEveryStampReadsTheMonotonicClock) {
  FakeClock clock(false);
  const auto run = run_for(clock, 50'000'000, 5'000);
  EXPECT_EQ(run.worst_ns, 0U);
  EXPECT_EQ(FakeTime::monotonic_reads, run.stamps);
  EXPECT_FALSE(clock.reads_ticks());
}

TEST_F(IoClockTest, TrustsTicksAfterTenMillisecondsAndThenReadsTheMonotonicClockOnlyToReanchor) {
  FakeClock clock(true);
  EXPECT_LE(run_for(clock, FakeClock::kCalibrationNs - 100'000, 5'000).worst_ns, 30U);
  EXPECT_FALSE(clock.reads_ticks());
  run_for(clock, 200'000, 5'000);
  ASSERT_TRUE(clock.reads_ticks());

  // 100 ms of stamps every 5 µs: 20,000 stamps, about one re-anchoring (three pairs) per 10 ms.
  FakeTime::monotonic_reads = 0;
  const auto run = run_for(clock, 100'000'000, 5'000);
  EXPECT_LE(run.worst_ns, 30U);
  EXPECT_FALSE(run.left_ticks);
  EXPECT_GE(FakeTime::monotonic_reads, 27);
  EXPECT_LE(FakeTime::monotonic_reads, 33);
}

TEST_F(IoClockTest, TicksThatJumpAreCaughtAtOnceAndTheClockRecalibrates) {
  FakeClock clock(true);
  run_for(clock, 20'000'000, 5'000);
  ASSERT_TRUE(clock.reads_ticks());
  const auto before_jump = clock.now_ns();

  FakeTime::tick_offset += 3'000'000'000;  // one second of ticks, as after a migration
  const auto after_jump = clock.now_ns();
  EXPECT_FALSE(clock.reads_ticks());
  EXPECT_GE(after_jump, before_jump);
  EXPECT_LE(after_jump, FakeTime::true_ns);  // the monotonic clock's time, not a second on

  EXPECT_LE(run_for(clock, 20'000'000, 5'000).worst_ns, 30U);
  EXPECT_TRUE(clock.reads_ticks());
}

// Ticks 200 µs ahead or behind: less than a re-anchoring interval, so only the next
// re-anchoring can see it; times never go back meanwhile, and are right again after it.
TEST_F(IoClockTest, ASmallJumpIsCaughtAtTheNextReanchoringAndTimesNeverGoBack) {
  for (const bool ahead : {true, false}) {
    FakeTime::reset();
    FakeClock clock(true);
    run_for(clock, 20'000'000, 5'000);
    ASSERT_TRUE(clock.reads_ticks());
    const auto before_jump = clock.now_ns();
    if (ahead) {
      FakeTime::tick_offset += 3 * 200'000;
    } else {
      FakeTime::tick_offset -= 3 * 200'000;
    }
    const auto until_caught = run_for(clock, FakeClock::kReanchorNs + 100'000, 5'000);
    EXPECT_TRUE(until_caught.left_ticks) << (ahead ? "ahead" : "behind");
    EXPECT_GE(until_caught.first_ns, before_jump);
    EXPECT_FALSE(until_caught.went_back);
    const auto after = run_for(clock, 30'000'000, 5'000);
    EXPECT_FALSE(after.went_back);
    EXPECT_TRUE(clock.reads_ticks());
    EXPECT_LE(run_for(clock, 20'000'000, 5'000).worst_ns, 30U);
  }
}

TEST_F(IoClockTest, FollowsADifferentTickRate) {
  FakeTime::ticks_per_ns = 1;
  FakeClock clock(true);
  run_for(clock, 20'000'000, 5'000);
  ASSERT_TRUE(clock.reads_ticks());
  EXPECT_LE(run_for(clock, 50'000'000, 7'000).worst_ns, 30U);
}

TEST_F(IoClockTest, TicksThatOnlyGoBackwardsAreGivenUp) {
  FakeTime::ticks_go_backwards = true;
  FakeClock clock(true);
  EXPECT_EQ(run_for(clock, 1'000'000, 5'000).worst_ns, 0U);
  EXPECT_FALSE(clock.reads_ticks());
  FakeTime::monotonic_reads = 0;
  const auto run = run_for(clock, 1'000'000, 5'000);
  EXPECT_EQ(FakeTime::monotonic_reads, run.stamps);  // one plain read per stamp: no more pairs tried
}

TEST(IoClock, OnAPinnedThreadItKeepsToTheMonotonicClock) {
  std::thread pinned([] {
    ASSERT_EQ(pin_thread_to_cpu(::pthread_self(), static_cast<std::uint32_t>(::sched_getcpu())), 0);
    IoClock clock(has_invariant_tsc());
    const auto give_up = monotonic_now_ns() + 2'000'000'000ULL;
    std::uint64_t previous = 0;
    std::uint64_t stamps = 0;
    std::uint64_t worst_ns = 0;
    while (monotonic_now_ns() < give_up && (stamps < 100'000 || (has_invariant_tsc() && !clock.reads_ticks()))) {
      const auto before = monotonic_now_ns();
      const auto stamp = clock.now_ns();
      const auto after = monotonic_now_ns();
      ASSERT_GE(stamp, previous);
      previous = stamp;
      const auto distance = stamp < before ? before - stamp : stamp > after ? stamp - after : 0;
      if (distance > worst_ns) worst_ns = distance;
      ++stamps;
    }
    EXPECT_EQ(clock.reads_ticks(), has_invariant_tsc());
    EXPECT_LE(worst_ns, FakeClock::kStrayLimitNs);
  });
  pinned.join();
}

}  // namespace
}  // namespace iomark
