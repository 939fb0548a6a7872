// The controller's check of a target against an agent's reported write scope.
#include "iomark/controller/target_scope.hpp"

#include <gtest/gtest.h>

namespace iomark::controller {
namespace {

protocol::Inventory allowing(std::vector<std::string> paths) {
  protocol::Inventory inventory;
  inventory.host_name = "db1";
  inventory.allowed_paths = std::move(paths);
  return inventory;
}

TEST(TargetScope, APathNoAllowedEntryCoversIsRefusedNamingAgentPathAndList) {
  const auto inventory = allowing({"/srv/bench/a.dat"});
  const auto refused = check_target_scope("db1", inventory, "/");
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::validation_error);
  EXPECT_EQ(refused.error().field(), "--allow");
  EXPECT_NE(refused.error().message().find("agent db1 refuses /:"), std::string::npos) << refused.error().message();
  EXPECT_NE(refused.error().message().find("(/srv/bench/a.dat)"), std::string::npos) << refused.error().message();
  EXPECT_FALSE(check_target_scope("db1", inventory, "/srv/bench").has_value());
  EXPECT_FALSE(check_target_scope("db1", inventory, "/srv/bench/a.dat2").has_value());
  EXPECT_TRUE(check_target_scope("db1", inventory, "/srv/bench/a.dat").has_value());
}

TEST(TargetScope, WhatOnlyTheAgentCanResolveIsLeftToIt) {
  const auto inventory = allowing({"/data"});
  EXPECT_TRUE(check_target_scope("db1", inventory, "/data/x").has_value());
  EXPECT_TRUE(check_target_scope("db1", inventory, "relative/x").has_value());
  EXPECT_TRUE(check_target_scope("db1", inventory, "/data/../etc").has_value());
  // No allowed paths and no scope reported (a Dynamo, an agent from before the scope): the agent decides.
  EXPECT_TRUE(check_target_scope("dyn", allowing({}), "/").has_value());
}

TEST(TargetScope, AnAgentWithAScopeAndNoAllowEntryRefusesEveryPlainPath) {
  auto inventory = allowing({});
  inventory.write_scope = true;
  const auto refused = check_target_scope("db1", inventory, "/srv/bench/a.dat");
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().field(), "--allow");
  EXPECT_NE(refused.error().message().find("agent db1 refuses /srv/bench/a.dat:"), std::string::npos)
      << refused.error().message();
  EXPECT_TRUE(check_target_scope("db1", inventory, "relative/x").has_value());  // the agent refuses it itself
}

}  // namespace
}  // namespace iomark::controller
