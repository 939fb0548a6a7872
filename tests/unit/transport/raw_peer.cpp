#include "raw_peer.hpp"

#include <netdb.h>
#include <sys/socket.h>
#include <sys/time.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cerrno>
#include <chrono>
#include <vector>

#include "iomark/protocol/handshake.hpp"

namespace iomark::transport::test {

std::unique_ptr<RawPeer> RawPeer::connect(const std::string& host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_UNSPEC;
  hints.ai_socktype = SOCK_STREAM;
  hints.ai_flags = AI_NUMERICHOST | AI_NUMERICSERV;
  addrinfo* found = nullptr;
  if (::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found) != 0 || found == nullptr) {
    ADD_FAILURE() << "cannot resolve " << host;
    return nullptr;
  }
  const int fd = ::socket(found->ai_family, SOCK_STREAM | SOCK_CLOEXEC, 0);
  const bool connected = fd >= 0 && ::connect(fd, found->ai_addr, found->ai_addrlen) == 0;
  ::freeaddrinfo(found);
  if (!connected) {
    if (fd >= 0) ::close(fd);
    ADD_FAILURE() << "cannot connect to " << host << ":" << port;
    return nullptr;
  }
  timeval timeout{};
  timeout.tv_sec = 10;
  ::setsockopt(fd, SOL_SOCKET, SO_RCVTIMEO, &timeout, sizeof timeout);
  ::setsockopt(fd, SOL_SOCKET, SO_SNDTIMEO, &timeout, sizeof timeout);
  return std::unique_ptr<RawPeer>(new RawPeer(fd));
}

RawPeer::~RawPeer() { ::close(fd_); }

bool RawPeer::send_bytes(std::span<const std::byte> bytes) {
  while (!bytes.empty()) {
    const auto sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent <= 0) return false;
    bytes = bytes.subspan(static_cast<std::size_t>(sent));
  }
  return true;
}

bool RawPeer::send_text(std::string_view text) {
  return send_bytes(std::as_bytes(std::span<const char>(text.data(), text.size())));
}

bool RawPeer::send_envelope(const protocol::Envelope& envelope) {
  auto frame = protocol::encode_frame(envelope);
  return frame && send_bytes(*frame);
}

std::optional<protocol::Envelope> RawPeer::read_envelope() {
  std::vector<std::byte> buffer(64 * 1024);
  for (;;) {
    auto step = decoder_.next();
    if (auto* envelope = std::get_if<protocol::Envelope>(&step)) return std::move(*envelope);
    if (std::holds_alternative<protocol::FrameError>(step)) return std::nullopt;
    const auto got = ::recv(fd_, buffer.data(), buffer.size(), 0);
    if (got <= 0) return std::nullopt;
    decoder_.feed(std::span<const std::byte>(buffer.data(), static_cast<std::size_t>(got)));
  }
}

bool RawPeer::wait_for_close() {
  const auto deadline = std::chrono::steady_clock::now() + std::chrono::seconds(20);
  std::vector<std::byte> buffer(64 * 1024);
  while (std::chrono::steady_clock::now() < deadline) {
    const auto got = ::recv(fd_, buffer.data(), buffer.size(), 0);
    if (got == 0) return true;
    if (got < 0) return errno != EAGAIN && errno != EWOULDBLOCK;  // reset also means closed
  }
  return false;
}

bool RawPeer::handshake_insecure_agent(const std::string& name) {
  if (!send_envelope(protocol::Envelope{
          .message = protocol::make_hello(protocol::Role::agent, "iomark raw", name, "", protocol::AuthMode::none)})) {
    return false;
  }
  auto hello = read_envelope();
  return hello && std::holds_alternative<protocol::Hello>(hello->message);
}

}  // namespace iomark::transport::test
