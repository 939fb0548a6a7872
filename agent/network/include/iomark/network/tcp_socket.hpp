// The TCP side of a network pair: the server's listener (bound to the address the plan names,
// port chosen by the kernel), accepting only the named peer with the right preamble, the
// client's connect from its own address, and whole transfers in either direction.
//
// Every wait lasts at most 100 ms before `stopping` is asked again, so stop() of a worker
// takes effect within that, whatever the peer does. Connected sockets block with 100 ms
// send and receive timeouts (one system call per chunk moved) and TCP_NODELAY (a 512-byte
// transaction is not held back by Nagle). Not thread-safe: one worker thread uses a socket.
#pragma once

#include <chrono>
#include <cstddef>
#include <cstdint>
#include <functional>
#include <span>
#include <string>
#include <utility>

#include "iomark/common/result.hpp"
#include "iomark/network/pair_proof.hpp"

namespace iomark::network {

using Stopping = std::function<bool()>;

// A transfer that moves no byte for this long fails: a cut cable sends no FIN, and the agent's
// control connection gives up on a silent peer after the same 5 s.
inline constexpr std::chrono::seconds kStallLimit{5};

// An owned file descriptor, closed when destroyed.
class Socket {
 public:
  Socket() = default;
  explicit Socket(int fd) noexcept : fd_(fd) {}
  Socket(Socket&& other) noexcept : fd_(std::exchange(other.fd_, -1)) {}
  Socket& operator=(Socket&& other) noexcept;
  Socket(const Socket&) = delete;
  Socket& operator=(const Socket&) = delete;
  ~Socket() { close(); }

  void close() noexcept;
  [[nodiscard]] int fd() const noexcept { return fd_; }
  [[nodiscard]] bool is_open() const noexcept { return fd_ >= 0; }

 private:
  int fd_{-1};
};

// Listens on `address`:0. Errors: io_error naming the address (not one of this host's, ...).
[[nodiscard]] Result<Socket> listen_on(const std::string& address);
[[nodiscard]] Result<std::uint16_t> local_port(const Socket& socket);

// Waits for a connection from `peer_address` whose first bytes are `expected`; connections
// from any other address, or with another preamble within 5 s, are closed and counted in
// `refused`. A Socket that is not open when `stopping` said so first; io_error when accept fails.
[[nodiscard]] Result<Socket> accept_peer(const Socket& listener, const std::string& peer_address,
                                         const Preamble& expected, const Stopping& stopping, std::uint64_t& refused);

// Connects from `local_address` to `peer_address`:`port` and sends `preamble`; a refused
// connect is tried again for up to 5 s (the server may still be getting ready).
// A Socket that is not open when `stopping` said so first; errors: io_error naming the peer.
[[nodiscard]] Result<Socket> connect_peer(const std::string& local_address, const std::string& peer_address,
                                          std::uint16_t port, const Preamble& preamble, const Stopping& stopping);

enum class TransferOutcome : std::uint8_t {
  done,         // every byte went (send: the kernel took it) or came
  peer_closed,  // the peer closed or reset the connection first
  stopped,      // `stopping` said so first
  stalled,      // not one byte moved for kStallLimit: the path to the peer is gone
  failed,       // another socket error; `error_number` says which
};

struct TransferStatus {
  TransferOutcome outcome{TransferOutcome::done};
  int error_number{};
};

// The client's end of a connection under Test Connection Rate: says it is done sending and
// waits (up to kStallLimit) until the server has closed, then closes. So the client never
// runs ahead of the server's accepts (a full accept queue drops SYNs, and a dropped SYN costs
// a second), and TIME_WAIT stays with the server instead of eating the client's ports.
void close_after_peer(Socket& socket, const Stopping& stopping);

[[nodiscard]] TransferStatus send_all(const Socket& socket, std::span<const std::byte> bytes, const Stopping& stopping);
[[nodiscard]] TransferStatus receive_all(const Socket& socket, std::span<std::byte> bytes, const Stopping& stopping);

}  // namespace iomark::network
