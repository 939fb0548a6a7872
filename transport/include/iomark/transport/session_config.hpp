// How one side of a session introduces itself (its Hello), proves itself (the pre-shared key,
// and TLS certificates when configured) and how long it waits for its peer. Shared by Listener and dial() (tcp.hpp).
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>

#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"
#include "iomark/protocol/auth.hpp"
#include "iomark/protocol/connection.hpp"
#include "iomark/protocol/messages.hpp"
#include "iomark/transport/tls.hpp"

namespace iomark::transport {

// The controller's port when none is named, as dynamo's.
inline constexpr std::uint16_t kDefaultPort = 1066;

inline constexpr std::chrono::seconds kDefaultHandshakeTimeout{5};
// Under half the dead-peer deadline (protocol::kDefaultDeadPeerDeadline, 5 s), so that one
// heartbeat late by a busy host is not a death; and over an agent's 1 s sample interval, so
// that an agent sending samples sends no heartbeat besides (docs/performance.md#controller-taking-in-samples).
inline constexpr std::chrono::seconds kDefaultHeartbeatInterval{2};
inline constexpr std::size_t kDefaultSendQueueLimitBytes = 64 * 1024 * 1024;
inline constexpr std::size_t kDefaultReceiveQueueLimitBytes = 64 * 1024 * 1024;
inline constexpr std::chrono::seconds kDefaultCloseLinger{1};

struct SessionConfig {
  // Our Hello (protocol::make_hello). Its auth_mode decides the authentication: a
  // pre_shared_key Hello needs `key`, an AuthMode::none Hello (--insecure) must have none.
  protocol::Hello hello;
  std::optional<protocol::AuthKey> key;
  // Mutual TLS under the Hellos (tls.hpp); null for plain TCP. The peer must be configured
  // the same way, or both sides refuse the session with an error saying which speaks TLS.
  std::shared_ptr<const TlsCredentials> tls{};

  // From the TCP connect (dialer) or accept (listener) until the session is established:
  // resolve, connect, Hellos and authentication together. A peer that is slower (a stalled
  // or one-byte-at-a-time "slowloris" peer) is dropped with a named error.
  Nanoseconds handshake_timeout{kDefaultHandshakeTimeout};
  // A heartbeat is sent when nothing else was sent for this long. A value above the peer's
  // dead-peer deadline makes the peer declare us dead (tests use that to play a silent peer).
  Nanoseconds heartbeat_interval{kDefaultHeartbeatInterval};
  // A peer that sends nothing for this long is declared dead (protocol/connection.hpp).
  // Not counted while the receive queue is full: then we are the one not reading.
  Nanoseconds dead_peer_deadline{protocol::kDefaultDeadPeerDeadline};
  // Bytes of frames accepted by send() but not yet written to the socket. A send() that
  // would go above it (the peer does not read) closes the connection with a named error;
  // one frame of any size is accepted into an empty queue.
  std::size_t send_queue_limit_bytes{kDefaultSendQueueLimitBytes};
  // Bytes of received frames not yet taken by receive() (wire size, approximately). Above
  // it the connection stops reading from the socket, so TCP flow control pushes back on the
  // peer (whose send queue then overflows) instead of this process growing without bound.
  std::size_t receive_queue_limit_bytes{kDefaultReceiveQueueLimitBytes};
  // How long a closing connection may spend handing its queued frames (and a final
  // ErrorReport) to the peer before the socket is closed regardless.
  Nanoseconds close_linger{kDefaultCloseLinger};
};

// The usual configuration: our Hello from make_hello() with this build's version range, and
// AuthMode::pre_shared_key with `key`, or AuthMode::none (--insecure) when `key` is nullopt.
// `address` is the agent's -m address (empty for a controller).
[[nodiscard]] SessionConfig make_session_config(protocol::Role role, std::string build, std::string name,
                                                std::string address, std::optional<protocol::AuthKey> key);

// Checks a configuration before it is used (dial() and Listener::open() call it): the Hello
// must pass the checks the peer applies to it (codec.hpp), the key must match its auth_mode,
// durations must be positive and the queue limits non-zero. Errors: invalid_argument naming
// the field.
[[nodiscard]] Result<void> validate(const SessionConfig& config);

}  // namespace iomark::transport
