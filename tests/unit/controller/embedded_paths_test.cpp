// The one decision of what the embedded agent may touch, shared by `iomark run` and the GUI.
#include "iomark/controller/embedded_paths.hpp"

#include <gtest/gtest.h>

#include <fstream>

#include "scratch_dir.hpp"

namespace iomark::controller {
namespace {

access_specs::Manager manager_with_targets(const std::vector<std::string>& names) {
  access_specs::Manager manager;
  manager.name = "here";
  access_specs::Worker worker;
  worker.name = "Worker 1";
  std::vector<access_specs::Target> targets;
  for (const auto& name : names) {
    access_specs::Target target;
    target.name = name;
    targets.push_back(std::move(target));
  }
  worker.targets = std::move(targets);
  manager.workers.push_back(std::move(worker));
  return manager;
}

TEST(EmbeddedAgentPaths, GrantsTheNamedFilesDevicesDirectoriesAndNewFilesInExistingDirectories) {
  const iomark::test::TempDir scratch;
  const auto file = (scratch.path() / "data.bin").string();
  std::ofstream(file) << "x";
  const auto missing = (scratch.path() / "missing.bin").string();
  const auto directory = scratch.path().string();
  const auto no_directory = (scratch.path() / "no-dir/new.bin").string();
  const auto mount = directory + " [tmpfs]";
  const auto manager =
      manager_with_targets({file, missing, directory, "/dev/null", "sdb", "/no-such-mount [xfs]", no_directory, mount});
  EXPECT_EQ(embedded_agent_paths(manager), (std::vector<std::string>{file, missing, directory, "/dev/null", directory}));
}

TEST(EmbeddedAgentPaths, CollectsEveryManagerOfAPlanInOrder) {
  const iomark::test::TempDir scratch;
  const auto first = (scratch.path() / "first.bin").string();
  const auto second = (scratch.path() / "second.bin").string();
  std::ofstream(first) << "1";
  std::ofstream(second) << "2";
  access_specs::TestPlan plan;
  plan.managers = std::vector{manager_with_targets({second}), manager_with_targets({first, "[*TARGET*]"})};
  EXPECT_EQ(embedded_agent_paths(plan), (std::vector<std::string>{second, first}));
  EXPECT_TRUE(embedded_agent_paths(access_specs::TestPlan{}).empty());
}

TEST(EmbeddedAgentPaths, GrantsCompareWholeComponents) {
  const std::vector<std::string> granted{"/data", "/dev/sdb", "/srv/"};
  EXPECT_TRUE(embedded_agent_grants(granted, "/data"));
  EXPECT_TRUE(embedded_agent_grants(granted, "/data/iobw.tst"));
  EXPECT_TRUE(embedded_agent_grants(granted, "/srv/x"));
  EXPECT_TRUE(embedded_agent_grants(granted, "/dev/sdb"));
  EXPECT_FALSE(embedded_agent_grants(granted, "/data2"));
  EXPECT_FALSE(embedded_agent_grants(granted, "/dev/sdb1"));
  EXPECT_FALSE(embedded_agent_grants(granted, "/"));
  EXPECT_FALSE(embedded_agent_grants({}, "/data"));
}

}  // namespace
}  // namespace iomark::controller
