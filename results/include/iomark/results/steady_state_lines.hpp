// What SNIA's steady-state plots draw over a round series' window (docs/characterize.md): the
// window's average, 110% and 90% of it, and the least-squares line. The report and the GUI's
// chart draw the same lines from a SteadyStateRecord, so they are computed here once.
#pragma once

#include <optional>

#include "iomark/results/run_results.hpp"

namespace iomark::results {

struct SteadyStateLines {
  double first_round{};  // 1-based, the window's first round
  double last_round{};   // 1-based, the last round
  double average{};
  double above{};  // 110% of the average
  double below{};  // 90% of the average
  double trend_at_first{};  // the least-squares line at first_round
  double trend_at_last{};   // and at last_round
};

// The lines, once the record's window is full (only then has the verdict an average and a
// line); nullopt before.
[[nodiscard]] std::optional<SteadyStateLines> steady_state_lines(const SteadyStateRecord& record) noexcept;

}  // namespace iomark::results
