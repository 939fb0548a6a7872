// Shared by the transport tests: configurations, keys and a few bounded waits.
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/protocol/auth.hpp"
#include "iomark/protocol/connection.hpp"
#include "iomark/transport/tcp.hpp"

namespace iomark::transport::test {

// The bound on every wait that is expected to succeed: generous, as the machine is shared.
inline constexpr std::chrono::seconds kWait{20};

[[nodiscard]] protocol::AuthKey key_of(char fill);  // 32 bytes of `fill`
[[nodiscard]] SessionConfig agent_config(std::optional<protocol::AuthKey> key, std::string name = "db1");
[[nodiscard]] SessionConfig controller_config(std::optional<protocol::AuthKey> key);

[[nodiscard]] bool contains(std::string_view text, std::string_view part);

// A listener on 127.0.0.1 (or `host`), port 0; nullptr (and a test failure) if it fails.
[[nodiscard]] std::unique_ptr<Listener> listen_on_loopback(SessionConfig config, const std::string& host = "127.0.0.1");

[[nodiscard]] HostPort address_of(const Listener& listener, const std::string& host = "127.0.0.1");

// What accept() produced until the first established connection (or `wait` ran out).
struct Accepted {
  std::unique_ptr<protocol::Connection> connection;  // null when none was established
  std::vector<Error> failures;                        // failed handshakes, in order
};
[[nodiscard]] Accepted accept_connection(Listener& listener, Nanoseconds wait = kWait);
// The next failed handshake (nullopt, and a test failure, if none came within `wait`).
[[nodiscard]] std::optional<Error> accept_failure(Listener& listener, Nanoseconds wait = kWait);

// A peer that connects and says nothing: the listener drops it with an io_error containing
// `expected`, and the peer sees the close.
void expect_silent_peer_dropped(Listener& listener, std::string_view expected);

// An envelope the tests can tell apart by `id`: an Ack answering request `id`.
[[nodiscard]] protocol::Envelope numbered(std::uint64_t id);

// Both ends of one established TCP connection over loopback.
struct TcpPair {
  std::unique_ptr<Listener> listener;
  std::unique_ptr<protocol::Connection> dialed;
  std::unique_ptr<protocol::Connection> accepted;
};
// The listener runs `listening`, dial() runs `dialing`; fails the test when not established.
[[nodiscard]] TcpPair connect_pair(SessionConfig listening, SessionConfig dialing);

}  // namespace iomark::transport::test
