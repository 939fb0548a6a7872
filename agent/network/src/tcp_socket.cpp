#include "iomark/network/tcp_socket.hpp"

#include <arpa/inet.h>
#include <netinet/in.h>
#include <netinet/tcp.h>
#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <chrono>
#include <cstring>

namespace iomark::network {

namespace {

constexpr int kPollStepMs = 100;
constexpr auto kPreambleWait = std::chrono::seconds(5);
constexpr auto kConnectRetries = std::chrono::seconds(5);

Error socket_error(const std::string& what, int error_number) {
  return Error(ErrorCode::io_error, what + ": " + std::strerror(error_number));
}

// When a transfer last moved a byte: read only when the socket would block, so the fast path
// (every call moves data) never reads the clock.
class StallClock {
 public:
  void moved() noexcept { waiting_ = false; }
  [[nodiscard]] bool expired() {
    const auto now = std::chrono::steady_clock::now();
    if (!waiting_) {
      waiting_ = true;
      since_ = now;
    }
    return now - since_ > kStallLimit;
  }

 private:
  bool waiting_{false};
  std::chrono::steady_clock::time_point since_{};
};

Result<sockaddr_in> ipv4(const std::string& address, std::uint16_t port) {
  sockaddr_in out{};
  out.sin_family = AF_INET;
  out.sin_port = htons(port);
  if (::inet_pton(AF_INET, address.c_str(), &out.sin_addr) != 1) {
    return fail(ErrorCode::invalid_argument, "'" + address + "' is not an IPv4 address");
  }
  return out;
}

std::string address_of(const sockaddr_in& address) {
  char text[INET_ADDRSTRLEN] = {};
  ::inet_ntop(AF_INET, &address.sin_addr, text, sizeof text);
  return text;
}

Result<Socket> new_socket() {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_NONBLOCK | SOCK_CLOEXEC, 0);
  if (fd < 0) return fail(socket_error("socket", errno));
  return Socket(fd);
}

// A connected socket for transfers: TCP_NODELAY, and blocking calls that give up after one
// poll step, so a transfer costs one system call per chunk (no poll before each), and stop
// and the stall limit are still looked at every 100 ms.
void ready_for_transfers(const Socket& socket) {
  const int on = 1;
  (void)::setsockopt(socket.fd(), IPPROTO_TCP, TCP_NODELAY, &on, sizeof on);
  const timeval step{0, kPollStepMs * 1000};
  (void)::setsockopt(socket.fd(), SOL_SOCKET, SO_RCVTIMEO, &step, sizeof step);
  (void)::setsockopt(socket.fd(), SOL_SOCKET, SO_SNDTIMEO, &step, sizeof step);
  (void)::fcntl(socket.fd(), F_SETFL, ::fcntl(socket.fd(), F_GETFL) & ~O_NONBLOCK);
}

// Waits up to one poll step for `events`; false on timeout.
bool wait_for(const Socket& socket, short events) {
  pollfd entry{socket.fd(), events, 0};
  return ::poll(&entry, 1, kPollStepMs) > 0;
}

// Reads exactly `bytes` before `deadline`; false on timeout, close or error.
bool read_exactly(const Socket& socket, std::span<std::byte> bytes, std::chrono::steady_clock::time_point deadline,
                  const Stopping& stopping) {
  std::size_t done = 0;
  while (done < bytes.size()) {
    if (stopping() || std::chrono::steady_clock::now() > deadline) return false;
    const auto got = ::recv(socket.fd(), bytes.data() + done, bytes.size() - done, MSG_DONTWAIT);
    if (got > 0) {
      done += static_cast<std::size_t>(got);
    } else if (got == 0 || (errno != EAGAIN && errno != EINTR)) {
      return false;
    } else {
      (void)wait_for(socket, POLLIN);
    }
  }
  return true;
}

}  // namespace

Socket& Socket::operator=(Socket&& other) noexcept {
  if (this != &other) {
    close();
    fd_ = std::exchange(other.fd_, -1);
  }
  return *this;
}

void Socket::close() noexcept {
  if (fd_ >= 0) ::close(fd_);
  fd_ = -1;
}

Result<Socket> listen_on(const std::string& address) {
  auto bind_to = ipv4(address, 0);
  if (!bind_to) return fail(bind_to.error());
  auto socket = new_socket();
  if (!socket) return socket;
  if (::bind(socket->fd(), reinterpret_cast<const sockaddr*>(&*bind_to), sizeof *bind_to) != 0) {
    return fail(socket_error("cannot listen on " + address, errno));
  }
  if (::listen(socket->fd(), 16) != 0) return fail(socket_error("cannot listen on " + address, errno));
  return socket;
}

Result<std::uint16_t> local_port(const Socket& socket) {
  sockaddr_in bound{};
  socklen_t length = sizeof bound;
  if (::getsockname(socket.fd(), reinterpret_cast<sockaddr*>(&bound), &length) != 0) {
    return fail(socket_error("getsockname", errno));
  }
  return ntohs(bound.sin_port);
}

Result<Socket> accept_peer(const Socket& listener, const std::string& peer_address, const Preamble& expected,
                           const Stopping& stopping, std::uint64_t& refused) {
  for (;;) {
    if (stopping()) return Socket();
    sockaddr_in from{};
    socklen_t length = sizeof from;
    const int fd = ::accept4(listener.fd(), reinterpret_cast<sockaddr*>(&from), &length, SOCK_NONBLOCK | SOCK_CLOEXEC);
    if (fd < 0) {
      if (errno == EAGAIN || errno == EINTR || errno == ECONNABORTED) {
        (void)wait_for(listener, POLLIN);
        continue;
      }
      return fail(socket_error("accept", errno));
    }
    Socket accepted(fd);
    if (address_of(from) != peer_address) {
      ++refused;
      continue;
    }
    Preamble received{};
    if (!read_exactly(accepted, received, std::chrono::steady_clock::now() + kPreambleWait, stopping) ||
        !preamble_matches(received, expected)) {
      if (stopping()) return Socket();
      ++refused;
      continue;
    }
    ready_for_transfers(accepted);
    return accepted;
  }
}

Result<Socket> connect_peer(const std::string& local_address, const std::string& peer_address, std::uint16_t port,
                            const Preamble& preamble, const Stopping& stopping) {
  auto from = ipv4(local_address, 0);
  if (!from) return fail(from.error());
  auto to = ipv4(peer_address, port);
  if (!to) return fail(to.error());
  const auto peer = peer_address + ":" + std::to_string(port);
  const auto give_up = std::chrono::steady_clock::now() + kConnectRetries;
  for (;;) {
    if (stopping()) return Socket();
    auto socket = new_socket();
    if (!socket) return socket;
    // The port is chosen at connect(), knowing the peer: bound early with port 0, a reconnecting
    // client (Test Connection Rate) could get a port whose old connection the server still
    // holds in TIME_WAIT, and be reset.
    const int on = 1;
    (void)::setsockopt(socket->fd(), IPPROTO_IP, IP_BIND_ADDRESS_NO_PORT, &on, sizeof on);
    if (::bind(socket->fd(), reinterpret_cast<const sockaddr*>(&*from), sizeof *from) != 0) {
      return fail(socket_error("cannot connect from " + local_address, errno));
    }
    int error_number = 0;
    if (::connect(socket->fd(), reinterpret_cast<const sockaddr*>(&*to), sizeof *to) != 0) {
      error_number = errno;
      if (error_number == EINPROGRESS) {
        while (!wait_for(*socket, POLLOUT)) {
          if (stopping()) return Socket();
        }
        socklen_t length = sizeof error_number;
        (void)::getsockopt(socket->fd(), SOL_SOCKET, SO_ERROR, &error_number, &length);
      }
    }
    if (error_number == ECONNREFUSED && std::chrono::steady_clock::now() < give_up) {
      (void)wait_for(*socket, 0);  // a pause of one poll step
      continue;
    }
    if (error_number != 0) return fail(socket_error("cannot connect to " + peer + " from " + local_address, error_number));
    ready_for_transfers(*socket);
    const auto sent = send_all(*socket, preamble, stopping);
    if (sent.outcome == TransferOutcome::stopped) return Socket();
    if (sent.outcome != TransferOutcome::done && sent.error_number == ECONNRESET &&
        std::chrono::steady_clock::now() < give_up) {
      continue;  // reset before it could speak: one more attempt, as for a refused connect
    }
    if (sent.outcome != TransferOutcome::done) {
      return fail(socket_error(peer + " closed the connection at once", sent.error_number));
    }
    return std::move(*socket);
  }
}

void close_after_peer(Socket& socket, const Stopping& stopping) {
  (void)::shutdown(socket.fd(), SHUT_WR);
  StallClock stall;
  std::byte drain[512];
  while (!stopping() && !stall.expired()) {
    const auto got = ::recv(socket.fd(), drain, sizeof drain, MSG_DONTWAIT);
    if (got == 0 || (got < 0 && errno != EAGAIN && errno != EINTR)) break;
    if (got < 0) (void)wait_for(socket, POLLIN);
  }
  socket.close();
}

TransferStatus send_all(const Socket& socket, std::span<const std::byte> bytes, const Stopping& stopping) {
  std::size_t done = 0;
  StallClock stall;
  while (done < bytes.size()) {
    const auto sent = ::send(socket.fd(), bytes.data() + done, bytes.size() - done, MSG_NOSIGNAL);
    if (sent >= 0) {
      done += static_cast<std::size_t>(sent);
      stall.moved();
      continue;
    }
    if (errno == EPIPE || errno == ECONNRESET) return {TransferOutcome::peer_closed, errno};
    if (errno != EAGAIN && errno != EINTR) return {TransferOutcome::failed, errno};
    if (stopping()) return {TransferOutcome::stopped, 0};
    if (stall.expired()) return {TransferOutcome::stalled, 0};
  }
  return {};
}

TransferStatus receive_all(const Socket& socket, std::span<std::byte> bytes, const Stopping& stopping) {
  std::size_t done = 0;
  StallClock stall;
  while (done < bytes.size()) {
    const auto got = ::recv(socket.fd(), bytes.data() + done, bytes.size() - done, 0);
    if (got > 0) {
      done += static_cast<std::size_t>(got);
      stall.moved();
      continue;
    }
    if (got == 0 || errno == ECONNRESET) return {TransferOutcome::peer_closed, got == 0 ? 0 : errno};
    if (errno != EAGAIN && errno != EINTR) return {TransferOutcome::failed, errno};
    if (stopping()) return {TransferOutcome::stopped, 0};
    if (stall.expired()) return {TransferOutcome::stalled, 0};
  }
  return {};
}

}  // namespace iomark::network
