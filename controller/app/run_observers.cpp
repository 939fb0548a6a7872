#include "run_observers.hpp"

#include <ostream>

#include <spdlog/spdlog.h>

#include "iomark/history/history.hpp"

namespace iomark::cli {

void add_run_observer_flags(CLI::App& run, RunObserverOptions& options) {
  const std::string default_database = history::default_database_path();
  // Alone, --history means the default database; --history FILE picks another.
  run.add_option("--history", options.history_database,
                 "Record every run in this SQLite run history (alone: " + default_database + ")")
      ->expected(0, 1)
      ->default_str(default_database);
  run.add_option("--metrics-listen", options.metrics_listen,
                 "Serve live Prometheus metrics at http://[ADDR:]PORT/metrics while the series runs");
}

Result<void> RunObservers::open(const RunObserverOptions& options, controller::SeriesObserver& console,
                                const controller::SeriesPlan& series) {
  fanout_.add(console);
  auto opened = series_outputs::SeriesOutputs::open(options, series);
  if (!opened) return fail(opened.error());
  outputs_ = std::move(*opened);
  outputs_->add_to(fanout_);
  // Scripts (and the integration test) read the real port from this line.
  if (const auto address = outputs_->metrics_address()) spdlog::info("metrics at http://{}/metrics", *address);
  return {};
}

bool RunObservers::print_outcome(std::ostream& out) const {
  const auto recorded = outputs_ ? outputs_->recorded() : std::nullopt;
  if (!recorded) return true;
  out << *recorded << " run(s) recorded in the history " << outputs_->history_database() << '\n';
  if (const auto error = outputs_->history_error()) {
    spdlog::error("the history could not record every run: {}", error->describe());
    return false;
  }
  return true;
}

}  // namespace iomark::cli
