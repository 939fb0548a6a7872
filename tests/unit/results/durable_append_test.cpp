#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <fstream>
#include <iterator>
#include <string>
#include <sstream>

#include "iomark/results/durable_append.hpp"

namespace iomark::results {
namespace {

class DurableAppend : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("iomark-append-" + std::to_string(::getpid()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  static std::string contents(const std::filesystem::path& path) {
    std::ifstream in(path, std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }

  std::filesystem::path dir_;
};

TEST_F(DurableAppend, CreatesThenAppendsWithoutTouchingEarlierText) {
  const auto path = dir_ / "results.csv";
  ASSERT_TRUE(append_durably(path, "'Test Type,Test Description\n"));
  ASSERT_TRUE(append_durably(path, ""));
  ASSERT_TRUE(append_durably(path, "0,first\n"));
  EXPECT_EQ(contents(path), "'Test Type,Test Description\n0,first\n");
}

TEST_F(DurableAppend, WritesLargeText) {
  const auto path = dir_ / "big.csv";
  const std::string text(3 * 1024 * 1024 + 17, 'x');
  ASSERT_TRUE(append_durably(path, text));
  EXPECT_EQ(std::filesystem::file_size(path), text.size());
}

TEST_F(DurableAppend, ErrorNamesThePath) {
  const auto path = dir_ / "missing-dir" / "results.csv";
  const Result<void> result = append_durably(path, "x");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code(), ErrorCode::io_error);
  EXPECT_NE(result.error().message().find(path.string()), std::string::npos) << result.error().message();
}

TEST_F(DurableAppend, RefusesADirectory) {
  const Result<void> result = append_durably(dir_, "x");
  ASSERT_FALSE(result);
  EXPECT_NE(result.error().message().find(dir_.string()), std::string::npos);
}

}  // namespace
}  // namespace iomark::results

namespace iomark::results {
namespace {

TEST(ReplaceDurably, ReplacesTheWholeFileAndLeavesNoPartial) {
  char pattern[] = "/tmp/iomark-replace-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const std::filesystem::path directory = pattern;
  const auto path = directory / "results.json";
  ASSERT_TRUE(append_durably(path, "an old, longer document").has_value());
  ASSERT_TRUE(replace_durably(path, "new").has_value());
  std::ifstream in(path);
  std::string content((std::istreambuf_iterator<char>(in)), std::istreambuf_iterator<char>());
  EXPECT_EQ(content, "new");
  EXPECT_FALSE(std::filesystem::exists(directory / "results.json.partial"));
  const auto refused = replace_durably(directory / "missing-dir" / "x.json", "text");
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message().find("missing-dir"), std::string::npos);
  std::filesystem::remove_all(directory);
}

TEST_F(DurableAppend, RewriteFromAnOffsetKeepsWhatComesBeforeAndCutsOffWhatCameAfter) {
  const auto path = dir_ / "results.json";
  ASSERT_TRUE(append_durably(path, "{\"runs\": [], \"outcome\": \"in_progress\"}\n"));
  ASSERT_TRUE(rewrite_from_durably(path, 10, "1], \"outcome\": \"done\"}\n"));
  EXPECT_EQ(contents(path), "{\"runs\": [1], \"outcome\": \"done\"}\n");
  const auto missing = dir_ / "missing.json";
  const auto refused = rewrite_from_durably(missing, 0, "x");
  ASSERT_FALSE(refused);
  EXPECT_NE(refused.error().message().find(missing.string()), std::string::npos) << refused.error().message();
  EXPECT_FALSE(std::filesystem::exists(missing)) << "never creates the file";
}

}  // namespace
}  // namespace iomark::results
