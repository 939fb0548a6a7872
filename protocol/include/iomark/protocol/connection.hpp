// A connection between one agent and one controller, carrying Envelopes as frames: over TCP
// (transport.hpp) or in memory (the embedded agent), so the local path cannot drift from the
// distributed one.
//
// A Connection is handed out only after the session is established: Hellos exchanged and,
// unless both sides run --insecure, authenticated both ways (auth.hpp). From then on:
// - heartbeats are sent and consumed inside the connection (receive() never returns one);
// - a peer that sends nothing (not even a heartbeat) for the dead-peer deadline (default
//   5 s) is declared dead: the connection closes and every pending or later call fails with
//   an io_error that names the peer ("agent 'db1' (127.0.0.1:5123): silent for 5.0 s");
// - a frame that breaks the protocol closes the connection with a protocol_violation named
//   error, sent to the peer as an ErrorReport first where possible.
// send() and receive() are thread-safe and may be called from different threads; the
// connection runs its own I/O (no event loop of the caller's is used or needed).
#pragma once

#include <chrono>
#include <cstdint>
#include <memory>
#include <optional>
#include <string>
#include <utility>

#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"
#include "iomark/protocol/arrival_signal.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::protocol {

inline constexpr std::chrono::seconds kDefaultDeadPeerDeadline{5};

// Who is at the other end, as the handshake established it.
struct PeerInfo {
  Role role{Role::agent};
  std::string name;     // the peer's Hello name (the manager name for an agent)
  std::string address;  // the peer's Hello address (-m), if it gave one
  std::string endpoint;  // where it is: "127.0.0.1:43210", "[::1]:1066", "in-process"
  std::string build;     // its Hello build string
  std::uint32_t protocol_version{};
  AuthMode auth_mode{AuthMode::pre_shared_key};
  // Ticks per second of the clock a legacy (Dynamo) peer counts in, results.csv's
  // "Processor Speed" for it; nullopt for iomark agents, which count in nanoseconds.
  std::optional<double> timer_resolution_hz;

  // "agent 'db1' (127.0.0.1:43210)": how errors name the peer.
  [[nodiscard]] std::string describe() const;
};

class Connection {
 public:
  Connection() = default;
  Connection(const Connection&) = delete;
  Connection& operator=(const Connection&) = delete;
  virtual ~Connection() = default;  // closes

  [[nodiscard]] virtual const PeerInfo& peer() const noexcept = 0;

  // Queues the envelope for sending and returns without waiting for the network. Fails when
  // the connection is closed (the error says why it closed) or the frame is too large.
  [[nodiscard]] virtual Result<void> send(Envelope envelope) = 0;

  // The next envelope from the peer, waiting at most `timeout` (zero: do not wait).
  // Errors: ErrorCode::timed_out when nothing arrived in time (the connection is still
  // open); ErrorCode::io_error once the connection is closed, naming the peer and the reason.
  [[nodiscard]] virtual Result<Envelope> receive(Nanoseconds timeout) = 0;

  // Has `signal` notified with `source` whenever an envelope arrives or the connection
  // closes, and at once when one is waiting or it is closed already; replaces an earlier
  // watch. False where the connection cannot tell, because its traffic happens inside
  // receive() (a Dynamo's): poll that one with receive(0) instead.
  [[nodiscard]] virtual bool watch(std::shared_ptr<ArrivalSignal> signal, std::size_t source) = 0;
  // Closes; pending and later calls fail. Idempotent. `reason` appears in their errors.
  virtual void close(std::string reason = "closed locally") = 0;
  [[nodiscard]] virtual bool is_open() const noexcept = 0;
};

}  // namespace iomark::protocol
