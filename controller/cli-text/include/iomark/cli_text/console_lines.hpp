// What a console prints per run that repeats per manager or per worker, folded into one line
// with counts when a fleet would make it thousands (1,024 managers x 16 workers: 16,384 engine
// lines a run). The caller keeps every line of the detail for a verbose log; the results keep
// it too (each worker's engine and reason are in the JSON and results.csv).
// Not thread-safe: one per console.
#pragma once

#include <cstddef>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/results/run_results.hpp"

namespace iomark::cli_text {

// Up to this many lines of one kind per run are listed one by one; more are folded.
inline constexpr std::size_t kLinesListedOneByOne = 8;

struct ConsoleLines {
  std::vector<std::string> shown;   // what the console prints
  std::vector<std::string> detail;  // one line per manager or worker, whether folded or not
};

// "preparing test files on MANAGER" as manager `position` (0-based) of the `count` preparing one
// after another; with more than kLinesListedOneByOne, only the first shows, as "preparing test
// files on COUNT managers, one after another".
[[nodiscard]] ConsoleLines preparing_lines(std::string_view manager, std::size_t position, std::size_t count);

// Each worker's engine and why, for the workers whose engine is new (a series repeats the choice
// run after run): "engine MANAGER/WORKER: REASON" each; with more than kLinesListedOneByOne, one
// line per reason: "engine REASON: N workers on M managers".
class EngineLines {
 public:
  [[nodiscard]] ConsoleLines new_choices(const results::RunResults& run);

 private:
  std::map<std::string, std::string> shown_;  // "manager/worker" -> engine last reported
};

}  // namespace iomark::cli_text
