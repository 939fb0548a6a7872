// What a series writes besides results files, opened the same way by the CLI and the GUI: the
// run history (HistoryObserver) and the live Prometheus endpoint (metrics). Both are opened
// before the series runs, so a bad path or a busy port stops the start, not the series.
#pragma once

#include <cstddef>
#include <memory>
#include <optional>
#include <string>

#include "iomark/common/result.hpp"
#include "iomark/controller/observer_fanout.hpp"
#include "iomark/controller/series_runner.hpp"
#include "iomark/history/history.hpp"
#include "iomark/metrics/metrics_exporter.hpp"
#include "iomark/series_outputs/history_observer.hpp"

namespace iomark::series_outputs {

struct OutputOptions {
  std::string history_database;  // empty: no history
  std::string metrics_listen;    // [ADDR:]PORT; empty: no metrics endpoint
};

class SeriesOutputs {
 public:
  // `series` must outlive the outputs. Errors: the history cannot be opened (named), the
  // metrics address cannot be bound.
  [[nodiscard]] static Result<std::unique_ptr<SeriesOutputs>> open(const OutputOptions& options,
                                                                   const controller::SeriesPlan& series);

  // Adds the history and the metrics, those that are open, to what the series reports to.
  void add_to(controller::ObserverFanout& fanout);

  // Where the metrics are served ("127.0.0.1:9464"); nullopt without --metrics-listen.
  [[nodiscard]] std::optional<std::string> metrics_address() const;
  // How many runs the history holds now; nullopt without a history.
  [[nodiscard]] std::optional<std::size_t> recorded() const;
  // The first write the history could not make, if any.
  [[nodiscard]] std::optional<Error> history_error() const;
  [[nodiscard]] const std::string& history_database() const noexcept { return options_.history_database; }

 private:
  explicit SeriesOutputs(OutputOptions options) : options_(std::move(options)) {}

  OutputOptions options_;
  std::optional<history::History> history_;
  std::optional<HistoryObserver> history_observer_;
  std::unique_ptr<metrics::MetricsExporter> metrics_;
};

}  // namespace iomark::series_outputs
