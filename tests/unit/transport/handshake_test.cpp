// Session establishment over real loopback TCP: both directions, authentication, and every
// way a handshake is refused (both sides must get a readable error, nobody a connection).
#include <gtest/gtest.h>

#include <algorithm>
#include <chrono>
#include <string>
#include <variant>

#include "iomark/protocol/handshake.hpp"
#include "iomark/transport/tcp.hpp"
#include "test_support.hpp"

namespace iomark::transport::test {
namespace {

using namespace std::chrono_literals;

// Sends one envelope each way and checks it arrives unchanged.
void expect_round_trip(protocol::Connection& a, protocol::Connection& b) {
  ASSERT_TRUE(a.send(numbered(7)).has_value());
  auto at_b = b.receive(kWait);
  ASSERT_TRUE(at_b.has_value()) << at_b.error().message();
  EXPECT_EQ(*at_b, numbered(7));
  ASSERT_TRUE(b.send(numbered(8)).has_value());
  auto at_a = a.receive(kWait);
  ASSERT_TRUE(at_a.has_value()) << at_a.error().message();
  EXPECT_EQ(*at_a, numbered(8));
}

TEST(TcpHandshake, ControllerListensAndAnAgentDialsWithAKey) {
  auto pair = connect_pair(controller_config(key_of('k')), agent_config(key_of('k')));
  ASSERT_TRUE(pair.dialed && pair.accepted);

  const auto& agent = pair.accepted->peer();  // the controller's view of the agent
  EXPECT_EQ(agent.role, protocol::Role::agent);
  EXPECT_EQ(agent.name, "db1");
  EXPECT_EQ(agent.address, "10.0.0.5");
  EXPECT_EQ(agent.build, "iomark test-agent");
  EXPECT_EQ(agent.auth_mode, protocol::AuthMode::pre_shared_key);
  EXPECT_EQ(agent.protocol_version, protocol::kMaxProtocolVersion);
  EXPECT_TRUE(agent.endpoint.starts_with("127.0.0.1:")) << agent.endpoint;

  const auto& controller = pair.dialed->peer();  // the agent's view of the controller
  EXPECT_EQ(controller.role, protocol::Role::controller);
  EXPECT_EQ(controller.name, "ctl");
  EXPECT_EQ(controller.endpoint, "127.0.0.1:" + std::to_string(pair.listener->port()));
  EXPECT_EQ(controller.auth_mode, protocol::AuthMode::pre_shared_key);

  expect_round_trip(*pair.dialed, *pair.accepted);
}

TEST(TcpHandshake, AgentListensAndTheControllerDialsWithAKey) {
  auto pair = connect_pair(agent_config(key_of('z')), controller_config(key_of('z')));
  ASSERT_TRUE(pair.dialed && pair.accepted);
  EXPECT_EQ(pair.dialed->peer().role, protocol::Role::agent);
  EXPECT_EQ(pair.dialed->peer().name, "db1");
  EXPECT_EQ(pair.accepted->peer().role, protocol::Role::controller);
  EXPECT_EQ(pair.accepted->peer().auth_mode, protocol::AuthMode::pre_shared_key);
  expect_round_trip(*pair.dialed, *pair.accepted);
}

TEST(TcpHandshake, InsecureOnBothSidesWorksWithoutAKey) {
  auto pair = connect_pair(controller_config(std::nullopt), agent_config(std::nullopt));
  ASSERT_TRUE(pair.dialed && pair.accepted);
  EXPECT_EQ(pair.accepted->peer().auth_mode, protocol::AuthMode::none);
  EXPECT_EQ(pair.dialed->peer().auth_mode, protocol::AuthMode::none);
  expect_round_trip(*pair.dialed, *pair.accepted);
}

TEST(TcpHandshake, WrongKeyFailsOnBothSidesAndNothingGetsThrough) {
  auto listener = listen_on_loopback(controller_config(key_of('a')));
  ASSERT_TRUE(listener);
  auto dialed = dial(address_of(*listener), agent_config(key_of('b')));
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(dialed.error().code(), ErrorCode::validation_error);
  EXPECT_TRUE(contains(dialed.error().message(), "authentication failed")) << dialed.error().message();
  EXPECT_TRUE(contains(dialed.error().message(), "another key")) << dialed.error().message();
  EXPECT_TRUE(contains(dialed.error().message(), "controller 'ctl'")) << dialed.error().message();

  const auto failure = accept_failure(*listener);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->code(), ErrorCode::validation_error);
  EXPECT_TRUE(contains(failure->message(), "authentication failed")) << failure->message();
  EXPECT_TRUE(contains(failure->message(), "agent 'db1' (127.0.0.1:")) << failure->message();
  // No connection was handed out for it.
  const auto nothing = listener->accept(200ms);
  ASSERT_FALSE(nothing.has_value());
  EXPECT_EQ(nothing.error().code(), ErrorCode::timed_out);
}

TEST(TcpHandshake, InsecureOnOneSideOnlyIsRefusedOnBoth) {
  auto listener = listen_on_loopback(controller_config(key_of('a')));
  ASSERT_TRUE(listener);
  auto dialed = dial(address_of(*listener), agent_config(std::nullopt));
  ASSERT_FALSE(dialed.has_value());
  EXPECT_TRUE(contains(dialed.error().message(), "--insecure")) << dialed.error().message();
  EXPECT_TRUE(contains(dialed.error().message(), "requires a pre-shared key")) << dialed.error().message();

  const auto failure = accept_failure(*listener);
  ASSERT_TRUE(failure);
  EXPECT_TRUE(contains(failure->message(), "--insecure")) << failure->message();
  EXPECT_TRUE(contains(failure->message(), "agent 'db1'")) << failure->message();
  EXPECT_EQ(listener->accept(200ms).error().code(), ErrorCode::timed_out);
}

TEST(TcpHandshake, VersionMismatchNamesBothVersionsOnBothSides) {
  auto listener = listen_on_loopback(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  auto future_agent = agent_config(key_of('k'));
  future_agent.hello.min_version = 7;
  future_agent.hello.max_version = 9;
  auto dialed = dial(address_of(*listener), future_agent);
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(dialed.error().code(), ErrorCode::unsupported);
  const auto& at_agent = dialed.error().message();
  EXPECT_TRUE(contains(at_agent, "speaks versions 7 to 9")) << at_agent;
  EXPECT_TRUE(contains(at_agent, "speaks version 1")) << at_agent;
  EXPECT_TRUE(contains(at_agent, "iomark test-controller")) << at_agent;

  const auto failure = accept_failure(*listener);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->code(), ErrorCode::unsupported);
  EXPECT_TRUE(contains(failure->message(), "speaks versions 7 to 9")) << failure->message();
  EXPECT_TRUE(contains(failure->message(), "speaks version 1")) << failure->message();
  EXPECT_TRUE(contains(failure->message(), "iomark test-agent")) << failure->message();
}

TEST(TcpHandshake, TwoAgentsRefuseEachOther) {
  auto listener = listen_on_loopback(agent_config(key_of('k'), "listening-agent"));
  ASSERT_TRUE(listener);
  auto dialed = dial(address_of(*listener), agent_config(key_of('k')));
  ASSERT_FALSE(dialed.has_value());
  EXPECT_TRUE(contains(dialed.error().message(), "both sides are agents")) << dialed.error().message();
  const auto failure = accept_failure(*listener);
  ASSERT_TRUE(failure);
  EXPECT_TRUE(contains(failure->message(), "both sides are agents")) << failure->message();
}

TEST(TcpHandshake, ABadConfigIsRefusedBeforeAnythingIsSent) {
  auto keyless = agent_config(std::nullopt);
  keyless.hello.auth_mode = protocol::AuthMode::pre_shared_key;
  const auto dialed = dial(HostPort{"127.0.0.1", 1}, keyless);
  ASSERT_FALSE(dialed.has_value());
  EXPECT_EQ(dialed.error().code(), ErrorCode::invalid_argument);
  EXPECT_EQ(dialed.error().field(), "key");

  auto nameless = controller_config(std::nullopt);
  nameless.hello.name.clear();
  const auto listener = Listener::open(HostPort{"127.0.0.1", 0}, nameless);
  ASSERT_FALSE(listener.has_value());
  EXPECT_EQ(listener.error().code(), ErrorCode::invalid_argument);

  auto zero_deadline = controller_config(std::nullopt);
  zero_deadline.dead_peer_deadline = Nanoseconds::zero();
  EXPECT_EQ(validate(zero_deadline).error().field(), "dead_peer_deadline");
  EXPECT_TRUE(validate(controller_config(key_of('k'))).has_value());
}

TEST(TcpHandshake, ManyAgentsConnectToOneListenerAtOnce) {
  auto listener = listen_on_loopback(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  constexpr int kAgents = 8;
  std::vector<std::unique_ptr<protocol::Connection>> agents;
  for (int i = 0; i < kAgents; ++i) {
    auto dialed = dial(address_of(*listener), agent_config(key_of('k'), "agent" + std::to_string(i)));
    ASSERT_TRUE(dialed.has_value()) << dialed.error().message();
    agents.push_back(std::move(*dialed));
  }
  std::vector<std::string> names;
  std::vector<std::unique_ptr<protocol::Connection>> accepted;
  for (int i = 0; i < kAgents; ++i) {
    auto next = accept_connection(*listener);
    ASSERT_TRUE(next.connection);
    names.push_back(next.connection->peer().name);
    accepted.push_back(std::move(next.connection));
  }
  std::sort(names.begin(), names.end());
  for (int i = 0; i < kAgents; ++i) EXPECT_EQ(names[static_cast<std::size_t>(i)], "agent" + std::to_string(i));
  // Each accepted connection talks to its own agent.
  for (auto& connection : accepted) {
    ASSERT_TRUE(connection->send(numbered(1)).has_value());
  }
  for (auto& agent : agents) {
    auto got = agent->receive(kWait);
    ASSERT_TRUE(got.has_value()) << got.error().message();
    EXPECT_EQ(*got, numbered(1));
  }
}

}  // namespace
}  // namespace iomark::transport::test
