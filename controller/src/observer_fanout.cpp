#include "iomark/controller/observer_fanout.hpp"

#include <algorithm>

namespace iomark::controller {

void ObserverFanout::notice(const std::string& message) {
  for (auto* observer : observers_) observer->notice(message);
}

void ObserverFanout::run_started(std::size_t index, std::size_t count, const RunPlan& run) {
  for (auto* observer : observers_) observer->run_started(index, count, run);
}

void ObserverFanout::preparing(const std::string& manager, std::size_t position, std::size_t count) {
  for (auto* observer : observers_) observer->preparing(manager, position, count);
}

void ObserverFanout::live(const LiveFigures& figures) {
  for (auto* observer : observers_) observer->live(figures);
}

bool ObserverFanout::wants_snapshot() const {
  return std::any_of(observers_.begin(), observers_.end(), [](const auto* o) { return o->wants_snapshot(); });
}

void ObserverFanout::run_finished(std::size_t index, const results::RunResults& run,
                                  const results::RunSummary& summary) {
  for (auto* observer : observers_) observer->run_finished(index, run, summary);
}

void ObserverFanout::run_failed(std::size_t index, const RunPlan& run, const Error& error) {
  for (auto* observer : observers_) observer->run_failed(index, run, error);
}

void ObserverFanout::round_judged(const SteadyStateProgress& progress) {
  for (auto* observer : observers_) observer->round_judged(progress);
}

void ObserverFanout::search_step(const results::MaxIopsRecord& search) {
  for (auto* observer : observers_) observer->search_step(search);
}

}  // namespace iomark::controller
