// What the inventory says about `auto`'s measurements: grouping per target, order, limits.
#include "iomark/agent/engine_inventory.hpp"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "iomark/agent/inventory.hpp"
#include "iomark/protocol/codec.hpp"

namespace iomark::agent {
namespace {

using engine::EngineKind;

engine::MeasuredChoice measured(std::string path, std::uint64_t inode, std::uint32_t depth, std::uint32_t block_bytes,
                                EngineKind chosen, std::vector<EngineKind> usable) {
  const engine::EngineChoiceKey key{1, inode, 0, "6.1.0", depth, block_bytes};
  return {key, std::move(path),
          {chosen, engine::RingSetup::standard, std::string(engine::to_string(chosen)) + " won", std::move(usable)}};
}

TEST(TargetEngines, GroupsChoicesPerTargetSortedByDepthThenSize) {
  const std::vector<engine::MeasuredChoice> choices{
      measured("/dev/zram0", 7, 32, 4096, EngineKind::linux_aio, {EngineKind::linux_aio, EngineKind::sync}),
      measured("/srv/iobw.tst", 9, 1, 8192, EngineKind::io_uring, {EngineKind::io_uring, EngineKind::sync}),
      measured("/dev/zram0", 7, 1, 8192, EngineKind::sync, {EngineKind::sync, EngineKind::threadpool}),
      measured("/dev/zram0", 7, 1, 4096, EngineKind::sync, {EngineKind::io_uring, EngineKind::sync}),
  };
  const auto targets = target_engines(choices);
  ASSERT_EQ(targets.size(), 2U);
  EXPECT_EQ(targets[0].path, "/dev/zram0");
  // Every engine that read at any depth, in probe order.
  EXPECT_EQ(targets[0].usable_engines, (std::vector<std::string>{"io_uring", "linux-aio", "threadpool", "sync"}));
  const std::vector<protocol::EngineChoice> expected{
      {1, 4096, "sync", "sync won"}, {1, 8192, "sync", "sync won"}, {32, 4096, "linux-aio", "linux-aio won"}};
  EXPECT_EQ(targets[0].choices, expected);
  EXPECT_EQ(targets[1].path, "/srv/iobw.tst");
  EXPECT_EQ(targets[1].usable_engines, (std::vector<std::string>{"io_uring", "sync"}));
  EXPECT_EQ(targets[1].choices, (std::vector<protocol::EngineChoice>{{1, 8192, "io_uring", "io_uring won"}}));
}

TEST(TargetEngines, NothingMeasuredIsAnEmptyList) { EXPECT_TRUE(target_engines({}).empty()); }

TEST(FitTargetEngines, RepairsOrDropsWhatTheDecoderWouldRefuse) {
  std::vector<protocol::TargetEngines> targets{
      {"relative/path", {"sync"}, {{1, 4096, "sync", "ok"}}},
      {"/dev/a", {"sync", "Bad Name"}, {{0, 4096, "sync", "depth 0"}, {1, 4096, "sync", "line\nbreak \xff"}}},
      {"/dev/b", {"sync"}, {{1, 4096, "NOT an engine", "dropped"}}},
      {"/dev/c", {"sync"}, {{1, 4096, "sync", std::string(protocol::kMaxEngineReasonBytes + 10, 'r')}}},
  };
  fit_target_engines(targets);
  ASSERT_EQ(targets.size(), 2U);
  EXPECT_EQ(targets[0].path, "/dev/a");
  EXPECT_EQ(targets[0].usable_engines, std::vector<std::string>{"sync"});
  ASSERT_EQ(targets[0].choices.size(), 1U);
  EXPECT_EQ(targets[0].choices[0].reason, "line break ?");
  EXPECT_EQ(targets[1].choices[0].reason.size(), protocol::kMaxEngineReasonBytes);
  const auto again = targets;
  fit_target_engines(targets);
  EXPECT_EQ(targets, again);
}

TEST(FitToLimits, AnInventoryWithManyMeasuredTargetsStillDecodes) {
  protocol::Inventory inventory;
  inventory.host_name = "agent";
  inventory.engines = {"sync", "null"};
  std::vector<engine::MeasuredChoice> choices;
  for (std::uint64_t target = 0; target < protocol::kMaxTargetEngines + 20; ++target) {
    for (std::uint32_t depth = 1; depth <= protocol::kMaxEngineChoices + 2; ++depth) {
      choices.push_back(measured("/dev/t" + std::to_string(target), target, depth, 4096, EngineKind::sync,
                                 {EngineKind::sync}));
    }
  }
  inventory.target_engines = target_engines(choices);
  fit_to_limits(inventory);
  EXPECT_EQ(inventory.target_engines.size(), protocol::kMaxTargetEngines);
  EXPECT_EQ(inventory.target_engines.front().choices.size(), protocol::kMaxEngineChoices);
  const auto decoded = protocol::decode(protocol::encode(protocol::Envelope{0, 0, inventory}));
  ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
  EXPECT_EQ(std::get<protocol::Inventory>(decoded->message), inventory);
}

}  // namespace
}  // namespace iomark::agent
