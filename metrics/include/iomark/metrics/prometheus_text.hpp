// The live figures of a series in Prometheus' text exposition format (version 0.0.4), as
// `iomark run --metrics-listen` serves them at /metrics. docs/metrics.md lists the
// names; they are stable: dashboards and alerts are built on them.
//
//   iomark_series_phase{phase="idle|preparing|ramp_up|recording"}  1 for the current phase
//   iomark_series_run_index            1-based run in progress (or last run), 0 before any
//   iomark_series_runs_planned         runs in the series
//   iomark_series_runs_completed_total / iomark_series_runs_failed_total
//   iomark_iops, iomark_bytes_per_second, iomark_average_latency_seconds,
//   iomark_p99_latency_seconds, iomark_errors_per_second, each labelled
//     scope="all|manager|worker|target", manager, worker, target (empty above their level),
//     spec (the access spec, empty if the workers below differ)
//
// Figures are those of the latest sample interval while a run ramps up or records, and the
// run's final figures once it has finished, until the next run samples.
//
// Units are Prometheus' base units (bytes, seconds), so `promtool check metrics` finds nothing
// to say; dashboards scale them (MB/s = bytes/s / 1e6).
//
// Pure functions; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>

#include "iomark/results/run_results.hpp"
#include "iomark/results/summary.hpp"

namespace iomark::metrics {

enum class SeriesPhase : std::uint8_t { idle, preparing, ramp_up, recording };

struct SeriesProgress {
  SeriesPhase phase{SeriesPhase::idle};
  std::size_t run_index{};  // 1-based; 0 before the first run
  std::size_t run_count{};
  std::uint64_t runs_completed{};
  std::uint64_t runs_failed{};
};

// `run` and `summary` may be null (no figures yet); when given, summary must be
// results::summarize_run(*run).
[[nodiscard]] std::string render_prometheus_text(const SeriesProgress& progress, const results::RunResults* run,
                                                 const results::RunSummary* summary);

// The Content-Type of render_prometheus_text's output.
inline constexpr const char* kPrometheusContentType = "text/plain; version=0.0.4; charset=utf-8";

}  // namespace iomark::metrics
