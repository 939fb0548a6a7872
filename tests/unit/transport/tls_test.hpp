// A fixture for the TLS tests: a private temporary directory with two unrelated CAs, the
// lab's (trusted) and a rogue one.
#pragma once

#include <gtest/gtest.h>
#include <unistd.h>

#include <filesystem>
#include <memory>
#include <optional>
#include <string>

#include "iomark/transport/tls.hpp"
#include "test_pki.hpp"

namespace iomark::transport::test {

class TlsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
    dir_ = std::filesystem::temp_directory_path() /
           ("iomark-tls-test-" + std::to_string(::getpid()) + "-" + test->name());
    std::filesystem::create_directories(dir_);
    lab_.emplace(dir_, "lab");
    rogue_.emplace(dir_, "rogue");
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  // Loaded credentials; null (and a test failure) when they do not load.
  static std::shared_ptr<const TlsCredentials> load(const TlsFiles& files) {
    auto loaded = TlsCredentials::load(files);
    if (!loaded) {
      ADD_FAILURE() << loaded.error().describe();
      return nullptr;
    }
    return *loaded;
  }

  std::filesystem::path dir_;
  std::optional<TestCa> lab_;
  std::optional<TestCa> rogue_;
};

}  // namespace iomark::transport::test
