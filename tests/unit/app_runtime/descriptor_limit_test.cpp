#include "iomark/app_runtime/descriptor_limit.hpp"

#include <gtest/gtest.h>
#include <sys/resource.h>

#include <cstdlib>

namespace iomark::app_runtime {
namespace {

TEST(DescriptorLimit, RaisesTheSoftLimitToTheHardOne) {
  GTEST_FLAG_SET(death_test_style, "threadsafe");
  // In a child: the limit is process-wide. A soft limit lowered below the hard one comes back up.
  EXPECT_EXIT(
      {
        rlimit limit{};
        if (getrlimit(RLIMIT_NOFILE, &limit) != 0 || limit.rlim_max < 64) std::exit(2);
        limit.rlim_cur = 32;
        if (setrlimit(RLIMIT_NOFILE, &limit) != 0) std::exit(3);
        const auto raised = raise_descriptor_limit();
        if (!raised) std::exit(4);
        rlimit now{};
        getrlimit(RLIMIT_NOFILE, &now);
        std::exit(raised->soft == limit.rlim_max && raised->hard == limit.rlim_max && now.rlim_cur == limit.rlim_max
                      ? 0
                      : 5);
      },
      ::testing::ExitedWithCode(0), "");
}

TEST(DescriptorLimit, EnoughForTheManagersSaysNothing) {
  EXPECT_EQ(descriptor_shortfall({4096, 4096}, 1024), std::nullopt);
  EXPECT_EQ(descriptor_shortfall({1024 + kDescriptorsBesidesConnections, 1 << 20}, 1024), std::nullopt);
}

TEST(DescriptorLimit, AHardLimitBelowTheNeedIsNamedWithTheWayToRaiseIt) {
  const auto said = descriptor_shortfall({1024, 1024}, 1024);
  ASSERT_TRUE(said);
  EXPECT_NE(said->find("1024 managers need about 1088 open files"), std::string::npos) << *said;
  EXPECT_NE(said->find("hard limit is 1024"), std::string::npos) << *said;
  EXPECT_NE(said->find("ulimit -Hn"), std::string::npos) << *said;
}

TEST(DescriptorLimit, ASoftLimitThatCouldNotBeRaisedIsNamed) {
  const auto said = descriptor_shortfall({1024, 1 << 20}, 2000);
  ASSERT_TRUE(said);
  EXPECT_NE(said->find("RLIMIT_NOFILE allows 1024"), std::string::npos) << *said;
  EXPECT_EQ(said->find("hard limit is"), std::string::npos) << *said;
}

}  // namespace
}  // namespace iomark::app_runtime
