#include "iomark/agent/legacy_stream.hpp"

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

namespace iomark::agent {

namespace {

using std::chrono::milliseconds;

int poll_ms_until(Deadline deadline) {
  const auto left = std::chrono::duration_cast<milliseconds>(deadline - std::chrono::steady_clock::now()).count();
  return static_cast<int>(std::clamp<long long>(left, 0, 60'000));
}

// Waits for `events` on fd until the deadline (nullopt: forever). False when it expired.
bool wait_for(int fd, short events, std::optional<Deadline> deadline) {
  for (;;) {
    pollfd entry{fd, events, 0};
    const int timeout = deadline ? poll_ms_until(*deadline) : -1;
    const int ready = ::poll(&entry, 1, timeout);
    if (ready > 0) return true;
    if (ready < 0 && errno != EINTR) return true;  // let the read or write report the error
    if (ready == 0 && deadline && std::chrono::steady_clock::now() >= *deadline) return false;
  }
}

Error os_error(const std::string& what) { return Error(ErrorCode::io_error, what + ": " + std::strerror(errno)); }

Result<sockaddr_in> resolve_ipv4(const std::string& host, std::uint16_t port) {
  addrinfo hints{};
  hints.ai_family = AF_INET;
  hints.ai_socktype = SOCK_STREAM;
  addrinfo* found = nullptr;
  if (const int status = ::getaddrinfo(host.c_str(), nullptr, &hints, &found); status != 0 || found == nullptr) {
    return fail(ErrorCode::not_found, "cannot resolve '" + host + "': " + ::gai_strerror(status));
  }
  sockaddr_in address{};
  std::memcpy(&address, found->ai_addr, sizeof address);
  ::freeaddrinfo(found);
  address.sin_port = htons(port);
  return address;
}

}  // namespace

LegacyStream& LegacyStream::operator=(LegacyStream&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = other.fd_;
    other.fd_ = -1;
  }
  return *this;
}

LegacyStream::~LegacyStream() { close(); }

void LegacyStream::close() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Result<LegacyStream> LegacyStream::connect(const std::string& host, std::uint16_t port, Deadline deadline) {
  auto address = resolve_ipv4(host, port);
  if (!address) return tl::unexpected(address.error());
  const std::string peer = host + ":" + std::to_string(port);
  LegacyStream stream(::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0));
  if (!stream.is_open()) return tl::unexpected(os_error("socket"));
  if (::connect(stream.fd_, reinterpret_cast<const sockaddr*>(&*address), sizeof *address) != 0) {
    if (errno != EINPROGRESS) return tl::unexpected(os_error("connect to " + peer));
    if (!wait_for(stream.fd_, POLLOUT, deadline)) return fail(ErrorCode::io_error, "connect to " + peer + ": timed out");
    int error = 0;
    socklen_t length = sizeof error;
    ::getsockopt(stream.fd_, SOL_SOCKET, SO_ERROR, &error, &length);
    if (error != 0) {
      errno = error;
      return tl::unexpected(os_error("connect to " + peer));
    }
  }
  const int on = 1;
  ::setsockopt(stream.fd_, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  return stream;
}

Result<void> LegacyStream::read_exact(std::span<std::byte> bytes, std::optional<Deadline> first_byte_by,
                                      milliseconds rest_within) {
  std::size_t done = 0;
  std::optional<Deadline> deadline = first_byte_by;
  while (done < bytes.size()) {
    if (!wait_for(fd_, POLLIN, deadline)) {
      return fail(ErrorCode::io_error, "timed out after " + std::to_string(done) + " of " +
                                           std::to_string(bytes.size()) + " bytes of a block");
    }
    const ssize_t got = ::recv(fd_, bytes.data() + done, bytes.size() - done, 0);
    if (got == 0) {
      return fail(ErrorCode::io_error, "connection closed by the peer after " + std::to_string(done) + " of " +
                                           std::to_string(bytes.size()) + " bytes of a block");
    }
    if (got < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return tl::unexpected(os_error("receive"));
    }
    if (done == 0) deadline = std::chrono::steady_clock::now() + rest_within;
    done += static_cast<std::size_t>(got);
  }
  return {};
}

bool LegacyStream::readable(milliseconds wait) const {
  return wait_for(fd_, POLLIN, std::chrono::steady_clock::now() + wait);
}

Result<void> LegacyStream::write_all(std::span<const std::byte> bytes, milliseconds within) {
  const auto deadline = std::chrono::steady_clock::now() + within;
  std::size_t done = 0;
  while (done < bytes.size()) {
    if (!wait_for(fd_, POLLOUT, deadline)) return fail(ErrorCode::io_error, "send: the peer takes nothing (timed out)");
    const ssize_t sent = ::send(fd_, bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (sent < 0) {
      if (errno == EINTR || errno == EAGAIN) continue;
      return tl::unexpected(os_error("send"));
    }
    done += static_cast<std::size_t>(sent);
  }
  return {};
}

LegacyListener::~LegacyListener() {
  if (fd_ >= 0) ::close(fd_);
}

Result<LegacyListener> LegacyListener::open_any_port() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC | SOCK_NONBLOCK, 0);
  if (fd < 0) return tl::unexpected(os_error("socket"));
  LegacyListener listener(fd, 0);
  sockaddr_in address{};
  address.sin_family = AF_INET;
  address.sin_addr.s_addr = htonl(INADDR_ANY);
  socklen_t length = sizeof address;
  if (::bind(fd, reinterpret_cast<const sockaddr*>(&address), sizeof address) != 0 || ::listen(fd, 1) != 0 ||
      ::getsockname(fd, reinterpret_cast<sockaddr*>(&address), &length) != 0) {
    return tl::unexpected(os_error("command port"));
  }
  listener.port_ = ntohs(address.sin_port);
  return listener;
}

Result<LegacyStream> LegacyListener::accept(Deadline deadline) {
  if (!wait_for(fd_, POLLIN, deadline)) {
    return fail(ErrorCode::io_error, "the GUI did not connect back to port " + std::to_string(port_) + " in time");
  }
  const int fd = ::accept4(fd_, nullptr, nullptr, SOCK_CLOEXEC | SOCK_NONBLOCK);
  if (fd < 0) return tl::unexpected(os_error("accept"));
  const int on = 1;
  ::setsockopt(fd, IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  return LegacyStream(fd);
}

}  // namespace iomark::agent
