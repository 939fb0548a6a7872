#include "iomark/transport/legacy_socket.hpp"

#include <arpa/inet.h>
#include <netdb.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <thread>

namespace iomark::transport {

namespace {

int milliseconds_until(Clock::time_point deadline) {
  const auto left = std::chrono::duration_cast<std::chrono::milliseconds>(deadline - Clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 1000));
}

std::string os_error(const char* what) { return std::string(what) + ": " + std::strerror(errno); }

}  // namespace

LegacySocket& LegacySocket::operator=(LegacySocket&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

void LegacySocket::close() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Result<LegacySocket> LegacySocket::connect(const std::string& host, std::uint16_t port, Clock::time_point deadline) {
  addrinfo hints{};
  hints.ai_family = AF_INET;  // Dynamo 1.1.0 speaks IPv4 only
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int rc = ::getaddrinfo(host.c_str(), std::to_string(port).c_str(), &hints, &found); rc != 0) {
    return fail(ErrorCode::io_error, "cannot resolve '" + host + "': " + ::gai_strerror(rc));
  }
  sockaddr_in address{};
  std::memcpy(&address, found->ai_addr, sizeof address);
  ::freeaddrinfo(found);
  for (;;) {
    LegacySocket socket(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0));
    if (socket.fd_ < 0) return fail(ErrorCode::io_error, os_error("socket"));
    if (::connect(socket.fd_, reinterpret_cast<const sockaddr*>(&address), sizeof address) == 0) {
      const int on = 1;
      (void)::setsockopt(socket.fd_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
      return socket;
    }
    if (errno != ECONNREFUSED || Clock::now() + std::chrono::milliseconds(200) > deadline) {
      return fail(ErrorCode::io_error, os_error(("connecting back to " + host + ":" + std::to_string(port)).c_str()));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(200));
  }
}

Result<void> LegacySocket::send_all(std::span<const std::byte> bytes, Clock::time_point deadline) {
  while (!bytes.empty()) {
    pollfd p{fd_, POLLOUT, 0};
    const int ready = ::poll(&p, 1, milliseconds_until(deadline));
    if (ready < 0 && errno != EINTR) return fail(ErrorCode::io_error, os_error("poll"));
    if (ready <= 0) {
      if (Clock::now() >= deadline) return fail(ErrorCode::io_error, "does not take what is sent (stalled)");
      continue;
    }
    const auto sent = ::send(fd_, bytes.data(), bytes.size(), MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return fail(ErrorCode::io_error, os_error("send"));
    }
    bytes = bytes.subspan(static_cast<std::size_t>(sent));
  }
  return {};
}

Result<void> LegacySocket::receive_exact(std::span<std::byte> bytes, Clock::time_point deadline) {
  const auto total = bytes.size();
  while (!bytes.empty()) {
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, milliseconds_until(deadline));
    if (ready < 0 && errno != EINTR) return fail(ErrorCode::io_error, os_error("poll"));
    if (ready <= 0) {
      if (Clock::now() >= deadline) {
        return fail(ErrorCode::io_error, "stalled: " + std::to_string(total - bytes.size()) + " of " +
                                             std::to_string(total) + " bytes arrived before the deadline");
      }
      continue;
    }
    const auto got = ::recv(fd_, bytes.data(), bytes.size(), 0);
    if (got == 0) return fail(ErrorCode::io_error, "closed the connection");
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return fail(ErrorCode::io_error, os_error("recv"));
    }
    bytes = bytes.subspan(static_cast<std::size_t>(got));
  }
  return {};
}

bool LegacySocket::readable(std::chrono::milliseconds timeout) const {
  pollfd p{fd_, POLLIN, 0};
  return ::poll(&p, 1, static_cast<int>(timeout.count())) > 0;
}

std::string LegacySocket::peer_ip() const {
  sockaddr_in address{};
  socklen_t length = sizeof address;
  if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0 || address.sin_family != AF_INET) {
    return {};
  }
  char text[INET_ADDRSTRLEN]{};
  ::inet_ntop(AF_INET, &address.sin_addr, text, sizeof text);
  return text;
}

std::string LegacySocket::peer_endpoint() const {
  sockaddr_in address{};
  socklen_t length = sizeof address;
  if (::getpeername(fd_, reinterpret_cast<sockaddr*>(&address), &length) != 0) return {};
  return peer_ip() + ":" + std::to_string(ntohs(address.sin_port));
}

LegacyListener::~LegacyListener() {
  if (fd_ >= 0) ::close(fd_);
}

Result<LegacyListener> LegacyListener::open_any_port() { return open("0.0.0.0", 0, 1); }

Result<LegacyListener> LegacyListener::open(const std::string& host, std::uint16_t port, int backlog) {
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_port = htons(port);
  const auto ip = host.empty() ? std::string("0.0.0.0") : host == "localhost" ? std::string("127.0.0.1") : host;
  if (::inet_pton(AF_INET, ip.c_str(), &address.sin_addr) != 1) {
    return fail(ErrorCode::invalid_argument, "'" + host + "' is not an IPv4 address");
  }
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail(ErrorCode::io_error, os_error("socket"));
  LegacyListener listener(fd, 0);
  const int on = 1;
  (void)::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &on, sizeof on);
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0) {
    return fail(ErrorCode::io_error, os_error(("bind " + ip + ":" + std::to_string(port)).c_str()));
  }
  socklen_t length = sizeof address;
  if (::listen(fd, backlog) != 0 || ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    return fail(ErrorCode::io_error, os_error("listen"));
  }
  listener.port_ = ntohs(address.sin_port);
  listener.address_ = ip;
  return listener;
}

std::string LegacyListener::endpoint() const { return address_ + ":" + std::to_string(port_); }

Result<LegacySocket> LegacyListener::accept(Clock::time_point deadline) {
  for (;;) {
    pollfd p{fd_, POLLIN, 0};
    const int ready = ::poll(&p, 1, milliseconds_until(deadline));
    if (ready < 0 && errno != EINTR) return fail(ErrorCode::io_error, os_error("poll"));
    if (ready > 0) break;
    if (Clock::now() >= deadline) {
      return fail(ErrorCode::timed_out, "nobody connected to port " + std::to_string(port_) + " in time");
    }
  }
  const int fd = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC);
  if (fd < 0) return fail(ErrorCode::io_error, os_error("accept"));
  const int on = 1;
  (void)::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  return LegacySocket(fd);
}

}  // namespace iomark::transport
