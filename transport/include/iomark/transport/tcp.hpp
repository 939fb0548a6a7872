// TCP connections between agents and controllers (Boost.Asio inside, IPv4 and IPv6).
//
// One connection per agent, in one direction only. Either role can be either side:
// - dynamo style (the default): the controller runs a Listener (port 1066) and agents
//   dial() it, usually with dial_with_backoff() so they reconnect after a controller restart;
// - an agent started with --listen runs a Listener and the controller dials it (--manager).
//
// Session establishment, the same for both sides (messages.hpp, handshake.hpp, auth.hpp):
// the TLS handshake when SessionConfig::tls is set (tls.hpp); Hellos both ways, agree();
// then, unless both sides run AuthMode::none, the HMAC challenge-response both ways. Until
// then frames above protocol::kMaxHandshakeFrameBytes are refused and the whole exchange must
// finish within SessionConfig::handshake_timeout. A side that refuses the peer (version
// mismatch, auth mode mismatch, wrong key, broken frame, TLS on one side only) sends it
// an ErrorReport (or a rejecting AuthResult) before closing, so both sides print an error
// naming the cause; a Connection is handed out only for an established session.
//
// Threads: the I/O runs on threads of its own; no event loop of the caller is needed.
// A Listener owns one I/O thread, shared by the connections it accepts (the thread ends when
// the Listener and all of them are gone); each dial() gets a thread of its own. Calls may
// come from any thread. Established connections implement protocol::Connection: heartbeats
// when idle, the dead-peer deadline, bounded queues (session_config.hpp). When the peer
// closes, goes silent or breaks the protocol, receive() first returns what had arrived, then
// the error; after a local close() it fails at once. Closing hands the frames already queued
// (and a final ErrorReport, if any) to the peer for at most SessionConfig::close_linger;
// destroying a Connection closes it and waits for that. To let go of many connections whose
// peers may be unresponsive, close() them all first: their lingers then overlap.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <stop_token>
#include <string>

#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"
#include "iomark/protocol/connection.hpp"
#include "iomark/transport/host_port.hpp"
#include "iomark/transport/legacy_socket.hpp"
#include "iomark/transport/session_config.hpp"

namespace iomark::transport {

namespace detail {
class IoThread;
}

// Whether a Listener first looks at which protocol each peer speaks (first_bytes.hpp), so
// that one port serves iomark agents and, where allowed, Dynamo 1.1.0 logins.
enum class FirstBytesCheck {
  off,  // every connection is an iomark session
  on,   // Dynamo logins go to the LegacyLoginHandler, or are refused naming why
};

// Takes a connection whose first bytes are a Dynamo 1.1.0 LOGIN, none of them read yet.
// Called on the listener's I/O thread: it must not block nor call into the Listener.
using LegacyLoginHandler = std::function<void(LegacySocket login)>;

// How many incoming connections a Listener holds at once. A session being established holds
// at most protocol::kMaxHandshakeFrameBytes plus a read buffer; beyond max_handshakes the one
// that has waited longest is dropped (a flood of idle connections cannot lock good peers out).
// Beyond max_waiting established connections that accept() has not taken yet, the newest are
// refused. An agent's port keeps the defaults; a controller expecting a fleet to log in at
// once (a login storm) raises both to the fleet's size.
struct ListenerLimits {
  std::size_t max_handshakes{256};
  std::size_t max_waiting{64};
};

// Accepts connections on one address and establishes their sessions in the background,
// many at once: a slow, hostile or broken client never holds up another one nor stops the
// listener.
class Listener {
 public:
  // Binds `address` ("0.0.0.0", "::", "127.0.0.1", "::1" or a host name, which is resolved
  // and its first address used) and starts accepting. Port 0 picks a free port. Listening
  // on "::" also accepts IPv4 clients where the system allows it (IPV6_V6ONLY off).
  // Errors: invalid_argument for a bad config (validate()), not_found for a name that does
  // not resolve, io_error when the address cannot be bound ("address already in use").
  // With FirstBytesCheck::on each connection must show its first bytes within
  // config.handshake_timeout, or it is dropped (a failure naming it, "sent nothing within");
  // iomark and TLS peers then go on as with `off`, and so do unknown bytes (refused as "bad
  // magic" by the session, which tells the peer).
  [[nodiscard]] static Result<std::unique_ptr<Listener>> open(const HostPort& address, SessionConfig config,
                                                              FirstBytesCheck check = FirstBytesCheck::off,
                                                              ListenerLimits limits = {});

  Listener(const Listener&) = delete;
  Listener& operator=(const Listener&) = delete;
  // Stops accepting and drops sessions being established or not yet accepted. Connections
  // already handed out by accept() are not affected.
  ~Listener();

  // With FirstBytesCheck::on: where Dynamo logins go from now on. Empty (the default): each
  // one is refused, closed and reported by accept() as a validation_error saying this port
  // does not accept legacy logins. After this returns, the previous handler is never called
  // again; none is called once the Listener is destroyed. Thread-safe.
  void hand_legacy_logins_to(LegacyLoginHandler handler);

  // The bound port (the chosen one when opened with port 0).
  [[nodiscard]] std::uint16_t port() const noexcept;
  // The bound address, e.g. "127.0.0.1:43210" or "[::]:1066".
  [[nodiscard]] const std::string& endpoint() const noexcept;

  // The next outcome of an incoming connection, in the order they finished, waiting at most
  // `timeout` (zero: do not wait):
  // - an established Connection;
  // - or a failed handshake, as an error whose message starts with the peer's endpoint (and
  //   its Hello name once known), e.g. "agent 'db1' (127.0.0.1:5123): authentication failed:
  //   ...". Codes: unsupported (version mismatch), validation_error (wrong key, auth mode
  //   mismatch, a peer of our own role), parse_error / invalid_argument (broken or oversized
  //   frames), io_error (timeout, disconnect). The listener keeps running: log the error and
  //   call accept() again;
  // - or ErrorCode::timed_out when nothing happened within `timeout`.
  // Failures nobody collects are bounded: only the latest 64 are kept. Established
  // connections beyond ListenerLimits::max_waiting waiting for accept() are refused (the peer
  // sees it close).
  // Thread-safe.
  [[nodiscard]] Result<std::unique_ptr<protocol::Connection>> accept(Nanoseconds timeout);

 private:
  struct State;
  Listener(std::shared_ptr<detail::IoThread> io, std::shared_ptr<State> state) noexcept;

  std::shared_ptr<detail::IoThread> io_;  // declared first, released last
  std::shared_ptr<State> state_;
};

// Connects to `peer` and establishes the session as the dialing side. Blocks until it is
// established or has failed, at most config.handshake_timeout (resolve and connect included).
// Errors (the message starts with the peer's address): invalid_argument for a bad config;
// io_error when the peer cannot be reached, refuses, disconnects or is too slow; the codes
// of Listener::accept() for a refused session. A stop request ends the wait with cancelled.
[[nodiscard]] Result<std::unique_ptr<protocol::Connection>> dial(const HostPort& peer, const SessionConfig& config,
                                                                 std::stop_token stop = {});

// One I/O thread that many dialled connections share, for a process that holds hundreds of
// connections (a simulated fleet of agents): dial() starts a thread per connection, which
// costs a thread stack each. The thread ends when this handle and every connection dialled
// on it are gone. Copyable; copies share the thread.
class SharedIoThread {
 public:
  // Errors: io_error when the thread cannot be started.
  [[nodiscard]] static Result<SharedIoThread> start();

 private:
  explicit SharedIoThread(std::shared_ptr<detail::IoThread> io) noexcept : io_(std::move(io)) {}
  friend void dial_async(const HostPort& peer, const SessionConfig& config, const SharedIoThread& io,
                         std::function<void(Result<std::unique_ptr<protocol::Connection>>)> done);
  std::shared_ptr<detail::IoThread> io_;
};

// dial() without waiting, on a shared thread: returns at once, and `done` is called once on
// that thread with the established connection or the error dial() would have returned (a
// failed session first hands its last words to the peer, as in dial()). `done` must hand the
// connection to another thread rather than destroy it there: destroying a connection waits
// for its close on the I/O thread. Many dials may be under way at once (a login storm).
void dial_async(const HostPort& peer, const SessionConfig& config, const SharedIoThread& io,
                std::function<void(Result<std::unique_ptr<protocol::Connection>>)> done);

// How long to wait between attempts: initial, then doubling up to maximum.
struct BackoffPolicy {
  Nanoseconds initial{std::chrono::milliseconds(500)};
  Nanoseconds maximum{std::chrono::seconds(30)};
};

// The wait after `failed_attempts` failures (1 = after the first): initial * 2^(n-1), capped
// at maximum. Pure.
[[nodiscard]] Nanoseconds backoff_delay(const BackoffPolicy& policy, std::uint32_t failed_attempts) noexcept;

// Told about each failed attempt that will be retried, and how long until the next one;
// called on the thread that runs dial_with_backoff().
using RetryObserver = std::function<void(const Error& error, Nanoseconds retry_in)>;

// dial() until a session is established, waiting backoff_delay() between attempts. Only
// io_error failures (unreachable, refused, disconnected, timed out) are retried: a version
// mismatch, a wrong key or an auth mode mismatch will not fix itself and is returned at
// once. Returns cancelled "... stopped" when `stop` is requested (also during an attempt).
[[nodiscard]] Result<std::unique_ptr<protocol::Connection>> dial_with_backoff(const HostPort& peer,
                                                                              const SessionConfig& config,
                                                                              const BackoffPolicy& policy,
                                                                              std::stop_token stop,
                                                                              const RetryObserver& on_retry = {});

}  // namespace iomark::transport
