#include "iomark/series_outputs/history_observer.hpp"

#include <gtest/gtest.h>

#include "iomark/controller/observer_fanout.hpp"
#include "iomark/results/summary.hpp"

namespace iomark::controller {
namespace {

using series_outputs::HistoryObserver;

results::RunResults small_run(std::string manager_name) {
  results::TargetResult target;
  target.name = "sdb";
  for (int i = 0; i < 100; ++i) target.counters.record_read(4096, 200'000);
  results::WorkerResult worker;
  worker.name = "Worker 1";
  worker.spec_name = "Database";
  worker.recording_window = Nanoseconds(1'000'000'000);
  worker.targets.push_back(std::move(target));
  results::ManagerResult manager;
  manager.name = std::move(manager_name);
  manager.workers.push_back(std::move(worker));
  results::RunResults run;
  run.managers.push_back(std::move(manager));
  return run;
}

// Counts what reaches it, to see that the fan-out forwards every event.
class CountingObserver final : public SeriesObserver {
 public:
  void run_finished(std::size_t, const results::RunResults&, const results::RunSummary&) override { ++finished; }
  void run_failed(std::size_t, const RunPlan&, const Error&) override { ++failed; }
  [[nodiscard]] bool wants_snapshot() const override { return wants; }
  int finished{};
  int failed{};
  bool wants{false};
};

TEST(HistoryObserver, RecordsEachRunAtItsPlaceWithTheSeriesWrittenOnce) {
  auto history = history::History::open(":memory:");
  ASSERT_TRUE(history);
  SeriesPlan series;
  series.info.description = "observer test";
  HistoryObserver recorder(*history, series);
  CountingObserver console;
  ObserverFanout fanout;
  fanout.add(console);
  fanout.add(recorder);
  EXPECT_FALSE(fanout.wants_snapshot());
  console.wants = true;
  EXPECT_TRUE(fanout.wants_snapshot());

  const auto first = small_run("m1");
  fanout.run_finished(0, first, results::summarize_run(first));
  RunPlan failing;
  failing.info.specs.push_back({"Database", access_specs::DefaultAssignment::none, {}});
  fanout.run_failed(1, failing, Error(ErrorCode::io_error, "manager m1 lost"));
  const auto third = small_run("m1");
  fanout.run_finished(2, third, results::summarize_run(third));

  EXPECT_EQ(console.finished, 2);
  EXPECT_EQ(console.failed, 1);
  EXPECT_EQ(recorder.recorded(), 3U);
  EXPECT_FALSE(recorder.first_error());
  auto runs = history->list({});
  ASSERT_TRUE(runs);
  ASSERT_EQ(runs->size(), 3U);
  for (const auto& run : *runs) {
    EXPECT_EQ(run.series_id, runs->front().series_id);
    EXPECT_EQ(run.description, "observer test");
  }
  std::vector<std::uint32_t> positions;
  for (const auto& run : *runs) positions.push_back(run.position);
  std::sort(positions.begin(), positions.end());
  EXPECT_EQ(positions, (std::vector<std::uint32_t>{1, 2, 3}));
  const auto failed = std::find_if(runs->begin(), runs->end(), [](const auto& r) { return r.position == 2; });
  EXPECT_EQ(failed->status, history::RunStatus::failed);
  EXPECT_NE(failed->error.find("manager m1 lost"), std::string::npos);
}

}  // namespace
}  // namespace iomark::controller
