#include "run_observers.hpp"

#include <ostream>

#include <spdlog/spdlog.h>

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
  if (!options.history_database.empty()) {
    auto opened = history::History::open(options.history_database);
    if (!opened) return fail(opened.error());
    history_.emplace(std::move(*opened));
    history_observer_.emplace(*history_, series);
    fanout_.add(*history_observer_);
  }
  if (!options.metrics_listen.empty()) {
    auto started = metrics::MetricsExporter::start(options.metrics_listen);
    if (!started) return fail(started.error());
    metrics_ = std::move(*started);
    fanout_.add(*metrics_);
    // Scripts (and the integration test) read the real port from this line.
    spdlog::info("metrics at http://{}/metrics", metrics_->address());
  }
  return {};
}

bool RunObservers::print_outcome(const RunObserverOptions& options, std::ostream& out) const {
  if (!history_observer_) return true;
  out << history_observer_->recorded() << " run(s) recorded in the history " << options.history_database << '\n';
  if (const auto& error = history_observer_->first_error()) {
    spdlog::error("the history could not record every run: {}", error->describe());
    return false;
  }
  return true;
}

}  // namespace iomark::cli
