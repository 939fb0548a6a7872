// Established TCP connections: ordering, large frames, heartbeats, dead peers, a peer that
// stops reading, and closing from either side. Deadlines are shortened to keep the tests
// quick, and asserted only as "it happened within a generous bound".
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <string>
#include <thread>
#include <variant>

#include "iomark/transport/tcp.hpp"
#include "raw_peer.hpp"
#include "test_support.hpp"

namespace iomark::transport::test {
namespace {

using namespace std::chrono_literals;
using Clock = std::chrono::steady_clock;

// A raw peer logged in as agent `name` without a key, and the listener's end of it; the
// members from the failed step on are empty (with a test failure) when a step fails.
struct RawLogin {
  std::unique_ptr<Listener> listener;
  std::unique_ptr<RawPeer> raw;
  std::unique_ptr<protocol::Connection> accepted;
};

RawLogin raw_login(const std::string& name, SessionConfig listening = controller_config(std::nullopt)) {
  RawLogin login;
  login.listener = listen_on_loopback(std::move(listening));
  if (!login.listener) return login;
  login.raw = RawPeer::connect("127.0.0.1", login.listener->port());
  if (!login.raw || !login.raw->handshake_insecure_agent(name)) {
    ADD_FAILURE() << "the raw peer did not log in";
    login.raw.reset();
    return login;
  }
  login.accepted = accept_connection(*login.listener).connection;
  return login;
}

TEST(TcpConnection, ManyFramesBothWaysArriveInOrder) {
  auto pair = connect_pair(controller_config(key_of('k')), agent_config(key_of('k')));
  ASSERT_TRUE(pair.dialed && pair.accepted);
  constexpr std::uint64_t kFrames = 5000;

  const auto pump = [](protocol::Connection& from, protocol::Connection& to, std::uint64_t offset,
                       std::atomic<std::uint64_t>& in_order) {
    std::thread sender([&from, offset] {
      for (std::uint64_t i = 1; i <= kFrames; ++i) {
        if (!from.send(numbered(offset + i))) return;
      }
    });
    for (std::uint64_t i = 1; i <= kFrames; ++i) {
      auto got = to.receive(kWait);
      if (!got || *got != numbered(offset + i)) break;
      in_order = i;
    }
    sender.join();
  };
  std::atomic<std::uint64_t> agent_to_controller{0};
  std::atomic<std::uint64_t> controller_to_agent{0};
  std::thread one([&] { pump(*pair.dialed, *pair.accepted, 0, agent_to_controller); });
  std::thread other([&] { pump(*pair.accepted, *pair.dialed, 1'000'000, controller_to_agent); });
  one.join();
  other.join();
  EXPECT_EQ(agent_to_controller.load(), kFrames);
  EXPECT_EQ(controller_to_agent.load(), kFrames);
}

TEST(TcpConnection, FramesAboveTheHandshakeLimitPassOnceAuthenticated) {
  auto pair = connect_pair(controller_config(key_of('k')), agent_config(key_of('k')));
  ASSERT_TRUE(pair.dialed && pair.accepted);
  protocol::Inventory inventory;
  inventory.host_name = "db1";
  inventory.engines = {"sync"};
  for (int i = 0; i < 4000; ++i) {
    protocol::BlockDevice device;
    device.path = "/dev/disk" + std::to_string(i);
    device.size_bytes = 1ULL << 40;
    device.model = "a model name long enough to add up";
    inventory.block_devices.push_back(device);
  }
  const protocol::Envelope big{.message = inventory};
  ASSERT_GT(protocol::encode_frame(big)->size(), protocol::kMaxHandshakeFrameBytes);
  ASSERT_TRUE(pair.dialed->send(big).has_value());
  auto got = pair.accepted->receive(kWait);
  ASSERT_TRUE(got.has_value()) << got.error().message();
  EXPECT_EQ(*got, big);
}

TEST(TcpConnection, IdleConnectionsExchangeHeartbeatsThatReceiveNeverReturns) {
  auto listening = controller_config(std::nullopt);
  listening.heartbeat_interval = 50ms;
  auto login = raw_login("raw", listening);
  ASSERT_TRUE(login.accepted);

  // The raw peer sees heartbeats with increasing sequence numbers...
  std::uint64_t previous = 0;
  for (int i = 0; i < 3; ++i) {
    auto envelope = login.raw->read_envelope();
    ASSERT_TRUE(envelope.has_value());
    const auto* heartbeat = std::get_if<protocol::Heartbeat>(&envelope->message);
    ASSERT_NE(heartbeat, nullptr) << protocol::message_name(envelope->message);
    EXPECT_GT(heartbeat->sequence, previous);
    previous = heartbeat->sequence;
  }
  // ...and the heartbeats it sends are consumed inside: receive() only sees the Ack.
  ASSERT_TRUE(login.raw->send_envelope(protocol::Envelope{.message = protocol::Heartbeat{1}}));
  ASSERT_TRUE(login.raw->send_envelope(protocol::Envelope{.message = protocol::Heartbeat{2}}));
  ASSERT_TRUE(login.raw->send_envelope(numbered(42)));
  auto got = login.accepted->receive(kWait);
  ASSERT_TRUE(got.has_value()) << got.error().message();
  EXPECT_EQ(*got, numbered(42));
  const auto nothing = login.accepted->receive(0ns);
  ASSERT_FALSE(nothing.has_value());
  EXPECT_EQ(nothing.error().code(), ErrorCode::timed_out);
  EXPECT_TRUE(login.accepted->is_open());
}

// A watched connection signals frames and the peer's going, never a heartbeat: an idle
// agent does not wake the controller that waits on it.
TEST(TcpConnection, AWatchedConnectionSignalsFramesAndThePeersGoingButNotHeartbeats) {
  auto login = raw_login("raw");
  ASSERT_TRUE(login.accepted);
  auto signal = std::make_shared<protocol::ArrivalSignal>();
  ASSERT_TRUE(login.accepted->watch(signal, 7));

  ASSERT_TRUE(login.raw->send_envelope(protocol::Envelope{.message = protocol::Heartbeat{1}}));
  ASSERT_TRUE(login.raw->send_envelope(protocol::Envelope{.message = protocol::Heartbeat{2}}));
  EXPECT_TRUE(signal->wait_until(Clock::now() + 300ms).empty()) << "woken by heartbeats";
  ASSERT_TRUE(login.raw->send_envelope(numbered(42)));
  EXPECT_EQ(signal->wait_until(Clock::now() + kWait), (std::vector<std::size_t>{7}));
  auto got = login.accepted->receive(0ns);
  ASSERT_TRUE(got.has_value()) << got.error().message();
  EXPECT_EQ(*got, numbered(42));

  login.raw.reset();
  EXPECT_EQ(signal->wait_until(Clock::now() + kWait), (std::vector<std::size_t>{7})) << "the peer's going";
  EXPECT_FALSE(login.accepted->receive(0ns).has_value());
}

TEST(TcpConnection, ARawPeerThatGoesSilentIsDeclaredDead) {
  auto listening = controller_config(std::nullopt);
  listening.dead_peer_deadline = 1s;
  auto login = raw_login("quiet", listening);
  ASSERT_TRUE(login.accepted);

  const auto start = Clock::now();
  auto got = login.accepted->receive(kWait);  // the raw peer never sends a heartbeat
  ASSERT_FALSE(got.has_value());
  EXPECT_LT(Clock::now() - start, kWait);
  EXPECT_EQ(got.error().code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(got.error().message(), "agent 'quiet' (127.0.0.1:")) << got.error().message();
  EXPECT_TRUE(contains(got.error().message(), "silent for")) << got.error().message();
  EXPECT_FALSE(login.accepted->is_open());
  EXPECT_TRUE(login.raw->wait_for_close());
}

TEST(TcpConnection, ADialerThatStopsSendingHeartbeatsIsDeclaredDead) {
  auto listening = controller_config(key_of('k'));
  listening.dead_peer_deadline = 1s;
  auto silent_agent = agent_config(key_of('k'));
  silent_agent.heartbeat_interval = std::chrono::hours(1);
  auto pair = connect_pair(listening, silent_agent);
  ASSERT_TRUE(pair.dialed && pair.accepted);

  auto at_controller = pair.accepted->receive(kWait);
  ASSERT_FALSE(at_controller.has_value());
  EXPECT_EQ(at_controller.error().code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(at_controller.error().message(), "silent for")) << at_controller.error().message();
  // The agent learns that the controller let go of it.
  auto at_agent = pair.dialed->receive(kWait);
  ASSERT_FALSE(at_agent.has_value());
  EXPECT_EQ(at_agent.error().code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(at_agent.error().message(), "controller 'ctl'")) << at_agent.error().message();
  EXPECT_TRUE(contains(at_agent.error().message(), "closed")) << at_agent.error().message();
}

TEST(TcpConnection, APeerThatStopsReadingOverflowsTheSendQueueWithANamedError) {
  auto listening = controller_config(key_of('k'));
  listening.receive_queue_limit_bytes = 256 * 1024;  // the controller's user never calls receive()
  auto sending_agent = agent_config(key_of('k'));
  sending_agent.send_queue_limit_bytes = 1024 * 1024;
  auto pair = connect_pair(listening, sending_agent);
  ASSERT_TRUE(pair.dialed && pair.accepted);

  const protocol::Envelope chunk{
      .message = protocol::ErrorReport{protocol::ErrorKind::request_failed,
                                       Error(ErrorCode::io_error, std::string(60 * 1024, 'x'))}};
  std::optional<Error> refused;
  // 60 MB/s, which loopback carries easily: the queue overflows only because the controller
  // stopped reading its socket once its receive queue was full. 300 MB is far more than
  // both kernels' socket buffers and both limits hold.
  for (int i = 0; i < 5'000 && !refused; ++i) {
    if (auto sent = pair.dialed->send(chunk); !sent) refused = sent.error();
    std::this_thread::sleep_for(1ms);
  }
  ASSERT_TRUE(refused.has_value()) << "300 MB went into a peer that does not read";
  EXPECT_EQ(refused->code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(refused->message(), "not reading")) << refused->message();
  EXPECT_TRUE(contains(refused->message(), "controller 'ctl'")) << refused->message();
  EXPECT_FALSE(pair.dialed->is_open());
  // Later sends name the same cause.
  EXPECT_TRUE(contains(pair.dialed->send(numbered(1)).error().message(), "not reading"));

  // The controller still gets what reached it, then the close.
  std::size_t delivered = 0;
  for (;;) {
    auto got = pair.accepted->receive(kWait);
    if (!got) {
      EXPECT_EQ(got.error().code(), ErrorCode::io_error) << got.error().message();
      break;
    }
    EXPECT_EQ(*got, chunk);
    ++delivered;
  }
  EXPECT_GT(delivered, 0U);
}

TEST(TcpConnection, ClosingOneSideDeliversWhatWasSentThenFailsTheOther) {
  auto pair = connect_pair(controller_config(key_of('k')), agent_config(key_of('k')));
  ASSERT_TRUE(pair.dialed && pair.accepted);
  for (std::uint64_t i = 1; i <= 3; ++i) ASSERT_TRUE(pair.dialed->send(numbered(i)).has_value());
  pair.dialed->close("the agent is shutting down");
  EXPECT_FALSE(pair.dialed->is_open());
  const auto after = pair.dialed->send(numbered(4));
  ASSERT_FALSE(after.has_value());
  EXPECT_TRUE(contains(after.error().message(), "the agent is shutting down")) << after.error().message();

  for (std::uint64_t i = 1; i <= 3; ++i) {
    auto got = pair.accepted->receive(kWait);
    ASSERT_TRUE(got.has_value()) << got.error().message();
    EXPECT_EQ(*got, numbered(i));
  }
  auto closed = pair.accepted->receive(kWait);
  ASSERT_FALSE(closed.has_value());
  EXPECT_EQ(closed.error().code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(closed.error().message(), "agent 'db1'")) << closed.error().message();
  EXPECT_TRUE(contains(closed.error().message(), "the peer closed the connection")) << closed.error().message();
}

TEST(TcpConnection, DestroyingOneSideFailsTheOther) {
  auto pair = connect_pair(agent_config(key_of('k')), controller_config(key_of('k')));
  ASSERT_TRUE(pair.dialed && pair.accepted);
  pair.accepted.reset();  // the listening agent's process lets go
  auto got = pair.dialed->receive(kWait);
  ASSERT_FALSE(got.has_value());
  EXPECT_EQ(got.error().code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(got.error().message(), "agent 'db1'")) << got.error().message();
}

TEST(TcpConnection, CloseWakesAPendingReceiveWithTheReason) {
  auto pair = connect_pair(controller_config(std::nullopt), agent_config(std::nullopt));
  ASSERT_TRUE(pair.dialed && pair.accepted);
  std::optional<Result<protocol::Envelope>> outcome;
  std::thread waiter([&] { outcome = pair.accepted->receive(kWait); });
  std::this_thread::sleep_for(50ms);
  pair.accepted->close("run aborted");
  waiter.join();
  ASSERT_TRUE(outcome.has_value());
  ASSERT_FALSE(outcome->has_value());
  EXPECT_TRUE(contains(outcome->error().message(), "run aborted")) << outcome->error().message();
  pair.accepted->close("again");  // idempotent: the first reason stays
  EXPECT_TRUE(contains(pair.accepted->receive(0ns).error().message(), "run aborted"));
}

TEST(TcpConnection, AFrameThatBreaksTheProtocolClosesWithANamedErrorSentToThePeer) {
  auto login = raw_login("broken");
  ASSERT_TRUE(login.accepted);
  ASSERT_TRUE(login.raw->send_envelope(numbered(1)));
  ASSERT_TRUE(login.raw->send_text("IOMX and then some"));

  auto first = login.accepted->receive(kWait);
  ASSERT_TRUE(first.has_value()) << first.error().message();
  EXPECT_EQ(*first, numbered(1));
  auto broken = login.accepted->receive(kWait);
  ASSERT_FALSE(broken.has_value());
  EXPECT_EQ(broken.error().code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(broken.error().message(), "protocol violation: bad magic")) << broken.error().message();

  // The raw peer was told why before the close.
  std::optional<protocol::ErrorReport> report;
  while (auto envelope = login.raw->read_envelope()) {
    if (auto* error = std::get_if<protocol::ErrorReport>(&envelope->message)) report = *error;
  }
  ASSERT_TRUE(report.has_value());
  EXPECT_EQ(report->kind, protocol::ErrorKind::protocol_violation);
  EXPECT_TRUE(contains(report->error.message(), "bad magic")) << report->error.message();
}

}  // namespace
}  // namespace iomark::transport::test
