// The one whole-file reader (common/text_file.hpp): plans, results files, /proc and /sys.
#include "iomark/common/text_file.hpp"

#include <gtest/gtest.h>

#include <fstream>
#include <string>

namespace iomark {
namespace {

class TextFile : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("iomark-text-file-" + std::to_string(::testing::UnitTest::GetInstance()->random_seed()) + "-" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }

  std::filesystem::path write(const std::string& name, const std::string& content) {
    const auto path = dir_ / name;
    std::ofstream(path, std::ios::binary) << content;
    return path;
  }

  std::filesystem::path dir_;
};

TEST_F(TextFile, ReadsEveryByte) {
  std::string content = "Version 1.1.0 \r\n'TEST SETUP\r\n";
  content.push_back('\0');
  content += std::string(200'000, 'x');  // more than one read's buffer
  const auto read = read_text_file(write("plan.icf", content));
  ASSERT_TRUE(read.has_value()) << read.error().describe();
  EXPECT_EQ(*read, content);
}

TEST_F(TextFile, ReadsAnEmptyFile) {
  const auto read = read_text_file(write("empty", ""));
  ASSERT_TRUE(read.has_value());
  EXPECT_TRUE(read->empty());
}

TEST_F(TextFile, ReadsFilesThatAnnounceNoSize) {
  // /proc files say 0 bytes and still have content.
  const auto read = read_text_file("/proc/self/stat");
  ASSERT_TRUE(read.has_value()) << read.error().describe();
  EXPECT_FALSE(read->empty());
}

TEST_F(TextFile, NamesTheFileAndTheReasonWhenItCannotBeOpened) {
  const auto missing = dir_ / "missing.icf";
  const auto read = read_text_file(missing);
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().code(), ErrorCode::io_error);
  EXPECT_EQ(read.error().location().file, missing.string());
  EXPECT_NE(read.error().describe().find("cannot open: No such file or directory"), std::string::npos)
      << read.error().describe();
}

TEST_F(TextFile, NamesTheFileWhenItIsADirectory) {
  const auto read = read_text_file(dir_);
  ASSERT_FALSE(read.has_value());
  EXPECT_EQ(read.error().code(), ErrorCode::io_error);
  EXPECT_NE(read.error().describe().find("Is a directory"), std::string::npos) << read.error().describe();
}

TEST_F(TextFile, RefusesAFileLargerThanTheLimitBeforeReadingIt) {
  const auto path = write("big.csv", std::string(4097, 'a'));
  const auto refused = read_text_file(path, 4096);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::invalid_argument);
  EXPECT_EQ(refused.error().location().file, path.string());
  EXPECT_NE(refused.error().describe().find("larger than 4 KiB"), std::string::npos) << refused.error().describe();
  const auto at_limit = read_text_file(write("fits.csv", std::string(4096, 'a')), 4096);
  ASSERT_TRUE(at_limit.has_value());
  EXPECT_EQ(at_limit->size(), 4096U);
}

TEST_F(TextFile, RefusesAStreamThatGrowsPastTheLimit) {
  // No size announced (a /proc file): the limit holds while reading.
  const auto refused = read_text_file("/proc/self/maps", 16);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::invalid_argument);
}

}  // namespace
}  // namespace iomark
