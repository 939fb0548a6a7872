// The status line of a long wait (a series' live figures, run-local's seconds, a test file
// being made), the same in every program: on a terminal one line rewritten in place, kept
// lines logged below it; without one, or under -q, every line is a log line at info level,
// which -q silences and --log-file keeps. Callers decide how often a passing line is worth
// a log line. Single-threaded.
#pragma once

#include <iosfwd>
#include <string>

namespace iomark::app_runtime {

class ProgressLine {
 public:
  // Rewrites on standard error when it is a terminal and info lines are shown (not -q).
  ProgressLine();
  // For tests: `screen` stands for the terminal when `terminal` is true.
  ProgressLine(bool terminal, std::ostream& screen) : terminal_(terminal), screen_(screen) {}

  [[nodiscard]] bool on_terminal() const noexcept { return terminal_; }
  // A passing line: rewrites the status line, or logs it where there is none.
  void show(const std::string& text);
  // A line to keep: clears the status line and logs it.
  void keep(const std::string& text);
  // Leaves the last status line on the screen and moves below it.
  void finish();

 private:
  bool terminal_;
  std::ostream& screen_;
  bool shown_{false};  // a status line is on the screen
};

}  // namespace iomark::app_runtime
