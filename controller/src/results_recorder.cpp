#include "iomark/controller/series_runner.hpp"
#include "iomark/results/durable_append.hpp"

namespace iomark::controller {

ResultsRecorder::ResultsRecorder(std::string csv_path, std::string json_path, std::string timeseries_path)
    : csv_path_(std::move(csv_path)), json_path_(std::move(json_path)), timeseries_path_(std::move(timeseries_path)) {}

Result<void> ResultsRecorder::begin(const SeriesPlan& series) {
  json_.reset();
  appender_ = results::ResultsCsvAppender();
  csv_pending_ = appender_.begin_series(series.info);
  timeseries_ = results::TimeSeriesCsvAppender();
  timeseries_pending_ = timeseries_.begin_series(series.info);
  timeseries_run_open_ = false;
  if (json_path_.empty()) return {};
  auto json = results::ResultsJsonFile::create(
      json_path_, series.info, series.plan,
      {.steady_state = {}, .max_iops_search = {}, .precondition = series.precondition, .pts_iops = series.pts_iops});
  if (!json) return fail(json.error());
  json_ = std::move(*json);
  return {};
}

void ResultsRecorder::record_sample(const results::RunResults& interval, results::WallClockTime at) {
  if (timeseries_path_.empty()) return;
  if (!timeseries_run_open_) timeseries_pending_ += timeseries_.begin_run(interval.info);
  timeseries_run_open_ = true;
  timeseries_pending_ += timeseries_.append_sample(interval, at);
}

Result<void> ResultsRecorder::flush_samples() {
  if (timeseries_path_.empty() || timeseries_pending_.empty()) return {};
  if (auto appended = results::append_durably(timeseries_path_, timeseries_pending_); !appended) return appended;
  timeseries_pending_.clear();
  return {};
}

Result<void> ResultsRecorder::record(const results::RunResults& run, const results::RunSummary& summary) {
  const auto text = csv_pending_ + appender_.append_run(run, summary);
  if (!csv_path_.empty()) {
    if (auto appended = results::append_durably(csv_path_, text); !appended) return appended;
  }
  csv_pending_.clear();
  if (!timeseries_path_.empty()) {
    if (!timeseries_run_open_) timeseries_pending_ += timeseries_.begin_run(run.info);
    timeseries_run_open_ = false;
    timeseries_pending_ += timeseries_.end_run(run);
    if (auto flushed = flush_samples(); !flushed) return flushed;
  }
  return json_ ? json_->add_run(run) : Result<void>{};
}

Result<void> ResultsRecorder::record_rounds(const SteadyStateProgress& progress) {
  return json_ ? json_->set_steady_state(steady_state_record(progress)) : Result<void>{};
}

Result<void> ResultsRecorder::record_search(const results::MaxIopsRecord& search) {
  return json_ ? json_->set_max_iops_search(search) : Result<void>{};
}

Result<void> ResultsRecorder::record_failure(const results::FailedRun& failed) {
  const auto message = failed.error;
  const auto text = csv_pending_ + appender_.append_error(message);
  if (!csv_path_.empty()) {
    if (auto appended = results::append_durably(csv_path_, text); !appended) return appended;
  }
  csv_pending_.clear();
  if (!timeseries_path_.empty()) {
    timeseries_run_open_ = false;
    timeseries_pending_ += timeseries_.append_error(message);
    if (auto flushed = flush_samples(); !flushed) return flushed;
  }
  return json_ ? json_->add_failed_run(failed) : Result<void>{};
}

Result<void> ResultsRecorder::finish(results::SeriesOutcome outcome) {
  const auto text = csv_pending_ + appender_.end_series(outcome);
  if (!csv_path_.empty()) {
    if (auto appended = results::append_durably(csv_path_, text); !appended) return appended;
  }
  csv_pending_.clear();
  if (!timeseries_path_.empty()) {
    timeseries_pending_ += timeseries_.end_series(outcome);
    if (auto flushed = flush_samples(); !flushed) return flushed;
  }
  return json_ ? json_->finish(outcome) : Result<void>{};
}

}  // namespace iomark::controller
