// A Listener with FirstBytesCheck::on: Dynamo logins go to the handler with nothing of them
// read, or are refused naming why; iomark agents (plain and TLS) still get their sessions on
// the same port; silent, closing and unknown peers fail with named errors.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <deque>
#include <mutex>
#include <optional>
#include <thread>
#include <vector>

#include "iomark/transport/tcp.hpp"
#include "raw_peer.hpp"
#include "test_support.hpp"
#include "tls_test.hpp"

namespace iomark::transport::test {
namespace {

using namespace std::chrono_literals;

// Dynamo 1.1.0's LOGIN Message (purpose 0x10000001, version 0x01000100) and the first bytes
// of the Manager_Info block that follows it.
constexpr std::array<std::byte, 12> kLoginStart{std::byte{0x01}, std::byte{0x00}, std::byte{0x00}, std::byte{0x10},
                                                std::byte{0x00}, std::byte{0x01}, std::byte{0x00}, std::byte{0x01},
                                                std::byte{0x68}, std::byte{0x8f}, std::byte{0x0d}, std::byte{0x00}};

// What the handler was given, in order.
class HandedLogins {
 public:
  LegacyLoginHandler handler() {
    return [this](LegacySocket login) {
      std::lock_guard lock(mutex_);
      logins_.push_back(std::move(login));
      arrived_.notify_all();
    };
  }
  std::optional<LegacySocket> next(Nanoseconds wait = kWait) {
    std::unique_lock lock(mutex_);
    if (!arrived_.wait_for(lock, wait, [this] { return !logins_.empty(); })) return std::nullopt;
    auto login = std::move(logins_.front());
    logins_.pop_front();
    return login;
  }

 private:
  std::mutex mutex_;
  std::condition_variable arrived_;
  std::deque<LegacySocket> logins_;
};

std::unique_ptr<Listener> checking_listener(SessionConfig config) {
  auto listener = Listener::open({"127.0.0.1", 0}, std::move(config), FirstBytesCheck::on);
  if (!listener) {
    ADD_FAILURE() << listener.error().describe();
    return nullptr;
  }
  return std::move(*listener);
}

// A checking listener that hands Dynamo logins to `handed`.
std::unique_ptr<Listener> handing_listener(SessionConfig config, HandedLogins& handed) {
  auto listener = checking_listener(std::move(config));
  if (listener) listener->hand_legacy_logins_to(handed.handler());
  return listener;
}

// The handed socket starts with exactly what the Dynamo sent.
void expect_login_unread(HandedLogins& handed) {
  auto login = handed.next();
  ASSERT_TRUE(login.has_value());
  std::array<std::byte, kLoginStart.size()> got{};
  ASSERT_TRUE(login->receive_exact(got, Clock::now() + kWait).has_value());
  EXPECT_EQ(got, kLoginStart);
}

void expect_agent_session(Listener& listener, const SessionConfig& agent) {
  auto dialed = dial(address_of(listener), agent);
  ASSERT_TRUE(dialed.has_value()) << dialed.error().describe();
  auto accepted = accept_connection(listener);
  ASSERT_TRUE(accepted.connection);
  EXPECT_TRUE(accepted.failures.empty());
  ASSERT_TRUE((*dialed)->send(numbered(7)).has_value());
  auto got = accepted.connection->receive(kWait);
  ASSERT_TRUE(got.has_value()) << got.error().describe();
  EXPECT_EQ(*got, numbered(7));
}

TEST(ListenerFirstBytes, ADynamoLoginIsHandedOverUnreadAndAgentsStillGetSessions) {
  HandedLogins handed;
  auto listener = handing_listener(controller_config(key_of('k')), handed);
  ASSERT_TRUE(listener);
  auto dynamo = RawPeer::connect("127.0.0.1", listener->port());
  ASSERT_TRUE(dynamo && dynamo->send_bytes(kLoginStart));
  expect_agent_session(*listener, agent_config(key_of('k')));
  expect_login_unread(handed);
}

TEST(ListenerFirstBytes, ALoginTrickledOneByteAtATimeIsStillALogin) {
  HandedLogins handed;
  auto listener = handing_listener(controller_config(key_of('k')), handed);
  ASSERT_TRUE(listener);
  auto dynamo = RawPeer::connect("127.0.0.1", listener->port());
  ASSERT_TRUE(dynamo);
  for (const auto byte : kLoginStart) {
    ASSERT_TRUE(dynamo->send_bytes(std::array{byte}));
    std::this_thread::sleep_for(20ms);
  }
  expect_login_unread(handed);
}

TEST(ListenerFirstBytes, WithoutAHandlerALoginIsRefusedNamingWhy) {
  HandedLogins handed;
  auto listener = handing_listener(controller_config(key_of('k')), handed);
  ASSERT_TRUE(listener);
  listener->hand_legacy_logins_to({});  // taken back: refused from now on
  auto dynamo = RawPeer::connect("127.0.0.1", listener->port());
  ASSERT_TRUE(dynamo && dynamo->send_bytes(kLoginStart));
  const auto refused = accept_failure(*listener);
  ASSERT_TRUE(refused);
  EXPECT_EQ(refused->code(), ErrorCode::validation_error);
  EXPECT_TRUE(refused->message().starts_with("127.0.0.1:")) << refused->message();
  EXPECT_TRUE(contains(refused->message(), "refused a Dynamo 1.1.0 login: this port does not accept legacy logins"))
      << refused->message();
  EXPECT_TRUE(dynamo->wait_for_close());
  EXPECT_FALSE(handed.next(0ns).has_value());
  expect_agent_session(*listener, agent_config(key_of('k')));
}

TEST(ListenerFirstBytes, SilentPartialAndClosingPeersAreDroppedWithNamedErrors) {
  auto config = controller_config(key_of('k'));
  config.handshake_timeout = 300ms;
  auto listener = checking_listener(config);
  ASSERT_TRUE(listener);

  expect_silent_peer_dropped(*listener, "sent nothing within 300 ms");

  auto partial = RawPeer::connect("127.0.0.1", listener->port());
  ASSERT_TRUE(partial && partial->send_bytes(std::span(kLoginStart).first(2)));
  const auto stuck = accept_failure(*listener);
  ASSERT_TRUE(stuck);
  EXPECT_TRUE(contains(stuck->message(), "sent only 01 00 within")) << stuck->message();

  RawPeer::connect("127.0.0.1", listener->port()).reset();  // connects and hangs up at once
  const auto closed = accept_failure(*listener);
  ASSERT_TRUE(closed);
  EXPECT_TRUE(contains(closed->message(), "closed the connection without sending anything")) << closed->message();

  expect_agent_session(*listener, agent_config(key_of('k')));
}

TEST(ListenerFirstBytes, UnknownBytesAreRefusedByTheSessionAsBadMagic) {
  auto listener = checking_listener(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  auto raw = RawPeer::connect("127.0.0.1", listener->port());
  ASSERT_TRUE(raw && raw->send_text("GET / HTTP/1.1\r\n\r\n"));
  const auto refused = accept_failure(*listener);
  ASSERT_TRUE(refused);
  EXPECT_TRUE(contains(refused->message(), "bad magic")) << refused->message();
  auto hello = raw->read_envelope();  // the session still tells the peer why
  ASSERT_TRUE(hello && std::holds_alternative<protocol::Hello>(hello->message));
  auto report = raw->read_envelope();
  ASSERT_TRUE(report && std::holds_alternative<protocol::ErrorReport>(report->message));
  EXPECT_TRUE(raw->wait_for_close());
}

using ListenerFirstBytesTls = TlsTest;

TEST_F(ListenerFirstBytesTls, TlsAgentsGetSessionsNextToAHandedOverLogin) {
  HandedLogins handed;
  auto controller = load(lab_->issue("controller"));
  auto controller_side = controller_config(key_of('k'));
  controller_side.tls = controller;
  auto listener = handing_listener(controller_side, handed);
  ASSERT_TRUE(listener);
  auto dynamo = RawPeer::connect("127.0.0.1", listener->port());
  ASSERT_TRUE(dynamo && dynamo->send_bytes(kLoginStart));
  auto agent = agent_config(key_of('k'));
  agent.tls = load(lab_->issue("db1"));
  expect_agent_session(*listener, agent);
  expect_login_unread(handed);
}

}  // namespace
}  // namespace iomark::transport::test
