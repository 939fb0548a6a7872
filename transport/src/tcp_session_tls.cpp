// TLS under the session (tls.hpp): its handshake before the Hellos, and the named errors of a
// refused certificate and of a TLS side meeting a plain one.
//
// Meeting a plain peer: both kinds of peer send first what they always send, so each side
// recognises the other from the first bytes. A plain side sends its Hello at once and reads a
// TLS record (a ClientHello) where a frame should start; a TLS side reads "IOMK" where a TLS
// record should start. Neither waits for a timeout. The TLS side then tells the plain peer
// why in a plain ErrorReport, which the peer can read.
#include <string>
#include <utility>

#include "tcp_session.hpp"

namespace iomark::transport::detail {

namespace ssl = boost::asio::ssl;

namespace {

constexpr const char* kBothOrNeither = "give both sides --tls-cert, --tls-key and --tls-ca, or neither";

protocol::Envelope refusal(std::string message) {
  return protocol::Envelope{.message = protocol::ErrorReport{protocol::ErrorKind::authentication_failed,
                                                             Error(ErrorCode::validation_error, std::move(message))}};
}

}  // namespace

void TcpSession::start_tls() {
  stage_ = Stage::tls;
  try {
    tls_.emplace(RecordingSocket(socket_), TlsAccess::context(*config_.tls));
  } catch (const boost::system::system_error& error) {
    fail_handshake(Error(ErrorCode::internal, label() + ": cannot start TLS: " + error.what()), std::nullopt);
    return;
  }
  boost::system::error_code ignored;
  tls_->set_verify_callback(
      [this](bool preverified, ssl::verify_context& context) {
        // OpenSSL decides; this keeps its first reason for the error message.
        if (!preverified && !verify_failure_) verify_failure_ = describe_verify_failure(context);
        return preverified;
      },
      ignored);
  tls_in_use_ = true;
  tls_handshaking_ = true;
  const auto role = side_ == protocol::ConnectionSide::dialer ? ssl::stream_base::client : ssl::stream_base::server;
  tls_->async_handshake(role, [self = shared_from_this()](const boost::system::error_code& error) {
    self->on_tls_handshake(error);
  });
}

void TcpSession::on_tls_handshake(const boost::system::error_code& error) {
  tls_handshaking_ = false;
  if (closing_) return;
  if (!error) {
    start_handshake();
    return;
  }
  // OpenSSL has sent its alert, if any; what is still said or drained goes around TLS.
  tls_in_use_ = false;
  const auto our_role = std::string(protocol::to_string(config_.hello.role));
  if (tls_->next_layer().peer_sent_frame_magic()) {
    fail_handshake(Error(ErrorCode::validation_error, label() + ": the peer does not speak TLS (it sent a plain " +
                                                          "iomark hello) and this " + our_role + " requires it; " +
                                                          kBothOrNeither),
                   refusal("this " + our_role + " speaks TLS only and you do not speak TLS; " + kBothOrNeither));
    return;
  }
  if (verify_failure_) {
    fail_handshake(Error(ErrorCode::validation_error, label() + ": TLS: refused the peer's " + *verify_failure_ +
                                                          "; its --tls-cert must be signed by a CA in our --tls-ca " +
                                                          config_.tls->files().ca.string()),
                   std::nullopt);
    return;
  }
  const auto failure = classify_tls_failure(error);
  if (failure.kind == TlsFailureKind::connection) {
    const auto why = is_end_of_stream(error) ? std::string("the peer closed the connection")
                                             : "connection lost: " + failure.reason;
    fail_handshake(Error(ErrorCode::io_error, label() + ": " + why + " during the TLS handshake"), std::nullopt);
    return;
  }
  on_tls_refusal(failure);
}

void TcpSession::on_tls_refusal(const TlsFailure& failure) {
  const auto text = label() + ": " + tls_refusal_text(failure);
  // TLS is broken: nothing more can be said to the peer.
  if (stage_ != Stage::established) {
    fail_handshake(Error(ErrorCode::validation_error, text), std::nullopt);
  } else {
    close_now(Error(ErrorCode::io_error, text), CloseKind::remote);
  }
}

std::string TcpSession::tls_refusal_text(const TlsFailure& failure) const {
  switch (failure.kind) {
    case TlsFailureKind::our_certificate_refused:
      return "TLS: the peer refused our certificate (" + failure.reason + "): our --tls-cert " +
             config_.tls->files().certificate.string() + " must be signed by a CA in the peer's --tls-ca";
    case TlsFailureKind::peer_alert: return "TLS: the peer ended the session (" + failure.reason + ")";
    case TlsFailureKind::protocol:
      if (stage_ == Stage::tls) return "TLS handshake failed: " + failure.reason + " (does the peer speak TLS?)";
      return "TLS failed " + waiting_for() + ": " + failure.reason;
    case TlsFailureKind::connection: return failure.reason;
  }
  return failure.reason;
}

void TcpSession::refuse_tls_peer() {
  const auto our_role = std::string(protocol::to_string(config_.hello.role));
  fail_handshake(Error(ErrorCode::validation_error,
                       label() + ": the peer speaks TLS and this " + our_role + " does not; " + kBothOrNeither),
                 refusal("this " + our_role + " does not speak TLS and you do; " + kBothOrNeither));
}

}  // namespace iomark::transport::detail
