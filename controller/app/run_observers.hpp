// What `iomark run` adds to the console besides results files: the run history
// (--history [DB]) and the live metrics endpoint (--metrics-listen ADDR:PORT). Kept apart
// from run_command.cpp so that file only wires them in.
#pragma once

#include <ostream>

#include <CLI/CLI.hpp>

#include <memory>
#include <optional>
#include <string>

#include "iomark/common/result.hpp"
#include "iomark/controller/history_observer.hpp"
#include "iomark/controller/observer_fanout.hpp"
#include "iomark/history/history.hpp"
#include "iomark/metrics/metrics_exporter.hpp"

namespace iomark::cli {

struct RunObserverOptions {
  std::string history_database;  // empty: no history
  std::string metrics_listen;    // empty: no metrics endpoint
};

// Registers --history and --metrics-listen on `run`.
void add_run_observer_flags(CLI::App& run, RunObserverOptions& options);

class RunObservers {
 public:
  // Opens the history and starts the metrics server before the series, so a bad path or a
  // busy port fails before any I/O. `console` and `series` must outlive this object.
  [[nodiscard]] Result<void> open(const RunObserverOptions& options, controller::SeriesObserver& console,
                                  const controller::SeriesPlan& series);
  [[nodiscard]] controller::SeriesObserver& observer() { return fanout_; }
  // After the series: where the runs went, and a history write that failed. false when the
  // history could not record every run.
  [[nodiscard]] bool print_outcome(const RunObserverOptions& options, std::ostream& out) const;

 private:
  controller::ObserverFanout fanout_;
  std::optional<history::History> history_;
  std::optional<controller::HistoryObserver> history_observer_;
  std::unique_ptr<metrics::MetricsExporter> metrics_;
};

}  // namespace iomark::cli
