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

// Two runs per round, the second judged: the verdict marks the run of the latest round.
TEST(HistoryObserver, RecordsTheSteadyStateVerdictOnTheJudgedRun) {
  auto history = history::History::open(":memory:");
  ASSERT_TRUE(history);
  SeriesPlan series;
  series.runs.resize(2);
  series.steady_state = SteadyStateRounds{.figure = access_specs::SteadyFigure::iops, .tracked_run = 1,
                                          .rule = {.window = 2}, .max_rounds = 5};
  HistoryObserver recorder(*history, series);
  SteadyStateProgress progress{.figure = access_specs::SteadyFigure::iops, .max_rounds = 5, .window = 2};
  for (std::size_t round = 0; round < 2; ++round) {
    for (std::size_t position = 0; position < 2; ++position) {
      const auto run = small_run("m1");
      recorder.run_finished(round * 2 + position, run, results::summarize_run(run));
    }
    progress.rounds.push_back(100.0);
    progress.verdict = steady_state::judge(progress.rounds, series.steady_state->rule);
    recorder.round_judged(progress);
  }
  EXPECT_FALSE(recorder.first_error()) << recorder.first_error()->describe();
  EXPECT_EQ(recorder.recorded(), 4U);  // verdicts are not runs
  auto runs = history->list({});
  ASSERT_TRUE(runs);
  ASSERT_EQ(runs->size(), 4U);
  for (const auto& run : *runs) {
    if (run.position == 4) {
      EXPECT_EQ(run.steady_state, (history::SteadyMark{.round = 2, .steady = true}));
    } else {
      EXPECT_FALSE(run.steady_state) << "run " << run.position;
    }
  }
  auto shown = history->show(runs->front().id);
  ASSERT_TRUE(shown);
  EXPECT_EQ(shown->steady_state, steady_state_record(progress));
}

TEST(HistoryObserver, RecordsTheSearchOnTheChosenRun) {
  auto history = history::History::open(":memory:");
  ASSERT_TRUE(history);
  SeriesPlan series;
  series.runs.resize(1);
  HistoryObserver recorder(*history, series);
  ObserverFanout fanout;
  fanout.add(recorder);
  results::MaxIopsRecord search{.figure = "p99", .limit_ms = 2.0};
  for (std::uint32_t index = 0; index < 2; ++index) {
    const auto run = small_run("m1");
    fanout.run_finished(index, run, results::summarize_run(run));
    search.steps.push_back({.run = index + 1, .outstanding_ios = 1U << index, .rate_iops = std::nullopt,
                            .iops = 1000.0 * (index + 1), .latency_ms = 1.0 + index, .within = index == 0});
    search.chosen = 0;
    search.finished = index == 1;
    fanout.search_step(search);
  }
  EXPECT_FALSE(recorder.first_error());
  auto runs = history->list({});
  ASSERT_TRUE(runs);
  ASSERT_EQ(runs->size(), 2U);
  for (const auto& run : *runs) {
    if (run.position == 1) {
      EXPECT_EQ(run.max_iops, (history::MaxIopsMark{.figure = "p99", .limit_ms = 2.0, .finished = true}));
    } else {
      EXPECT_FALSE(run.max_iops);
    }
  }
  EXPECT_EQ(history->show(runs->front().id)->max_iops_search, search);
}

}  // namespace
}  // namespace iomark::controller
