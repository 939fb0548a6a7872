#include "iomark/controller/cycling.hpp"

#include <gtest/gtest.h>

namespace iomark::controller {
namespace {

using access_specs::QueueDepthCycling;
using access_specs::StepType;
using Depths = std::vector<std::uint32_t>;

TEST(QueueDepthSteps, ExponentialFromOne) {
  EXPECT_EQ(queue_depth_steps({1, 32, 2, StepType::exponential}).value(), (Depths{1, 2, 4, 8, 16, 32}));
  EXPECT_EQ(queue_depth_steps({1, 256, 2, StepType::exponential}).value(),
            (Depths{1, 2, 4, 8, 16, 32, 64, 128, 256}));
}

TEST(QueueDepthSteps, ExponentialFromThree) {
  EXPECT_EQ(queue_depth_steps({3, 48, 2, StepType::exponential}).value(), (Depths{3, 6, 12, 24, 48}));
  EXPECT_EQ(queue_depth_steps({3, 47, 2, StepType::exponential}).value(), (Depths{3, 6, 12, 24}));
}

TEST(QueueDepthSteps, LinearAndStepOfOne) {
  EXPECT_EQ(queue_depth_steps({1, 10, 3, StepType::linear}).value(), (Depths{1, 4, 7, 10}));
  // A step of 1 is linear even when EXPONENTIAL is asked for (1^i would never end).
  EXPECT_EQ(queue_depth_steps({2, 5, 1, StepType::exponential}).value(), (Depths{2, 3, 4, 5}));
}

TEST(QueueDepthSteps, ZeroesAreCoercedToOneAsTheGuiDoes) {
  EXPECT_EQ(queue_depth_steps({0, 3, 0, StepType::linear}).value(), (Depths{1, 2, 3}));
}

TEST(QueueDepthSteps, StartBeyondEndMakesNoRun) {
  EXPECT_TRUE(queue_depth_steps({8, 4, 2, StepType::linear}).value().empty());
}

TEST(QueueDepthSteps, RefusesAbsurdSeries) {
  const auto steps = queue_depth_steps({1, 4'000'000'000U, 1, StepType::linear});
  ASSERT_FALSE(steps.has_value());
  EXPECT_NE(steps.error().message().find("more than 4096 runs"), std::string::npos);
}

}  // namespace
}  // namespace iomark::controller
