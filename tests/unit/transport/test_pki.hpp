// Certificates made at test time with OpenSSL's API: a CA and the certificates it signs,
// written as PEM files, for the TLS tests. Nothing is read from or written to the system's
// certificate store.
#pragma once

#include <openssl/evp.h>
#include <openssl/x509.h>

#include <cstdint>
#include <filesystem>
#include <memory>
#include <string>

#include "iomark/transport/tls.hpp"

namespace iomark::transport::test {

enum class Validity : std::uint8_t { current, expired };

struct KeyFree {
  void operator()(EVP_PKEY* key) const noexcept { EVP_PKEY_free(key); }
};
struct CertificateFree {
  void operator()(X509* certificate) const noexcept { X509_free(certificate); }
};

// A self-signed CA (EC P-256) that writes its certificate and the certificates it issues
// into `dir`, which must exist. Failures are test failures (ADD_FAILURE).
class TestCa {
 public:
  TestCa(std::filesystem::path dir, const std::string& name);

  // The CA certificate's PEM file, for --tls-ca.
  [[nodiscard]] const std::filesystem::path& certificate() const noexcept { return certificate_file_; }

  // A certificate for "CN=`common_name`" signed by this CA, usable by clients and servers,
  // with its key (mode 0600), and this CA as the trusted one: NAME.crt, NAME.key in `dir`.
  [[nodiscard]] TlsFiles issue(const std::string& common_name, Validity validity = Validity::current) const;

 private:
  std::filesystem::path dir_;
  std::unique_ptr<EVP_PKEY, KeyFree> key_;
  std::unique_ptr<X509, CertificateFree> certificate_;
  std::filesystem::path certificate_file_;
};

}  // namespace iomark::transport::test
