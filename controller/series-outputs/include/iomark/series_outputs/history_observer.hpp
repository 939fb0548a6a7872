// Records every run of a series in the run history as it completes (or fails), each run in
// its own transaction, so a controller that dies mid-series leaves every finished run in the
// database. The series row is written with the first run, so a series that never finished a
// run leaves nothing behind. A --steady-state series' verdict and a --find-max-iops search are
// rewritten after each judged round and each search step, with the run they are about.
//
// Observer events come from the series runner's thread. A write that fails does not stop
// the series (results.csv and JSON still record it): the first error is kept for the front
// end to report, and later runs are still attempted.
#pragma once

#include <optional>

#include "iomark/controller/series_runner.hpp"
#include "iomark/history/history.hpp"

namespace iomark::series_outputs {

class HistoryObserver final : public controller::SeriesObserver {
 public:
  // `history` and `series` must outlive the observer.
  HistoryObserver(history::History& history, const controller::SeriesPlan& series) : history_(history), series_(series) {}

  void run_finished(std::size_t index, const results::RunResults& run, const results::RunSummary& summary) override;
  void run_failed(std::size_t index, const controller::RunPlan& run, const Error& error) override;
  void round_judged(const controller::SteadyStateProgress& progress) override;
  void search_step(const results::MaxIopsRecord& search) override;

  // How many runs (completed or failed) are in the history.
  [[nodiscard]] std::size_t recorded() const noexcept { return recorded_; }
  [[nodiscard]] const std::optional<Error>& first_error() const noexcept { return first_error_; }

 private:
  [[nodiscard]] Result<history::SeriesId> series_id();
  void keep(const Result<history::RunId>& written);
  void keep_error(const Result<void>& written);

  history::History& history_;
  const controller::SeriesPlan& series_;
  std::optional<history::SeriesId> series_id_;
  std::size_t recorded_{};
  std::optional<Error> first_error_;
};

}  // namespace iomark::series_outputs
