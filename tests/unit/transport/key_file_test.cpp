#include "iomark/transport/key_file.hpp"

#include <sys/stat.h>

#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <string>
#include <unistd.h>

#include "test_support.hpp"

namespace iomark::transport::test {
namespace {

namespace fs = std::filesystem;

class KeyFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = fs::temp_directory_path() / ("iomark-key-test-" + std::to_string(::getpid()));
    fs::create_directories(dir_);
    ::unsetenv(kKeyEnvironmentVariable);
  }
  void TearDown() override {
    ::unsetenv(kKeyEnvironmentVariable);
    fs::remove_all(dir_);
  }

  fs::path write(const std::string& name, const std::string& text, mode_t mode) {
    const auto path = dir_ / name;
    std::ofstream(path) << text;
    ::chmod(path.c_str(), mode);
    return path;
  }

  // The same key text gives the same proof: compare the keys by their bytes.
  static std::string bytes_of(const protocol::AuthKey& key) {
    const auto bytes = key.bytes();
    return std::string(reinterpret_cast<const char*>(bytes.data()), bytes.size());
  }

  fs::path dir_;
};

const std::string kKey = "0123456789abcdef0123456789abcdef";

TEST_F(KeyFile, ReadsAPrivateFileWithoutItsNewline) {
  const auto key = load_key_file(write("key", kKey + "\n", 0600));
  ASSERT_TRUE(key.has_value()) << key.error().message();
  EXPECT_EQ(bytes_of(*key), kKey);
  EXPECT_TRUE(load_key_file(write("group", kKey, 0640)).has_value());  // a group of operators may share it
}

TEST_F(KeyFile, AMissingFileIsNotFoundAndSaysHowToMakeOne) {
  const auto key = load_key_file(dir_ / "absent");
  ASSERT_FALSE(key.has_value());
  EXPECT_EQ(key.error().code(), ErrorCode::not_found);
  EXPECT_EQ(key.error().field(), "--key-file");
  EXPECT_TRUE(contains(key.error().message(), (dir_ / "absent").string())) << key.error().message();
  EXPECT_TRUE(contains(key.error().message(), "/dev/urandom")) << key.error().message();
}

TEST_F(KeyFile, AnEmptyFileIsRefused) {
  const auto key = load_key_file(write("empty", "\n", 0600));
  ASSERT_FALSE(key.has_value());
  EXPECT_EQ(key.error().code(), ErrorCode::invalid_argument);
  EXPECT_TRUE(contains(key.error().message(), "is empty")) << key.error().message();
}

TEST_F(KeyFile, AShortKeyIsRefused) {
  const auto key = load_key_file(write("short", "secret\n", 0600));
  ASSERT_FALSE(key.has_value());
  EXPECT_EQ(key.error().code(), ErrorCode::invalid_argument);
}

TEST_F(KeyFile, AFileOthersCanReadOrWriteIsRefused) {
  for (const mode_t mode : {0644, 0604, 0602, 0620}) {
    const auto path = write("open" + std::to_string(mode), kKey, mode);
    const auto key = load_key_file(path);
    ASSERT_FALSE(key.has_value()) << std::oct << mode;
    EXPECT_EQ(key.error().code(), ErrorCode::validation_error);
    EXPECT_TRUE(contains(key.error().message(), "chmod 600 " + path.string())) << key.error().message();
  }
}

TEST_F(KeyFile, ADirectoryIsNotAKeyFile) {
  const auto key = load_key_file(dir_);
  ASSERT_FALSE(key.has_value());
  EXPECT_EQ(key.error().code(), ErrorCode::io_error);
}

TEST_F(KeyFile, TheEnvironmentIsUsedWhenNoFileIsGiven) {
  ::setenv(kKeyEnvironmentVariable, kKey.c_str(), 1);
  const auto key = load_key(std::nullopt);
  ASSERT_TRUE(key.has_value()) << key.error().message();
  EXPECT_EQ(bytes_of(*key), kKey);
}

TEST_F(KeyFile, AGivenFileWinsOverTheEnvironment) {
  ::setenv(kKeyEnvironmentVariable, kKey.c_str(), 1);
  const std::string other = "another key, just as long as the first";
  const auto key = load_key(write("key", other, 0600));
  ASSERT_TRUE(key.has_value()) << key.error().message();
  EXPECT_EQ(bytes_of(*key), other);
}

TEST_F(KeyFile, NoKeyAnywhereSaysWhatToDo) {
  const auto key = load_key(std::nullopt);
  ASSERT_FALSE(key.has_value());
  EXPECT_EQ(key.error().code(), ErrorCode::not_found);
  for (const auto* hint : {"--key-file", "IOMARK_KEY", "--insecure"}) {
    EXPECT_TRUE(contains(key.error().message(), hint)) << key.error().message();
  }
  ::setenv(kKeyEnvironmentVariable, "  ", 1);
  const auto empty = load_key(std::nullopt);
  ASSERT_FALSE(empty.has_value());
  EXPECT_EQ(empty.error().field(), "IOMARK_KEY");
  ::setenv(kKeyEnvironmentVariable, "short", 1);
  EXPECT_EQ(load_key(std::nullopt).error().code(), ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace iomark::transport::test
