#include "first_bytes_probe.hpp"

#include <boost/asio/socket_base.hpp>

#include "iomark/common/units.hpp"

namespace iomark::transport::detail {

namespace asio = boost::asio;

namespace {

// Between peeks while a peer's first bytes are incomplete: the socket stays readable (the
// peeked bytes are still there), so waiting for readability alone would spin.
constexpr auto kPeekPause = std::chrono::milliseconds(10);

}  // namespace

FirstBytesProbe::FirstBytesProbe(asio::io_context& context, Tcp::socket socket, std::string peer)
    : socket_(std::move(socket)), peer_(std::move(peer)), deadline_(context), pause_(context) {}

void FirstBytesProbe::start(Nanoseconds deadline, DoneHandler done) {
  done_ = std::move(done);
  allowed_ = deadline;
  boost::system::error_code ignored;
  socket_.non_blocking(true, ignored);  // a peek must never block the I/O thread
  deadline_.expires_after(deadline);
  deadline_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    if (error) return;
    const auto said = self->seen_ == 0 ? std::string("sent nothing")
                                       : "sent only " + hex_bytes(std::span(self->prefix_).first(self->seen_));
    self->drop(said + " within " + format_duration(self->allowed_) + ": dropped before its session began");
  });
  wait_readable();
}

void FirstBytesProbe::drop(const std::string& why) { finish(fail(ErrorCode::io_error, peer_ + ": " + why)); }

void FirstBytesProbe::wait_readable() {
  socket_.async_wait(Tcp::socket::wait_read,
                     [self = shared_from_this()](const boost::system::error_code& error) { self->on_readable(error); });
}

void FirstBytesProbe::on_readable(const boost::system::error_code& error) {
  if (finished_) return;
  if (error) {
    drop("connection lost before its first bytes: " + error.message());
    return;
  }
  boost::system::error_code peek_error;
  const auto peeked = socket_.receive(asio::buffer(prefix_), asio::socket_base::message_peek, peek_error);
  if (peek_error == asio::error::would_block) {
    wait_readable();
    return;
  }
  if (peek_error || peeked == 0) {
    drop(seen_ == 0 ? std::string("closed the connection without sending anything")
                    : "closed the connection after " + hex_bytes(std::span(prefix_).first(seen_)));
    return;
  }
  seen_ = peeked;
  const auto kind = classify_first_bytes(std::span(prefix_).first(seen_));
  if (kind != FirstBytes::need_more) {
    boost::system::error_code ignored;
    socket_.non_blocking(false, ignored);
    finish(Verdict{kind, std::move(socket_), peer_});
    return;
  }
  pause_.expires_after(kPeekPause);
  pause_.async_wait([self = shared_from_this()](const boost::system::error_code& pause_error) {
    if (!pause_error && !self->finished_) self->wait_readable();
  });
}

void FirstBytesProbe::finish(Result<Verdict> outcome) {
  if (finished_) return;
  finished_ = true;
  deadline_.cancel();
  pause_.cancel();
  if (!outcome) {
    boost::system::error_code ignored;
    socket_.close(ignored);
  }
  auto done = std::move(done_);
  if (done) done(std::move(outcome));
}

}  // namespace iomark::transport::detail
