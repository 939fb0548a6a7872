#include "iomark/report/html_report.hpp"

#include <algorithm>
#include <array>
#include <cerrno>
#include <cstdio>
#include <cstring>
#include <fstream>
#include <system_error>

#include "iomark/report/svg_chart.hpp"

namespace iomark::report {

namespace {

// Inline so that the file needs nothing else; system fonts only.
constexpr std::string_view kStyle = R"(body{font-family:sans-serif;margin:24px;color:#222;max-width:1600px}
h1{font-size:24px;margin-bottom:4px}h2{font-size:19px;border-bottom:1px solid #ccc;padding-bottom:4px;margin-top:32px}
h3{font-size:16px}table{border-collapse:collapse;font-size:13px;margin:8px 0}
th,td{border:1px solid #ddd;padding:3px 8px;text-align:left}td.n{text-align:right;font-variant-numeric:tabular-nums}
th{background:#f2f2f2}.charts{display:flex;flex-wrap:wrap;gap:12px}
figure.chart{margin:0;border:1px solid #ddd}.failed{color:#b00020}.note{color:#555;font-size:13px}
table.max-iops-steps,table.pts-iops{align-self:flex-start;margin:0}tr.chosen td{font-weight:bold}
table.pts-iops th+th{text-align:right}ul.targets{margin:0 0 8px;padding-left:24px}
)";

std::string fixed(double value, int decimals) {
  std::array<char, 48> text{};
  std::snprintf(text.data(), text.size(), "%.*f", decimals, value);
  return text.data();
}

std::string fixed(const std::optional<double>& value, int decimals) {
  return value ? fixed(*value, decimals) : std::string("-");
}

std::string cell(std::string_view text) { return "<td>" + escape_xml(text) + "</td>"; }
std::string number_cell(std::string text) { return "<td class=\"n\">" + text + "</td>"; }

// Series with the same description, tool and outcome, as one summary row: IOmeter batch files
// often hold dozens of one-run series of a few patterns.
struct SeriesGroup {
  const SourceSeries* first{};
  const SourceSeries* last{};
  std::size_t count{};
};

std::vector<SeriesGroup> group_series(const std::vector<SourceSeries>& series) {
  std::vector<SeriesGroup> groups;
  for (const SourceSeries& one : series) {
    const auto same = [&one](const SeriesGroup& group) {
      return group.first->description == one.description && group.first->tool == one.tool &&
             group.first->outcome == one.outcome;
    };
    const auto found = std::find_if(groups.begin(), groups.end(), same);
    if (found == groups.end()) {
      groups.push_back({&one, &one, 1});
    } else {
      found->last = &one;
      ++found->count;
    }
  }
  return groups;
}

void summary(std::string& html, const ReportModel& model) {
  html += "<section id=\"summary\">\n<h2>Summary</h2>\n<table class=\"sources\">\n"
          "<tr><th>#</th><th>source</th><th>format</th><th>series</th><th>tool</th><th>started</th>"
          "<th>outcome</th><th>runs</th><th>hosts</th></tr>\n";
  for (std::size_t s = 0; s < model.sources.size(); ++s) {
    const ReportSource& source = model.sources[s];
    std::size_t runs = 0;
    for (const auto& point : source.points) runs += point.manager.empty() ? 1 : 0;
    std::string hosts;
    for (const auto& host : source.hosts) {
      if (!hosts.empty()) hosts += "<br>";
      hosts += escape_xml(host.name) + (host.facts.empty() ? "" : " (" + escape_xml(host.facts) + ")");
    }
    const auto groups = group_series(source.series);
    const std::size_t rows = std::max<std::size_t>(groups.size(), 1);
    const std::string span = " rowspan=\"" + std::to_string(rows) + "\"";
    for (std::size_t r = 0; r < rows; ++r) {
      html += "<tr>";
      if (r == 0) {
        html += "<td" + span + ">" + std::to_string(s + 1) + "</td><td" + span + ">" + escape_xml(source.name) +
                "</td><td" + span + ">" + escape_xml(source.format) + "</td>";
      }
      if (r < groups.size()) {
        const SeriesGroup& group = groups[r];
        const std::string times = group.count == 1 ? group.first->start_time
                                                   : group.first->start_time + " to " + group.last->start_time;
        html += cell(group.first->description + (group.count == 1 ? "" : " (" + std::to_string(group.count) + " series)")) +
                cell(group.first->tool) + cell(times) + cell(group.first->outcome);
      } else {
        html += "<td></td><td></td><td></td><td></td>";
      }
      if (r == 0) html += "<td class=\"n\"" + span + ">" + std::to_string(runs) + "</td><td" + span + ">" + hosts + "</td>";
      html += "</tr>\n";
    }
  }
  html += "</table>\n";
  std::size_t failures = 0;
  for (const auto& source : model.sources) failures += source.failures.size();
  html += "<h3>Failed runs: " + std::to_string(failures) + "</h3>\n";
  if (failures > 0) {
    html += "<ul class=\"failed\">\n";
    for (const auto& source : model.sources) {
      for (const auto& failure : source.failures) {
        html += "<li>" + escape_xml(source.name) + (failure.run.empty() ? "" : ", " + escape_xml(failure.run)) + ": " +
                escape_xml(failure.error) + "</li>\n";
      }
    }
    html += "</ul>\n";
  }
  if (model.runs_without_queue_depth > 0) {
    html += "<p class=\"note\">" + std::to_string(model.runs_without_queue_depth) +
            " run(s) whose workers had different outstanding I/Os are in the table of runs but not on the "
            "outstanding-I/O charts.</p>\n";
  }
  for (const PreconditionView& view : model.preconditions) {
    html += "<p class=\"precondition\">" + escape_xml(view.source) + ": " + escape_xml(view.text) + "</p>\n";
    if (view.targets.empty()) continue;
    html += "<ul class=\"targets note\">\n";
    for (const auto& target : view.targets) html += "<li>" + escape_xml(target) + "</li>\n";
    html += "</ul>\n";
  }
  html += "</section>\n";
}

// Each `iomark pts iops` source: which rounds its table averages, the table as PTS-E lays it
// out, and IOPS against block size.
void pts_iops_tables(std::string& html, const ReportModel& model) {
  if (model.pts_iops.empty()) return;
  html += "<section id=\"pts-iops\">\n<h2>PTS IOPS</h2>\n";
  for (const PtsIopsView& view : model.pts_iops) {
    html += "<p class=\"caption\">" + escape_xml(view.source) + ": IOPS of each read/write mix and block size, " +
            escape_xml(view.caption) + "</p>\n";
    html += "<div class=\"charts\">\n<table class=\"pts-iops\">\n<tr><th>read/write</th>";
    for (const auto& block : view.blocks) html += "<th>" + escape_xml(block) + "</th>";
    html += "</tr>\n";
    for (std::size_t mix = 0; mix < view.mixes.size(); ++mix) {
      html += "<tr><th>" + escape_xml(view.mixes[mix]) + "</th>";
      for (const auto& iops : view.iops[mix]) html += number_cell(escape_xml(iops));
      html += "</tr>\n";
    }
    html += "</table>\n<figure class=\"chart\" id=\"" + escape_xml(view.chart.id) + "\">\n" +
            render_svg_chart(view.chart) + "</figure>\n</div>\n";
  }
  html += "</section>\n";
}

std::string percent(double fraction) { return fixed(fraction * 100.0, 1) + "%"; }

// Each source run in rounds: what the rule said, and its chart.
void steady_states(std::string& html, const ReportModel& model) {
  if (model.steady_states.empty()) return;
  html += "<section id=\"steady-state\">\n<h2>Steady state</h2>\n";
  for (const SteadyStateView& view : model.steady_states) {
    const auto& record = view.record;
    const std::string window = "rounds " + std::to_string(record.window_first + 1) + "-" +
                               std::to_string(record.window_first + std::min<std::size_t>(record.window, record.rounds.size()));
    html += "<p class=\"verdict\">" + escape_xml(view.source) + ": " + escape_xml(record.figure) + " ";
    html += record.steady ? "steady in round " + std::to_string(record.rounds.size()) + " (" + window + ": average " +
                                fixed(record.average, 3) + ", range " + percent(record.data_excursion) + ", slope " +
                                percent(record.slope_excursion) + " of the average)"
                          : "not steady after " + std::to_string(record.rounds.size()) + " of " +
                                std::to_string(record.max_rounds) + " rounds: " + escape_xml(record.reason);
    html += "</p>\n<figure class=\"chart\" id=\"" + escape_xml(view.chart.id) + "\">\n" + render_svg_chart(view.chart) +
            "</figure>\n";
  }
  html += "</section>\n";
}

// Each --find-max-iops search: its conclusion, its chart and the steps in the order they ran.
void max_iops_searches(std::string& html, const ReportModel& model) {
  if (model.max_iops_searches.empty()) return;
  html += "<section id=\"max-iops\">\n<h2>Highest IOPS within a latency bound</h2>\n";
  for (const MaxIopsView& view : model.max_iops_searches) {
    const auto& record = view.record;
    html += "<p class=\"conclusion\">" + escape_xml(view.source) + ": " + escape_xml(record.conclusion) +
            (record.finished ? "" : " (the search was cut short)") + "</p>\n";
    html += "<div class=\"charts\">\n<figure class=\"chart\" id=\"" + escape_xml(view.chart.id) + "\">\n" +
            render_svg_chart(view.chart) + "</figure>\n";
    html += "<table class=\"max-iops-steps\">\n<tr><th>run</th><th>QD</th><th>asked IOPS</th><th>IOPS</th><th>" +
            escape_xml(record.figure) + " ms</th><th>within</th></tr>\n";
    for (std::size_t s = 0; s < record.steps.size(); ++s) {
      const auto& step = record.steps[s];
      html += std::string(record.chosen == s ? "<tr class=\"chosen\">" : "<tr>") + number_cell(std::to_string(step.run)) +
              number_cell(std::to_string(step.outstanding_ios)) + number_cell(fixed(step.rate_iops, 0)) +
              number_cell(fixed(step.iops, 1)) + number_cell(fixed(step.latency_ms, 3)) +
              cell(step.within ? "yes" : "no") + "</tr>\n";
    }
    html += "</table>\n</div>\n";
  }
  html += "</section>\n";
}

void comparison(std::string& html, const ReportModel& model) {
  if (model.comparison.empty()) return;
  html += "<section id=\"comparison\">\n<h2>Comparison: IOPS and ratio to " + escape_xml(model.sources.front().name) +
          "</h2>\n<table class=\"comparison\">\n<tr><th>access spec</th><th>outstanding I/Os</th>";
  for (const auto& source : model.sources) html += "<th>" + escape_xml(source.name) + " IOPS</th>";
  for (std::size_t s = 1; s < model.sources.size(); ++s) {
    html += "<th>" + escape_xml(model.sources[s].name) + " ratio</th>";
  }
  html += "</tr>\n";
  for (const ComparisonRow& row : model.comparison) {
    html += "<tr>" + cell(row.spec) + number_cell(std::to_string(row.queue_depth));
    for (const auto& iops : row.iops) html += number_cell(fixed(iops, 0));
    for (std::size_t s = 1; s < row.ratio.size(); ++s) html += number_cell(fixed(row.ratio[s], 3));
    html += "</tr>\n";
  }
  html += "</table>\n</section>\n";
}

void charts(std::string& html, const ReportModel& model) {
  for (const SpecSection& section : model.sections) {
    html += "<section class=\"spec\">\n<h2>Access specification: " + escape_xml(section.spec) +
            "</h2>\n<div class=\"charts\">\n";
    for (const Chart& chart : section.charts) {
      html += "<figure class=\"chart\" id=\"" + escape_xml(chart.id) + "\">\n" + render_svg_chart(chart) + "</figure>\n";
    }
    html += "</div>\n</section>\n";
  }
}

void runs_table(std::string& html, const ReportModel& model) {
  html += "<section id=\"runs\">\n<h2>Every run</h2>\n<table class=\"runs\">\n<tr><th>source</th><th>series</th>"
          "<th>run</th><th>description</th><th>access spec</th><th>QD</th><th>IOPS</th><th>MB/s</th><th>avg ms</th>"
          "<th>p99 ms</th><th>max ms</th><th>avg from issue ms</th><th>avg issue lag ms</th><th>CPU %</th>"
          "<th>errors</th></tr>\n";
  for (const ReportSource& source : model.sources) {
    const std::string source_cell = cell(source.name);
    for (const auto& point : source.points) {
      if (!point.manager.empty()) continue;
      html += "<tr class=\"run\">" + source_cell + number_cell(std::to_string(point.series + 1)) +
              number_cell(std::to_string(point.run + 1)) + cell(point.description) + cell(point.spec) +
              number_cell(point.queue_depth ? std::to_string(*point.queue_depth) : std::string("-")) +
              number_cell(fixed(point.iops, 1)) + number_cell(fixed(point.mb_per_s, 2)) +
              number_cell(fixed(point.average_response_ms, 3)) + number_cell(fixed(point.p99_response_ms, 3)) +
              number_cell(fixed(point.maximum_response_ms, 3)) + number_cell(fixed(point.average_service_ms, 3)) +
              number_cell(fixed(point.average_issue_lag_ms, 3)) + number_cell(fixed(point.cpu_percent, 1)) +
              number_cell(std::to_string(point.errors)) + "</tr>\n";
    }
  }
  html += "</table>\n</section>\n";
}

Result<void> write_file(const std::filesystem::path& path, const std::string& text) {
  std::ofstream out(path, std::ios::binary | std::ios::trunc);
  if (out) out.write(text.data(), static_cast<std::streamsize>(text.size()));
  if (out) out.close();
  if (!out) {
    return fail(Error(ErrorCode::io_error, "cannot write: " + std::string(std::strerror(errno))).at({path.string(), 0}));
  }
  return {};
}

}  // namespace

std::string render_html_report(const ReportModel& model) {
  std::string html = "<!DOCTYPE html>\n<html lang=\"en\">\n<head>\n<meta charset=\"utf-8\">\n<title>" +
                     escape_xml(model.title) + "</title>\n<style>\n" + std::string(kStyle) + "</style>\n</head>\n<body>\n";
  html += "<h1>" + escape_xml(model.title) + "</h1>\n<p class=\"note\">" + std::to_string(model.sources.size()) +
          " source(s), " + std::to_string(model.chart_count()) + " charts, made by iomark " IOMARK_VERSION "</p>\n";
  summary(html, model);
  pts_iops_tables(html, model);
  steady_states(html, model);
  max_iops_searches(html, model);
  comparison(html, model);
  charts(html, model);
  runs_table(html, model);
  html += "</body>\n</html>\n";
  return html;
}

Result<WrittenReport> write_report_files(const ReportModel& model, const std::filesystem::path& html_path,
                                         const std::optional<std::filesystem::path>& svg_dir) {
  if (svg_dir) {
    std::error_code error;
    std::filesystem::create_directories(*svg_dir, error);
    if (error) return fail(Error(ErrorCode::io_error, "cannot create: " + error.message()).at({svg_dir->string(), 0}));
    std::vector<const Chart*> charts;
    for (const auto& view : model.steady_states) charts.push_back(&view.chart);
    for (const auto& view : model.max_iops_searches) charts.push_back(&view.chart);
    for (const auto& view : model.pts_iops) charts.push_back(&view.chart);
    for (const auto& section : model.sections) {
      for (const auto& chart : section.charts) charts.push_back(&chart);
    }
    for (const Chart* chart : charts) {
      if (auto written = write_file(*svg_dir / (chart->id + ".svg"), render_svg_chart(*chart)); !written) {
        return fail(std::move(written.error()));
      }
    }
  }
  const std::string html = render_html_report(model);
  if (auto written = write_file(html_path, html); !written) return fail(std::move(written.error()));
  return WrittenReport{model.chart_count(), html.size()};
}

}  // namespace iomark::report
