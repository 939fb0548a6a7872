#include "iomark/series_outputs/history_observer.hpp"

namespace iomark::series_outputs {

Result<history::SeriesId> HistoryObserver::series_id() {
  if (series_id_) return *series_id_;
  auto begun = history_.begin_series(
      series_.info, series_.plan, series_.pts_iops ? "iomark pts iops" : "iomark run",
      {.steady_state = {}, .max_iops_search = {}, .precondition = series_.precondition, .pts_iops = series_.pts_iops});
  if (begun) series_id_ = *begun;
  return begun;
}

void HistoryObserver::keep(const Result<history::RunId>& written) {
  if (written) {
    ++recorded_;
  } else if (!first_error_) {
    first_error_ = written.error();
  }
}

void HistoryObserver::keep_error(const Result<void>& written) {
  if (!written && !first_error_) first_error_ = written.error();
}

void HistoryObserver::run_finished(std::size_t index, const results::RunResults& run,
                                   const results::RunSummary& summary) {
  auto series = series_id();
  keep(series ? history_.record_run(*series, static_cast<std::uint32_t>(index + 1), run, summary)
              : Result<history::RunId>(fail(series.error())));
}

void HistoryObserver::run_failed(std::size_t index, const controller::RunPlan& run, const Error& error) {
  auto series = series_id();
  const results::FailedRun failed{static_cast<std::uint32_t>(index + 1), run.info, error.describe()};
  keep(series ? history_.record_failure(*series, failed) : Result<history::RunId>(fail(series.error())));
}

void HistoryObserver::round_judged(const controller::SteadyStateProgress& progress) {
  // Only a series run in rounds is judged; its plan says which run of each round counts.
  if (!series_.steady_state || progress.rounds.empty()) return;
  const auto judged = (progress.rounds.size() - 1) * series_.runs.size() + series_.steady_state->tracked_run + 1;
  auto series = series_id();
  keep_error(series ? history_.record_steady_state(*series, static_cast<std::uint32_t>(judged),
                                                   controller::steady_state_record(progress))
                    : Result<void>(fail(series.error())));
}

void HistoryObserver::search_step(const results::MaxIopsRecord& search) {
  auto series = series_id();
  keep_error(series ? history_.record_max_iops_search(*series, search) : Result<void>(fail(series.error())));
}

}  // namespace iomark::series_outputs
