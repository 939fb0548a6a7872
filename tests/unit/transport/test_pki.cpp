#include "test_pki.hpp"

#include <gtest/gtest.h>
#include <openssl/bio.h>
#include <openssl/pem.h>
#include <openssl/x509v3.h>

#include <atomic>
#include <utility>

namespace iomark::transport::test {

namespace {

constexpr long kHour = 60 * 60;
constexpr long kDay = 24 * kHour;

std::unique_ptr<EVP_PKEY, KeyFree> new_key() {
  std::unique_ptr<EVP_PKEY, KeyFree> key(EVP_PKEY_Q_keygen(nullptr, nullptr, "EC", "P-256"));
  if (!key) ADD_FAILURE() << "EC key generation failed";
  return key;
}

void add_extension(X509* certificate, X509V3_CTX& context, int nid, const char* value) {
  X509_EXTENSION* extension = X509V3_EXT_conf_nid(nullptr, &context, nid, value);
  if (extension == nullptr || X509_add_ext(certificate, extension, -1) != 1) ADD_FAILURE() << "extension " << value;
  X509_EXTENSION_free(extension);
}

enum class Kind : std::uint8_t { ca, leaf };

// `issuer` null: self-signed with `subject_key`.
std::unique_ptr<X509, CertificateFree> new_certificate(const std::string& common_name, EVP_PKEY* subject_key,
                                                      X509* issuer, EVP_PKEY* issuer_key, Kind kind,
                                                      Validity validity) {
  static std::atomic<long> serial{1};
  std::unique_ptr<X509, CertificateFree> certificate(X509_new());
  X509* raw = certificate.get();
  X509_set_version(raw, 2);
  ASN1_INTEGER_set(X509_get_serialNumber(raw), serial++);
  const bool expired = validity == Validity::expired;
  X509_gmtime_adj(X509_getm_notBefore(raw), expired ? -2 * kDay : -kHour);
  X509_gmtime_adj(X509_getm_notAfter(raw), expired ? -kDay : kDay);
  X509_set_pubkey(raw, subject_key);
  X509_NAME* name = X509_get_subject_name(raw);
  X509_NAME_add_entry_by_txt(name, "CN", MBSTRING_UTF8, reinterpret_cast<const unsigned char*>(common_name.c_str()),
                             -1, -1, 0);
  X509_set_issuer_name(raw, issuer != nullptr ? X509_get_subject_name(issuer) : name);
  X509V3_CTX context;
  X509V3_set_ctx(&context, issuer != nullptr ? issuer : raw, raw, nullptr, nullptr, 0);
  if (kind == Kind::ca) {
    add_extension(raw, context, NID_basic_constraints, "critical,CA:TRUE");
    add_extension(raw, context, NID_key_usage, "critical,keyCertSign,cRLSign");
  } else {
    add_extension(raw, context, NID_basic_constraints, "critical,CA:FALSE");
    add_extension(raw, context, NID_key_usage, "critical,digitalSignature");
    add_extension(raw, context, NID_ext_key_usage, "serverAuth,clientAuth");
  }
  if (X509_sign(raw, issuer_key != nullptr ? issuer_key : subject_key, EVP_sha256()) == 0) ADD_FAILURE() << "signing";
  return certificate;
}

template <typename Write>
void write_pem(const std::filesystem::path& path, Write write) {
  BIO* bio = BIO_new_file(path.c_str(), "w");
  if (bio == nullptr || write(bio) != 1) ADD_FAILURE() << "cannot write " << path;
  BIO_free(bio);
}

}  // namespace

TestCa::TestCa(std::filesystem::path dir, const std::string& name)
    : dir_(std::move(dir)), key_(new_key()), certificate_file_(dir_ / (name + "-ca.crt")) {
  certificate_ = new_certificate(name, key_.get(), nullptr, nullptr, Kind::ca, Validity::current);
  write_pem(certificate_file_, [this](BIO* bio) { return PEM_write_bio_X509(bio, certificate_.get()); });
}

TlsFiles TestCa::issue(const std::string& common_name, Validity validity) const {
  const auto key = new_key();
  const auto certificate =
      new_certificate(common_name, key.get(), certificate_.get(), key_.get(), Kind::leaf, validity);
  TlsFiles files{dir_ / (common_name + ".crt"), dir_ / (common_name + ".key"), certificate_file_};
  write_pem(files.certificate, [&certificate](BIO* bio) { return PEM_write_bio_X509(bio, certificate.get()); });
  write_pem(files.private_key, [&key](BIO* bio) {
    return PEM_write_bio_PrivateKey(bio, key.get(), nullptr, nullptr, 0, nullptr, nullptr);
  });
  std::filesystem::permissions(files.private_key, std::filesystem::perms::owner_read | std::filesystem::perms::owner_write);
  return files;
}

}  // namespace iomark::transport::test
