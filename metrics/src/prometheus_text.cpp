#include "iomark/metrics/prometheus_text.hpp"

#include <array>
#include <cstdio>
#include <string_view>

namespace iomark::metrics {

namespace {

// Label values escape backslash, double quote and line feed (the exposition format's rule).
std::string escaped(std::string_view value) {
  std::string out;
  out.reserve(value.size());
  for (const char c : value) {
    if (c == '\\' || c == '"') {
      out += '\\';
      out += c;
    } else if (c == '\n') {
      out += "\\n";
    } else {
      out += c;
    }
  }
  return out;
}

std::string number(double value) {
  char text[64];
  std::snprintf(text, sizeof text, "%.17g", value);
  return text;
}

struct Labels {
  std::string_view scope;
  std::string_view manager;
  std::string_view worker;
  std::string_view target;
  std::string_view spec;
};

// The five figures, each gathered over every row before the next is written, since the
// format wants all samples of a metric family together.
struct Families {
  std::string iops, bytes_per_s, average, p99, errors;

  void add(const Labels& labels, const results::Summary& row) {
    const std::string label_text = "{scope=\"" + std::string(labels.scope) + "\",manager=\"" + escaped(labels.manager) +
                                   "\",worker=\"" + escaped(labels.worker) + "\",target=\"" + escaped(labels.target) +
                                   "\",spec=\"" + escaped(labels.spec) + "\"} ";
    const double seconds = static_cast<double>(row.run_time.count()) / 1e9;
    iops += "iomark_iops" + label_text + number(row.rates.iops) + '\n';
    bytes_per_s += "iomark_bytes_per_second" + label_text + number(row.rates.mb_per_s * results::kBytesPerMB) + '\n';
    average += "iomark_average_latency_seconds" + label_text + number(row.average_response_ms() / 1e3) + '\n';
    if (row.counters.latency.percentiles_cover_every_io()) {  // a Dynamo's rows have no p99
      p99 += "iomark_p99_latency_seconds" + label_text +
             number(static_cast<double>(row.counters.latency.percentile(99.0).count()) / 1e9) + '\n';
    }
    errors += "iomark_errors_per_second" + label_text +
              number(seconds > 0 ? static_cast<double>(row.counters.error_count()) / seconds : 0.0) + '\n';
  }
};

void family(std::string& out, std::string_view name, std::string_view type, std::string_view help,
            const std::string& samples) {
  out += "# HELP " + std::string(name) + ' ' + std::string(help) + '\n';
  out += "# TYPE " + std::string(name) + ' ' + std::string(type) + '\n';
  out += samples;
}

}  // namespace

std::string render_prometheus_text(const SeriesProgress& progress, const results::RunResults* run,
                                   const results::RunSummary* summary) {
  std::string out;
  constexpr std::array<std::pair<SeriesPhase, std::string_view>, 4> kPhases = {
      {{SeriesPhase::idle, "idle"},
       {SeriesPhase::preparing, "preparing"},
       {SeriesPhase::ramp_up, "ramp_up"},
       {SeriesPhase::recording, "recording"}}};
  std::string phases;
  for (const auto& [phase, name] : kPhases) {
    phases += "iomark_series_phase{phase=\"" + std::string(name) + "\"} " + (phase == progress.phase ? "1" : "0") + '\n';
  }
  family(out, "iomark_series_phase", "gauge", "1 for the phase the series is in, 0 for the others", phases);
  family(out, "iomark_series_run_index", "gauge", "The run in progress or last run, 1-based; 0 before the first",
         "iomark_series_run_index " + std::to_string(progress.run_index) + '\n');
  family(out, "iomark_series_runs_planned", "gauge", "Runs in the series",
         "iomark_series_runs_planned " + std::to_string(progress.run_count) + '\n');
  family(out, "iomark_series_runs_completed_total", "counter", "Runs completed and recorded",
         "iomark_series_runs_completed_total " + std::to_string(progress.runs_completed) + '\n');
  family(out, "iomark_series_runs_failed_total", "counter", "Runs that failed",
         "iomark_series_runs_failed_total " + std::to_string(progress.runs_failed) + '\n');
  if (run == nullptr || summary == nullptr) return out;

  Families families;
  families.add({"all", "", "", "", summary->all.spec_name}, summary->all);
  for (std::size_t m = 0; m < run->managers.size() && m < summary->managers.size(); ++m) {
    const auto& manager = run->managers[m];
    const auto& manager_summary = summary->managers[m];
    families.add({"manager", manager.name, "", "", manager_summary.total.spec_name}, manager_summary.total);
    for (std::size_t w = 0; w < manager.workers.size() && w < manager_summary.workers.size(); ++w) {
      const auto& worker = manager.workers[w];
      const auto& worker_summary = manager_summary.workers[w];
      families.add({"worker", manager.name, worker.name, "", worker.spec_name}, worker_summary.total);
      for (std::size_t t = 0; t < worker.targets.size() && t < worker_summary.targets.size(); ++t) {
        families.add({"target", manager.name, worker.name, worker.targets[t].name, worker.spec_name},
                     worker_summary.targets[t]);
      }
    }
  }
  family(out, "iomark_iops", "gauge", "I/O operations per second", families.iops);
  family(out, "iomark_bytes_per_second", "gauge", "Throughput in bytes per second", families.bytes_per_s);
  family(out, "iomark_average_latency_seconds", "gauge", "Average response time", families.average);
  family(out, "iomark_p99_latency_seconds", "gauge", "99th percentile response time (merged histogram)",
         families.p99);
  family(out, "iomark_errors_per_second", "gauge", "Read and write errors per second", families.errors);
  return out;
}

}  // namespace iomark::metrics
