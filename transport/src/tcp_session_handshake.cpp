// Session establishment: connect (dialer), TLS when configured (tcp_session_tls.cpp), Hellos,
// then the challenge-response of auth.hpp.
// Each side sends its next message as soon as the peer's previous one allows it, so the two
// sides never wait for each other: Hello at once; AuthChallenge on the peer's Hello;
// AuthResponse on the peer's challenge; AuthResult on the peer's response. The peer's
// messages must come in exactly that order; anything else ends the handshake.
#include <string>
#include <utility>
#include <variant>

#include <boost/asio/connect.hpp>

#include "iomark/protocol/handshake.hpp"
#include "tcp_session.hpp"

namespace iomark::transport::detail {

namespace asio = boost::asio;

namespace {

protocol::Envelope envelope_of(protocol::Message message) { return protocol::Envelope{.message = std::move(message)}; }

// A refusal the peer sent us; its message was written from the peer's point of view.
Error peer_refusal(const std::string& peer, const protocol::ErrorReport& report) {
  // Its code is kept: the wire cannot carry timed_out, so a refusal never reads as "nothing yet".
  return Error(report.error.code(), peer + " refused the session (" + std::string(protocol::to_string(report.kind)) +
                         "): " + report.error.message());
}

}  // namespace

void TcpSession::start_accepted(Tcp::socket socket, DoneHandler done) {
  done_ = std::move(done);
  socket_ = std::move(socket);
  boost::system::error_code error;
  const auto remote = socket_.remote_endpoint(error);
  if (!error) label_ = endpoint_text(remote);
  peer_.endpoint = label_;
  if (error) {
    close_now(Error(ErrorCode::io_error, label_ + ": connection lost at once: " + error.message()), CloseKind::remote);
    return;
  }
  handshake_timer_.expires_after(config_.handshake_timeout);
  handshake_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& timer_error) {
    if (!timer_error) self->on_handshake_timeout();
  });
  start_session();
}

void TcpSession::start_dial(const std::string& host, std::uint16_t port, DoneHandler done) {
  done_ = std::move(done);
  handshake_timer_.expires_after(config_.handshake_timeout);
  handshake_timer_.async_wait([self = shared_from_this()](const boost::system::error_code& timer_error) {
    if (!timer_error) self->on_handshake_timeout();
  });
  resolver_.async_resolve(
      host, std::to_string(port), Tcp::resolver::numeric_service,
      [self = shared_from_this()](const boost::system::error_code& error, const Tcp::resolver::results_type& results) {
        if (self->closing_) return;
        if (error) {
          self->fail_handshake(Error(ErrorCode::io_error, self->label_ + ": cannot resolve the host: " + error.message()),
                               std::nullopt);
          return;
        }
        asio::async_connect(self->socket_, results,
                            [self](const boost::system::error_code& connect_error, const Tcp::endpoint& endpoint) {
                              if (self->closing_) return;
                              if (connect_error) {
                                self->fail_handshake(Error(ErrorCode::io_error, self->label_ + ": cannot connect: " +
                                                                                    connect_error.message()),
                                                     std::nullopt);
                                return;
                              }
                              self->label_ = endpoint_text(endpoint);
                              self->peer_.endpoint = self->label_;
                              self->start_session();
                            });
      });
}

void TcpSession::start_session() {
  boost::system::error_code ignored;
  // Commands and heartbeats are small; they must not wait for Nagle's algorithm.
  socket_.set_option(Tcp::no_delay(true), ignored);
  if (config_.tls) {
    start_tls();
  } else {
    start_handshake();
  }
}

void TcpSession::start_handshake() {
  stage_ = Stage::hello;
  queue_handshake_message(config_.hello);
  start_read();
}

void TcpSession::queue_handshake_message(protocol::Message message) {
  if (auto frame = protocol::encode_frame(envelope_of(std::move(message)))) {
    (void)queue_frame(std::move(*frame), Admission::always);
  }
}

void TcpSession::on_handshake_envelope(protocol::Envelope envelope) {
  auto& message = envelope.message;
  if (const auto* report = std::get_if<protocol::ErrorReport>(&message)) {
    fail_handshake(peer_refusal(label(), *report), std::nullopt);
    return;
  }
  if (stage_ == Stage::hello && std::holds_alternative<protocol::Hello>(message)) {
    on_hello(std::get<protocol::Hello>(message));
  } else if (stage_ == Stage::auth_challenge && std::holds_alternative<protocol::AuthChallenge>(message)) {
    on_challenge(std::get<protocol::AuthChallenge>(message));
  } else if (stage_ == Stage::auth_response && std::holds_alternative<protocol::AuthResponse>(message)) {
    on_response(std::get<protocol::AuthResponse>(message));
  } else if (stage_ == Stage::auth_result && std::holds_alternative<protocol::AuthResult>(message)) {
    on_result(std::get<protocol::AuthResult>(message));
  } else {
    const auto what = "protocol violation: got '" + std::string(protocol::message_name(message)) + "' " + waiting_for();
    fail_handshake(Error(ErrorCode::validation_error, label() + ": " + what),
                   envelope_of(protocol::ErrorReport{protocol::ErrorKind::protocol_violation,
                                                     Error(ErrorCode::validation_error, what)}));
  }
}

void TcpSession::on_hello(const protocol::Hello& theirs) {
  peer_.role = theirs.role;
  peer_.name = theirs.name;
  peer_.address = theirs.address;
  peer_.build = theirs.build;
  hello_received_ = true;

  auto agreed = protocol::agree(config_.hello, theirs);
  if (!agreed) {
    const auto& report = agreed.error();
    fail_handshake(Error(report.error.code(), label() + ": " + report.error.message()).in_field(report.error.field()),
                   envelope_of(report));
    return;
  }
  peer_.protocol_version = agreed->version;
  peer_.auth_mode = agreed->auth_mode;
  if (agreed->auth_mode == protocol::AuthMode::none) {
    establish();
    return;
  }

  auto nonce = protocol::random_nonce();
  if (!nonce) {
    fail_handshake(Error(nonce.error().code(), label() + ": " + nonce.error().message()),
                   envelope_of(protocol::ErrorReport{protocol::ErrorKind::authentication_failed,
                                                     Error(ErrorCode::internal, "the peer cannot authenticate")}));
    return;
  }
  // validate() made sure a pre-shared-key Hello comes with its key.
  authenticator_.emplace(*config_.key, config_.hello.role, side_, *nonce);
  stage_ = Stage::auth_challenge;
  queue_handshake_message(authenticator_->challenge());
}

void TcpSession::on_challenge(const protocol::AuthChallenge& challenge) {
  auto response = authenticator_->answer(challenge);
  if (!response) {
    fail_handshake(Error(response.error().code(), label() + ": " + response.error().message()),
                   envelope_of(protocol::AuthResult{false, response.error().message()}));
    return;
  }
  stage_ = Stage::auth_response;
  queue_handshake_message(*response);
}

void TcpSession::on_response(const protocol::AuthResponse& response) {
  if (auto verified = authenticator_->verify(response); !verified) {
    const auto our_role = std::string(protocol::to_string(config_.hello.role));
    fail_handshake(Error(verified.error().code(), label() + ": " + verified.error().message() +
                                                      "; give both sides the same key (--key-file or IOMARK_KEY)")
                       .in_field(verified.error().field()),
                   envelope_of(protocol::AuthResult{
                       false, "authentication failed: this " + our_role + " (" + config_.hello.build +
                                  ") holds another key than yours; give both sides the same key"}));
    return;
  }
  stage_ = Stage::auth_result;
  queue_handshake_message(protocol::AuthResult{true, ""});
}

void TcpSession::on_result(const protocol::AuthResult& result) {
  if (!result.accepted) {
    fail_handshake(Error(ErrorCode::validation_error, label() + " rejected our key: " + result.reason), std::nullopt);
    return;
  }
  establish();
}

void TcpSession::on_handshake_timeout() {
  if (closing_ || stage_ == Stage::established) return;
  const auto what = "no session within " + format_duration(config_.handshake_timeout) + " (" + waiting_for() + ")";
  std::optional<protocol::Envelope> last_words;
  if (!tls_handshaking_) {
    last_words = envelope_of(
        protocol::ErrorReport{protocol::ErrorKind::protocol_violation, Error(ErrorCode::io_error, what)});
  }
  fail_handshake(Error(ErrorCode::io_error, label() + ": " + what), std::move(last_words));
}

void TcpSession::establish() {
  stage_ = Stage::established;
  handshake_timer_.cancel();
  authenticator_.reset();
  decoder_.set_max_frame_bytes(protocol::kMaxFrameBytes);
  last_received_ = std::chrono::steady_clock::now();
  {
    std::lock_guard lock(mutex_);
    established_ = true;
  }
  schedule_tick();
  std::exchange(done_, nullptr)(Result<void>{});
}

void TcpSession::fail_handshake(Error error, std::optional<protocol::Envelope> last_words) {
  close_now(std::move(error), CloseKind::remote, std::move(last_words));
}

std::string TcpSession::label() const { return hello_received_ ? peer_.describe() : label_; }

std::string TcpSession::waiting_for() const {
  switch (stage_) {
    case Stage::connecting: return "while connecting";
    case Stage::tls: return "during the TLS handshake";
    case Stage::hello: return "while waiting for the peer's hello";
    case Stage::auth_challenge: return "while waiting for the peer's auth challenge";
    case Stage::auth_response: return "while waiting for the peer's auth response";
    case Stage::auth_result: return "while waiting for the peer's auth result";
    case Stage::established: return "after the session was established";
  }
  return "";
}

}  // namespace iomark::transport::detail
