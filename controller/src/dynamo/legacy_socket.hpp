// A blocking TCP socket for the legacy IOmeter wire, where every wait has a deadline: the
// stream has no framing or heartbeats, so a peer that stalls mid-block must become a named
// error, never a hang (iometer-spec §7.5, "Blocking / robustness").
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>

#include "iomark/common/result.hpp"

namespace iomark::controller::dynamo {

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

}  // namespace iomark::controller::dynamo
