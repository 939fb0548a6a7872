#include "tcp_session.hpp"

#include <algorithm>
#include <utility>

#include <boost/asio/buffer.hpp>
#include <boost/asio/error.hpp>
#include <boost/asio/ip/address.hpp>
#include <boost/asio/post.hpp>
#include <boost/asio/write.hpp>

#include "iomark/transport/host_port.hpp"

namespace iomark::transport::detail {

namespace asio = boost::asio;
using Clock = std::chrono::steady_clock;

namespace {

// Reads start small and the buffer doubles while reads fill it: a controller's thousand mostly
// quiet connections (a sample is a few KiB a second) need a few KiB each, not 64.
constexpr std::size_t kFirstReadBytes = 4 * 1024;
constexpr std::size_t kLargestReadBytes = 64 * 1024;

}  // namespace

std::string endpoint_text(const Tcp::endpoint& endpoint) {
  auto address = endpoint.address();
  if (address.is_v6() && address.to_v6().is_v4_mapped()) {
    address = asio::ip::make_address_v4(asio::ip::v4_mapped, address.to_v6());
  }
  return to_string(HostPort{address.to_string(), endpoint.port()});
}

TcpSession::TcpSession(asio::io_context& context, SessionConfig config, protocol::ConnectionSide side,
                       std::string label)
    : config_(std::move(config)),
      side_(side),
      socket_(context),
      resolver_(context),
      handshake_timer_(context),
      tick_timer_(context),
      linger_timer_(context),
      label_(std::move(label)),
      read_buffer_(kFirstReadBytes) {}

// ---- the Connection interface (any thread) ----------------------------------------------

Result<void> TcpSession::send(const protocol::Envelope& envelope) {
  auto frame = protocol::encode_frame(envelope);
  if (!frame) return fail(std::move(frame).error());
  return queue_frame(std::move(*frame), Admission::within_limit);
}

Result<protocol::Envelope> TcpSession::receive(Nanoseconds timeout) {
  std::unique_lock lock(mutex_);
  // A poll does not wait: a wait of no time is still a sleep in the kernel, once per
  // connection a fleet's controller looks at (docs/performance.md#controller-taking-in-samples).
  if (timeout > Nanoseconds(0)) {
    changed_.wait_for(lock, clamp_wait(timeout), [this] { return !inbound_.empty() || closed_; });
  }
  if (!inbound_.empty()) {
    auto item = std::move(inbound_.front());
    inbound_.pop_front();
    inbound_bytes_ -= item.wire_bytes;
    // Half the limit, so a reader that keeps up does not flip reading on and off per frame.
    const bool resume = read_paused_ && inbound_bytes_ <= config_.receive_queue_limit_bytes / 2;
    if (resume) read_paused_ = false;
    lock.unlock();
    if (resume) asio::post(socket_.get_executor(), [self = shared_from_this()] { self->resume_reading(); });
    return std::move(item.envelope);
  }
  if (closed_) return fail(*close_error_);
  // A poll (zero timeout) is how a controller looks at a thousand agents many times a second:
  // its miss is a short text that needs no allocation.
  if (timeout <= Nanoseconds(0)) return fail(ErrorCode::timed_out, "none waiting");
  return fail(ErrorCode::timed_out, peer_.describe() + ": nothing received within " + format_duration(timeout));
}

void TcpSession::watch(std::shared_ptr<protocol::ArrivalSignal> signal, std::size_t source) {
  std::lock_guard lock(mutex_);
  watcher_ = std::move(signal);
  watch_source_ = source;
  if (watcher_ && (!inbound_.empty() || closed_)) watcher_->notify(watch_source_);
}

void TcpSession::close(const std::string& reason) {
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    if (established_) {
      mark_closed_locked(Error(ErrorCode::io_error, peer_.describe() + ": " + reason), CloseKind::local);
    }
  }
  changed_.notify_all();
  // Before establishment only the I/O thread may read the half-known peer_ to name it.
  asio::post(socket_.get_executor(), [self = shared_from_this(), reason] {
    self->close_now(Error(ErrorCode::io_error, self->label() + ": " + reason), CloseKind::local);
  });
}

bool TcpSession::is_open() const noexcept {
  std::lock_guard lock(mutex_);
  return !closed_;
}

bool TcpSession::wait_closed(Nanoseconds timeout) {
  std::unique_lock lock(mutex_);
  return changed_.wait_for(lock, clamp_wait(timeout), [this] { return socket_done_; });
}

// ---- reading ----------------------------------------------------------------------------

void TcpSession::start_read() {
  reading_ = true;
  auto handler = [self = shared_from_this()](const boost::system::error_code& error, std::size_t bytes) {
    self->on_read(error, bytes);
  };
  if (tls_in_use_) {
    tls_->async_read_some(asio::buffer(read_buffer_), std::move(handler));
  } else {
    socket_.async_read_some(asio::buffer(read_buffer_), std::move(handler));
  }
}

void TcpSession::on_read(const boost::system::error_code& error, std::size_t bytes) {
  reading_ = false;
  if (socket_closed_) return;
  if (closing_) {
    // Draining until the peer closes too, so that closing with unread data does not make
    // the kernel reset the connection and destroy the frames we still hand over.
    if (!error) {
      start_read();
      return;
    }
    eof_seen_ = true;
    std::unique_lock lock(mutex_);
    const bool idle = !writing_ && outbound_.empty();
    lock.unlock();
    if (idle) close_socket();
    return;
  }
  if (error) {
    on_peer_gone(error);
    return;
  }

  last_received_ = Clock::now();
  if (first_bytes_seen_ < first_bytes_.size()) {
    const auto take = std::min(bytes, first_bytes_.size() - first_bytes_seen_);
    std::copy_n(read_buffer_.begin(), take, first_bytes_.begin() + static_cast<std::ptrdiff_t>(first_bytes_seen_));
    first_bytes_seen_ += take;
  }
  unattributed_bytes_ += bytes;
  decoder_.feed(std::span<const std::byte>(read_buffer_.data(), bytes));
  if (bytes == read_buffer_.size() && read_buffer_.size() < kLargestReadBytes) read_buffer_.resize(2 * bytes);
  for (;;) {
    auto step = decoder_.next();
    if (std::holds_alternative<protocol::NeedMore>(step)) break;
    if (auto* frame_error = std::get_if<protocol::FrameError>(&step)) {
      on_frame_error(*frame_error);
      return;
    }
    auto& envelope = std::get<protocol::Envelope>(step);
    if (stage_ == Stage::established) {
      deliver(std::move(envelope));
    } else {
      on_handshake_envelope(std::move(envelope));
    }
    if (closing_) return;
  }

  if (stage_ == Stage::established) {
    std::unique_lock lock(mutex_);
    read_paused_ = inbound_bytes_ >= config_.receive_queue_limit_bytes;
    if (read_paused_) return;
  }
  start_read();
}

void TcpSession::on_peer_gone(const boost::system::error_code& error) {
  eof_seen_ = true;
  if (tls_in_use_) {
    const auto failure = classify_tls_failure(error);
    if (failure.kind != TlsFailureKind::connection) {
      on_tls_refusal(failure);
      return;
    }
  }
  std::string why;
  if (is_end_of_stream(error)) {
    why = decoder_.mid_frame() ? "the peer closed the connection in the middle of a frame"
                               : "the peer closed the connection";
  } else {
    why = "connection lost: " + error.message();
  }
  if (stage_ != Stage::established) {
    fail_handshake(Error(ErrorCode::io_error, label() + ": " + why + " " + waiting_for()), std::nullopt);
  } else {
    close_now(Error(ErrorCode::io_error, label() + ": " + why), CloseKind::remote);
  }
}

void TcpSession::on_frame_error(const protocol::FrameError& frame_error) {
  if (frame_error.kind == protocol::FrameErrorKind::bad_magic && stage_ == Stage::hello && !tls_in_use_ &&
      looks_like_tls(std::span<const std::byte>(first_bytes_.data(), first_bytes_seen_))) {
    refuse_tls_peer();
    return;
  }
  const auto what = "protocol violation: " + std::string(protocol::to_string(frame_error.kind)) + ": " +
                    frame_error.error.message();
  const protocol::Envelope report{
      .message = protocol::ErrorReport{protocol::ErrorKind::protocol_violation,
                                       Error(frame_error.error.code(), what).in_field(frame_error.error.field())}};
  if (stage_ != Stage::established) {
    fail_handshake(Error(frame_error.error.code(), label() + ": " + what).in_field(frame_error.error.field()), report);
  } else {
    close_now(Error(ErrorCode::io_error, label() + ": " + what), CloseKind::remote, report);
  }
}

void TcpSession::deliver(protocol::Envelope envelope) {
  const auto& message = envelope.message;
  if (std::holds_alternative<protocol::Heartbeat>(message)) return;
  if (std::holds_alternative<protocol::Hello>(message) || std::holds_alternative<protocol::AuthChallenge>(message) ||
      std::holds_alternative<protocol::AuthResponse>(message) || std::holds_alternative<protocol::AuthResult>(message)) {
    const auto what = "protocol violation: '" + std::string(protocol::message_name(message)) +
                      "' after the session was established";
    close_now(Error(ErrorCode::io_error, label() + ": " + what), CloseKind::remote,
              protocol::Envelope{.message = protocol::ErrorReport{protocol::ErrorKind::protocol_violation,
                                                                  Error(ErrorCode::validation_error, what)}});
    return;
  }
  {
    std::lock_guard lock(mutex_);
    if (closed_) return;
    // All bytes read since the last delivery are charged to this frame: the sum stays
    // right within one read chunk, which is all the limit needs.
    inbound_.push_back(Inbound{std::move(envelope), unattributed_bytes_});
    inbound_bytes_ += unattributed_bytes_;
    unattributed_bytes_ = 0;
    if (watcher_) watcher_->notify(watch_source_);
  }
  changed_.notify_all();
}

void TcpSession::resume_reading() {
  if (closing_ || reading_ || socket_closed_) return;
  // Nothing was read while paused; the peer must not be blamed for our pause.
  last_received_ = Clock::now();
  start_read();
}

// ---- writing ----------------------------------------------------------------------------

Result<void> TcpSession::queue_frame(std::vector<std::byte> frame, Admission admission) {
  bool kick = false;
  {
    std::unique_lock lock(mutex_);
    if (closed_) return fail(*close_error_);
    if (admission == Admission::within_limit && outbound_bytes_ > 0 &&
        outbound_bytes_ + frame.size() > config_.send_queue_limit_bytes) {
      Error error(ErrorCode::io_error, peer_.describe() + ": the peer is not reading: " +
                                           std::to_string(outbound_bytes_) + " bytes wait to be sent (limit " +
                                           std::to_string(config_.send_queue_limit_bytes) + ")");
      mark_closed_locked(error, CloseKind::remote);
      lock.unlock();
      changed_.notify_all();
      asio::post(socket_.get_executor(), [self = shared_from_this()] { self->finish_close(); });
      return fail(std::move(error));
    }
    outbound_bytes_ += frame.size();
    outbound_.push_back(std::move(frame));
    kick = !writing_;
    writing_ = true;
  }
  if (kick) asio::post(socket_.get_executor(), [self = shared_from_this()] { self->write_next(); });
  return {};
}

void TcpSession::write_next() {
  if (socket_closed_) return;
  {
    std::lock_guard lock(mutex_);
    if (outbound_.empty()) {
      writing_ = false;
    } else {
      in_flight_.assign(std::make_move_iterator(outbound_.begin()), std::make_move_iterator(outbound_.end()));
      outbound_.clear();
    }
  }
  if (in_flight_.empty()) {
    if (closing_) {
      shutdown_send();
      if (eof_seen_) close_socket();
    }
    return;
  }
  std::vector<asio::const_buffer> buffers;
  buffers.reserve(in_flight_.size());
  for (const auto& frame : in_flight_) buffers.emplace_back(frame.data(), frame.size());
  last_sent_ = Clock::now();
  auto handler = [self = shared_from_this()](const boost::system::error_code& error, std::size_t) {
    self->on_written(error);
  };
  if (tls_in_use_) {
    asio::async_write(*tls_, buffers, std::move(handler));
  } else {
    asio::async_write(socket_, buffers, std::move(handler));
  }
}

void TcpSession::on_written(const boost::system::error_code& error) {
  std::size_t written = 0;
  for (const auto& frame : in_flight_) written += frame.size();
  in_flight_.clear();
  {
    std::lock_guard lock(mutex_);
    outbound_bytes_ -= written;
    if (error) writing_ = false;
  }
  if (socket_closed_) return;
  if (error) {
    if (!closing_) {
      const auto why = label() + ": connection lost while sending: " + error.message();
      if (stage_ != Stage::established) {
        fail_handshake(Error(ErrorCode::io_error, why), std::nullopt);
      } else {
        close_now(Error(ErrorCode::io_error, why), CloseKind::remote);
      }
    }
    close_socket();
    return;
  }
  write_next();
}

// ---- liveness ---------------------------------------------------------------------------

void TcpSession::schedule_tick() {
  // At the next moment something can be due, a heartbeat (nothing sent for the interval) or
  // the dead-peer verdict (nothing received for the deadline), rounded up to a grid of
  // `period`s shared by every session: a thousand sessions on one I/O thread wake together
  // a few times a second rather than each on its own, and a session whose peer talks to it
  // wakes about once per heartbeat interval. The period is short enough to declare a silent
  // peer dead at most 5% of the deadline late (250 ms of 5 s: the deadline is what users are
  // promised), and a due moment kept in the past (a write or a paused read) costs one wake-up
  // per period, no more.
  const auto period = std::max<Nanoseconds>(std::min(config_.heartbeat_interval, config_.dead_peer_deadline / 20),
                                            std::chrono::milliseconds(1));
  const auto due = std::max(std::min(last_sent_ + config_.heartbeat_interval, last_received_ + config_.dead_peer_deadline),
                            Clock::now());
  const auto next_slot = due.time_since_epoch() / period + 1;
  tick_timer_.expires_at(Clock::time_point(std::chrono::duration_cast<Clock::duration>(next_slot * period)));
  tick_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    if (!error) self->on_tick();
  });
}

void TcpSession::on_tick() {
  if (closing_) return;
  const auto now = Clock::now();
  bool paused = false;
  bool idle = false;
  {
    std::lock_guard lock(mutex_);
    paused = read_paused_;
    idle = !writing_ && outbound_.empty();
  }
  const auto silence = std::chrono::duration_cast<Nanoseconds>(now - last_received_);
  if (!paused && silence >= config_.dead_peer_deadline) {
    close_now(Error(ErrorCode::io_error, label() + ": silent for " + format_duration(silence) +
                                             " (dead-peer deadline " + format_duration(config_.dead_peer_deadline) +
                                             "); declared dead"),
              CloseKind::remote);
    return;
  }
  // A write in progress already tells the peer we are alive once it lands.
  if (idle && now - last_sent_ >= config_.heartbeat_interval) {
    auto frame = protocol::encode_frame(protocol::Envelope{.message = protocol::Heartbeat{++heartbeat_sequence_}});
    if (frame) (void)queue_frame(std::move(*frame), Admission::always);
  }
  schedule_tick();
}

// ---- closing ----------------------------------------------------------------------------

bool TcpSession::mark_closed_locked(Error error, CloseKind kind) {
  if (closed_) return false;
  closed_ = true;
  close_error_ = std::move(error);
  if (watcher_) watcher_->notify(watch_source_);
  if (kind == CloseKind::local) {
    inbound_.clear();
    inbound_bytes_ = 0;
  }
  return true;
}

void TcpSession::close_now(Error error, CloseKind kind, std::optional<protocol::Envelope> last_words) {
  {
    std::lock_guard lock(mutex_);
    if (mark_closed_locked(std::move(error), kind) && last_words && socket_.is_open()) {
      if (auto frame = protocol::encode_frame(*last_words)) {
        outbound_bytes_ += frame->size();
        outbound_.push_back(std::move(*frame));
      }
    }
  }
  changed_.notify_all();
  finish_close();
}

void TcpSession::finish_close() {
  if (closing_) return;
  closing_ = true;
  handshake_timer_.cancel();
  tick_timer_.cancel();
  resolver_.cancel();
  if (done_) {
    auto done = std::exchange(done_, nullptr);
    Error error = [this] {
      std::lock_guard lock(mutex_);
      return *close_error_;
    }();
    done(fail(std::move(error)));
  }
  // Nothing can be handed over in the middle of a TLS handshake (its alert, if any, has gone).
  if (stage_ == Stage::connecting || tls_handshaking_ || !socket_.is_open()) {
    close_socket();
    return;
  }

  linger_timer_.expires_after(config_.close_linger);
  linger_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& error) {
    if (!error) self->close_socket();
  });
  bool kick = false;
  bool idle = false;
  {
    std::lock_guard lock(mutex_);
    if (!writing_) {
      idle = outbound_.empty();
      kick = !idle;
      writing_ = kick;
    }
  }
  if (kick) {
    write_next();
  } else if (idle) {
    shutdown_send();
    if (eof_seen_) {
      close_socket();
      return;
    }
  }
  if (!reading_ && !eof_seen_) start_read();
}

void TcpSession::shutdown_send() {
  // Over TLS too this is only the TCP half-close, without TLS's close_notify: sending that
  // would need a TLS shutdown, which waits for the peer's close_notify and would compete
  // with the reads draining the connection. The peer reads the end as is_end_of_stream().
  if (fin_sent_ || socket_closed_) return;
  fin_sent_ = true;
  boost::system::error_code ignored;
  socket_.shutdown(Tcp::socket::shutdown_send, ignored);
}

void TcpSession::close_socket() {
  if (socket_closed_) return;
  socket_closed_ = true;
  handshake_timer_.cancel();
  tick_timer_.cancel();
  linger_timer_.cancel();
  resolver_.cancel();
  boost::system::error_code ignored;
  socket_.close(ignored);
  {
    std::lock_guard lock(mutex_);
    socket_done_ = true;
  }
  changed_.notify_all();
}

}  // namespace iomark::transport::detail
