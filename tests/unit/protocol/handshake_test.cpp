#include "iomark/protocol/handshake.hpp"

#include <gtest/gtest.h>

#include <string>

namespace iomark::protocol {
namespace {

Hello agent(std::uint32_t min, std::uint32_t max, AuthMode mode = AuthMode::pre_shared_key) {
  return Hello{min, max, "iomark 0.3.0", Role::agent, "db1", "10.0.0.5", mode};
}

Hello controller(std::uint32_t min, std::uint32_t max, AuthMode mode = AuthMode::pre_shared_key) {
  return Hello{min, max, "iomark 0.1.0", Role::controller, "ctl", "", mode};
}

bool contains(const std::string& text, std::string_view part) { return text.find(part) != std::string::npos; }

TEST(Handshake, MakeHelloUsesThisBuildsVersions) {
  const auto hello = make_hello(Role::agent, "iomark 0.1.0", "db1", "10.0.0.5", AuthMode::none);
  EXPECT_EQ(hello.min_version, kMinProtocolVersion);
  EXPECT_EQ(hello.max_version, kMaxProtocolVersion);
  EXPECT_EQ(hello.auth_mode, AuthMode::none);
  EXPECT_EQ(hello.name, "db1");
}

TEST(Handshake, PicksTheHighestCommonVersion) {
  const auto agreed = agree(controller(1, 3), agent(2, 5));
  ASSERT_TRUE(agreed.has_value());
  EXPECT_EQ(agreed->version, 3U);
  EXPECT_EQ(agreed->auth_mode, AuthMode::pre_shared_key);
  EXPECT_EQ(agree(agent(2, 5), controller(1, 3)), agreed);  // both sides agree on the same
  EXPECT_EQ(agree(agent(1, 1, AuthMode::none), controller(1, 1, AuthMode::none))->auth_mode, AuthMode::none);
}

TEST(Handshake, VersionMismatchNamesBothSides) {
  const auto refused = agree(controller(1, 1), agent(2, 3));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::version_mismatch);
  EXPECT_EQ(refused.error().error.code(), ErrorCode::unsupported);
  const auto& message = refused.error().error.message();
  EXPECT_TRUE(contains(message, "this controller (iomark 0.1.0) speaks version 1")) << message;
  EXPECT_TRUE(contains(message, "agent 'db1' (iomark 0.3.0) speaks versions 2 to 3")) << message;

  const auto other_side = agree(agent(2, 3), controller(1, 1));
  ASSERT_FALSE(other_side.has_value());
  EXPECT_EQ(other_side.error().kind, ErrorKind::version_mismatch);
}

TEST(Handshake, TwoAgentsAreAProtocolViolation) {
  const auto refused = agree(agent(1, 1), agent(1, 1));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().kind, ErrorKind::protocol_violation);
}

TEST(Handshake, InsecureOnOneSideOnlyIsRefusedOnBoth) {
  const auto at_controller = agree(controller(1, 1), agent(1, 1, AuthMode::none));
  const auto at_agent = agree(agent(1, 1, AuthMode::none), controller(1, 1));
  ASSERT_FALSE(at_controller.has_value());
  ASSERT_FALSE(at_agent.has_value());
  for (const auto* refused : {&at_controller.error(), &at_agent.error()}) {
    EXPECT_EQ(refused->kind, ErrorKind::authentication_failed);
    EXPECT_TRUE(contains(refused->error.message(), "--insecure")) << refused->error.message();
  }
  EXPECT_TRUE(contains(at_controller.error().error.message(), "agent 'db1' (iomark 0.3.0) runs with --insecure"));
  EXPECT_TRUE(contains(at_agent.error().error.message(), "this agent (iomark 0.3.0) runs with --insecure"));
}

}  // namespace
}  // namespace iomark::protocol
