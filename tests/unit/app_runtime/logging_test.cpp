#include "iomark/app_runtime/logging.hpp"

#include <fcntl.h>
#include <gtest/gtest.h>
#include <spdlog/spdlog.h>
#include <sys/stat.h>
#include <unistd.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <string>

namespace iomark::app_runtime {
namespace {

std::string read_all(const std::filesystem::path& path) {
  std::ifstream in(path);
  std::stringstream text;
  text << in.rdbuf();
  return text.str();
}

class LoggingTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() /
           ("iomark_logging_test_" + std::to_string(::getpid()) + "_" +
            ::testing::UnitTest::GetInstance()->current_test_info()->name());
    std::filesystem::create_directories(dir_);
    ::unsetenv("JOURNAL_STREAM");
  }
  void TearDown() override {
    restore_stderr();
    ::unsetenv("JOURNAL_STREAM");
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("test"));
    std::filesystem::remove_all(dir_);
  }

  // Sends stderr to `path` until restore_stderr().
  void capture_stderr(const std::filesystem::path& path) {
    saved_stderr_ = ::dup(STDERR_FILENO);
    const int fd = ::open(path.c_str(), O_WRONLY | O_CREAT | O_TRUNC | O_CLOEXEC, 0600);
    ASSERT_GE(fd, 0);
    ::dup2(fd, STDERR_FILENO);
    ::close(fd);
  }
  void restore_stderr() {
    if (saved_stderr_ < 0) return;
    ::dup2(saved_stderr_, STDERR_FILENO);
    ::close(saved_stderr_);
    saved_stderr_ = -1;
  }
  static std::string device_and_inode(const std::filesystem::path& path) {
    struct stat status {};
    ::stat(path.c_str(), &status);
    return std::to_string(status.st_dev) + ":" + std::to_string(status.st_ino);
  }

  std::filesystem::path dir_;
  int saved_stderr_{-1};
};

TEST_F(LoggingTest, QuietAndVerboseMoveTheLevelFromInfo) {
  ASSERT_TRUE(start_logging({}, ConsoleStyle::plain, "iomark"));
  EXPECT_EQ(spdlog::get_level(), spdlog::level::info);
  ASSERT_TRUE(start_logging({"", "", 1, 0}, ConsoleStyle::plain, "iomark"));
  EXPECT_EQ(spdlog::get_level(), spdlog::level::warn);
  ASSERT_TRUE(start_logging({"", "", 5, 0}, ConsoleStyle::plain, "iomark"));
  EXPECT_EQ(spdlog::get_level(), spdlog::level::err);
  ASSERT_TRUE(start_logging({"", "", 0, 1}, ConsoleStyle::plain, "iomark"));
  EXPECT_EQ(spdlog::get_level(), spdlog::level::debug);
  ASSERT_TRUE(start_logging({"", "", 0, 2}, ConsoleStyle::plain, "iomark"));
  EXPECT_EQ(spdlog::get_level(), spdlog::level::trace);
}

TEST_F(LoggingTest, AnExplicitLevelWinsAndAnUnknownOneIsRefused) {
  ASSERT_TRUE(start_logging({"error", "", 0, 2}, ConsoleStyle::plain, "iomark"));
  EXPECT_EQ(spdlog::get_level(), spdlog::level::err);
  const auto refused = start_logging({"loud", "", 0, 0}, ConsoleStyle::plain, "iomark");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), ErrorCode::invalid_argument);
  EXPECT_EQ(refused.error().field(), "--log-level");
}

TEST_F(LoggingTest, TheLogFileGetsTimestampedLevelledLinesAtTheChosenLevel) {
  const auto file = dir_ / "agent.log";
  capture_stderr(dir_ / "stderr");
  ASSERT_TRUE(start_logging({"info", file.string(), 0, 0}, ConsoleStyle::timestamped, "iomark-agent"));
  spdlog::debug("hidden detail");
  spdlog::warn("disk {} is slow", "sdb");
  restore_stderr();
  const auto text = read_all(file);
  EXPECT_EQ(text.find("hidden detail"), std::string::npos);
  EXPECT_NE(text.find("[warning] disk sdb is slow"), std::string::npos) << text;
  EXPECT_TRUE(text.size() > 4 && text.starts_with("20")) << text;  // a year first
}

TEST_F(LoggingTest, ALogFileThatCannotBeOpenedIsAnError) {
  const auto blocker = dir_ / "not-a-directory";
  std::ofstream(blocker) << "x";
  const auto failed = start_logging({"", (blocker / "agent.log").string(), 0, 0}, ConsoleStyle::plain, "iomark");
  ASSERT_FALSE(failed);
  EXPECT_EQ(failed.error().code(), ErrorCode::io_error);
}

TEST_F(LoggingTest, PlainStyleShowsInfoAsIsAndNamesTheProgramBeforeOtherLevels) {
  const auto captured = dir_ / "stderr";
  capture_stderr(captured);
  ASSERT_TRUE(start_logging({}, ConsoleStyle::plain, "iomark"));
  spdlog::info("run 1/1");
  spdlog::warn("slow");
  spdlog::error("gone");
  restore_stderr();
  EXPECT_EQ(read_all(captured), "run 1/1\niomark: warning: slow\niomark: gone\n");
}

TEST_F(LoggingTest, UnderTheJournalLinesCarryPrioritiesAndNoTimestamps) {
  const auto captured = dir_ / "stderr";
  capture_stderr(captured);
  ::setenv("JOURNAL_STREAM", device_and_inode(captured).c_str(), 1);
  EXPECT_TRUE(stderr_is_journal());
  ASSERT_TRUE(start_logging({"debug", "", 0, 0}, ConsoleStyle::timestamped, "iomark-agent"));
  spdlog::debug("probing engines");
  spdlog::info("listening");
  spdlog::warn("refused");
  spdlog::error("cannot bind");
  restore_stderr();
  EXPECT_EQ(read_all(captured), "<7>probing engines\n<6>listening\n<4>refused\n<3>cannot bind\n");
}

TEST_F(LoggingTest, AJournalStreamNamingAnotherFileIsNotOurs) {
  // A child of a service inherits JOURNAL_STREAM while its stderr may go elsewhere.
  const auto other = dir_ / "other";
  std::ofstream(other) << "";
  capture_stderr(dir_ / "stderr");
  ::setenv("JOURNAL_STREAM", device_and_inode(other).c_str(), 1);
  EXPECT_FALSE(stderr_is_journal());
  restore_stderr();
}

}  // namespace
}  // namespace iomark::app_runtime
