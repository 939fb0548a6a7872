// What the TCP sessions need from TLS: the OpenSSL context of some TlsCredentials, the socket
// layer under the TLS stream, and the readable text of TLS failures.
#pragma once

#include <algorithm>
#include <array>
#include <cstddef>
#include <cstdint>
#include <span>
#include <string>
#include <utility>

#include <boost/asio/buffer.hpp>
#include <boost/asio/ip/tcp.hpp>
#include <boost/asio/ssl/context.hpp>
#include <boost/asio/ssl/verify_context.hpp>
#include <boost/system/error_code.hpp>

#include "iomark/transport/tls.hpp"

namespace iomark::transport::detail {

struct TlsAccess {
  // Thread-safe for what the sessions do with it (SSL_new per session).
  [[nodiscard]] static boost::asio::ssl::context& context(const TlsCredentials& credentials) noexcept;
};

// The TCP socket as the layer under an ssl::stream, remembering the first bytes the peer
// sent: when the TLS handshake fails on them, they tell a plain iomark peer (its Hello frame
// starts with "IOMK") from anything else. Holds the socket by reference; the owner keeps
// both alive while operations run.
class RecordingSocket {
 public:
  using lowest_layer_type = boost::asio::ip::tcp::socket::lowest_layer_type;
  using executor_type = boost::asio::ip::tcp::socket::executor_type;

  explicit RecordingSocket(boost::asio::ip::tcp::socket& socket) noexcept : socket_(&socket) {}

  [[nodiscard]] executor_type get_executor() noexcept { return socket_->get_executor(); }
  [[nodiscard]] lowest_layer_type& lowest_layer() noexcept { return socket_->lowest_layer(); }
  [[nodiscard]] const lowest_layer_type& lowest_layer() const noexcept { return socket_->lowest_layer(); }

  template <typename MutableBuffers, typename Handler>
  void async_read_some(const MutableBuffers& buffers, Handler&& handler) {
    const boost::asio::mutable_buffer first = *boost::asio::buffer_sequence_begin(buffers);
    socket_->async_read_some(buffers, [this, first, handler = std::forward<Handler>(handler)](
                                          const boost::system::error_code& error, std::size_t bytes) mutable {
      record(first, bytes);
      std::move(handler)(error, bytes);
    });
  }

  template <typename ConstBuffers, typename Handler>
  void async_write_some(const ConstBuffers& buffers, Handler&& handler) {
    socket_->async_write_some(buffers, std::forward<Handler>(handler));
  }

  // True when the peer's first bytes were an iomark frame's magic.
  [[nodiscard]] bool peer_sent_frame_magic() const noexcept;

 private:
  void record(const boost::asio::mutable_buffer& buffer, std::size_t bytes) noexcept {
    const auto take = std::min(bytes, first_bytes_.size() - recorded_);
    const auto* data = static_cast<const std::byte*>(buffer.data());
    std::copy_n(data, take, first_bytes_.begin() + static_cast<std::ptrdiff_t>(recorded_));
    recorded_ += take;
  }

  boost::asio::ip::tcp::socket* socket_;
  std::array<std::byte, 4> first_bytes_{};
  std::size_t recorded_{0};
};

// True when `bytes` (the first the peer sent) start a TLS record: a ClientHello at a plain
// listener, or an alert.
[[nodiscard]] bool looks_like_tls(std::span<const std::byte> bytes) noexcept;

// "CN=db1 (depth 0): unable to get local issuer certificate": why the certificate being
// checked in `context` failed verification.
[[nodiscard]] std::string describe_verify_failure(boost::asio::ssl::verify_context& context);

// The peer closed the stream: a TCP end of file, or TLS ending without its close_notify
// (iomark closes TLS sessions that way: its frames carry their own lengths, and a stream cut
// in the middle of a frame is still noticed).
[[nodiscard]] bool is_end_of_stream(const boost::system::error_code& error) noexcept;

// How a TLS failure reads; `error` is from the ssl stream.
enum class TlsFailureKind : std::uint8_t {
  connection,               // the peer closed or the network failed (not OpenSSL's verdict)
  our_certificate_refused,  // the peer's alert says it refused our certificate
  peer_alert,               // another alert from the peer
  protocol,                 // OpenSSL refused what the peer sent
};
struct TlsFailure {
  TlsFailureKind kind{TlsFailureKind::protocol};
  std::string reason;  // OpenSSL's reason ("tlsv1 alert unknown ca") or the system's message
};
[[nodiscard]] TlsFailure classify_tls_failure(const boost::system::error_code& error);

}  // namespace iomark::transport::detail
