// Blocking IPv4 TCP for the legacy IOmeter wire, where every wait has a deadline: the
// stream has no framing or heartbeats, so a peer that stalls mid-block must become a named
// error, never a hang (docs/iometer-reference.md#wire-robustness). Both ends use it: the
// controller's Dynamo driver and iomark-agent --protocol iometer. No Asio: the legacy
// conversation is strictly request-reply, one blocking thread per peer.
// One owner per object; not thread-safe.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include "iomark/common/result.hpp"

namespace iomark::transport {

using Clock = std::chrono::steady_clock;

class LegacySocket {
 public:
  LegacySocket() = default;
  explicit LegacySocket(int fd) noexcept : fd_(fd) {}
  LegacySocket(LegacySocket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  LegacySocket& operator=(LegacySocket&& other) noexcept;
  LegacySocket(const LegacySocket&) = delete;
  LegacySocket& operator=(const LegacySocket&) = delete;
  ~LegacySocket() { close(); }

  // Connects to host:port (IPv4 or a name), retrying every 200 ms while refused, as
  // IOmeter's connect-back must (Dynamo listens only after LOGIN_OK, spec §7.6).
  [[nodiscard]] static Result<LegacySocket> connect(const std::string& host, std::uint16_t port,
                                                    Clock::time_point deadline);

  // Errors: io_error "closed the connection" / "sent nothing for ..." / the OS error.
  [[nodiscard]] Result<void> send_all(std::span<const std::byte> bytes, Clock::time_point deadline);
  [[nodiscard]] Result<void> receive_exact(std::span<std::byte> bytes, Clock::time_point deadline);
  // True when bytes (or the end of the stream) wait to be read; waits up to `timeout`.
  [[nodiscard]] bool readable(std::chrono::milliseconds timeout) const;

  void close() noexcept;
  [[nodiscard]] int fd() const noexcept { return fd_; }
  // "127.0.0.1:40312" of the peer; empty when unknown.
  [[nodiscard]] std::string peer_endpoint() const;
  [[nodiscard]] std::string peer_ip() const;

 private:
  int fd_{-1};
};

// A listening IPv4 socket: on every address and a port the system picks, Dynamo's (and
// iomark-agent --protocol iometer's) command port, which the GUI connects back to; on a
// given address and port, the controller's port for Dynamo logins.
class LegacyListener {
 public:
  // Errors: io_error naming the failed call.
  [[nodiscard]] static Result<LegacyListener> open_any_port();
  // Listens on `host` (an IPv4 address; empty or "localhost" as 0.0.0.0 and 127.0.0.1) and
  // `port` (0 picks one), reusing an address in TIME_WAIT: the controller's port for Dynamo
  // logins. Errors: invalid_argument for a host that is not IPv4, io_error naming the call.
  [[nodiscard]] static Result<LegacyListener> open(const std::string& host, std::uint16_t port, int backlog);
  // "0.0.0.0:1066": the address and the port bound.
  [[nodiscard]] std::string endpoint() const;
  LegacyListener(LegacyListener&& other) noexcept
      : fd_(std::exchange(other.fd_, -1)), port_(other.port_), address_(std::move(other.address_)) {}
  LegacyListener& operator=(LegacyListener&&) = delete;
  LegacyListener(const LegacyListener&) = delete;
  LegacyListener& operator=(const LegacyListener&) = delete;
  ~LegacyListener();

  [[nodiscard]] std::uint16_t port() const noexcept { return port_; }
  // Errors: timed_out when nobody connected before the deadline; io_error from the OS.
  [[nodiscard]] Result<LegacySocket> accept(Clock::time_point deadline);

 private:
  LegacyListener(int fd, std::uint16_t port) : fd_(fd), port_(port) {}
  int fd_{-1};
  std::uint16_t port_{};
  std::string address_;
};

}  // namespace iomark::transport
