// The report as one self-contained HTML file: inline CSS and inline SVG charts (svg_chart.hpp),
// no script, no font, no image, no link to anything outside the file, so it opens offline
// and mails as one attachment. Sections: summary (sources, series, hosts, failed runs,
// preconditioning), the PTS IOPS table, steady state and the --find-max-iops search (sources
// that have them), comparison table (several sources), one section of charts per access spec,
// the table of every run (ALL rows).
#pragma once

#include <filesystem>
#include <optional>
#include <string>

#include "iomark/common/result.hpp"
#include "iomark/report/report_model.hpp"

namespace iomark::report {

// Pure; thread-safe.
[[nodiscard]] std::string render_html_report(const ReportModel& model);

struct WrittenReport {
  std::size_t charts{};
  std::size_t html_bytes{};
};

// Writes render_html_report(model) to `html_path` and, with `svg_dir` (created if missing),
// every chart as `<svg_dir>/<chart id>.svg`. Blocking file I/O; errors name the path.
[[nodiscard]] Result<WrittenReport> write_report_files(const ReportModel& model, const std::filesystem::path& html_path,
                                                       const std::optional<std::filesystem::path>& svg_dir);

}  // namespace iomark::report
