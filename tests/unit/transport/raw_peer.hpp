// A peer that speaks the wire by hand over a plain socket: for hostile and silent peers the
// real transport would never produce. Every read is bounded (socket receive timeout).
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <optional>
#include <span>
#include <string>
#include <string_view>

#include "iomark/protocol/frame.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::transport::test {

class RawPeer {
 public:
  // Connects to host:port (IPv4 or IPv6); nullptr (and a test failure) if it cannot.
  [[nodiscard]] static std::unique_ptr<RawPeer> connect(const std::string& host, std::uint16_t port);
  RawPeer(const RawPeer&) = delete;
  RawPeer& operator=(const RawPeer&) = delete;
  ~RawPeer();

  // False once the other side has closed (or reset) the connection.
  bool send_bytes(std::span<const std::byte> bytes);
  bool send_text(std::string_view text);
  bool send_envelope(const protocol::Envelope& envelope);

  // The next envelope, or nullopt at the end of the stream, on a broken frame or when
  // nothing came for the receive timeout (10 s).
  [[nodiscard]] std::optional<protocol::Envelope> read_envelope();
  // Reads and drops everything until the other side closes; false if it did not within 20 s.
  [[nodiscard]] bool wait_for_close();

  // The insecure agent's side of the handshake: sends our Hello, reads theirs.
  [[nodiscard]] bool handshake_insecure_agent(const std::string& name);

 private:
  explicit RawPeer(int fd) noexcept : fd_(fd) {}
  int fd_;
  protocol::FrameDecoder decoder_;
};

}  // namespace iomark::transport::test
