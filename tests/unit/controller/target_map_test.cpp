// --map-target: parsing against the plan, the errors for an OLD that matches nothing, and the
// renaming (general and per manager, a manager's own mapping first).
#include "iomark/controller/target_map.hpp"

#include <gtest/gtest.h>

namespace iomark::controller {
namespace {

using namespace access_specs;

Worker worker_on(std::string name, std::vector<std::string> target_names) {
  Worker worker;
  worker.name = std::move(name);
  std::vector<Target> targets;
  for (auto& target : target_names) targets.push_back({std::move(target), WorkerType::disk, std::nullopt, ""});
  worker.targets = std::move(targets);
  return worker;
}

// Two Windows hosts' managers: both have `C: NTFS`, WIN-A also a physical drive.
TestPlan windows_plan() {
  Manager a;
  a.name = "WIN-A";
  a.workers = {worker_on("Worker 1", {"2: \"( SmartModular XR 01\"", "C: NTFS"}), worker_on("Worker 2", {"C: NTFS"})};
  Manager b;
  b.name = "WIN-B";
  b.workers = {worker_on("Worker 1", {"C: NTFS"})};
  TestPlan plan;
  plan.managers = std::vector<Manager>{a, b};
  return plan;
}

std::vector<std::string> target_names(const TestPlan& plan, std::size_t manager, std::size_t worker) {
  std::vector<std::string> names;
  for (const auto& target : *(*plan.managers)[manager].workers[worker].targets) names.push_back(target.name);
  return names;
}

TEST(ParseTargetMap, AColonInsideTheTargetNameIsNotAManager) {
  const auto mapping = parse_target_map("C: NTFS=/srv/bench", windows_plan());
  ASSERT_TRUE(mapping.has_value()) << mapping.error().describe();
  EXPECT_EQ(*mapping, (TargetMapping{"", "C: NTFS", "/srv/bench"}));
  const auto drive = parse_target_map("2: \"( SmartModular XR 01\"=sdb", windows_plan());
  ASSERT_TRUE(drive.has_value()) << drive.error().describe();
  EXPECT_EQ(*drive, (TargetMapping{"", "2: \"( SmartModular XR 01\"", "sdb"}));
}

TEST(ParseTargetMap, AManagerPrefixNamesAPlanManagerIgnoringCase) {
  const auto mapping = parse_target_map("win-b:C: NTFS=/dev/nvme1n1", windows_plan());
  ASSERT_TRUE(mapping.has_value()) << mapping.error().describe();
  EXPECT_EQ(*mapping, (TargetMapping{"WIN-B", "C: NTFS", "/dev/nvme1n1"}));
}

TEST(ParseTargetMap, AnOldThatMatchesNothingIsNamedWithThePlansTargets) {
  const auto missing = parse_target_map("D: NTFS=/srv", windows_plan());
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), ErrorCode::not_found);
  EXPECT_EQ(missing.error().field(), "--map-target");
  EXPECT_EQ(missing.error().message(),
            "the plan has no target 'D: NTFS' (its targets: '2: \"( SmartModular XR 01\"', 'C: NTFS')");

  const auto wrong_manager = parse_target_map("WIN-B:2: \"( SmartModular XR 01\"=sdb", windows_plan());
  ASSERT_FALSE(wrong_manager.has_value());
  EXPECT_EQ(wrong_manager.error().code(), ErrorCode::not_found);
  EXPECT_NE(wrong_manager.error().message().find("the plan's manager 'WIN-B' has no target '2: \"( SmartModular"),
            std::string::npos)
      << wrong_manager.error().message();

  const auto no_targets = parse_target_map("C:=x", TestPlan{});
  ASSERT_FALSE(no_targets.has_value());
  EXPECT_NE(no_targets.error().message().find("(its targets: none)"), std::string::npos);
}

TEST(ParseTargetMap, MalformedTextIsAnInvalidArgument) {
  for (const std::string_view text : {"C: NTFS", "=/srv", "C: NTFS=", ""}) {
    const auto mapping = parse_target_map(text, windows_plan());
    ASSERT_FALSE(mapping.has_value()) << text;
    EXPECT_EQ(mapping.error().code(), ErrorCode::invalid_argument) << text;
    EXPECT_EQ(mapping.error().field(), "--map-target");
  }
}

TEST(MapTargets, RenamesEveryWorkerAndAManagersOwnMappingWins) {
  const std::vector<TargetMapping> mappings{
      {"", "C: NTFS", "/srv/bench"},
      {"WIN-B", "C: NTFS", "/dev/nvme1n1"},
      {"", "2: \"( SmartModular XR 01\"", "sdb"},
  };
  const auto mapped = map_targets(windows_plan(), mappings);
  EXPECT_EQ(target_names(mapped.plan, 0, 0), (std::vector<std::string>{"sdb", "/srv/bench"}));
  EXPECT_EQ(target_names(mapped.plan, 0, 1), (std::vector<std::string>{"/srv/bench"}));
  EXPECT_EQ(target_names(mapped.plan, 1, 0), (std::vector<std::string>{"/dev/nvme1n1"}));
  EXPECT_EQ(mapped.notes, (std::vector<std::string>{
                              "the plan's target 'C: NTFS' runs as '/srv/bench' (--map-target, 2 workers)",
                              "the plan's target 'C: NTFS' on 'WIN-B' runs as '/dev/nvme1n1' (--map-target, 1 worker)",
                              "the plan's target '2: \"( SmartModular XR 01\"' runs as 'sdb' (--map-target, 1 worker)",
                          }));
}

TEST(MapTargets, NoMappingsLeaveThePlanAlone) {
  const auto mapped = map_targets(windows_plan(), {});
  EXPECT_EQ(mapped.plan, windows_plan());
  EXPECT_TRUE(mapped.notes.empty());
}

}  // namespace
}  // namespace iomark::controller
