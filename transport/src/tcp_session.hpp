// One TCP connection from connect/accept to close: session establishment (TLS when
// configured, Hellos, auth), then the established protocol::Connection behaviour (queues, heartbeats, deadlines).
#pragma once

#include <array>
#include <chrono>
#include <condition_variable>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include <boost/asio/io_context.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/stream.hpp>
#include <boost/asio/steady_timer.hpp>

#include "clamp_wait.hpp"
#include "iomark/common/result.hpp"
#include "iomark/protocol/auth.hpp"
#include "iomark/protocol/connection.hpp"
#include "iomark/protocol/frame.hpp"
#include "iomark/protocol/messages.hpp"
#include "iomark/transport/session_config.hpp"
#include "tls_detail.hpp"

namespace iomark::transport::detail {

using Tcp = boost::asio::ip::tcp;

// "127.0.0.1:5123", "[::1]:1066"; an IPv4-mapped IPv6 address (dual-stack listener) as IPv4.
[[nodiscard]] std::string endpoint_text(const Tcp::endpoint& endpoint);

// Threads: the start_*() functions and everything private run on the I/O thread (the one
// running the io_context). send(), receive(), close(), is_open(), wait_closed() may be called
// from any thread; they meet the I/O thread only in the state guarded by mutex_. peer() is
// written on the I/O thread before the session is marked established and never afterwards;
// a session is handed to users only after that, through a mutex, so they read it safely.
//
// Lifetime: handlers hold shared_ptrs to the session; the session holds no I/O thread.
class TcpSession : public std::enable_shared_from_this<TcpSession> {
 public:
  // Called once on the I/O thread: empty when established, else the error naming the peer.
  using DoneHandler = std::function<void(Result<void>)>;

  // `label` names the peer in errors until its endpoint or Hello is known.
  TcpSession(boost::asio::io_context& context, SessionConfig config, protocol::ConnectionSide side,
             std::string label);

  void start_accepted(Tcp::socket socket, DoneHandler done);
  void start_dial(const std::string& host, std::uint16_t port, DoneHandler done);

  [[nodiscard]] const protocol::PeerInfo& peer() const noexcept { return peer_; }
  [[nodiscard]] const SessionConfig& config() const noexcept { return config_; }

  [[nodiscard]] Result<void> send(const protocol::Envelope& envelope);
  [[nodiscard]] Result<protocol::Envelope> receive(Nanoseconds timeout);
  // Connection::watch: deliveries and the close notify `signal` with `source`.
  void watch(std::shared_ptr<protocol::ArrivalSignal> signal, std::size_t source);
  // Before establishment the session is aborted (its DoneHandler gets the reason).
  void close(const std::string& reason);
  [[nodiscard]] bool is_open() const noexcept;
  // True once the socket is closed (a closed session hands its last frames to the peer for
  // at most close_linger first).
  [[nodiscard]] bool wait_closed(Nanoseconds timeout);

 private:
  enum class Stage : std::uint8_t { connecting, tls, hello, auth_challenge, auth_response, auth_result, established };
  // A local close drops what was received but not yet taken; a close caused by the peer
  // (it closed, went silent, broke the protocol) keeps it for receive() to hand out first.
  enum class CloseKind : std::uint8_t { local, remote };
  enum class Admission : std::uint8_t { within_limit, always };

  struct Inbound {
    protocol::Envelope envelope;
    std::size_t wire_bytes{};  // approximately; for receive_queue_limit_bytes
  };

  // ---- session establishment (tcp_session_handshake.cpp) ----
  void start_session();  // TLS first when configured, then the Hellos
  void start_handshake();
  void on_handshake_envelope(protocol::Envelope envelope);
  void on_hello(const protocol::Hello& theirs);
  void on_challenge(const protocol::AuthChallenge& challenge);
  void on_response(const protocol::AuthResponse& response);
  void on_result(const protocol::AuthResult& result);
  void on_handshake_timeout();
  void establish();
  void fail_handshake(Error error, std::optional<protocol::Envelope> last_words);
  void queue_handshake_message(protocol::Message message);
  [[nodiscard]] std::string label() const;  // "agent 'db1' (127.0.0.1:5123)" once its Hello came
  [[nodiscard]] std::string waiting_for() const;

  // ---- TLS (tcp_session_tls.cpp) ----
  void start_tls();
  void on_tls_handshake(const boost::system::error_code& error);
  // The peer's TLS alert or OpenSSL's verdict on what it sent, once TLS is running.
  void on_tls_refusal(const TlsFailure& failure);
  [[nodiscard]] std::string tls_refusal_text(const TlsFailure& failure) const;
  // A plain peer's first bytes were a TLS record: it speaks TLS and we do not.
  void refuse_tls_peer();

  // ---- I/O (tcp_session.cpp) ----
  void start_read();
  void on_read(const boost::system::error_code& error, std::size_t bytes);
  void on_peer_gone(const boost::system::error_code& error);
  void on_frame_error(const protocol::FrameError& frame_error);
  void deliver(protocol::Envelope envelope);
  void resume_reading();
  Result<void> queue_frame(std::vector<std::byte> frame, Admission admission);
  void write_next();
  void on_written(const boost::system::error_code& error);
  void schedule_tick();
  void on_tick();
  // Marks the session closed; false when it already was. Needs mutex_ held.
  bool mark_closed_locked(Error error, CloseKind kind);
  // On the I/O thread: close now, sending `last_words` (an ErrorReport or AuthResult) first.
  void close_now(Error error, CloseKind kind, std::optional<protocol::Envelope> last_words = std::nullopt);
  void finish_close();
  void shutdown_send();
  void close_socket();

  // Set at construction.
  const SessionConfig config_;
  const protocol::ConnectionSide side_;
  Tcp::socket socket_;
  // Over socket_ when config_.tls is set; made when the TLS handshake starts.
  std::optional<boost::asio::ssl::stream<RecordingSocket>> tls_;
  Tcp::resolver resolver_;
  boost::asio::steady_timer handshake_timer_;
  boost::asio::steady_timer tick_timer_;
  boost::asio::steady_timer linger_timer_;

  // I/O thread only.
  std::string label_;
  protocol::PeerInfo peer_;
  bool hello_received_{false};
  Stage stage_{Stage::connecting};
  DoneHandler done_;
  std::optional<protocol::Authenticator> authenticator_;
  protocol::FrameDecoder decoder_{protocol::kMaxHandshakeFrameBytes};
  std::vector<std::byte> read_buffer_;
  std::size_t unattributed_bytes_{0};  // read but not yet counted against an Inbound
  std::array<std::byte, 2> first_bytes_{};  // the first bytes of a plain stream, to recognise TLS
  std::size_t first_bytes_seen_{0};
  // Reads and writes go through tls_. Cleared when its handshake fails: what is left to say
  // (a refusal to a plain peer) and to drain then goes around it.
  bool tls_in_use_{false};
  bool tls_handshaking_{false};
  std::optional<std::string> verify_failure_;  // why we refused the peer's certificate
  std::vector<std::vector<std::byte>> in_flight_;  // frames being written
  std::chrono::steady_clock::time_point last_received_;
  std::chrono::steady_clock::time_point last_sent_;
  std::uint64_t heartbeat_sequence_{0};
  bool reading_{false};
  bool closing_{false};
  bool eof_seen_{false};
  bool fin_sent_{false};
  bool socket_closed_{false};

  // Shared with the callers' threads.
  mutable std::mutex mutex_;
  std::condition_variable changed_;  // inbound_, closed_, socket_done_
  bool established_{false};
  bool closed_{false};
  std::optional<Error> close_error_;
  std::deque<Inbound> inbound_;
  std::size_t inbound_bytes_{0};
  bool read_paused_{false};
  std::deque<std::vector<std::byte>> outbound_;
  std::size_t outbound_bytes_{0};  // queued and in flight
  bool writing_{false};            // a write_next() is running or posted
  std::shared_ptr<protocol::ArrivalSignal> watcher_;  // told of inbound_ and closed_, with watch_source_
  std::size_t watch_source_{0};
  bool socket_done_{false};
};

}  // namespace iomark::transport::detail
