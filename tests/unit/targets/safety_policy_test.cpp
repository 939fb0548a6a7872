#include "iomark/targets/safety_policy.hpp"

#include <gtest/gtest.h>

#include <filesystem>

#include "support.hpp"

namespace iomark::targets {
namespace {

using test::TempDir;

TEST(SafetyPolicy, DefaultAllowsNothing) {
  const SafetyPolicy policy;
  EXPECT_FALSE(policy.allows("/"));
  EXPECT_FALSE(policy.allows("/tmp/x"));
  EXPECT_EQ(policy.destructive(), Destructive::refuse);
}

TEST(SafetyPolicy, AllowsThePathAndWhatIsBelowItByWholeComponents) {
  TempDir dir;
  std::filesystem::create_directory(dir / "data");
  const std::vector<std::string> allowed{dir / "data"};
  const auto policy = SafetyPolicy::create(allowed, Destructive::refuse).value();
  EXPECT_TRUE(policy.allows(dir / "data"));
  EXPECT_TRUE(policy.allows(dir / "data/file"));
  EXPECT_TRUE(policy.allows(dir / "data/sub/file"));
  EXPECT_FALSE(policy.allows(dir / "data2"));
  EXPECT_FALSE(policy.allows(dir / "dat"));
  EXPECT_FALSE(policy.allows(dir.path()));
}

TEST(SafetyPolicy, AllowedPathsAreResolvedOnce) {
  TempDir dir;
  std::filesystem::create_directory(dir / "real");
  std::filesystem::create_directory_symlink(dir / "real", dir / "link");
  const std::vector<std::string> allowed{dir / "link/../real/."};
  const auto policy = SafetyPolicy::create(allowed, Destructive::allow).value();
  ASSERT_EQ(policy.allowed_paths().size(), 1U);
  EXPECT_EQ(policy.allowed_paths()[0], std::filesystem::canonical(dir / "real").string());
  EXPECT_TRUE(policy.allows(dir / "real/x"));
  EXPECT_EQ(policy.destructive(), Destructive::allow);
}

TEST(SafetyPolicy, AllowingAMissingPathIsAnError) {
  TempDir dir;
  const std::vector<std::string> allowed{dir / "missing"};
  const auto policy = SafetyPolicy::create(allowed, Destructive::refuse);
  ASSERT_FALSE(policy.has_value());
  EXPECT_EQ(policy.error().code(), ErrorCode::not_found);
  EXPECT_NE(policy.error().message().find(dir / "missing"), std::string::npos);
  EXPECT_EQ(policy.error().field(), "--allow");
}

}  // namespace
}  // namespace iomark::targets
