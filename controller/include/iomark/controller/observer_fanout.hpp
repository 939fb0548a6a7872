// One SeriesObserver that forwards every event to several (the console, the run history, the
// metrics exporter...), in the order they were added. Snapshots are built when any of them
// wants one. Used from the series runner's thread, like every observer.
#pragma once

#include <vector>

#include "iomark/controller/series_runner.hpp"

namespace iomark::controller {

class ObserverFanout final : public SeriesObserver {
 public:
  // The observer must outlive this fan-out.
  void add(SeriesObserver& observer) { observers_.push_back(&observer); }

  void notice(const std::string& message) override;
  void run_started(std::size_t index, std::size_t count, const RunPlan& run) override;
  void preparing(const std::string& manager, std::size_t position, std::size_t count) override;
  void live(const LiveFigures& figures) override;
  [[nodiscard]] bool wants_snapshot() const override;
  void run_finished(std::size_t index, const results::RunResults& run, const results::RunSummary& summary) override;
  void run_failed(std::size_t index, const RunPlan& run, const Error& error) override;
  void round_judged(const SteadyStateProgress& progress) override;
  void search_step(const results::MaxIopsRecord& search) override;

 private:
  std::vector<SeriesObserver*> observers_;
};

}  // namespace iomark::controller
