// Loading --tls-cert, --tls-key and --tls-ca: every way the files can be wrong is an error
// naming the file (and the flag as its field), before any connection is tried.
#include <openssl/pem.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <string>

#include "iomark/transport/tls.hpp"
#include "test_support.hpp"
#include "tls_test.hpp"

namespace iomark::transport::test {
namespace {

namespace fs = std::filesystem;

TEST_F(TlsTest, LoadsACertificateItsKeyAndTheCa) {
  const auto files = lab_->issue("db1");
  auto credentials = TlsCredentials::load(files);
  ASSERT_TRUE(credentials.has_value()) << credentials.error().describe();
  EXPECT_EQ((*credentials)->subject(), "CN=db1");
  EXPECT_EQ((*credentials)->files().ca, lab_->certificate());
}

TEST_F(TlsTest, NoFlagsMeanPlainTcpAndAllThreeMeanTls) {
  auto none = load_tls("", "", "");
  ASSERT_TRUE(none.has_value()) << none.error().describe();
  EXPECT_EQ(*none, nullptr);
  const auto files = lab_->issue("db1");
  auto all = load_tls(files.certificate, files.private_key, files.ca);
  ASSERT_TRUE(all.has_value()) << all.error().describe();
  EXPECT_NE(*all, nullptr);
}

TEST_F(TlsTest, SomeFlagsWithoutTheOthersAreRefusedNamingTheMissingOnes) {
  const auto files = lab_->issue("db1");
  auto no_key = load_tls(files.certificate, "", files.ca);
  ASSERT_FALSE(no_key.has_value());
  EXPECT_EQ(no_key.error().code(), ErrorCode::invalid_argument);
  EXPECT_EQ(no_key.error().field(), "--tls-key");
  EXPECT_TRUE(contains(no_key.error().message(), "--tls-key is missing")) << no_key.error().message();

  auto only_ca = load_tls("", "", files.ca);
  ASSERT_FALSE(only_ca.has_value());
  EXPECT_TRUE(contains(only_ca.error().message(), "--tls-cert and --tls-key are missing"))
      << only_ca.error().message();
}

TEST_F(TlsTest, AMissingFileIsNamed) {
  auto files = lab_->issue("db1");
  files.ca = dir_ / "absent-ca.crt";
  auto loaded = TlsCredentials::load(files);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code(), ErrorCode::not_found);
  EXPECT_EQ(loaded.error().field(), "--tls-ca");
  EXPECT_TRUE(contains(loaded.error().message(), files.ca.string())) << loaded.error().message();
}

TEST_F(TlsTest, APrivateKeyEveryUserCanReadIsRefused) {
  const auto files = lab_->issue("db1");
  ASSERT_EQ(::chmod(files.private_key.c_str(), 0644), 0);
  auto loaded = TlsCredentials::load(files);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code(), ErrorCode::validation_error);
  EXPECT_EQ(loaded.error().field(), "--tls-key");
  EXPECT_TRUE(contains(loaded.error().message(), "chmod 600 " + files.private_key.string()))
      << loaded.error().message();
}

TEST_F(TlsTest, AKeyOfAnotherCertificateIsRefused) {
  auto files = lab_->issue("db1");
  files.private_key = lab_->issue("db2").private_key;
  auto loaded = TlsCredentials::load(files);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code(), ErrorCode::validation_error);
  EXPECT_EQ(loaded.error().field(), "--tls-key");
  EXPECT_TRUE(contains(loaded.error().message(), "is not the key of the certificate in --tls-cert " +
                                                     files.certificate.string()))
      << loaded.error().message();
}

TEST_F(TlsTest, FilesThatAreNotPemAreRefusedNamingTheFlag) {
  const auto files = lab_->issue("db1");
  const auto garbage = dir_ / "garbage.pem";
  std::ofstream(garbage) << "not a certificate\n";
  ::chmod(garbage.c_str(), 0600);

  auto bad_ca = TlsCredentials::load(TlsFiles{files.certificate, files.private_key, garbage});
  ASSERT_FALSE(bad_ca.has_value());
  EXPECT_EQ(bad_ca.error().code(), ErrorCode::parse_error);
  EXPECT_EQ(bad_ca.error().field(), "--tls-ca");
  EXPECT_TRUE(contains(bad_ca.error().message(), garbage.string())) << bad_ca.error().message();

  auto bad_certificate = TlsCredentials::load(TlsFiles{garbage, files.private_key, files.ca});
  ASSERT_FALSE(bad_certificate.has_value());
  EXPECT_EQ(bad_certificate.error().field(), "--tls-cert");

  auto bad_key = TlsCredentials::load(TlsFiles{files.certificate, garbage, files.ca});
  ASSERT_FALSE(bad_key.has_value());
  EXPECT_EQ(bad_key.error().code(), ErrorCode::parse_error);
  EXPECT_EQ(bad_key.error().field(), "--tls-key");
}

TEST_F(TlsTest, AnEncryptedKeyIsRefusedWithoutAskingForAPassphrase) {
  auto files = lab_->issue("db1");
  BIO* in = BIO_new_file(files.private_key.c_str(), "r");
  ASSERT_NE(in, nullptr);
  EVP_PKEY* key = PEM_read_bio_PrivateKey(in, nullptr, nullptr, nullptr);
  BIO_free(in);
  ASSERT_NE(key, nullptr);
  const auto encrypted = dir_ / "encrypted.key";
  BIO* out = BIO_new_file(encrypted.c_str(), "w");
  ASSERT_NE(out, nullptr);
  std::string passphrase = "a passphrase";
  const int written =
      PEM_write_bio_PrivateKey(out, key, EVP_aes_256_cbc(), reinterpret_cast<unsigned char*>(passphrase.data()),
                               static_cast<int>(passphrase.size()), nullptr, nullptr);
  BIO_free(out);
  EVP_PKEY_free(key);
  ASSERT_EQ(written, 1);
  fs::permissions(encrypted, fs::perms::owner_read | fs::perms::owner_write);

  files.private_key = encrypted;
  auto loaded = TlsCredentials::load(files);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code(), ErrorCode::parse_error);
  EXPECT_TRUE(contains(loaded.error().message(), "no unencrypted PEM private key")) << loaded.error().message();
}

TEST_F(TlsTest, AnExpiredCertificateOfOurOwnIsRefusedAtOnce) {
  const auto files = lab_->issue("old", Validity::expired);
  auto loaded = TlsCredentials::load(files);
  ASSERT_FALSE(loaded.has_value());
  EXPECT_EQ(loaded.error().code(), ErrorCode::validation_error);
  EXPECT_EQ(loaded.error().field(), "--tls-cert");
  EXPECT_TRUE(contains(loaded.error().message(), "expired on")) << loaded.error().message();
}

}  // namespace
}  // namespace iomark::transport::test
