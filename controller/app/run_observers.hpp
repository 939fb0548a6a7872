// What `iomark run` adds to the console besides results files: the run history
// (--history [DB]) and the live metrics endpoint (--metrics-listen ADDR:PORT). Kept apart
// from run_command.cpp so that file only wires them in.
#pragma once

#include <ostream>

#include <CLI/CLI.hpp>

#include <memory>

#include "iomark/common/result.hpp"
#include "iomark/controller/observer_fanout.hpp"
#include "iomark/series_outputs/series_outputs.hpp"

namespace iomark::cli {

using RunObserverOptions = series_outputs::OutputOptions;

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
  [[nodiscard]] bool print_outcome(std::ostream& out) const;

 private:
  controller::ObserverFanout fanout_;
  std::unique_ptr<series_outputs::SeriesOutputs> outputs_;
};

}  // namespace iomark::cli
