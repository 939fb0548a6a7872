// Writing a report, shared by `iomark report` and `iomark run --report`.
#pragma once

#include <ostream>
#include <string>
#include <vector>

#include "iomark/controller/series_runner.hpp"
#include "iomark/report/report_source.hpp"

namespace iomark::cli {

// Builds the report of `sources` and writes it to `output` (and each chart to `svg_dir` when
// not empty); prints where it went on `out`. Returns the process exit code.
int write_report(std::vector<report::ReportSource> sources, const std::string& output, std::string title,
                 const std::string& svg_dir, std::ostream& out);

// The runs of `series` just measured as a report source named `name`.
[[nodiscard]] report::ReportSource measured_series_source(const controller::SeriesPlan& series,
                                                          const controller::SeriesOutcome& outcome, std::string name);

}  // namespace iomark::cli
