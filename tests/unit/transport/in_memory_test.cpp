// The embedded agent's link: same frames, no socket.
#include "iomark/transport/in_memory.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "iomark/protocol/handshake.hpp"
#include "test_support.hpp"

namespace iomark::transport::test {
namespace {

using namespace std::chrono_literals;

protocol::Hello agent_hello() {
  return protocol::make_hello(protocol::Role::agent, "iomark test-agent", "local", "", protocol::AuthMode::none);
}
protocol::Hello controller_hello() {
  return protocol::make_hello(protocol::Role::controller, "iomark test-controller", "ctl", "", protocol::AuthMode::none);
}

TEST(InMemory, BothEndsKnowTheirPeer) {
  auto pair = make_in_memory_pair(agent_hello(), controller_hello());
  ASSERT_TRUE(pair.has_value()) << pair.error().message();
  const auto& controller = pair->agent_end->peer();
  EXPECT_EQ(controller.role, protocol::Role::controller);
  EXPECT_EQ(controller.name, "ctl");
  EXPECT_EQ(controller.endpoint, "in-process");
  EXPECT_EQ(controller.auth_mode, protocol::AuthMode::none);
  EXPECT_EQ(controller.protocol_version, protocol::kMaxProtocolVersion);
  const auto& agent = pair->controller_end->peer();
  EXPECT_EQ(agent.role, protocol::Role::agent);
  EXPECT_EQ(agent.name, "local");
  EXPECT_EQ(agent.build, "iomark test-agent");
}

TEST(InMemory, RoundTripsInOrderBothWays) {
  auto pair = make_in_memory_pair(agent_hello(), controller_hello());
  ASSERT_TRUE(pair.has_value());
  std::thread controller([&] {
    for (std::uint64_t i = 1; i <= 1000; ++i) ASSERT_TRUE(pair->controller_end->send(numbered(i)).has_value());
  });
  for (std::uint64_t i = 1; i <= 1000; ++i) {
    auto got = pair->agent_end->receive(kWait);
    ASSERT_TRUE(got.has_value()) << got.error().message();
    ASSERT_EQ(*got, numbered(i));
  }
  controller.join();
  protocol::Inventory local;
  local.host_name = "local";
  local.engines = {"null"};
  const protocol::Envelope inventory{.request_id = 3, .message = local};
  ASSERT_TRUE(pair->agent_end->send(inventory).has_value());
  auto got = pair->controller_end->receive(kWait);
  ASSERT_TRUE(got.has_value()) << got.error().message();
  EXPECT_EQ(*got, inventory);
  EXPECT_EQ(pair->controller_end->receive(0ns).error().code(), ErrorCode::timed_out);
}

TEST(InMemory, FramesAreCheckedLikeTcp) {
  auto pair = make_in_memory_pair(agent_hello(), controller_hello());
  ASSERT_TRUE(pair.has_value());
  // An invalid message (no engines) is encoded as is and refused by the receiving decoder.
  protocol::Inventory without_engines;
  without_engines.host_name = "local";
  ASSERT_TRUE(pair->agent_end->send(protocol::Envelope{.message = without_engines}));
  const auto refused = pair->controller_end->receive(kWait);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::io_error);
  EXPECT_NE(refused.error().message().find("protocol violation"), std::string::npos) << refused.error().message();
  EXPECT_FALSE(pair->controller_end->is_open());
  EXPECT_FALSE(pair->agent_end->is_open());
}

TEST(InMemory, ClosingOneEndDeliversWhatWasSentThenFailsTheOther) {
  auto pair = make_in_memory_pair(agent_hello(), controller_hello());
  ASSERT_TRUE(pair.has_value());
  ASSERT_TRUE(pair->agent_end->send(numbered(1)).has_value());
  pair->agent_end->close("agent stopping");
  EXPECT_FALSE(pair->agent_end->is_open());
  EXPECT_NE(pair->agent_end->send(numbered(2)).error().message().find("agent stopping"), std::string::npos);

  auto got = pair->controller_end->receive(kWait);
  ASSERT_TRUE(got.has_value()) << got.error().message();
  EXPECT_EQ(*got, numbered(1));
  const auto closed = pair->controller_end->receive(kWait);
  ASSERT_FALSE(closed.has_value());
  EXPECT_EQ(closed.error().code(), ErrorCode::io_error);
  EXPECT_NE(closed.error().message().find("agent 'local' (in-process): the peer closed"), std::string::npos)
      << closed.error().message();
  EXPECT_FALSE(pair->controller_end->send(numbered(3)).has_value());
}

// A watched end tells its signal of what waits already, of each frame sent to it and of the
// close; a frame it sends itself is the other end's news, not its own.
TEST(InMemory, AWatchedEndSignalsFramesAndTheClose) {
  auto pair = make_in_memory_pair(agent_hello(), controller_hello());
  ASSERT_TRUE(pair.has_value());
  const auto soon = [] { return protocol::ArrivalSignal::Clock::now() + 20ms; };
  ASSERT_TRUE(pair->agent_end->send(numbered(1)).has_value());
  auto signal = std::make_shared<protocol::ArrivalSignal>();
  ASSERT_TRUE(pair->controller_end->watch(signal, 5));
  EXPECT_EQ(signal->wait_until(soon()), (std::vector<std::size_t>{5})) << "a frame was waiting";
  ASSERT_TRUE(pair->controller_end->receive(kWait).has_value());
  ASSERT_TRUE(pair->controller_end->send(numbered(2)).has_value());
  EXPECT_TRUE(signal->wait_until(soon()).empty());
  ASSERT_TRUE(pair->agent_end->send(numbered(3)).has_value());
  EXPECT_EQ(signal->wait_until(soon()), (std::vector<std::size_t>{5}));
  pair->agent_end->close("agent stopping");
  EXPECT_EQ(signal->wait_until(soon()), (std::vector<std::size_t>{5})) << "the close";
}

TEST(InMemory, DestroyingAnEndWakesAPendingReceive) {
  auto pair = make_in_memory_pair(agent_hello(), controller_hello());
  ASSERT_TRUE(pair.has_value());
  std::optional<Result<protocol::Envelope>> outcome;
  std::thread waiter([&] { outcome = pair->agent_end->receive(kWait); });
  std::this_thread::sleep_for(20ms);
  pair->controller_end.reset();
  waiter.join();
  ASSERT_TRUE(outcome.has_value());
  ASSERT_FALSE(outcome->has_value());
  EXPECT_NE(outcome->error().message().find("controller 'ctl' (in-process)"), std::string::npos)
      << outcome->error().message();
}

TEST(InMemory, APeerThatDoesNotReadClosesTheLinkWithANamedError) {
  auto pair = make_in_memory_pair(agent_hello(), controller_hello(), 4096);
  ASSERT_TRUE(pair.has_value());
  std::optional<Error> refused;
  for (std::uint64_t i = 1; i <= 10'000 && !refused; ++i) {
    if (auto sent = pair->controller_end->send(numbered(i)); !sent) refused = sent.error();
  }
  ASSERT_TRUE(refused.has_value());
  EXPECT_NE(refused->message().find("not reading"), std::string::npos) << refused->message();
  EXPECT_FALSE(pair->agent_end->is_open());
}

TEST(InMemory, RefusesKeysAndMismatchedHellos) {
  auto keyed = agent_hello();
  keyed.auth_mode = protocol::AuthMode::pre_shared_key;
  const auto with_key = make_in_memory_pair(keyed, controller_hello());
  ASSERT_FALSE(with_key.has_value());
  EXPECT_EQ(with_key.error().code(), ErrorCode::invalid_argument);

  auto future = agent_hello();
  future.min_version = future.max_version = 9;
  const auto mismatch = make_in_memory_pair(future, controller_hello());
  ASSERT_FALSE(mismatch.has_value());
  EXPECT_EQ(mismatch.error().code(), ErrorCode::unsupported);
  EXPECT_NE(mismatch.error().message().find("speaks version 9"), std::string::npos) << mismatch.error().message();

  EXPECT_FALSE(make_in_memory_pair(controller_hello(), controller_hello()).has_value());
}

}  // namespace
}  // namespace iomark::transport::test
