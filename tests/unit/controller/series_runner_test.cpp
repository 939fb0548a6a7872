#include "iomark/controller/series_runner.hpp"

#include <gtest/gtest.h>

#include <atomic>
#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <sstream>
#include <stop_token>
#include <thread>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/agent/agent_service.hpp"
#include "iomark/controller/embedded_agent.hpp"
#include "iomark/controller/manager_registry.hpp"
#include "iomark/controller/quick_series.hpp"
#include "iomark/results/csv_reader.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/steady_state/steady_state.hpp"
#include "iomark/targets/safety_policy.hpp"
#include "iomark/protocol/handshake.hpp"
#include "iomark/transport/in_memory.hpp"
#include "scratch_dir.hpp"

namespace iomark::controller {
namespace {

namespace fs = std::filesystem;

using iomark::test::read_all;
using iomark::test::TempDir;

std::size_t count_of(const std::string& text, std::string_view what) {
  std::size_t count = 0;
  for (auto at = text.find(what); at != std::string::npos; at = text.find(what, at + 1)) ++count;
  return count;
}

// Two 2-second runs (QD 1, then 4) of 4K random reads on the null engine, in `dir`.
access_specs::RunRequest two_short_runs(const fs::path& dir) {
  access_specs::RunRequest options;
  options.targets = {dir.string()};
  options.spec = *access_specs::spec_from_name_or_line("4K random read", "");
  options.outstanding_ios = {1, 4};
  options.run_time_s = 2;
  options.engine = "null";
  options.test_file_bytes = 1 << 20;
  return options;
}

// Two 2-second runs on the embedded agent's null engine, recorded to all three files.
class SeriesRunnerTest : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(add_embedded_agent(registry_, {dir_.path().string()}));
    auto options = two_short_runs(dir_.path());
    options.description = "series runner test";
    auto series = quick_series(options, registry_.links());
    ASSERT_TRUE(series) << series.error().describe();
    series_ = std::move(*series);
  }

  TempDir dir_;
  ManagerEvents no_events_;
  ManagerRegistry registry_{RegistryOptions{std::nullopt, "test", "iomark test"}, no_events_};
  SeriesPlan series_;
};

TEST_F(SeriesRunnerTest, RecordsEveryRunAndEverySample) {
  const auto csv = dir_.path() / "results.csv";
  const auto timeseries = dir_.path() / "instresults.csv";
  SeriesObserver observer;
  ResultsRecorder recorder(csv.string(), (dir_.path() / "results.json").string(), timeseries.string());
  const auto outcome = run_series(registry_.links(), series_, observer, recorder);
  ASSERT_FALSE(outcome.error) << outcome.error->describe();
  ASSERT_EQ(outcome.runs.size(), 2U);
  EXPECT_EQ(outcome.samples_lost, 0U);
  // One sample a second during ramp-up (none here) and recording, per run.
  EXPECT_GE(outcome.samples_received, 2U);

  const auto text = read_all(timeseries);
  EXPECT_EQ(text.find("'Test Type"), 0U) << text.substr(0, 200);
  EXPECT_EQ(count_of(text, "TimeStamp,'Target Type"), 2U);  // one header per run
  // At least one sample row per run plus the whole-run WORKER and ALL rows.
  EXPECT_GE(count_of(text, ",WORKER,"), 4U);
  EXPECT_EQ(count_of(text, ",ALL,"), 2U);
  EXPECT_NE(text.find("'End Test"), std::string::npos);

  auto read = results::read_results_csv(read_all(csv), csv.string());
  ASSERT_TRUE(read) << read.error().describe();
}

// The controller end of a link, counting the polls (receives that do not wait) made on it.
class CountingConnection final : public protocol::Connection {
 public:
  explicit CountingConnection(std::unique_ptr<protocol::Connection> inner) : inner_(std::move(inner)) {}
  [[nodiscard]] const protocol::PeerInfo& peer() const noexcept override { return inner_->peer(); }
  [[nodiscard]] Result<void> send(protocol::Envelope envelope) override { return inner_->send(std::move(envelope)); }
  [[nodiscard]] Result<protocol::Envelope> receive(Nanoseconds timeout) override {
    if (timeout <= Nanoseconds(0)) polls_->fetch_add(1);
    return inner_->receive(timeout);
  }
  [[nodiscard]] bool watch(std::shared_ptr<protocol::ArrivalSignal> signal, std::size_t source) override {
    return inner_->watch(std::move(signal), source);
  }
  void close(std::string reason) override { inner_->close(std::move(reason)); }
  [[nodiscard]] bool is_open() const noexcept override { return inner_->is_open(); }
  [[nodiscard]] std::shared_ptr<std::atomic<std::uint64_t>> polls() const { return polls_; }

 private:
  std::unique_ptr<protocol::Connection> inner_;
  std::shared_ptr<std::atomic<std::uint64_t>> polls_ = std::make_shared<std::atomic<std::uint64_t>>(0);
};

// While runs record, the controller sleeps until the agent sends something (a sample a
// second here), instead of looking at the connection every 50 ms: about 80 looks over the
// series' 4 s of recording.
TEST(RunDriverWaiting, AnAgentIsLookedAtWhenItSendsSomethingNotOnATimer) {
  TempDir dir;
  const auto hello = [](protocol::Role role) {
    return protocol::make_hello(role, "iomark test", "counted", "", protocol::AuthMode::none);
  };
  auto pair = transport::make_in_memory_pair(hello(protocol::Role::agent), hello(protocol::Role::controller));
  ASSERT_TRUE(pair) << pair.error().describe();
  const std::vector<std::string> allowed{dir.path().string()};
  auto policy = targets::SafetyPolicy::create(allowed, targets::Destructive::refuse,
                                              targets::MissingPath::allow_new_file);
  ASSERT_TRUE(policy) << policy.error().describe();
  agent::AgentService service(agent::AgentServiceOptions{std::move(*policy), std::chrono::seconds(1), "counted"});
  std::jthread agent([&service, &pair](std::stop_token stop) { (void)service.serve(*pair->agent_end, stop); });
  auto counted = std::make_unique<CountingConnection>(std::move(pair->controller_end));
  const auto polls = counted->polls();
  ManagerEvents no_events;
  ManagerRegistry registry{RegistryOptions{std::nullopt, "test", "iomark test"}, no_events};
  ASSERT_TRUE(registry.adopt(std::move(counted)));

  auto series = quick_series(two_short_runs(dir.path()), registry.links());
  ASSERT_TRUE(series) << series.error().describe();
  SeriesObserver observer;
  ResultsRecorder recorder("", "");
  const auto outcome = run_series(registry.links(), *series, observer, recorder);
  ASSERT_FALSE(outcome.error) << outcome.error->describe();
  ASSERT_EQ(outcome.runs.size(), 2U);
  EXPECT_GE(outcome.samples_received, 2U);
  // Each arrival is two looks (the frame, then "none waiting"); a few more for replies that
  // their requests took in first.
  EXPECT_LE(polls->load(), 4 * outcome.samples_received + 12) << outcome.samples_received << " samples";
  registry.remove(0);
  pair->agent_end->close("test over");
}

TEST_F(SeriesRunnerTest, WithoutATimeSeriesPathNoSideFileIsWritten) {
  SeriesObserver observer;
  ResultsRecorder recorder((dir_.path() / "results.csv").string(), "");
  const auto outcome = run_series(registry_.links(), series_, observer, recorder);
  ASSERT_FALSE(outcome.error);
  for (const auto& entry : fs::directory_iterator(dir_.path())) {
    EXPECT_EQ(entry.path().filename().string().find("inst"), std::string::npos) << entry.path();
  }
}

// Keeps the live figures of the recording phase.
class LiveRecorder final : public SeriesObserver {
 public:
  explicit LiveRecorder(bool snapshots) : snapshots_(snapshots) {}
  [[nodiscard]] bool wants_snapshot() const override { return snapshots_; }
  void live(const LiveFigures& figures) override {
    if (figures.phase == LivePhase::recording) recorded.push_back(figures);
  }
  std::vector<LiveFigures> recorded;

 private:
  bool snapshots_;
};

TEST_F(SeriesRunnerTest, LiveFiguresCarryEachManagerWorkerAndTarget) {
  LiveRecorder observer(true);
  ResultsRecorder recorder("", "");
  const auto outcome = run_series(registry_.links(), series_, observer, recorder);
  ASSERT_FALSE(outcome.error) << outcome.error->describe();
  std::size_t with_samples = 0;
  for (const auto& figures : observer.recorded) {
    const auto& snapshot = figures.snapshot;
    // A live update may come before the run's first sample: then the tree is still empty.
    if (snapshot.managers.empty()) {
      EXPECT_EQ(figures.iops, 0.0);
      continue;
    }
    ++with_samples;
    ASSERT_EQ(snapshot.managers.size(), 1U);
    ASSERT_EQ(snapshot.managers[0].workers.size(), 1U);
    ASSERT_EQ(snapshot.managers[0].workers[0].targets.size(), 1U);
    EXPECT_EQ(snapshot.info.queue_depth, series_.runs[figures.run_index].info.queue_depth);
    // The totals are those of the tree, aggregated as results are.
    const auto all = results::summarize_run(snapshot).all;
    EXPECT_DOUBLE_EQ(all.rates.iops, figures.iops);
    EXPECT_DOUBLE_EQ(all.rates.mb_per_s, figures.mb_per_s);
  }
  EXPECT_GT(with_samples, 0U);
}

TEST_F(SeriesRunnerTest, NoSnapshotUnlessTheObserverWantsOne) {
  LiveRecorder observer(false);
  ResultsRecorder recorder("", "");
  const auto outcome = run_series(registry_.links(), series_, observer, recorder);
  ASSERT_FALSE(outcome.error) << outcome.error->describe();
  ASSERT_FALSE(observer.recorded.empty());
  bool any_iops = false;
  for (const auto& figures : observer.recorded) {
    EXPECT_TRUE(figures.snapshot.managers.empty());
    any_iops = any_iops || figures.iops > 0;
  }
  EXPECT_TRUE(any_iops);  // the totals still come
}

// Keeps the live figures of every phase, and asks the series to stop at the first figures of
// a recording phase when given a stop source.
class PhaseRecorder final : public SeriesObserver {
 public:
  explicit PhaseRecorder(std::stop_source* stop_at_recording = nullptr) : stop_(stop_at_recording) {}
  void live(const LiveFigures& figures) override {
    recorded.push_back(figures);
    if (stop_ != nullptr && figures.phase == LivePhase::recording) stop_->request_stop();
  }
  std::vector<LiveFigures> recorded;

 private:
  std::stop_source* stop_;
};

TEST_F(SeriesRunnerTest, PreparationProgressTravelsInItsOwnFields) {
  PhaseRecorder observer;
  ResultsRecorder recorder("", "");
  const auto outcome = run_series(registry_.links(), series_, observer, recorder);
  ASSERT_FALSE(outcome.error) << outcome.error->describe();
  EXPECT_EQ(outcome.stop_cause, StopCause::none);
  std::size_t preparing = 0;
  for (const auto& figures : observer.recorded) {
    if (figures.phase != LivePhase::preparing) {
      EXPECT_EQ(figures.preparing, PrepareFigures{});
      continue;
    }
    ++preparing;
    EXPECT_EQ(figures.preparing.path, dir_.path().string());  // the target whose test file is filled
    EXPECT_EQ(figures.preparing.bytes_total, 1U << 20);
    EXPECT_LE(figures.preparing.bytes_done, figures.preparing.bytes_total);
    // The byte counts no longer hide in the phase's seconds.
    EXPECT_EQ(figures.elapsed_s, 0.0);
    EXPECT_EQ(figures.phase_s, 0.0);
  }
  EXPECT_GT(preparing, 0U);  // the agent reports the first step of every test file it fills
}

// As IOmeter's "Stop All": the run the stop cuts short keeps its results block, and the
// series ends with `Aborted test`; the JSON says which run was cut.
TEST_F(SeriesRunnerTest, AStopWhileRecordingKeepsTheCutRunAndEndsTheSeriesWithItsOwnCause) {
  const auto csv = dir_.path() / "results.csv";
  const auto json = dir_.path() / "results.json";
  std::stop_source stop;
  PhaseRecorder observer(&stop);
  ResultsRecorder recorder(csv.string(), json.string());
  const auto outcome = run_series(registry_.links(), series_, observer, recorder, stop.get_token());
  EXPECT_EQ(outcome.outcome, results::SeriesOutcome::aborted);
  ASSERT_TRUE(outcome.error);
  EXPECT_EQ(outcome.stop_cause, StopCause::stop_requested) << outcome.error->describe();
  EXPECT_EQ(outcome.error->code(), ErrorCode::cancelled);
  EXPECT_TRUE(outcome.failed_runs.empty());  // a stop is not a failure
  ASSERT_EQ(outcome.runs.size(), 1U);  // the second run never started
  EXPECT_EQ(outcome.runs[0].end, results::RunEnd::interrupted);
  EXPECT_GT(outcome.runs[0].points.at(0).iops, 0.0);  // what the 1 s of recording measured

  const auto text = read_all(csv);
  EXPECT_EQ(count_of(text, "'Results"), 1U) << text;
  EXPECT_TRUE(text.ends_with("Aborted test\n") || text.ends_with("Aborted test\r\n")) << text.substr(text.size() - 40);
  auto document = results::read_results_json(read_all(json), json.string());
  ASSERT_TRUE(document) << document.error().describe();
  EXPECT_EQ(document->outcome, results::SeriesOutcome::aborted);
  ASSERT_EQ(document->runs.size(), 1U);
  EXPECT_EQ(document->runs[0].end, results::RunEnd::interrupted);
  EXPECT_GT(document->runs[0].managers.at(0).workers.at(0).recording_window, Nanoseconds(0));
}

TEST_F(SeriesRunnerTest, AStopBeforeTheSeriesStartsRunsNothing) {
  const auto csv = dir_.path() / "results.csv";
  std::stop_source stop;
  stop.request_stop();
  SeriesObserver observer;
  ResultsRecorder recorder(csv.string(), "");
  const auto outcome = run_series(registry_.links(), series_, observer, recorder, stop.get_token());
  EXPECT_EQ(outcome.stop_cause, StopCause::stop_requested);
  EXPECT_TRUE(outcome.runs.empty());
  EXPECT_EQ(count_of(read_all(csv), "'Results"), 0U);
}

// What a steady-state series tells its observer.
class RoundRecorder final : public SeriesObserver {
 public:
  void run_started(std::size_t index, std::size_t count, const RunPlan& run) override {
    labels.push_back(std::to_string(index + 1) + "/" + std::to_string(count) + " " + run.label);
  }
  void round_judged(const SteadyStateProgress& progress) override { judged.push_back(progress); }
  void preparing(const std::string& /*manager*/, std::size_t /*position*/, std::size_t /*count*/) override {
    ++preparations;
  }
  std::size_t preparations{};
  std::vector<std::string> labels;
  std::vector<SteadyStateProgress> judged;
};

TEST_F(SeriesRunnerTest, RoundsEndAtMaxRoundsWhenTheWindowIsNeverFull) {
  series_.runs.resize(1);
  series_.run_time_s = 1;
  series_.steady_state = SteadyStateRounds{.figure = access_specs::SteadyFigure::iops, .tracked_run = 0,
                                           .rule = {}, .max_rounds = 2};
  const auto json = dir_.path() / "results.json";
  RoundRecorder observer;
  ResultsRecorder recorder("", json.string());
  const auto outcome = run_series(registry_.links(), series_, observer, recorder);
  ASSERT_FALSE(outcome.error) << outcome.error->describe();
  EXPECT_EQ(outcome.outcome, results::SeriesOutcome::completed);
  ASSERT_EQ(outcome.runs.size(), 2U);
  EXPECT_EQ(observer.labels, (std::vector<std::string>{"1/2 round 1: '4K random read' QD 1",
                                                       "2/2 round 2: '4K random read' QD 1"}));
  ASSERT_EQ(observer.judged.size(), 2U);
  EXPECT_EQ(observer.preparations, 1U) << "the test file is made in the first round only";
  ASSERT_TRUE(outcome.steady_state);
  EXPECT_EQ(outcome.steady_state->rounds.size(), 2U);
  EXPECT_EQ(outcome.steady_state->rounds[1], outcome.runs[1].points.at(0).iops);
  EXPECT_FALSE(outcome.steady_state->verdict.steady);
  EXPECT_EQ(outcome.steady_state->verdict.reason, "2 of 5 rounds; 3 more needed");

  auto document = results::read_results_json(read_all(json), json.string());
  ASSERT_TRUE(document) << document.error().describe();
  ASSERT_EQ(document->runs.size(), 2U);
  ASSERT_TRUE(document->steady_state);
  EXPECT_EQ(document->steady_state->figure, "iops");
  EXPECT_EQ(document->steady_state->rounds, outcome.steady_state->rounds);
  EXPECT_EQ(document->steady_state->reason, "2 of 5 rounds; 3 more needed");
}

TEST_F(SeriesRunnerTest, RoundsStopOnceTheRuleCallsTheFigureSteady) {
  series_.run_time_s = 1;
  // Rounds of the two runs; the tracked run is the second (QD 4). The loosest rule a user may
  // give, over two rounds, holds unless one round's average is three times the other's: on a
  // loaded machine the null engine's figures can still jump that far, so the test asks for the
  // runner to stop at the first round the rule holds, whichever that is, and not to run on.
  const steady_state::Rule rule{.window = 2, .max_data_excursion = 1.0, .max_slope_excursion = 1.0};
  constexpr std::size_t kMaxRounds = 6;
  series_.steady_state = SteadyStateRounds{.figure = access_specs::SteadyFigure::average_ms, .tracked_run = 1,
                                           .rule = rule, .max_rounds = kMaxRounds};
  RoundRecorder observer;
  ResultsRecorder recorder("", "");
  const auto outcome = run_series(registry_.links(), series_, observer, recorder);
  ASSERT_FALSE(outcome.error) << outcome.error->describe();
  ASSERT_TRUE(outcome.steady_state);
  const auto& rounds = outcome.steady_state->rounds;
  ASSERT_TRUE(outcome.steady_state->verdict.steady) << outcome.steady_state->verdict.reason;
  EXPECT_EQ(rounds.size(), steady_state::first_steady_round(rounds, rule)) << "stopped at the first steady round";
  ASSERT_EQ(outcome.runs.size(), 2 * rounds.size()) << "every round runs the whole series";
  for (std::size_t round = 0; round < rounds.size(); ++round) {
    EXPECT_EQ(rounds[round], outcome.runs[2 * round + 1].points.at(0).average_response_ms) << "round " << round + 1;
  }
  EXPECT_EQ(observer.judged.size(), rounds.size());
  EXPECT_EQ(observer.labels.front(), "1/12 round 1: '4K random read' QD 1");
}

class SearchRecorder final : public SeriesObserver {
 public:
  void run_started(std::size_t /*index*/, std::size_t /*count*/, const RunPlan& run) override { runs.push_back(run); }
  void search_step(const results::MaxIopsRecord& search) override { steps.push_back(search); }
  void preparing(const std::string& /*manager*/, std::size_t /*position*/, std::size_t /*count*/) override {
    ++preparations;
  }
  std::size_t preparations{};
  std::vector<RunPlan> runs;
  std::vector<results::MaxIopsRecord> steps;
};

TEST_F(SeriesRunnerTest, ASearchDoublesTheDepthOfTheSeriesRunWhileTheBoundHolds) {
  series_.run_time_s = 1;
  series_.runs.resize(1);  // a search has one run to start from
  series_.max_iops_search = MaxIopsSearchPlan{
      .bound = {access_specs::LatencyFigure::average_ms, 60'000},  // the null engine keeps it at any depth
      .limits = {.first_outstanding_ios = 1, .max_outstanding_ios = 4},
  };
  SearchRecorder observer;
  const auto json = dir_.path() / "search.json";
  ResultsRecorder recorder("", json.string());
  const auto outcome = run_series(registry_.links(), series_, observer, recorder);
  ASSERT_FALSE(outcome.error) << outcome.error->describe();
  ASSERT_EQ(observer.runs.size(), 3U) << "QD 1, 2, 4, then the deepest allowed";
  for (std::uint32_t i = 0; i < 3; ++i) {
    EXPECT_EQ(observer.runs[i].info.queue_depth, 1U << i);
    for (const auto& manager : observer.runs[i].managers) {
      for (const auto& worker : manager.assignment.workers) {
        EXPECT_EQ(worker.rate_iops, 0.0) << "the depth phase runs unrated";
        for (const auto& target : worker.targets) EXPECT_EQ(target.outstanding_ios, 1U << i);
      }
    }
  }
  EXPECT_EQ(observer.preparations, 1U) << "the test file is made once";
  ASSERT_TRUE(outcome.max_iops_search);
  const auto& search = *outcome.max_iops_search;
  EXPECT_EQ(observer.steps.size(), 3U);
  EXPECT_EQ(search.figure, "avg");
  ASSERT_EQ(search.steps.size(), 3U);
  ASSERT_TRUE(search.chosen);
  for (std::size_t i = 0; i < 3; ++i) {
    EXPECT_EQ(search.steps[i].run, i + 1);
    EXPECT_EQ(search.steps[i].iops, outcome.runs[i].points.at(0).iops) << "the ALL row's figures";
    EXPECT_EQ(search.steps[i].latency_ms, outcome.runs[i].points.at(0).average_response_ms);
    EXPECT_LE(search.steps[i].iops, search.steps[*search.chosen].iops);
  }
  EXPECT_TRUE(search.finished);
  EXPECT_NE(search.conclusion.find("the bound held at the deepest queue tried"), std::string::npos) << search.conclusion;

  const auto written = results::read_results_json(read_all(json));
  ASSERT_TRUE(written) << written.error().describe();
  ASSERT_TRUE(written->max_iops_search);
  EXPECT_EQ(*written->max_iops_search, search);
}

TEST_F(SeriesRunnerTest, ASearchThatBreaksTheBoundRunsRatesSharedOverEveryWorker) {
  series_.run_time_s = 1;
  series_.runs.resize(1);
  // No device keeps a p99.9 of a picosecond: every run breaks the bound.
  series_.max_iops_search = MaxIopsSearchPlan{
      .bound = {access_specs::LatencyFigure::p99_9_ms, 1e-9},
      .limits = {.first_outstanding_ios = 2, .max_outstanding_ios = 1024, .max_rate_steps = 2},
  };
  SearchRecorder observer;
  ResultsRecorder recorder("", "");
  const auto outcome = run_series(registry_.links(), series_, observer, recorder);
  ASSERT_FALSE(outcome.error) << outcome.error->describe();
  ASSERT_EQ(observer.runs.size(), 3U) << "depth 2 unrated, then two rate runs";
  ASSERT_TRUE(outcome.max_iops_search);
  const auto& steps = outcome.max_iops_search->steps;
  ASSERT_EQ(steps.size(), 3U);
  EXPECT_FALSE(steps[0].rate_iops);
  ASSERT_TRUE(steps[1].rate_iops);
  EXPECT_DOUBLE_EQ(*steps[1].rate_iops, steps[0].iops / 2) << "nothing within: halved";
  for (std::size_t i = 1; i < 3; ++i) {
    double shared = 0;
    for (const auto& manager : observer.runs[i].managers) {
      for (const auto& worker : manager.assignment.workers) {
        shared += worker.rate_iops;
        for (const auto& target : worker.targets) EXPECT_EQ(target.outstanding_ios, 2U) << "at the depth that broke it";
      }
    }
    EXPECT_NEAR(shared, *steps[i].rate_iops, 1e-6 * shared);
    EXPECT_FALSE(steps[i].within);
  }
  EXPECT_FALSE(outcome.max_iops_search->chosen);
  EXPECT_NE(outcome.max_iops_search->conclusion.find("no run kept p99.9 <= 1e-09 ms"), std::string::npos)
      << outcome.max_iops_search->conclusion;
}

// The embedded agent, allowed a temporary directory: what quick_series plans against.
class QuickSeriesTest : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(add_embedded_agent(registry, {dir.path().string()})); }

  TempDir dir;
  ManagerEvents no_events;
  ManagerRegistry registry{RegistryOptions{std::nullopt, "test", "iomark test"}, no_events};
};

TEST_F(QuickSeriesTest, ASearchStartsFromOneDepthAndChoosesItsOwnRates) {
  access_specs::RunRequest request;
  request.targets = {dir.path().string()};
  request.outstanding_ios = {4};
  request.find_max_iops = access_specs::LatencyBound{access_specs::LatencyFigure::p99_ms, 2};
  const auto series = quick_series(request, registry.links());
  ASSERT_TRUE(series) << series.error().describe();
  ASSERT_TRUE(series->max_iops_search);
  EXPECT_EQ(series->max_iops_search->limits.first_outstanding_ios, 4U);
  EXPECT_EQ(series->runs.size(), 1U);
  auto two_depths = request;
  two_depths.outstanding_ios = {1, 2};
  auto rated = request;
  rated.rate_iops = 100;
  auto in_rounds = request;
  in_rounds.steady_state = access_specs::SteadyStateRequest{};
  for (const auto& refused : {two_depths, rated, in_rounds}) {
    const auto series_refused = quick_series(refused, registry.links());
    ASSERT_FALSE(series_refused);
    EXPECT_EQ(series_refused.error().field(), "--find-max-iops");
  }
}

TEST(MaxIopsSearchPlan, StartsFromTheShallowestDiskTargetOfTheOneRun) {
  access_specs::RunRequest request;
  const auto none = max_iops_search_plan(request, {});
  ASSERT_TRUE(none);
  EXPECT_FALSE(*none) << "no search asked";
  request.find_max_iops = access_specs::LatencyBound{access_specs::LatencyFigure::p99_9_ms, 5};
  RunPlan run;
  ManagerRun manager;
  protocol::WorkerAssignment worker;
  worker.targets.resize(2);
  worker.targets[0].path = "/dev/a";
  worker.targets[0].outstanding_ios = 8;
  worker.targets[1].path = "/dev/b";
  worker.targets[1].outstanding_ios = 2;
  manager.assignment.workers = {worker};
  run.managers = {manager};
  const auto search = max_iops_search_plan(request, {run});
  ASSERT_TRUE(search) << search.error().describe();
  ASSERT_TRUE(*search);
  EXPECT_EQ((*search)->limits.first_outstanding_ios, 2U);
  EXPECT_EQ((*search)->bound, *request.find_max_iops);

  const auto two_runs = max_iops_search_plan(request, {run, run});
  ASSERT_FALSE(two_runs);
  EXPECT_EQ(two_runs.error().field(), "--find-max-iops");
  EXPECT_NE(two_runs.error().message().find("this series has 2"), std::string::npos) << two_runs.error().message();
  EXPECT_FALSE(max_iops_search_plan(request, {RunPlan{}})) << "no disk target to search on";
}

TEST_F(QuickSeriesTest, PreconditioningIsPlannedOnceForASeriesThatWritesAndSkippedWithANoticeOtherwise) {
  access_specs::RunRequest request;
  request.targets = {dir.path().string()};
  request.outstanding_ios = {1, 4};
  request.precondition_passes = 2;
  request.spec = *access_specs::spec_from_name_or_line("4K random write", "");
  const auto writes = quick_series(request, registry.links());
  ASSERT_TRUE(writes) << writes.error().describe();
  ASSERT_EQ(writes->runs.size(), 2U);
  ASSERT_FALSE(writes->runs[0].managers.front().prepare.empty());
  EXPECT_EQ(writes->runs[0].managers.front().prepare.front().precondition_passes, 2U);
  EXPECT_TRUE(writes->runs[1].managers.front().prepare.empty()) << "once, before the first run";
  EXPECT_TRUE(writes->notices.empty());

  request.spec = *access_specs::spec_from_name_or_line("4K random read", "");
  const auto reads = quick_series(request, registry.links());
  ASSERT_TRUE(reads) << reads.error().describe();
  EXPECT_EQ(reads->runs[0].managers.front().prepare.front().precondition_passes, 0U);
  ASSERT_EQ(reads->notices.size(), 1U);
  EXPECT_NE(reads->notices.front().find("--precondition skipped"), std::string::npos) << reads->notices.front();
}

TEST_F(QuickSeriesTest, APreconditionSpecIsTheSeriesOwnOrABuiltInAndMustWrite) {
  access_specs::RunRequest request;
  request.targets = {dir.path().string()};
  request.outstanding_ios = {1};
  request.precondition_passes = 3;
  request.spec = *access_specs::spec_from_name_or_line("", "8192,100,50,100,0,1,0,0");
  request.precondition_spec = "4k RANDOM write";
  const auto builtin = quick_series(request, registry.links());
  ASSERT_TRUE(builtin) << builtin.error().describe();
  const auto& prepare = builtin->runs[0].managers.front().prepare.front();
  EXPECT_EQ(prepare.precondition_passes, 3U);
  EXPECT_EQ(prepare.precondition_spec, *access_specs::find_builtin_spec("4K random write"));
  ASSERT_TRUE(builtin->precondition);
  EXPECT_EQ(builtin->precondition->spec, prepare.precondition_spec);
  EXPECT_EQ(builtin->precondition->block_bytes, 0U);

  request.precondition_spec = request.spec.name;
  const auto own = quick_series(request, registry.links());
  ASSERT_TRUE(own) << own.error().describe();
  EXPECT_EQ(own->runs[0].managers.front().prepare.front().precondition_spec, request.spec)
      << "the series' own spec of that name";

  request.precondition_spec = "no such spec";
  const auto unknown = quick_series(request, registry.links());
  ASSERT_FALSE(unknown);
  EXPECT_EQ(unknown.error().field(), "--precondition-spec");
  EXPECT_NE(unknown.error().message().find("'no such spec'"), std::string::npos) << unknown.error().message();

  request.precondition_spec = "4K random read";
  const auto reads = quick_series(request, registry.links());
  ASSERT_FALSE(reads);
  EXPECT_EQ(reads.error().field(), "--precondition-spec");
  EXPECT_NE(reads.error().message().find("only reads"), std::string::npos) << reads.error().message();
}

RunPlan run_of_spec(const std::string& name) {
  RunPlan run;
  run.info.specs = {access_specs::AccessSpec{.name = name, .default_assignment = {}, .lines = {}}};
  return run;
}

TEST(SteadyStateRounds, TheRequestJudgesTheLastRunOfEachRound) {
  access_specs::RunRequest request;
  const std::vector<RunPlan> runs{run_of_spec("a"), run_of_spec("b"), run_of_spec("c")};
  EXPECT_FALSE(steady_state_rounds(request, runs));
  request.steady_state = access_specs::SteadyStateRequest{.figure = access_specs::SteadyFigure::p99_ms, .max_rounds = 7};
  const auto rounds = steady_state_rounds(request, runs);
  ASSERT_TRUE(rounds);
  EXPECT_EQ(rounds->tracked_run, 2U);
  EXPECT_EQ(rounds->max_rounds, 7U);
  EXPECT_EQ(rounds->figure, access_specs::SteadyFigure::p99_ms);
  EXPECT_EQ(rounds->rule.window, 5U);
}

TEST(SteadyStateRounds, ATrackedSpecJudgesItsLastRunOfEachRound) {
  access_specs::RunRequest request;
  request.steady_state = access_specs::SteadyStateRequest{
      .figure = access_specs::SteadyFigure::iops, .max_rounds = 25, .tracked_spec = "b"};
  const auto rounds = steady_state_rounds(request, {run_of_spec("a"), run_of_spec("b"), run_of_spec("b"), run_of_spec("c")});
  ASSERT_TRUE(rounds);
  EXPECT_EQ(rounds->tracked_run, 2U);
}

TEST_F(QuickSeriesTest, PtsIopsRunsEveryMixWithEveryBlockSizeAndTracks4KRandomWrites) {
  access_specs::RunRequest request;
  request.targets = {dir.path().string()};
  request.outstanding_ios = {16};
  request.precondition_passes = 2;
  request.pts_iops = access_specs::PtsIopsMatrix{.read_percents = {100, 0, 65}, .block_bytes = {8192, 4096}};
  request.steady_state = access_specs::SteadyStateRequest{
      .figure = access_specs::SteadyFigure::iops, .max_rounds = 25, .tracked_spec = "PTS 4 KiB 0/100"};
  const auto series = quick_series(request, registry.links());
  ASSERT_TRUE(series) << series.error().describe();
  std::vector<std::string> labels;
  for (const auto& run : series->runs) labels.push_back(run.label);
  EXPECT_EQ(labels, (std::vector<std::string>{"'PTS 8 KiB 100/0' QD 16", "'PTS 4 KiB 100/0' QD 16",
                                              "'PTS 8 KiB 0/100' QD 16", "'PTS 4 KiB 0/100' QD 16",
                                              "'PTS 8 KiB 65/35' QD 16", "'PTS 4 KiB 65/35' QD 16"}));
  const auto& worker = series->runs[4].managers.front().assignment.workers.front();
  ASSERT_EQ(worker.spec.lines.size(), 1U);
  EXPECT_EQ(worker.spec.lines[0].size_bytes, 8192U);
  EXPECT_EQ(worker.spec.lines[0].percent_reads, 65U);
  EXPECT_EQ(worker.spec.lines[0].percent_random, 100U);
  EXPECT_EQ(worker.spec.lines[0].align_bytes, 4096U);
  ASSERT_TRUE(series->steady_state);
  EXPECT_EQ(series->steady_state->tracked_run, 3U) << "4 KiB 0/100, not the round's last run";
  ASSERT_TRUE(series->pts_iops);
  EXPECT_EQ(series->pts_iops->read_percents, (std::vector<std::uint32_t>{100, 0, 65}));
  EXPECT_EQ(series->pts_iops->block_bytes, (std::vector<std::uint64_t>{8192, 4096}));
  ASSERT_TRUE(series->precondition);
  EXPECT_EQ(series->precondition->passes, 2U);
  EXPECT_EQ(series->precondition->block_bytes, 128U * 1024U);
  ASSERT_EQ(series->precondition->targets.size(), 1U);
  EXPECT_EQ(series->precondition->targets.front(), registry.links().front()->name() + ": " + dir.path().string())
      << "the target as named; its test file is what the agent writes";
}

TEST(PtsIopsTable, AveragesEachCellOfTheCompletedRunsOverTheSteadyWindow) {
  SeriesOutcome outcome;
  const results::PtsIopsRecord pts{.read_percents = {100, 0}, .block_bytes = {4096}};
  // Seven rounds of two cells; the window is rounds 3-7.
  for (std::size_t index = 0; index < 14; ++index) {
    CompletedRun run;
    run.index = index;
    results::RunPoint all;
    all.iops = index % 2 == 0 ? 1000.0 + static_cast<double>(index) : 10.0;
    run.points = {all};
    outcome.runs.push_back(run);
  }
  outcome.steady_state = SteadyStateProgress{.figure = access_specs::SteadyFigure::iops, .max_rounds = 25, .window = 5,
                                             .rounds = {10, 10, 10, 10, 10, 10, 10}, .verdict = {}};
  outcome.steady_state->verdict.steady = true;
  outcome.steady_state->verdict.window_first = 2;
  const auto table = pts_iops_table(outcome, pts);
  EXPECT_TRUE(table.steady);
  EXPECT_EQ(table.first_round, 3U);
  EXPECT_EQ(table.last_round, 7U);
  // Reads ran at positions 5, 7, 9, 11, 13 (indices 4..12): 1004..1012, averaging 1008.
  ASSERT_TRUE(table.iops[0][0]);
  EXPECT_DOUBLE_EQ(*table.iops[0][0], 1008.0);
  ASSERT_TRUE(table.iops[1][0]);
  EXPECT_DOUBLE_EQ(*table.iops[1][0], 10.0);
}

}  // namespace
}  // namespace iomark::controller
