// Blocking IPv4 TCP for IOmeter's legacy wire (iometer-spec §6.2, §7.1): the agent dials
// the GUI to log in, listens for the GUI's connect-back, and then moves whole 8-byte and
// 888,840-byte blocks. Every wait has a deadline except the wait for the next command (the
// GUI may stay idle for hours), so a peer that stops mid-block is a named error, not a hang.
// One owner per object; not thread-safe.
#pragma once

#include <chrono>
#include <cstdint>
#include <optional>
#include <span>
#include <string>

#include "iomark/common/result.hpp"

namespace iomark::agent {

using Deadline = std::chrono::steady_clock::time_point;

// A connected TCP stream; closes on destruction.
class LegacyStream {
 public:
  LegacyStream() = default;
  explicit LegacyStream(int fd) noexcept : fd_(fd) {}
  LegacyStream(LegacyStream&& other) noexcept : fd_(other.fd_) { other.fd_ = -1; }
  LegacyStream& operator=(LegacyStream&& other) noexcept;
  LegacyStream(const LegacyStream&) = delete;
  LegacyStream& operator=(const LegacyStream&) = delete;
  ~LegacyStream();

  // Connects to host:port (a name or dotted IPv4 address). Errors: io_error naming the peer.
  [[nodiscard]] static Result<LegacyStream> connect(const std::string& host, std::uint16_t port, Deadline deadline);

  // Fills `bytes` completely. Without a deadline it waits for the first byte indefinitely,
  // and then gives the rest of the block `rest_within` to arrive. Errors: io_error for a
  // closed connection ("closed by the peer after N of M bytes") or an expired deadline.
  [[nodiscard]] Result<void> read_exact(std::span<std::byte> bytes, std::optional<Deadline> first_byte_by,
                                        std::chrono::milliseconds rest_within);
  // Whether a byte is waiting (or the peer closed), after waiting at most `wait`.
  [[nodiscard]] bool readable(std::chrono::milliseconds wait) const;
  // Errors: io_error (the peer went away, or did not take the bytes within `rest_within`).
  [[nodiscard]] Result<void> write_all(std::span<const std::byte> bytes, std::chrono::milliseconds within);

  [[nodiscard]] bool is_open() const noexcept { return fd_ >= 0; }
  void close() noexcept;

 private:
  int fd_{-1};
};

// A listening IPv4 socket on every address, on a port the system picks (Dynamo's command
// port). Closes on destruction.
class LegacyListener {
 public:
  [[nodiscard]] static Result<LegacyListener> open_any_port();
  LegacyListener(LegacyListener&& other) noexcept : fd_(other.fd_), port_(other.port_) { other.fd_ = -1; }
  LegacyListener& operator=(LegacyListener&&) = delete;
  LegacyListener(const LegacyListener&) = delete;
  LegacyListener& operator=(const LegacyListener&) = delete;
  ~LegacyListener();

  [[nodiscard]] std::uint16_t port() const noexcept { return port_; }
  // Errors: io_error when nobody connected before the deadline.
  [[nodiscard]] Result<LegacyStream> accept(Deadline deadline);

 private:
  LegacyListener(int fd, std::uint16_t port) : fd_(fd), port_(port) {}
  int fd_{-1};
  std::uint16_t port_{};
};

}  // namespace iomark::agent
