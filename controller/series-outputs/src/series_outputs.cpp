#include "iomark/series_outputs/series_outputs.hpp"

namespace iomark::series_outputs {

Result<std::unique_ptr<SeriesOutputs>> SeriesOutputs::open(const OutputOptions& options,
                                                           const controller::SeriesPlan& series) {
  std::unique_ptr<SeriesOutputs> outputs(new SeriesOutputs(options));
  if (!options.history_database.empty()) {
    auto opened = history::History::open(options.history_database);
    if (!opened) return fail(opened.error());
    outputs->history_.emplace(std::move(*opened));
    outputs->history_observer_.emplace(*outputs->history_, series);
  }
  if (!options.metrics_listen.empty()) {
    auto started = metrics::MetricsExporter::start(options.metrics_listen);
    if (!started) return fail(started.error());
    outputs->metrics_ = std::move(*started);
  }
  return outputs;
}

void SeriesOutputs::add_to(controller::ObserverFanout& fanout) {
  if (history_observer_) fanout.add(*history_observer_);
  if (metrics_) fanout.add(*metrics_);
}

std::optional<std::string> SeriesOutputs::metrics_address() const {
  if (!metrics_) return std::nullopt;
  return metrics_->address();
}

std::optional<std::size_t> SeriesOutputs::recorded() const {
  if (!history_observer_) return std::nullopt;
  return history_observer_->recorded();
}

std::optional<Error> SeriesOutputs::history_error() const {
  if (!history_observer_) return std::nullopt;
  return history_observer_->first_error();
}

}  // namespace iomark::series_outputs
