#include "iomark/cli_text/max_iops_text.hpp"

#include "iomark/cli_text/text_table.hpp"
#include "iomark/results/max_iops_curve.hpp"

namespace iomark::cli_text {

std::string search_step_line(const results::MaxIopsRecord& search) {
  if (search.steps.empty()) return "search: no run yet";
  const auto& step = search.steps.back();
  std::string text = "search run " + std::to_string(search.steps.size()) + ": QD " + std::to_string(step.outstanding_ios);
  if (step.rate_iops) text += " at " + format_fixed(*step.rate_iops, 0) + " IOPS asked";
  text += ": " + format_fixed(step.iops, 0) + " IOPS, " + search.figure + " " + format_fixed(step.latency_ms, 3) +
          " ms: " + (step.within ? "within " : "over ") + results::limit_ms_text(search.limit_ms);
  return text;
}

std::string search_report(const results::MaxIopsRecord& search) {
  TextTable table({{"run", Align::right},
                   {"QD", Align::right},
                   {"rate asked", Align::right},
                   {"IOPS", Align::right},
                   {search.figure + " ms", Align::right},
                   {"within"}});
  for (const std::size_t i : results::steps_by_iops(search)) {
    const auto& step = search.steps[i];
    const bool chosen = search.chosen && *search.chosen == i;
    table.add_row({std::to_string(step.run), std::to_string(step.outstanding_ios),
                   step.rate_iops ? format_fixed(*step.rate_iops, 0) : std::string("-"), format_fixed(step.iops, 0),
                   format_fixed(step.latency_ms, 3), std::string(step.within ? "yes" : "no") + (chosen ? "  <- chosen" : "")});
  }
  std::string text = "latency against IOPS (--find-max-iops " + search.figure + "<=" + results::limit_ms_text(search.limit_ms) + "):\n";
  text += table.render();
  text += "most IOPS within " + results::bound_text(search) + ": " + search.conclusion +
          (search.finished ? "" : " (the search was cut short)") + "\n";
  return text;
}

}  // namespace iomark::cli_text
