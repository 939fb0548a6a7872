#include "tcp_connection.hpp"

#include <chrono>
#include <utility>

namespace iomark::transport::detail {

TcpConnection::TcpConnection(std::shared_ptr<IoThread> io, std::shared_ptr<TcpSession> session) noexcept
    : io_(std::move(io)), session_(std::move(session)) {}

TcpConnection::~TcpConnection() {
  session_->close("closed locally");
  // The margin covers the I/O thread being late to run the linger timer on a busy machine.
  (void)session_->wait_closed(session_->config().close_linger + std::chrono::seconds(1));
}

}  // namespace iomark::transport::detail
