#include "iomark/report/report_model.hpp"

#include <algorithm>
#include <array>
#include <cctype>
#include <cstdio>
#include <functional>
#include <map>
#include <numeric>
#include <set>

#include "iomark/access_specs/pts_iops.hpp"
#include "iomark/results/precondition_writes.hpp"
#include "iomark/common/ascii.hpp"
#include "iomark/results/max_iops_curve.hpp"
#include "iomark/results/steady_state_lines.hpp"

namespace iomark::report {

namespace {

using results::RunPoint;

constexpr std::string_view kMixedSpecs = "(mixed specs)";

std::string spec_key(const RunPoint& point) { return point.spec.empty() ? std::string(kMixedSpecs) : point.spec; }

bool is_all(const RunPoint& point) { return point.manager.empty(); }

// The points of one spec in one source, as qd_curves groups them.
struct SpecCurves {
  const ReportSource* source{};
  std::vector<results::QdCurve> curves;
};

std::string curve_label(const ReportSource& source, const results::QdCurve& curve, bool several_sources,
                        bool several_descriptions) {
  std::string label = curve.manager.empty() ? std::string("ALL") : curve.manager;
  if (several_descriptions && !curve.description.empty()) label = curve.description + ": " + label;
  if (several_sources) label = source.name + " | " + label;
  return label;
}

struct Metric {
  std::string_view id;
  std::string_view title;
  std::string_view y_label;
  bool all_only;  // CPU: managers' rows carry the same host figures as ALL
  std::function<std::optional<double>(const RunPoint&)> value;
};

const std::vector<Metric>& metrics() {
  static const std::vector<Metric> list{
      {"iops", "IOPS", "I/Os per second", false, [](const RunPoint& p) { return std::optional<double>(p.iops); }},
      {"avg-ms", "Average response time", "ms", false,
       [](const RunPoint& p) { return std::optional<double>(p.average_response_ms); }},
      {"p99-ms", "p99 response time", "ms", false, [](const RunPoint& p) { return p.p99_response_ms; }},
      {"mbps", "Throughput", "MB/s (10^6 bytes)", false,
       [](const RunPoint& p) { return std::optional<double>(p.mb_per_s); }},
      {"cpu", "CPU utilisation", "% CPU", true, [](const RunPoint& p) { return p.cpu_percent; }},
  };
  return list;
}

// Mean ALL IOPS per queue depth of one source's points of one spec.
std::map<std::uint32_t, double> mean_iops_by_queue_depth(const ReportSource& source, const std::string& spec) {
  std::map<std::uint32_t, std::pair<double, std::size_t>> sums;
  for (const RunPoint& point : source.points) {
    if (!is_all(point) || !point.queue_depth || spec_key(point) != spec) continue;
    auto& [sum, count] = sums[*point.queue_depth];
    sum += point.iops;
    ++count;
  }
  std::map<std::uint32_t, double> means;
  for (const auto& [depth, sum_count] : sums) {
    means[depth] = sum_count.first / static_cast<double>(sum_count.second);
  }
  return means;
}

class ChartIds {
 public:
  std::string make(std::string_view spec, std::string_view kind) {
    std::string base = slug(std::string(spec) + "-" + std::string(kind));
    std::string id = base;
    for (int n = 2; !used_.insert(id).second; ++n) id = base + "-" + std::to_string(n);
    return id;
  }

 private:
  std::set<std::string> used_;
};

void add_if_drawn(std::vector<Chart>& charts, Chart chart) {
  if (!chart.curves.empty()) charts.push_back(std::move(chart));
}

std::vector<Chart> metric_charts(const std::string& spec, const std::vector<SpecCurves>& per_source,
                                 bool several_sources, ChartIds& ids) {
  std::vector<Chart> charts;
  for (const Metric& metric : metrics()) {
    Chart chart{ids.make(spec, metric.id), std::string(metric.title), "outstanding I/Os",
                std::string(metric.y_label), XScale::log2, {}, {}};
    for (const SpecCurves& source_curves : per_source) {
      std::set<std::string_view> descriptions;
      for (const auto& curve : source_curves.curves) descriptions.insert(curve.description);
      for (const auto& curve : source_curves.curves) {
        if (metric.all_only && !curve.manager.empty()) continue;
        ChartCurve drawn{curve_label(*source_curves.source, curve, several_sources, descriptions.size() > 1), {}};
        for (const RunPoint& point : curve.points) {
          if (const auto y = metric.value(point)) drawn.points.push_back({static_cast<double>(*point.queue_depth), *y});
        }
        if (!drawn.points.empty()) chart.curves.push_back(std::move(drawn));
      }
    }
    add_if_drawn(charts, std::move(chart));
  }
  return charts;
}

// The queue depths the ALL points of `spec` ran at, over every source.
std::set<std::uint32_t> queue_depths_of(const std::string& spec, const std::vector<ReportSource>& sources) {
  std::set<std::uint32_t> depths;
  for (const ReportSource& source : sources) {
    for (const RunPoint& point : source.points) {
      if (is_all(point) && point.queue_depth && spec_key(point) == spec) depths.insert(*point.queue_depth);
    }
  }
  return depths;
}

// Where every run of a spec had the same outstanding I/Os (IOmeter batch files that vary the
// test, not the queue depth), the same figures against the run's place in its file: one point
// per run, one curve per source's ALL rows and, with several managers, per manager.
std::vector<Chart> per_run_charts(const std::string& spec, const std::vector<ReportSource>& sources, ChartIds& ids) {
  std::vector<Chart> charts;
  for (const Metric& metric : metrics()) {
    Chart chart{ids.make(spec, metric.id), std::string(metric.title), "run (in file order)", std::string(metric.y_label),
                XScale::linear, {}, {}};
    for (const ReportSource& source : sources) {
      std::vector<ChartCurve> curves;  // ALL first, then managers in order of appearance
      std::size_t ordinal = 0;
      std::set<std::string_view> managers;
      for (const RunPoint& point : source.points) {
        if (spec_key(point) == spec && !is_all(point)) managers.insert(point.manager);
      }
      for (const RunPoint& point : source.points) {
        if (spec_key(point) != spec || !point.queue_depth) continue;
        if (is_all(point)) ++ordinal;
        if (!is_all(point) && (metric.all_only || managers.size() < 2)) continue;
        const auto y = metric.value(point);
        if (!y) continue;
        std::string label = is_all(point) ? std::string("ALL") : point.manager;
        if (sources.size() > 1) label = source.name + " | " + label;
        auto curve = std::find_if(curves.begin(), curves.end(), [&label](const ChartCurve& c) { return c.label == label; });
        if (curve == curves.end()) curve = curves.insert(curves.end(), ChartCurve{label, {}});
        curve->points.push_back({static_cast<double>(ordinal), *y});
      }
      for (auto& curve : curves) chart.curves.push_back(std::move(curve));
    }
    add_if_drawn(charts, std::move(chart));
  }
  return charts;
}

Chart ratio_chart(const std::string& spec, const std::vector<ReportSource>& sources, ChartIds& ids) {
  Chart chart{ids.make(spec, "iops-ratio"), "IOPS relative to " + sources.front().name, "outstanding I/Os",
              "ratio to the first source", XScale::log2, {}, {}};
  const auto base = mean_iops_by_queue_depth(sources.front(), spec);
  for (std::size_t s = 1; s < sources.size(); ++s) {
    ChartCurve curve{sources[s].name, {}};
    for (const auto& [depth, iops] : mean_iops_by_queue_depth(sources[s], spec)) {
      const auto found = base.find(depth);
      if (found == base.end()) continue;
      if (const auto ratio = ratio_of(iops, found->second)) curve.points.push_back({static_cast<double>(depth), *ratio});
    }
    if (!curve.points.empty()) chart.curves.push_back(std::move(curve));
  }
  return chart;
}

// Up to kMaxLatencyCurves of `points`, spread evenly, first and last always kept.
std::vector<const RunPoint*> pick_evenly(const std::vector<const RunPoint*>& points) {
  if (points.size() <= kMaxLatencyCurves) return points;
  std::vector<const RunPoint*> picked;
  for (std::size_t i = 0; i < kMaxLatencyCurves; ++i) {
    picked.push_back(points[i * (points.size() - 1) / (kMaxLatencyCurves - 1)]);
  }
  return picked;
}

std::string run_label(const ReportSource& source, const RunPoint& point, bool several_sources,
                      bool several_descriptions) {
  std::string label = point.queue_depth ? "QD " + std::to_string(*point.queue_depth)
                                        : "run " + std::to_string(point.run + 1);
  if (several_descriptions && !point.description.empty()) label = point.description + ", " + label;
  if (several_sources) label = source.name + " | " + label;
  return label;
}

std::vector<Chart> latency_charts(const std::string& spec, const std::vector<ReportSource>& sources, ChartIds& ids) {
  Chart percentiles{ids.make(spec, "latency-percentiles"), "Latency percentiles", "percentile", "ms (log scale)",
                    XScale::categories, {}, {}};
  for (const double p : results::kProfilePercentiles) {
    std::string name = std::to_string(p);
    name.erase(name.find_last_not_of('0') + 1);
    if (name.back() == '.') name.pop_back();
    percentiles.categories.push_back("p" + name);
  }
  percentiles.y_scale = YScale::log10;
  Chart bins{ids.make(spec, "latency-bins"), "Latency distribution (IOmeter bins)", "response time", "% of I/Os",
             XScale::categories, {}, {}};
  for (const auto caption : legacy_latency_bin_captions()) bins.categories.emplace_back(caption);

  for (const ReportSource& source : sources) {
    std::vector<const RunPoint*> with_percentiles;
    std::vector<const RunPoint*> with_bins;
    std::set<std::string_view> descriptions;
    for (const RunPoint& point : source.points) descriptions.insert(point.description);
    const bool several_descriptions = descriptions.size() > 1;
    for (const RunPoint& point : source.points) {
      if (!is_all(point) || spec_key(point) != spec || !point.latency) continue;
      if (!point.latency->percentiles.empty()) {
        with_percentiles.push_back(&point);
      } else if (std::any_of(point.latency->bins.begin(), point.latency->bins.end(), [](auto n) { return n > 0; })) {
        with_bins.push_back(&point);
      }
    }
    for (const RunPoint* point : pick_evenly(with_percentiles)) {
      ChartCurve curve{run_label(source, *point, sources.size() > 1, several_descriptions), {}};
      for (std::size_t i = 0; i < point->latency->percentiles.size(); ++i) {
        curve.points.push_back({static_cast<double>(i), point->latency->percentiles[i].latency_ms});
      }
      percentiles.curves.push_back(std::move(curve));
    }
    for (const RunPoint* point : pick_evenly(with_bins)) {
      ChartCurve curve{run_label(source, *point, sources.size() > 1, several_descriptions), {}};
      double total = 0;
      for (const auto n : point->latency->bins) total += static_cast<double>(n);
      for (std::size_t i = 0; i < point->latency->bins.size(); ++i) {
        curve.points.push_back({static_cast<double>(i), 100.0 * static_cast<double>(point->latency->bins[i]) / total});
      }
      bins.curves.push_back(std::move(curve));
    }
  }
  std::vector<Chart> charts;
  add_if_drawn(charts, std::move(percentiles));
  add_if_drawn(charts, std::move(bins));
  return charts;
}

std::vector<ComparisonRow> comparison_rows(const std::vector<std::string>& specs,
                                           const std::vector<ReportSource>& sources) {
  std::vector<ComparisonRow> rows;
  if (sources.size() < 2) return rows;
  for (const std::string& spec : specs) {
    std::vector<std::map<std::uint32_t, double>> means;
    std::set<std::uint32_t> depths;
    for (const ReportSource& source : sources) {
      means.push_back(mean_iops_by_queue_depth(source, spec));
      for (const auto& entry : means.back()) depths.insert(entry.first);
    }
    for (const std::uint32_t depth : depths) {
      ComparisonRow row{spec, depth, {}, {}};
      for (const auto& source_means : means) {
        const auto found = source_means.find(depth);
        row.iops.push_back(found == source_means.end() ? std::nullopt : std::optional<double>(found->second));
      }
      for (const auto& iops : row.iops) row.ratio.push_back(ratio_of(iops, row.iops.front()));
      rows.push_back(std::move(row));
    }
  }
  return rows;
}

}  // namespace

std::optional<double> ratio_of(std::optional<double> a, std::optional<double> b) noexcept {
  if (!a || !b || !(*b > 0.0)) return std::nullopt;
  return *a / *b;
}

std::string slug(std::string_view text) {
  std::string out;
  bool pending_dash = false;
  for (const char c : text) {
    const auto u = static_cast<unsigned char>(c);
    if (std::isalnum(u) != 0 && u < 0x80) {
      if (pending_dash && !out.empty()) out += '-';
      pending_dash = false;
      out += ascii::to_lower(c);
    } else {
      pending_dash = true;
    }
  }
  return out.empty() ? std::string("chart") : out;
}

std::size_t ReportModel::chart_count() const noexcept {
  std::size_t count = steady_states.size() + max_iops_searches.size() + pts_iops.size();
  for (const auto& section : sections) count += section.charts.size();
  return count;
}

namespace {

std::string figure_title(const std::string& figure) {
  if (figure == "iops") return "IOPS";
  if (figure == "mbps") return "MB/s";
  if (figure == "avg") return "average response time, ms";
  if (figure == "p99") return "99th percentile response time, ms";
  if (figure == "p99.9") return "99.9th percentile response time, ms";
  return figure;
}

// Rounds 1..n and, over the window, what SNIA's steady-state plots draw: the average, 110% and
// 90% of it, and the least-squares line.
SteadyStateView steady_state_view(const ReportSource& source, ChartIds& ids) {
  const auto& record = *source.steady_state;
  const auto label = figure_title(record.figure);
  Chart chart{ids.make("steady-state", source.name), "Steady state: " + label + " per round", "round", label,
              XScale::linear, {}, {}};
  ChartCurve rounds{label, {}};
  for (std::size_t r = 0; r < record.rounds.size(); ++r) {
    rounds.points.push_back({static_cast<double>(r + 1), record.rounds[r]});
  }
  chart.curves.push_back(std::move(rounds));
  if (const auto lines = results::steady_state_lines(record)) {
    const auto line = [&](std::string name, double at_first, double at_last) {
      return ChartCurve{std::move(name), {{lines->first_round, at_first}, {lines->last_round, at_last}}};
    };
    chart.curves.push_back(line("window average", lines->average, lines->average));
    chart.curves.push_back(line("110% of the average", lines->above, lines->above));
    chart.curves.push_back(line("90% of the average", lines->below, lines->below));
    chart.curves.push_back(line("least-squares line", lines->trend_at_first, lines->trend_at_last));
  }
  return {source.name, record, std::move(chart)};
}

std::string whole(double value) {
  std::array<char, 32> text{};
  std::snprintf(text.data(), text.size(), "%.0f", value);
  return text.data();
}

// Latency against IOPS, the way latency-bound searches are judged: the steps in IOPS order
// trace the device's curve whichever order the search ran them in, and the bound across them
// shows which were within it.
MaxIopsView max_iops_view(const ReportSource& source, ChartIds& ids) {
  const auto& record = *source.max_iops_search;
  Chart chart{ids.make("max-iops", source.name), "Latency against IOPS", "IOPS", figure_title(record.figure),
              XScale::linear, {}, {}};
  if (record.steps.empty()) return {source.name, record, std::move(chart)};
  ChartCurve runs{"each run", {}};
  for (const std::size_t s : results::steps_by_iops(record)) {
    runs.points.push_back({record.steps[s].iops, record.steps[s].latency_ms});
  }
  if (results::wants_log_latency_axis(record)) chart.y_scale = YScale::log10;
  const double fewest_iops = runs.points.front().x;
  const double most_iops = runs.points.back().x;
  chart.curves.push_back(std::move(runs));
  chart.curves.push_back({"bound: " + results::bound_text(record),
                          {{fewest_iops, record.limit_ms}, {most_iops, record.limit_ms}}});
  if (record.chosen) {
    const auto& chosen = record.steps.at(*record.chosen);
    chart.curves.push_back({"chosen: " + whole(chosen.iops) + " IOPS at QD " + std::to_string(chosen.outstanding_ios),
                            {{chosen.iops, chosen.latency_ms}}});
  }
  return {source.name, record, std::move(chart)};
}

std::string pts_caption(const results::PtsIopsTable& table) {
  if (table.first_round == 0) return "no round completed";
  const std::string first = std::to_string(table.first_round);
  const std::string rounds = table.first_round == table.last_round
                                 ? "round " + first
                                 : "rounds " + first + "-" + std::to_string(table.last_round);
  return "average of " + rounds + (table.steady ? ", the steady-state window" : " (not steady)");
}

// A source built by hand may hold a ragged table: what it lacks is a missing cell.
std::optional<double> pts_cell(const results::PtsIopsTable& table, std::size_t mix, std::size_t block) {
  if (mix >= table.iops.size() || block >= table.iops[mix].size()) return std::nullopt;
  return table.iops[mix][block];
}

// The table keeps the record's column order (PTS-E lists 1 MiB first); the chart runs from
// small blocks to large, evenly spaced, which for PTS-E's powers of two is a log2 axis named
// as the table's columns are.
PtsIopsView pts_iops_view(const ReportSource& source, ChartIds& ids) {
  const auto& table = *source.pts_iops;
  PtsIopsView view{source.name, {}, {}, {}, pts_caption(table),
                   Chart{ids.make("pts-iops", source.name), "IOPS by block size", "block size", "IOPS",
                         XScale::categories, {}, {}}};
  for (const auto bytes : table.block_bytes) view.blocks.push_back(access_specs::pts_block_text(bytes));
  std::vector<std::size_t> small_to_large(table.block_bytes.size());
  std::iota(small_to_large.begin(), small_to_large.end(), std::size_t{0});
  std::stable_sort(small_to_large.begin(), small_to_large.end(),
                   [&table](std::size_t a, std::size_t b) { return table.block_bytes[a] < table.block_bytes[b]; });
  for (const std::size_t block : small_to_large) view.chart.categories.push_back(view.blocks[block]);
  for (std::size_t mix = 0; mix < table.read_percents.size(); ++mix) {
    view.mixes.push_back(access_specs::pts_mix_text(table.read_percents[mix]));
    auto& row = view.iops.emplace_back();
    for (std::size_t block = 0; block < table.block_bytes.size(); ++block) {
      const auto iops = pts_cell(table, mix, block);
      row.push_back(iops ? whole(*iops) : std::string("-"));
    }
    ChartCurve curve{view.mixes.back() + " R/W", {}};
    for (std::size_t at = 0; at < small_to_large.size(); ++at) {
      if (const auto iops = pts_cell(table, mix, small_to_large[at])) {
        curve.points.push_back({static_cast<double>(at), *iops});
      }
    }
    if (!curve.points.empty()) view.chart.curves.push_back(std::move(curve));
  }
  return view;
}

std::string times_text(std::uint32_t passes) {
  if (passes == 1) return "once";
  if (passes == 2) return "twice";
  return std::to_string(passes) + " times";
}

PreconditionView precondition_view(const ReportSource& source) {
  const auto& record = *source.precondition;
  const std::size_t targets = record.targets.size();
  return {source.name,
          "Preconditioned: every target written whole " + times_text(record.passes) + " in " +
              results::precondition_writes_text(record) + " before the first run (" +
              std::to_string(targets) + (targets == 1 ? " target)" : " targets)"),
          record.targets};
}

}  // namespace

ReportModel build_report(std::vector<ReportSource> sources, std::string title) {
  ReportModel model;
  model.title = title.empty() ? std::string("iomark report") : std::move(title);
  model.sources = std::move(sources);
  std::vector<std::string> specs;
  for (const ReportSource& source : model.sources) {
    for (const RunPoint& point : source.points) {
      if (!is_all(point)) continue;
      if (!point.queue_depth) ++model.runs_without_queue_depth;
      if (std::find(specs.begin(), specs.end(), spec_key(point)) == specs.end()) specs.push_back(spec_key(point));
    }
  }
  const bool several_sources = model.sources.size() > 1;
  ChartIds ids;
  for (const ReportSource& source : model.sources) {
    if (source.steady_state) model.steady_states.push_back(steady_state_view(source, ids));
    if (source.max_iops_search) model.max_iops_searches.push_back(max_iops_view(source, ids));
    if (source.pts_iops) model.pts_iops.push_back(pts_iops_view(source, ids));
    if (source.precondition) model.preconditions.push_back(precondition_view(source));
  }
  for (const std::string& spec : specs) {
    std::vector<SpecCurves> per_source;
    for (const ReportSource& source : model.sources) {
      std::vector<RunPoint> of_spec;
      std::set<std::string_view> managers;
      for (const RunPoint& point : source.points) {
        if (spec_key(point) != spec) continue;
        of_spec.push_back(point);
        if (!is_all(point)) managers.insert(point.manager);
      }
      auto curves = results::qd_curves(of_spec);
      // One manager's curve would repeat the ALL curve.
      if (managers.size() < 2) std::erase_if(curves, [](const auto& curve) { return !curve.manager.empty(); });
      // ALL first, so its colour is the same in every chart.
      std::stable_partition(curves.begin(), curves.end(), [](const auto& curve) { return curve.manager.empty(); });
      per_source.push_back({&source, std::move(curves)});
    }
    SpecSection section{spec, queue_depths_of(spec, model.sources).size() == 1
                                  ? per_run_charts(spec, model.sources, ids)
                                  : metric_charts(spec, per_source, several_sources, ids)};
    if (several_sources) add_if_drawn(section.charts, ratio_chart(spec, model.sources, ids));
    for (auto& chart : latency_charts(spec, model.sources, ids)) section.charts.push_back(std::move(chart));
    model.sections.push_back(std::move(section));
  }
  model.comparison = comparison_rows(specs, model.sources);
  return model;
}

}  // namespace iomark::report
