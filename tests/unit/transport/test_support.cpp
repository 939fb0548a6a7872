#include "test_support.hpp"

#include <gtest/gtest.h>

#include <utility>

#include "iomark/protocol/handshake.hpp"
#include "raw_peer.hpp"

namespace iomark::transport::test {

protocol::AuthKey key_of(char fill) { return protocol::AuthKey::from_text(std::string(32, fill)).value(); }

SessionConfig agent_config(std::optional<protocol::AuthKey> key, std::string name) {
  return make_session_config(protocol::Role::agent, "iomark test-agent", std::move(name), "10.0.0.5", std::move(key));
}

SessionConfig controller_config(std::optional<protocol::AuthKey> key) {
  return make_session_config(protocol::Role::controller, "iomark test-controller", "ctl", "", std::move(key));
}

bool contains(std::string_view text, std::string_view part) { return text.find(part) != std::string_view::npos; }

std::unique_ptr<Listener> listen_on_loopback(SessionConfig config, const std::string& host) {
  auto listener = Listener::open(HostPort{host, 0}, std::move(config));
  if (!listener) {
    ADD_FAILURE() << listener.error().describe();
    return nullptr;
  }
  return std::move(*listener);
}

HostPort address_of(const Listener& listener, const std::string& host) { return HostPort{host, listener.port()}; }

Accepted accept_connection(Listener& listener, Nanoseconds wait) {
  Accepted accepted;
  const auto deadline = std::chrono::steady_clock::now() + wait;
  while (std::chrono::steady_clock::now() < deadline) {
    auto next = listener.accept(std::chrono::duration_cast<Nanoseconds>(deadline - std::chrono::steady_clock::now()));
    if (next) {
      accepted.connection = std::move(*next);
      break;
    }
    if (next.error().code() == ErrorCode::timed_out) break;
    accepted.failures.push_back(next.error());
  }
  return accepted;
}

void expect_silent_peer_dropped(Listener& listener, std::string_view expected) {
  auto silent = RawPeer::connect("127.0.0.1", listener.port());
  ASSERT_TRUE(silent);
  const auto dropped = accept_failure(listener);
  ASSERT_TRUE(dropped);
  EXPECT_EQ(dropped->code(), ErrorCode::io_error);
  EXPECT_TRUE(contains(dropped->message(), expected)) << dropped->message();
  EXPECT_TRUE(silent->wait_for_close());
}

std::optional<Error> accept_failure(Listener& listener, Nanoseconds wait) {
  auto next = listener.accept(wait);
  if (next) {
    ADD_FAILURE() << "expected a failed handshake, got a connection from " << (*next)->peer().describe();
    return std::nullopt;
  }
  if (next.error().code() == ErrorCode::timed_out) {
    ADD_FAILURE() << "expected a failed handshake, nothing came: " << next.error().message();
    return std::nullopt;
  }
  return next.error();
}

protocol::Envelope numbered(std::uint64_t id) { return protocol::Envelope{.correlation_id = id, .message = protocol::Ack{}}; }

TcpPair connect_pair(SessionConfig listening, SessionConfig dialing) {
  TcpPair pair;
  pair.listener = listen_on_loopback(std::move(listening));
  if (!pair.listener) return pair;
  auto dialed = dial(address_of(*pair.listener), dialing);
  if (!dialed) {
    ADD_FAILURE() << "dial: " << dialed.error().describe();
    return pair;
  }
  pair.dialed = std::move(*dialed);
  auto accepted = accept_connection(*pair.listener);
  for (const auto& failure : accepted.failures) ADD_FAILURE() << "accept: " << failure.describe();
  if (!accepted.connection) ADD_FAILURE() << "no connection was accepted";
  pair.accepted = std::move(accepted.connection);
  return pair;
}

}  // namespace iomark::transport::test
