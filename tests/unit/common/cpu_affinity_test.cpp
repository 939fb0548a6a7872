#include "iomark/common/cpu_affinity.hpp"

#include <gtest/gtest.h>
#include <sched.h>

#include <cerrno>
#include <thread>

namespace iomark {
namespace {

TEST(CpuAffinity, PinsAThreadToOneCpuAndRefusesACpuThatDoesNotExist) {
  cpu_set_t allowed;
  ASSERT_EQ(::sched_getaffinity(0, sizeof allowed, &allowed), 0);
  int last_allowed = CPU_SETSIZE - 1;
  while (!CPU_ISSET(last_allowed, &allowed)) --last_allowed;
  std::thread pinned([&] {
    ASSERT_EQ(pin_thread_to_cpu(::pthread_self(), static_cast<std::uint32_t>(last_allowed)), 0);
    cpu_set_t now;
    ASSERT_EQ(::sched_getaffinity(0, sizeof now, &now), 0);
    EXPECT_EQ(CPU_COUNT(&now), 1);
    EXPECT_TRUE(CPU_ISSET(last_allowed, &now));
    EXPECT_EQ(::sched_getcpu(), last_allowed);
    EXPECT_EQ(pin_thread_to_cpu(::pthread_self(), 1U << 20), EINVAL);
  });
  pinned.join();
}

}  // namespace
}  // namespace iomark
