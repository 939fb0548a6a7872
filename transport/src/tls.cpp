#include "iomark/transport/tls.hpp"

#include <fcntl.h>
#include <openssl/asn1.h>
#include <openssl/bio.h>
#include <openssl/err.h>
#include <openssl/ssl.h>
#include <openssl/x509.h>
#include <openssl/x509_vfy.h>
#include <sys/stat.h>

#include <cerrno>
#include <cstdio>
#include <cstring>
#include <vector>

#include <boost/asio/error.hpp>
#include <boost/asio/ssl/error.hpp>

#include "file_descriptor.hpp"
#include "iomark/protocol/frame.hpp"
#include "tls_detail.hpp"

namespace iomark::transport {

namespace asio = boost::asio;
namespace ssl = boost::asio::ssl;

struct TlsCredentials::Context {
  // TLS 1.3 only: both ends are iomark, so nothing older needs to be spoken.
  Context() : ssl(ssl::context::tlsv13) {}
  ssl::context ssl;
};

namespace {

// Far above any certificate chain; a larger file is not what the flag asks for.
constexpr std::size_t kMaxPemBytes = 1024 * 1024;
constexpr const char* kCertificateFlag = "--tls-cert";
constexpr const char* kKeyFlag = "--tls-key";
constexpr const char* kCaFlag = "--tls-ca";

enum class Secrecy : std::uint8_t { none, private_key };

Error file_error(ErrorCode code, const char* flag, const std::filesystem::path& path, const std::string& why) {
  return Error(code, std::string(flag) + " " + path.string() + ": " + why).in_field(flag);
}

Result<std::string> read_pem_file(const std::filesystem::path& path, const char* flag, Secrecy secrecy) {
  const detail::FileDescriptor file(::open(path.c_str(), O_RDONLY | O_CLOEXEC | O_NOCTTY));
  if (file.get() < 0) {
    const int error = errno;
    if (error == ENOENT) return fail(file_error(ErrorCode::not_found, flag, path, "does not exist"));
    return fail(file_error(ErrorCode::io_error, flag, path, std::strerror(error)));
  }
  struct stat status {};
  if (::fstat(file.get(), &status) != 0) return fail(file_error(ErrorCode::io_error, flag, path, std::strerror(errno)));
  if (!S_ISREG(status.st_mode)) return fail(file_error(ErrorCode::io_error, flag, path, "is not a regular file"));
  const auto mode = status.st_mode & 07777;
  if (secrecy == Secrecy::private_key && ((mode & (S_IROTH | S_IWOTH)) != 0 || (mode & S_IWGRP) != 0)) {
    char octal[8];
    std::snprintf(octal, sizeof octal, "%04o", static_cast<unsigned>(mode));
    const auto who = (mode & S_IROTH) != 0 ? "readable by every user" : "writable by other users";
    return fail(file_error(ErrorCode::validation_error, flag, path,
                           std::string("is ") + who + " (mode " + octal + "); it holds a private key: run chmod 600 " +
                               path.string()));
  }
  std::string text(kMaxPemBytes + 1, '\0');
  std::size_t filled = 0;
  while (filled < text.size()) {
    const auto got = ::read(file.get(), text.data() + filled, text.size() - filled);
    if (got < 0 && errno == EINTR) continue;
    if (got < 0) return fail(file_error(ErrorCode::io_error, flag, path, std::strerror(errno)));
    if (got == 0) break;
    filled += static_cast<std::size_t>(got);
  }
  if (filled > kMaxPemBytes) return fail(file_error(ErrorCode::parse_error, flag, path, "is too large for a PEM file"));
  text.resize(filled);
  return text;
}

// OpenSSL's own words ("no start line", "tlsv1 alert unknown ca"), without its library name.
std::string openssl_reason(const boost::system::error_code& error) {
  if (error.category() == asio::error::get_ssl_category()) {
    if (const char* reason = ERR_reason_error_string(static_cast<unsigned long>(error.value()))) return reason;
  }
  return error.message();
}

std::string bio_text(BIO* bio) {
  char* data = nullptr;
  const auto length = BIO_get_mem_data(bio, &data);
  return length > 0 ? std::string(data, static_cast<std::size_t>(length)) : std::string();
}

// "CN=db1,O=lab"
std::string name_text(const X509_NAME* name) {
  BIO* bio = BIO_new(BIO_s_mem());
  if (bio == nullptr) return "?";
  X509_NAME_print_ex(bio, name, 0, XN_FLAG_RFC2253);
  auto text = bio_text(bio);
  BIO_free(bio);
  return text;
}

// "Jan  1 00:00:00 2030 GMT"
std::string time_text(const ASN1_TIME* time) {
  BIO* bio = BIO_new(BIO_s_mem());
  if (bio == nullptr) return "?";
  ASN1_TIME_print(bio, time);
  auto text = bio_text(bio);
  BIO_free(bio);
  return text;
}

bool is_key_mismatch(const boost::system::error_code& error) {
  if (error.category() != asio::error::get_ssl_category()) return false;
  const auto code = static_cast<unsigned long>(error.value());
  return ERR_GET_LIB(code) == ERR_LIB_X509 &&
         (ERR_GET_REASON(code) == X509_R_KEY_VALUES_MISMATCH || ERR_GET_REASON(code) == X509_R_KEY_TYPE_MISMATCH);
}

}  // namespace

TlsCredentials::TlsCredentials(TlsFiles files, std::string subject, std::unique_ptr<Context> context) noexcept
    : files_(std::move(files)), subject_(std::move(subject)), context_(std::move(context)) {}

TlsCredentials::~TlsCredentials() = default;

Result<std::shared_ptr<const TlsCredentials>> TlsCredentials::load(const TlsFiles& files) {
  auto certificate = read_pem_file(files.certificate, kCertificateFlag, Secrecy::none);
  if (!certificate) return fail(std::move(certificate).error());
  auto key = read_pem_file(files.private_key, kKeyFlag, Secrecy::private_key);
  if (!key) return fail(std::move(key).error());
  auto ca = read_pem_file(files.ca, kCaFlag, Secrecy::none);
  if (!ca) return fail(std::move(ca).error());

  std::unique_ptr<Context> context;
  try {
    context = std::make_unique<Context>();
  } catch (const boost::system::system_error& error) {
    return fail(ErrorCode::internal, std::string("cannot set up TLS: ") + error.what());
  }
  auto& ssl_context = context->ssl;
  boost::system::error_code error;
  // Without a callback OpenSSL would ask for an encrypted key's passphrase on the terminal.
  ssl_context.set_password_callback([](std::size_t, ssl::context::password_purpose) { return std::string(); }, error);
  if (error) return fail(ErrorCode::internal, "cannot set up TLS: " + openssl_reason(error));

  ssl_context.use_certificate_chain(asio::buffer(*certificate), error);
  if (error) {
    return fail(file_error(ErrorCode::parse_error, kCertificateFlag, files.certificate,
                           "no PEM certificate (" + openssl_reason(error) + ")"));
  }
  ssl_context.use_private_key(asio::buffer(*key), ssl::context::pem, error);
  if (error || SSL_CTX_check_private_key(ssl_context.native_handle()) != 1) {
    if (!error || is_key_mismatch(error)) {
      return fail(file_error(ErrorCode::validation_error, kKeyFlag, files.private_key,
                             "is not the key of the certificate in --tls-cert " + files.certificate.string()));
    }
    return fail(file_error(ErrorCode::parse_error, kKeyFlag, files.private_key,
                           "no unencrypted PEM private key (" + openssl_reason(error) + ")"));
  }
  ssl_context.add_certificate_authority(asio::buffer(*ca), error);
  if (error) {
    return fail(
        file_error(ErrorCode::parse_error, kCaFlag, files.ca, "no PEM CA certificate (" + openssl_reason(error) + ")"));
  }

  // Our own dates are checked here, so that an expired certificate is our error at start,
  // not a refusal the peer reports later.
  const X509* own = SSL_CTX_get0_certificate(ssl_context.native_handle());
  if (X509_cmp_current_time(X509_get0_notAfter(own)) < 0) {
    return fail(file_error(ErrorCode::validation_error, kCertificateFlag, files.certificate,
                           "expired on " + time_text(X509_get0_notAfter(own))));
  }
  if (X509_cmp_current_time(X509_get0_notBefore(own)) > 0) {
    return fail(file_error(ErrorCode::validation_error, kCertificateFlag, files.certificate,
                           "is not valid before " + time_text(X509_get0_notBefore(own))));
  }

  ssl_context.set_verify_mode(ssl::verify_peer | ssl::verify_fail_if_no_peer_cert, error);
  if (error) return fail(ErrorCode::internal, "cannot set up TLS: " + openssl_reason(error));
  // Each connection is one long session; tickets for resuming it would never be used.
  SSL_CTX_set_num_tickets(ssl_context.native_handle(), 0);

  auto subject = name_text(X509_get_subject_name(own));
  return std::shared_ptr<const TlsCredentials>(new TlsCredentials(files, std::move(subject), std::move(context)));
}

Result<std::shared_ptr<const TlsCredentials>> load_tls(const std::string& certificate, const std::string& private_key,
                                                       const std::string& ca) {
  std::vector<const char*> missing;
  if (certificate.empty()) missing.push_back(kCertificateFlag);
  if (private_key.empty()) missing.push_back(kKeyFlag);
  if (ca.empty()) missing.push_back(kCaFlag);
  if (missing.size() == 3) return std::shared_ptr<const TlsCredentials>();
  if (!missing.empty()) {
    std::string names = missing.front();
    if (missing.size() == 2) names += std::string(" and ") + missing.back();
    return fail(Error(ErrorCode::invalid_argument,
                      "--tls-cert, --tls-key and --tls-ca go together: " + names + (missing.size() == 1 ? " is" : " are") +
                          " missing")
                    .in_field(missing.front()));
  }
  return TlsCredentials::load(TlsFiles{certificate, private_key, ca});
}

namespace detail {

ssl::context& TlsAccess::context(const TlsCredentials& credentials) noexcept { return credentials.context_->ssl; }

bool RecordingSocket::peer_sent_frame_magic() const noexcept {
  return recorded_ == first_bytes_.size() && first_bytes_ == protocol::kFrameMagic;
}

bool looks_like_tls(std::span<const std::byte> bytes) noexcept {
  // A TLS record: content type 20..23 (change_cipher_spec, alert, handshake, application
  // data), then the major version 3.
  if (bytes.size() < 2) return false;
  const auto type = std::to_integer<unsigned>(bytes[0]);
  return type >= 20 && type <= 23 && std::to_integer<unsigned>(bytes[1]) == 3;
}

std::string describe_verify_failure(ssl::verify_context& context) {
  X509_STORE_CTX* store = context.native_handle();
  const int depth = X509_STORE_CTX_get_error_depth(store);
  const X509* certificate = X509_STORE_CTX_get_current_cert(store);
  std::string text = certificate != nullptr ? "certificate '" + name_text(X509_get_subject_name(certificate)) + "'"
                                            : std::string("certificate");
  if (depth > 0) text += " (the issuer of its certificate, " + std::to_string(depth) + " up the chain)";
  return text + ": " + X509_verify_cert_error_string(X509_STORE_CTX_get_error(store));
}

bool is_end_of_stream(const boost::system::error_code& error) noexcept {
  if (error == asio::error::eof || error == ssl::error::stream_truncated) return true;
  // OpenSSL 3 reports a peer that closed without TLS's close_notify this way.
  return error.category() == asio::error::get_ssl_category() &&
         ERR_GET_REASON(static_cast<unsigned long>(error.value())) == SSL_R_UNEXPECTED_EOF_WHILE_READING;
}

TlsFailure classify_tls_failure(const boost::system::error_code& error) {
  if (error.category() != asio::error::get_ssl_category() || is_end_of_stream(error)) {
    return TlsFailure{TlsFailureKind::connection, error.message()};
  }
  const auto code = static_cast<unsigned long>(error.value());
  const auto reason = ERR_GET_REASON(code);
  if (ERR_GET_LIB(code) == ERR_LIB_SSL && reason > SSL_AD_REASON_OFFSET) {
    switch (reason) {
      case SSL_R_TLSV1_ALERT_UNKNOWN_CA:
      case SSL_R_SSLV3_ALERT_BAD_CERTIFICATE:
      case SSL_R_SSLV3_ALERT_UNSUPPORTED_CERTIFICATE:
      case SSL_R_SSLV3_ALERT_CERTIFICATE_REVOKED:
      case SSL_R_SSLV3_ALERT_CERTIFICATE_EXPIRED:
      case SSL_R_SSLV3_ALERT_CERTIFICATE_UNKNOWN:
      case SSL_R_TLSV13_ALERT_CERTIFICATE_REQUIRED:
        return TlsFailure{TlsFailureKind::our_certificate_refused, openssl_reason(error)};
      default:
        return TlsFailure{TlsFailureKind::peer_alert, openssl_reason(error)};
    }
  }
  return TlsFailure{TlsFailureKind::protocol, openssl_reason(error)};
}

}  // namespace detail

}  // namespace iomark::transport
