#include "iomark/cli_text/steady_state_text.hpp"

#include "iomark/cli_text/text_table.hpp"

namespace iomark::cli_text {

namespace {

// The figure with its unit and as many decimals as it deserves: "41275 IOPS", "0.412 ms avg".
std::string with_unit(double value, access_specs::SteadyFigure figure) {
  switch (figure) {
    case access_specs::SteadyFigure::iops: return format_fixed(value, 0) + " IOPS";
    case access_specs::SteadyFigure::mb_per_s: return format_fixed(value, 2) + " MB/s";
    case access_specs::SteadyFigure::average_ms: return format_fixed(value, 3) + " ms avg";
    case access_specs::SteadyFigure::p99_ms: return format_fixed(value, 3) + " ms p99";
  }
  return format_fixed(value, 3);
}

// "rounds 2-6" (1-based) of the window the verdict judged.
std::string window_text(const steady_state::Verdict& verdict) {
  return "rounds " + std::to_string(verdict.window_first + 1) + "-" +
         std::to_string(verdict.window_first + verdict.window_rounds);
}

std::string percent(double fraction) { return format_fixed(fraction * 100.0, 1) + "%"; }

}  // namespace

std::string round_line(const controller::SteadyStateProgress& progress) {
  const auto& verdict = progress.verdict;
  std::string text = "round " + std::to_string(progress.rounds.size()) + "/" + std::to_string(progress.max_rounds) +
                     ": " + with_unit(progress.rounds.back(), progress.figure);
  if (verdict.window_rounds >= 2 && verdict.average > 0) {
    text += "; " + window_text(verdict) + ": range " + percent(verdict.data_excursion) + ", slope " +
            percent(verdict.slope_excursion) + " of the average";
  }
  return text + (verdict.steady ? ": steady" : ": not steady (" + verdict.reason + ")");
}

std::string verdict_line(const controller::SteadyStateProgress& progress) {
  const auto& verdict = progress.verdict;
  const std::string head = "steady state (" + std::string(access_specs::to_string(progress.figure)) + "): ";
  if (verdict.steady) {
    return head + "reached in round " + std::to_string(progress.rounds.size()) + ", average " +
           with_unit(verdict.average, progress.figure) + " over " + window_text(verdict);
  }
  return head + "not reached in " + std::to_string(progress.rounds.size()) + " round(s): " + verdict.reason;
}

}  // namespace iomark::cli_text
