// Hostile and broken clients against a Listener: each fails with a named error naming the
// client's endpoint, and neither the listener nor a good client is affected.
#include <gtest/gtest.h>

#include <array>
#include <chrono>
#include <cstddef>
#include <string>
#include <thread>
#include <vector>

#include "iomark/protocol/handshake.hpp"
#include "iomark/transport/tcp.hpp"
#include "raw_peer.hpp"
#include "test_support.hpp"

namespace iomark::transport::test {
namespace {

using namespace std::chrono_literals;

std::vector<std::byte> header(std::uint32_t length) {
  std::vector<std::byte> bytes{std::byte{'I'}, std::byte{'O'}, std::byte{'M'}, std::byte{'K'}};
  for (int i = 0; i < 4; ++i) bytes.push_back(static_cast<std::byte>(length >> (8 * i)));
  return bytes;
}

// A good agent still gets a session, and a message through it.
void expect_good_client_connects(Listener& listener) {
  auto dialed = dial(address_of(listener), agent_config(key_of('k'), "good"));
  ASSERT_TRUE(dialed.has_value()) << dialed.error().message();
  auto accepted = accept_connection(listener);
  ASSERT_TRUE(accepted.connection);
  EXPECT_EQ(accepted.connection->peer().name, "good");
  ASSERT_TRUE((*dialed)->send(numbered(5)).has_value());
  auto got = accepted.connection->receive(kWait);
  ASSERT_TRUE(got.has_value()) << got.error().message();
  EXPECT_EQ(*got, numbered(5));
}

// Sends `bytes` as a raw client; expects the listener to report a failure containing
// `expected`, and the client to be told (ErrorReport) and disconnected.
void expect_refused(Listener& listener, std::span<const std::byte> bytes, std::string_view expected) {
  auto raw = RawPeer::connect("127.0.0.1", listener.port());
  ASSERT_TRUE(raw);
  raw->send_bytes(bytes);
  const auto failure = accept_failure(listener);
  ASSERT_TRUE(failure);
  EXPECT_TRUE(contains(failure->message(), expected)) << failure->message();
  EXPECT_TRUE(failure->message().starts_with("127.0.0.1:")) << failure->message();

  // The listener's Hello comes first, then its ErrorReport, then the close.
  auto hello = raw->read_envelope();
  ASSERT_TRUE(hello.has_value());
  EXPECT_TRUE(std::holds_alternative<protocol::Hello>(hello->message));
  auto report = raw->read_envelope();
  ASSERT_TRUE(report.has_value());
  const auto* error = std::get_if<protocol::ErrorReport>(&report->message);
  ASSERT_NE(error, nullptr) << protocol::message_name(report->message);
  EXPECT_EQ(error->kind, protocol::ErrorKind::protocol_violation);
  EXPECT_TRUE(contains(error->error.message(), expected)) << error->error.message();
  EXPECT_TRUE(raw->wait_for_close());
}

TEST(ListenerHostile, GarbageBytes) {
  auto listener = listen_on_loopback(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  const std::string http = "GET / HTTP/1.1\r\nHost: iomark\r\n\r\n";
  expect_refused(*listener, std::as_bytes(std::span(http.data(), http.size())), "bad magic");
  expect_good_client_connects(*listener);
}

TEST(ListenerHostile, OversizedLengthIsRefusedBeforeAnythingIsBuffered) {
  auto listener = listen_on_loopback(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  expect_refused(*listener, header(0xFFFFFFFFU), "frame too large");
  expect_good_client_connects(*listener);
}

TEST(ListenerHostile, BeforeAuthenticationEvenAnAllowedFrameSizeIsTooLarge) {
  auto listener = listen_on_loopback(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  const auto length = static_cast<std::uint32_t>(protocol::kMaxHandshakeFrameBytes + 1);
  ASSERT_LT(length, protocol::kMaxFrameBytes);
  expect_refused(*listener, header(length), "frame too large");
  expect_good_client_connects(*listener);
}

TEST(ListenerHostile, AValidFrameThatIsNotAHello) {
  auto listener = listen_on_loopback(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  const auto frame = protocol::encode_frame(numbered(3)).value();
  expect_refused(*listener, frame, "got 'ack' while waiting for the peer's hello");
  expect_good_client_connects(*listener);
}

TEST(ListenerHostile, AClientThatHangsUpMidFrame) {
  auto listener = listen_on_loopback(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  {
    auto raw = RawPeer::connect("127.0.0.1", listener->port());
    ASSERT_TRUE(raw);
    // Taking the listener's Hello first makes the hang-up a FIN: closing a socket with
    // unread data resets the connection instead, which may reach the listener first.
    ASSERT_TRUE(raw->read_envelope().has_value());
    const auto frame = header(100);
    raw->send_bytes(frame);
  }
  const auto failure = accept_failure(*listener);
  ASSERT_TRUE(failure);
  EXPECT_EQ(failure->code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(failure->message(), "in the middle of a frame")) << failure->message();
  expect_good_client_connects(*listener);
}

TEST(ListenerHostile, SlowlorisIsDroppedAtTheHandshakeDeadlineWhileAGoodClientConnects) {
  auto config = controller_config(key_of('k'));
  config.handshake_timeout = 1s;
  auto listener = listen_on_loopback(config);
  ASSERT_TRUE(listener);
  auto raw = RawPeer::connect("127.0.0.1", listener->port());
  ASSERT_TRUE(raw);
  // A valid Hello, one byte per 100 ms: it would take seconds to finish.
  const auto hello = protocol::encode_frame(protocol::Envelope{
      .message = protocol::make_hello(protocol::Role::agent, "iomark slow", "slow", "", protocol::AuthMode::pre_shared_key)});
  ASSERT_TRUE(hello && hello->size() > 20);
  std::thread slow([&raw, &hello] {
    for (const auto byte : *hello) {
      if (!raw->send_bytes(std::array{byte})) return;  // the listener hung up
      std::this_thread::sleep_for(100ms);
    }
  });

  // While the slow client trickles, a good one connects (on a slow machine the slow
  // client's failure may be reported first).
  auto good = dial(address_of(*listener), agent_config(key_of('k'), "good"));
  ASSERT_TRUE(good.has_value()) << good.error().message();
  auto accepted = accept_connection(*listener);
  ASSERT_TRUE(accepted.connection);
  EXPECT_EQ(accepted.connection->peer().name, "good");
  auto failures = std::move(accepted.failures);
  if (failures.empty()) {
    if (auto failure = accept_failure(*listener)) failures.push_back(*failure);
  }
  slow.join();
  ASSERT_EQ(failures.size(), 1U);
  EXPECT_EQ(failures[0].code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(failures[0].message(), "no session within")) << failures[0].message();
  EXPECT_TRUE(contains(failures[0].message(), "waiting for the peer's hello")) << failures[0].message();
  expect_good_client_connects(*listener);
}

TEST(ListenerHostile, ManyBrokenClientsAtOnce) {
  auto listener = listen_on_loopback(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  constexpr int kClients = 20;
  std::vector<std::unique_ptr<RawPeer>> clients;
  for (int i = 0; i < kClients; ++i) {
    clients.push_back(RawPeer::connect("127.0.0.1", listener->port()));
    ASSERT_TRUE(clients.back());
    clients.back()->send_text("garbage " + std::to_string(i));
  }
  for (int i = 0; i < kClients; ++i) {
    const auto failure = accept_failure(*listener);
    ASSERT_TRUE(failure);
    EXPECT_TRUE(contains(failure->message(), "bad magic")) << failure->message();
  }
  expect_good_client_connects(*listener);
}

// More idle connections than the listener handshakes at once (256): the ones that waited
// longest make room, so the good client still gets through.
TEST(ListenerHostile, AFloodOfIdleConnectionsCannotLockOutAGoodClient) {
  auto listener = listen_on_loopback(controller_config(key_of('k')));
  ASSERT_TRUE(listener);
  constexpr int kIdle = 300;
  std::vector<std::unique_ptr<RawPeer>> idle;
  for (int i = 0; i < kIdle; ++i) {
    idle.push_back(RawPeer::connect("127.0.0.1", listener->port()));
    ASSERT_TRUE(idle.back());
  }
  auto good = dial(address_of(*listener), agent_config(key_of('k'), "good"));
  ASSERT_TRUE(good.has_value()) << good.error().message();
  auto accepted = accept_connection(*listener);
  ASSERT_TRUE(accepted.connection);
  EXPECT_EQ(accepted.connection->peer().name, "good");
  ASSERT_FALSE(accepted.failures.empty());
  EXPECT_TRUE(contains(accepted.failures.front().message(), "dropped: the slowest of 256"))
      << accepted.failures.front().message();
}

}  // namespace
}  // namespace iomark::transport::test
