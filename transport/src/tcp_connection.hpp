// The protocol::Connection handed to users for an established TCP session.
#pragma once

#include <memory>
#include <string>

#include "io_thread.hpp"
#include "iomark/protocol/connection.hpp"
#include "tcp_session.hpp"

namespace iomark::transport::detail {

class TcpConnection final : public protocol::Connection {
 public:
  TcpConnection(std::shared_ptr<IoThread> io, std::shared_ptr<TcpSession> session) noexcept;
  // Closes, then waits (at most close_linger and a margin) until queued frames were handed
  // to the peer and the socket is closed; then lets go of the I/O thread, which stops when
  // this was its last user.
  ~TcpConnection() override;

  [[nodiscard]] const protocol::PeerInfo& peer() const noexcept override { return session_->peer(); }
  [[nodiscard]] Result<void> send(protocol::Envelope envelope) override { return session_->send(envelope); }
  [[nodiscard]] Result<protocol::Envelope> receive(Nanoseconds timeout) override { return session_->receive(timeout); }
  [[nodiscard]] bool watch(std::shared_ptr<protocol::ArrivalSignal> signal, std::size_t source) override {
    session_->watch(std::move(signal), source);
    return true;
  }
  void close(std::string reason) override { session_->close(reason); }
  [[nodiscard]] bool is_open() const noexcept override { return session_->is_open(); }

 private:
  // Declared first, destroyed last: the session's sockets and timers belong to its context.
  std::shared_ptr<IoThread> io_;
  std::shared_ptr<TcpSession> session_;
};

}  // namespace iomark::transport::detail
