#include "iomark/workload/slot_scheduler.hpp"

#include <gtest/gtest.h>

#include <deque>
#include <random>
#include <vector>

namespace iomark::workload {
namespace {

TEST(SlotScheduler, InitialFifoInterleavesTargetsByDepthLevel) {
  const std::vector<std::uint32_t> depths{3, 1, 2};
  auto scheduler = SlotScheduler::create(depths);
  ASSERT_TRUE(scheduler.has_value());
  EXPECT_EQ(scheduler->slot_count(), 6U);
  std::vector<std::uint32_t> targets;
  while (const auto slot = scheduler->take()) targets.push_back(scheduler->target_of(*slot));
  EXPECT_EQ(targets, (std::vector<std::uint32_t>{0, 1, 2, 0, 2, 0}));
  EXPECT_EQ(scheduler->free_count(), 0U);
  for (std::uint32_t t = 0; t < 3; ++t) EXPECT_EQ(scheduler->taken(t), depths[t]);
}

TEST(SlotScheduler, SlotsReturnToTheTailInCompletionOrder) {
  auto scheduler = SlotScheduler::create(std::vector<std::uint32_t>{2, 2}).value();
  const auto a = *scheduler.take();
  const auto b = *scheduler.take();
  ASSERT_TRUE(scheduler.give_back(b));
  ASSERT_TRUE(scheduler.give_back(a));
  // Untouched slots first, then b and a in the order they completed.
  EXPECT_EQ(scheduler.take(), 2U);
  EXPECT_EQ(scheduler.take(), 3U);
  EXPECT_EQ(scheduler.take(), b);
  EXPECT_EQ(scheduler.take(), a);
  EXPECT_EQ(scheduler.take(), std::nullopt);
}

TEST(SlotScheduler, NeverExceedsDepthAndFollowsAFifoModel) {
  const std::vector<std::uint32_t> depths{4, 1, 7, 2};
  auto scheduler = SlotScheduler::create(depths).value();
  std::deque<std::uint32_t> model;
  for (std::uint32_t s = 0; s < scheduler.slot_count(); ++s) model.push_back(s);
  std::vector<std::uint32_t> in_flight;
  std::mt19937 random(7);
  for (int step = 0; step < 200000; ++step) {
    if (!in_flight.empty() && (model.empty() || random() % 2 == 0)) {
      const std::size_t pick = random() % in_flight.size();
      const std::uint32_t slot = in_flight[pick];
      in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(pick));
      ASSERT_TRUE(scheduler.give_back(slot));
      model.push_back(slot);
    } else {
      const auto slot = scheduler.take();
      ASSERT_TRUE(slot.has_value());
      ASSERT_EQ(*slot, model.front());
      model.pop_front();
      in_flight.push_back(*slot);
    }
    std::vector<std::uint32_t> per_target(depths.size());
    for (const auto slot : in_flight) ++per_target[scheduler.target_of(slot)];
    for (std::size_t t = 0; t < depths.size(); ++t) {
      ASSERT_LE(per_target[t], depths[t]);
      ASSERT_EQ(scheduler.taken(static_cast<std::uint32_t>(t)), per_target[t]);
    }
  }
}

TEST(SlotScheduler, RefusesToTakeBackAFreeOrUnknownSlot) {
  auto scheduler = SlotScheduler::create(std::vector<std::uint32_t>{2}).value();
  EXPECT_FALSE(scheduler.give_back(0));
  EXPECT_FALSE(scheduler.give_back(9));
  const auto slot = *scheduler.take();
  EXPECT_TRUE(scheduler.give_back(slot));
  EXPECT_FALSE(scheduler.give_back(slot));
  EXPECT_EQ(scheduler.free_count(), 2U);
}

TEST(SlotScheduler, RefusesNoTargetsAndZeroDepth) {
  EXPECT_FALSE(SlotScheduler::create(std::vector<std::uint32_t>{}).has_value());
  const auto zero = SlotScheduler::create(std::vector<std::uint32_t>{1, 0});
  ASSERT_FALSE(zero.has_value());
  EXPECT_NE(zero.error().message().find("target 2"), std::string::npos);
}

}  // namespace
}  // namespace iomark::workload
