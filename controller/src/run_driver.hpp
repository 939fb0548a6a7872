// Driving one run of a series on live managers: prepare test files, assign, start, begin
// I/O, ramp up, record, stop and collect the final results, reporting live figures and
// time-series samples on the way. The series around it (which runs, which managers, what a
// failure means) is SeriesDriver's job.
#pragma once

#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <set>
#include <stop_token>
#include <string_view>
#include <tuple>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/controller/manager_link.hpp"
#include "iomark/controller/series_runner.hpp"
#include "iomark/controller/live_aggregate.hpp"

namespace iomark::controller {

class RunDriver {
 public:
  RunDriver(const std::vector<ManagerLink*>& links, const SeriesPlan& series, SeriesObserver& observer,
            ResultsRecorder& recorder, std::stop_token stop)
      : links_(links), series_(series), observer_(observer), recorder_(recorder), stop_(std::move(stop)) {}

  [[nodiscard]] std::uint64_t samples_received() const noexcept { return live_.received(); }
  [[nodiscard]] std::uint64_t samples_lost() const noexcept { return live_.lost(); }

  // Drives `plan` (series run `index` of `count`, possibly without managers lost earlier). A stop
  // request while recording ends the run early with its results (RunEnd::interrupted);
  // before that, it fails with ErrorCode::cancelled.
  [[nodiscard]] Result<results::RunResults> run(const RunPlan& plan, std::size_t index, std::size_t count,
                                                std::uint64_t run_id);

  // Best effort: tells every manager of the run that is still connected to stop its I/O now.
  void abort(const RunPlan& plan, std::uint64_t run_id);

 private:
  enum class PhaseEnd : std::uint8_t { elapsed, stop_requested };

  PushHandler push_handler(std::size_t manager);
  void notice_errors(const ManagerRun& planned, const protocol::Sample& sample);
  [[nodiscard]] Error unexpected(std::size_t manager, const protocol::Message& message, std::string_view wanted) const;
  [[nodiscard]] Result<void> expect_ack(std::size_t manager, protocol::Message request, Nanoseconds timeout);
  // What a phase makes of a reply other than an Ack from `manager` (Start's NetworkPorts);
  // an error ends the phase. Without one, such a reply is an error.
  using OtherReply = std::function<Result<void>(std::size_t manager, protocol::Message& reply)>;
  [[nodiscard]] Result<void> command_all(const RunPlan& plan, std::uint64_t run_id, protocol::Phase phase,
                                         const OtherReply& other_reply = {});
  [[nodiscard]] Result<void> await_acks(const RunPlan& plan, const std::vector<std::uint64_t>& ids,
                                        std::string_view what, const OtherReply& other_reply = {});
  [[nodiscard]] Result<void> prepare(const RunPlan& plan);
  [[nodiscard]] Result<void> await_prepared(const ManagerRun& manager, std::uint64_t id);
  [[nodiscard]] Result<void> start_all(const RunPlan& plan, std::uint64_t run_id);
  [[nodiscard]] Result<PhaseEnd> wait(const RunPlan& plan, LivePhase phase, std::uint32_t seconds);
  void keep_for_snapshot(std::size_t manager, const protocol::Sample& sample);
  [[nodiscard]] results::RunResults snapshot(const RunPlan& plan) const;
  // Takes `workers` by value: the final results' counters are moved into the results, not copied.
  [[nodiscard]] Result<results::ManagerResult> manager_result(const ManagerRun& manager,
                                                              std::vector<protocol::WorkerCounters> workers,
                                                              const std::vector<protocol::CpuUsage>& cpus,
                                                              const protocol::NetworkStats& network) const;

  const std::vector<ManagerLink*>& links_;
  const SeriesPlan& series_;
  SeriesObserver& observer_;
  ResultsRecorder& recorder_;
  std::stop_token stop_;
  // Wakes wait() when a watched manager has something; a stop request interrupts it.
  std::shared_ptr<protocol::ArrivalSignal> arrivals_ = std::make_shared<protocol::ArrivalSignal>();
  LiveFigures figures_;
  LiveAggregate live_;
  const RunPlan* run_plan_{};
  // Each manager's latest sample as counters, kept only for observers that want snapshots.
  std::map<std::size_t, results::ManagerResult> latest_results_;
  std::set<std::tuple<std::size_t, std::uint32_t, std::uint32_t>> errors_noticed_;  // manager, worker, target
};

}  // namespace iomark::controller
