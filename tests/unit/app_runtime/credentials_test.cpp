#include "iomark/app_runtime/credentials.hpp"

#include <sys/stat.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>

#include "iomark/transport/key_file.hpp"

namespace iomark::app_runtime {
namespace {

namespace fs = std::filesystem;

class CredentialsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("iomark-credentials-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    ::unsetenv(transport::kKeyEnvironmentVariable);
  }
  void TearDown() override {
    ::unsetenv(transport::kKeyEnvironmentVariable);
    fs::remove_all(dir_);
  }

  std::string key_file(const std::string& text) {
    const auto path = dir_ / "key";
    std::ofstream(path) << text;
    ::chmod(path.c_str(), 0600);
    return path.string();
  }

  fs::path dir_;
};

TEST_F(CredentialsTest, AProgramThatNeedsAKeyRefusesToStartWithoutOne) {
  const auto loaded = load_credentials({}, KeyNeed::required);
  ASSERT_FALSE(loaded);
  EXPECT_EQ(loaded.error().code(), ErrorCode::not_found);
  EXPECT_NE(loaded.error().describe().find("--insecure"), std::string::npos) << loaded.error().describe();
}

TEST_F(CredentialsTest, NoKeyNamedAnywhereIsNoKeyWhereOneIsOptional) {
  const auto loaded = load_credentials({}, KeyNeed::when_named);
  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_FALSE(loaded->key.has_value());
  EXPECT_EQ(loaded->tls, nullptr);
}

TEST_F(CredentialsTest, ANamedKeyThatCannotBeUsedIsRefusedEvenWhereOneIsOptional) {
  const auto missing = load_credentials({.key_file = (dir_ / "absent").string()}, KeyNeed::when_named);
  ASSERT_FALSE(missing);
  EXPECT_EQ(missing.error().code(), ErrorCode::not_found);
  EXPECT_NE(missing.error().describe().find("absent"), std::string::npos) << missing.error().describe();

  ::setenv(transport::kKeyEnvironmentVariable, "", 1);
  const auto empty = load_credentials({}, KeyNeed::when_named);
  ASSERT_FALSE(empty);
  EXPECT_EQ(empty.error().code(), ErrorCode::invalid_argument);
}

TEST_F(CredentialsTest, TheKeyComesFromTheNamedFileAndNoneWithInsecure) {
  const auto file = key_file("a key of more than sixteen bytes\n");
  const auto loaded = load_credentials({.key_file = file}, KeyNeed::required);
  ASSERT_TRUE(loaded) << loaded.error().describe();
  EXPECT_TRUE(loaded->key.has_value());

  const auto insecure = load_credentials({.key_file = file, .insecure = true}, KeyNeed::required);
  ASSERT_TRUE(insecure) << insecure.error().describe();
  EXPECT_FALSE(insecure->key.has_value());
}

TEST_F(CredentialsTest, TlsAskedForInPartIsRefusedNotTurnedIntoPlainTcp) {
  const auto loaded = load_credentials({.insecure = true, .tls_cert = (dir_ / "agent.crt").string()}, KeyNeed::required);
  ASSERT_FALSE(loaded);
  EXPECT_NE(loaded.error().describe().find("--tls-key"), std::string::npos) << loaded.error().describe();
}

}  // namespace
}  // namespace iomark::app_runtime
