// Optional mutual TLS between agents and controllers (--tls-cert, --tls-key, --tls-ca), on
// top of the pre-shared key: the Hellos and the HMAC challenge-response run inside TLS.
//
// Both sides present a certificate and check the peer's against their CA file; whoever
// dials or listens. What is checked: the peer's certificate chains to a CA in --tls-ca and is
// within its validity dates. What is not: host names (agents are often reached by address,
// through NAT), so every certificate the CA signed is admitted: use a CA made for iomark
// only (docs/tls.md). TLS 1.3 only; both sides are iomark.
//
// A TLS side and a plain side refuse each other with a named error on both sides ("the peer
// does not speak TLS" / "the peer speaks TLS"), not with a timeout.
#pragma once

#include <filesystem>
#include <memory>
#include <string>

#include "iomark/common/result.hpp"

namespace iomark::transport {

namespace detail {
struct TlsAccess;
}

// The three files, all PEM. The private key must not be encrypted, and like the key file
// (key_file.hpp) must not be readable by every user nor writable by other users.
struct TlsFiles {
  std::filesystem::path certificate;  // --tls-cert: ours, optionally followed by intermediates
  std::filesystem::path private_key;  // --tls-key: the key of that certificate
  std::filesystem::path ca;           // --tls-ca: the CA certificate(s) the peer's must chain to
};

// The loaded and checked files, ready for any number of sessions at once. Immutable;
// shared by the sessions that use it (SessionConfig::tls).
class TlsCredentials {
 public:
  // Reads and checks the three files. Errors (field "--tls-cert", "--tls-key" or "--tls-ca";
  // the message names the file): not_found when a file does not exist; io_error when it
  // cannot be read; validation_error for a private key others can read (chmod 600), a key
  // that does not match the certificate, or a certificate that has expired or is not valid
  // yet; parse_error when a file holds no usable PEM certificate or key (an encrypted key
  // included); internal when OpenSSL cannot set up a context.
  [[nodiscard]] static Result<std::shared_ptr<const TlsCredentials>> load(const TlsFiles& files);

  TlsCredentials(const TlsCredentials&) = delete;
  TlsCredentials& operator=(const TlsCredentials&) = delete;
  ~TlsCredentials();

  [[nodiscard]] const TlsFiles& files() const noexcept { return files_; }
  // Our certificate's subject, e.g. "CN=db1".
  [[nodiscard]] const std::string& subject() const noexcept { return subject_; }

 private:
  struct Context;
  friend struct detail::TlsAccess;
  TlsCredentials(TlsFiles files, std::string subject, std::unique_ptr<Context> context) noexcept;

  TlsFiles files_;
  std::string subject_;
  std::unique_ptr<Context> context_;
};

// What the command lines do with --tls-cert, --tls-key and --tls-ca (empty = not given):
// nullptr when none is given (plain TCP), TlsCredentials::load() when all three are.
// Errors: invalid_argument (field "--tls-...") naming the missing flags when only some are
// given; those of load().
[[nodiscard]] Result<std::shared_ptr<const TlsCredentials>> load_tls(const std::string& certificate,
                                                                     const std::string& private_key,
                                                                     const std::string& ca);

}  // namespace iomark::transport
