#include "iomark/app_runtime/progress_line.hpp"

#include <gtest/gtest.h>
#include <spdlog/sinks/ostream_sink.h>
#include <spdlog/spdlog.h>

#include <memory>
#include <sstream>

namespace iomark::app_runtime {
namespace {

// Captures what the programs would log (the default logger) while it lives.
class CapturedLog {
 public:
  CapturedLog() : previous_(spdlog::default_logger()) {
    auto sink = std::make_shared<spdlog::sinks::ostream_sink_st>(text_);
    sink->set_pattern("%l %v");
    spdlog::set_default_logger(std::make_shared<spdlog::logger>("captured", sink));
  }
  ~CapturedLog() { spdlog::set_default_logger(previous_); }
  CapturedLog(const CapturedLog&) = delete;
  CapturedLog& operator=(const CapturedLog&) = delete;
  [[nodiscard]] std::string text() const { return text_.str(); }

 private:
  std::shared_ptr<spdlog::logger> previous_;
  std::ostringstream text_;
};

TEST(ProgressLine, OnATerminalPassingLinesRewriteOneLineAndKeptOnesAreLogged) {
  const CapturedLog log;
  std::ostringstream screen;
  ProgressLine progress(true, screen);
  progress.show("run 1/10 s");
  progress.show("run 2/10 s");
  EXPECT_EQ(screen.str(), "\r\033[Krun 1/10 s\r\033[Krun 2/10 s");
  EXPECT_EQ(log.text(), "") << "passing lines are not logged on a terminal";
  progress.keep("done: 100 IOPS");
  EXPECT_EQ(screen.str(), "\r\033[Krun 1/10 s\r\033[Krun 2/10 s\r\033[K") << "the status line is cleared first";
  EXPECT_EQ(log.text(), "info done: 100 IOPS\n");
  progress.show("run 3/10 s");
  progress.finish();
  EXPECT_TRUE(screen.str().ends_with("run 3/10 s\n")) << "the last status stays on the screen";
}

TEST(ProgressLine, WithoutATerminalEveryLineIsALogLine) {
  const CapturedLog log;
  std::ostringstream screen;
  ProgressLine progress(false, screen);
  progress.show("run 10/10 s");
  progress.keep("done");
  progress.finish();
  EXPECT_EQ(screen.str(), "");
  EXPECT_EQ(log.text(), "info run 10/10 s\ninfo done\n");
}

}  // namespace
}  // namespace iomark::app_runtime
