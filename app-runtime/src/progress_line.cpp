#include "iomark/app_runtime/progress_line.hpp"

#include <unistd.h>

#include <iostream>
#include <spdlog/spdlog.h>

namespace iomark::app_runtime {

namespace {

// Back to the line's start and clear it (VT100, which every terminal emulator reads).
constexpr std::string_view kRewrite = "\r\033[K";

}  // namespace

ProgressLine::ProgressLine()
    : ProgressLine(::isatty(STDERR_FILENO) != 0 && spdlog::should_log(spdlog::level::info), std::cerr) {}

void ProgressLine::show(const std::string& text) {
  if (!terminal_) {
    spdlog::info("{}", text);
    return;
  }
  screen_ << kRewrite << text << std::flush;
  shown_ = true;
}

void ProgressLine::keep(const std::string& text) {
  if (terminal_ && shown_) {
    screen_ << kRewrite << std::flush;
    shown_ = false;
  }
  spdlog::info("{}", text);
}

void ProgressLine::finish() {
  if (!terminal_ || !shown_) return;
  screen_ << '\n' << std::flush;
  shown_ = false;
}

}  // namespace iomark::app_runtime
