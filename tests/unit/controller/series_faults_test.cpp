// The series runner when things go wrong: a manager lost mid-run (its connection closes, as
// when the agent is killed or declared dead), with --on-agent-loss stop and continue, and a
// run that fails while every agent is alive. Agents are real AgentServices on in-memory links.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>
#include <fstream>
#include <memory>
#include <sstream>
#include <thread>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/agent/agent_service.hpp"
#include "iomark/controller/manager_registry.hpp"
#include "iomark/controller/quick_series.hpp"
#include "iomark/controller/series_runner.hpp"
#include "iomark/protocol/handshake.hpp"
#include "iomark/results/csv_reader.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/transport/in_memory.hpp"
#include "scratch_dir.hpp"

namespace iomark::controller {
namespace {

namespace fs = std::filesystem;

using iomark::test::read_all;

// The managers a completed run ran on, in link order.
std::vector<std::string> managers_of(const CompletedRun& run) {
  std::vector<std::string> names;
  for (std::size_t p = 1; p < run.points.size(); ++p) names.push_back(run.points[p].manager);
  return names;
}
using iomark::test::TempDir;

// An agent on its own thread behind an in-memory link; kill() closes its end as a killed
// process's socket would close.
class KillableAgent final : public LinkCompanion {
 public:
  KillableAgent(agent::AgentServiceOptions options, std::unique_ptr<protocol::Connection> agent_end)
      : service_(std::move(options)),
        connection_(std::move(agent_end)),
        thread_([this](std::stop_token stop) { (void)service_.serve(*connection_, stop); }) {}
  ~KillableAgent() override { kill(); }
  void kill() { connection_->close("killed"); }

 private:
  agent::AgentService service_;
  std::unique_ptr<protocol::Connection> connection_;
  std::jthread thread_;
};

// Kills one agent once the given run has recorded for about a second.
class KillingObserver final : public SeriesObserver {
 public:
  KillingObserver(KillableAgent* victim, std::size_t run_index) : victim_(victim), run_index_(run_index) {}
  void notice(const std::string& message) override { notices.push_back(message); }
  void live(const LiveFigures& figures) override {
    if (victim_ != nullptr && figures.run_index == run_index_ && figures.phase == LivePhase::recording) {
      victim_->kill();
      victim_ = nullptr;
    }
  }
  void run_failed(std::size_t index, const RunPlan&, const Error& error) override {
    failed.emplace_back(index, error.describe());
  }
  std::vector<std::string> notices;
  std::vector<std::pair<std::size_t, std::string>> failed;

 private:
  KillableAgent* victim_;
  std::size_t run_index_;
};

// Two agents "alpha" and "beta" on the null engine, three 2-second runs (QD 1, 2, 4).
class SeriesFaultsTest : public ::testing::Test {
 protected:
  void SetUp() override {
    for (const char* name : {"alpha", "beta"}) {
      auto pair = transport::make_in_memory_pair(
          protocol::make_hello(protocol::Role::agent, "iomark test", name, "", protocol::AuthMode::none),
          protocol::make_hello(protocol::Role::controller, "iomark test", "test", "", protocol::AuthMode::none));
      ASSERT_TRUE(pair) << pair.error().describe();
      const std::vector<std::string> allowed{dir_.path().string()};
      auto policy = targets::SafetyPolicy::create(allowed, targets::Destructive::refuse);
      ASSERT_TRUE(policy) << policy.error().describe();
      auto agent = std::make_unique<KillableAgent>(
          agent::AgentServiceOptions{std::move(*policy), std::chrono::seconds(1), name}, std::move(pair->agent_end));
      agents_.push_back(agent.get());
      ASSERT_TRUE(registry_.adopt(std::move(pair->controller_end), std::move(agent)));
    }
    options_.targets = {dir_.path().string()};
    options_.spec = *access_specs::spec_from_name_or_line("4K random read", "");
    options_.outstanding_ios = {1, 2, 4};
    options_.run_time_s = 2;
    options_.engine = "null";
    options_.test_file_bytes = 1 << 20;
    options_.description = "faults";
  }

  SeriesPlan series(AgentLossPolicy policy) {
    auto planned = quick_series(options_, registry_.links());
    EXPECT_TRUE(planned) << planned.error().describe();
    planned->on_agent_loss = policy;
    return *planned;
  }

  [[nodiscard]] fs::path csv() const { return dir_.path() / "results.csv"; }
  [[nodiscard]] fs::path json() const { return dir_.path() / "results.json"; }

  TempDir dir_;
  ManagerEvents no_events_;
  ManagerRegistry registry_{RegistryOptions{std::nullopt, "test", "iomark test"}, no_events_};
  std::vector<KillableAgent*> agents_;
  access_specs::RunRequest options_;
};

TEST(AgentLossPolicy, ParsesTheTwoCliWords) {
  EXPECT_EQ(parse_agent_loss_policy("stop"), AgentLossPolicy::stop);
  EXPECT_EQ(parse_agent_loss_policy("continue"), AgentLossPolicy::drop_and_continue);
  const auto bad = parse_agent_loss_policy("ignore");
  ASSERT_FALSE(bad);
  EXPECT_EQ(bad.error().code(), ErrorCode::invalid_argument);
  EXPECT_EQ(SeriesPlan{}.on_agent_loss, AgentLossPolicy::stop);
}

TEST_F(SeriesFaultsTest, ByDefaultALostAgentStopsTheSeriesKeepingTheCompletedRuns) {
  KillingObserver observer(agents_[1], 1);
  const auto timeseries = dir_.path() / "instresults.csv";
  ResultsRecorder recorder(csv().string(), json().string(), timeseries.string());
  const auto outcome = run_series(registry_.links(), series(AgentLossPolicy::stop), observer, recorder);

  ASSERT_TRUE(outcome.error);
  EXPECT_NE(outcome.error->describe().find("'beta'"), std::string::npos) << outcome.error->describe();
  EXPECT_EQ(outcome.outcome, results::SeriesOutcome::aborted);
  ASSERT_EQ(outcome.runs.size(), 1U);
  EXPECT_EQ(managers_of(outcome.runs[0]), (std::vector<std::string>{"alpha", "beta"}));
  ASSERT_EQ(outcome.failed_runs.size(), 1U);
  EXPECT_EQ(outcome.failed_runs[0].position, 2U);
  EXPECT_EQ(outcome.lost_managers, std::vector<std::size_t>{1});
  ASSERT_EQ(observer.failed.size(), 1U);
  EXPECT_EQ(observer.failed[0].first, 1U);

  const auto read = results::read_results_csv(read_all(csv()), csv().string());
  ASSERT_TRUE(read) << read.error().describe();
  ASSERT_EQ(read->size(), 1U);
  const auto& written = read->front();
  EXPECT_EQ(written.runs.size(), 1U);
  ASSERT_EQ(written.errors.size(), 1U);
  EXPECT_TRUE(written.errors[0].starts_with("run 2 of 3 ('4K random read' QD 2): agent 'beta'")) << written.errors[0];
  EXPECT_EQ(written.end, results::CsvSeriesEnd::aborted);

  const auto document = results::read_results_json(read_all(json()));
  ASSERT_TRUE(document) << document.error().describe();
  EXPECT_EQ(document->outcome, results::SeriesOutcome::aborted);
  EXPECT_EQ(document->runs.size(), 1U);
  ASSERT_EQ(document->failed_runs.size(), 1U);
  EXPECT_EQ(document->failed_runs[0].error, written.errors[0]);
  EXPECT_EQ(document->failed_runs[0].info.queue_depth, 2U);

  // The side file: run 1's block, then run 2's samples cut short by the same ERROR: line.
  const auto side = results::read_results_csv(read_all(timeseries), timeseries.string());
  ASSERT_TRUE(side) << side.error().describe();
  EXPECT_EQ(side->front().runs.size(), 2U);
  EXPECT_EQ(side->front().errors, written.errors);
  EXPECT_EQ(side->front().end, results::CsvSeriesEnd::aborted);
}

TEST_F(SeriesFaultsTest, WithContinueTheLostAgentIsDroppedAndTheRestRuns) {
  KillingObserver observer(agents_[1], 1);
  ResultsRecorder recorder(csv().string(), json().string());
  const auto outcome = run_series(registry_.links(), series(AgentLossPolicy::drop_and_continue), observer, recorder);

  EXPECT_FALSE(outcome.error) << outcome.error->describe();
  EXPECT_EQ(outcome.outcome, results::SeriesOutcome::completed);
  ASSERT_EQ(outcome.runs.size(), 2U);
  EXPECT_EQ(managers_of(outcome.runs[0]), (std::vector<std::string>{"alpha", "beta"}));
  EXPECT_EQ(managers_of(outcome.runs[1]), std::vector<std::string>{"alpha"});
  EXPECT_EQ(outcome.runs[1].index, 2U) << "run 2 failed; run 3 is the second completed";
  EXPECT_EQ(outcome.runs[1].info.queue_depth, 4U);
  ASSERT_EQ(outcome.failed_runs.size(), 1U);
  EXPECT_EQ(outcome.lost_managers, std::vector<std::size_t>{1});
  bool noted = false;
  for (const auto& notice : observer.notices) {
    noted = noted || (notice.find("'beta' lost") != std::string::npos &&
                      notice.find("dropped from the remaining 1 run(s)") != std::string::npos);
  }
  EXPECT_TRUE(noted);

  const auto read = results::read_results_csv(read_all(csv()), csv().string());
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read->front().runs.size(), 2U);
  EXPECT_EQ(read->front().errors.size(), 1U);
  EXPECT_EQ(read->front().end, results::CsvSeriesEnd::end_test);
  const auto document = results::read_results_json(read_all(json()));
  ASSERT_TRUE(document) << document.error().describe();
  EXPECT_EQ(document->outcome, results::SeriesOutcome::completed);
  EXPECT_EQ(document->failed_runs.size(), 1U);
}

TEST_F(SeriesFaultsTest, AnAgentLostBetweenRunsIsDroppedBeforeTheNextRunStarts) {
  KillingObserver observer(nullptr, 0);
  ResultsRecorder recorder(csv().string(), "");
  agents_[0]->kill();
  // The in-memory link notices the close at once; over TCP the transport does on its own.
  const auto outcome = run_series(registry_.links(), series(AgentLossPolicy::drop_and_continue), observer, recorder);
  EXPECT_FALSE(outcome.error);
  EXPECT_TRUE(outcome.failed_runs.empty());
  ASSERT_EQ(outcome.runs.size(), 3U);
  for (const auto& run : outcome.runs) EXPECT_EQ(managers_of(run), std::vector<std::string>{"beta"});
  EXPECT_EQ(outcome.lost_managers, std::vector<std::size_t>{0});
}

TEST_F(SeriesFaultsTest, WhenEveryAgentIsLostTheSeriesStopsEvenWithContinue) {
  KillingObserver observer(nullptr, 0);
  ResultsRecorder recorder(csv().string(), "");
  agents_[0]->kill();
  agents_[1]->kill();
  const auto outcome = run_series(registry_.links(), series(AgentLossPolicy::drop_and_continue), observer, recorder);
  ASSERT_TRUE(outcome.error);
  EXPECT_NE(outcome.error->message().find("every manager"), std::string::npos) << outcome.error->message();
  EXPECT_EQ(outcome.outcome, results::SeriesOutcome::aborted);
  EXPECT_TRUE(outcome.runs.empty());
}

TEST_F(SeriesFaultsTest, IoErrorsAreNamedAtOnceCountedAndTheRunGoesOn) {
  options_.engine = "fault-eio-every-3";
  options_.outstanding_ios = {1};
  KillingObserver observer(nullptr, 0);
  ResultsRecorder recorder(csv().string(), "");
  const auto outcome = run_series(registry_.links(), series(AgentLossPolicy::stop), observer, recorder);
  ASSERT_FALSE(outcome.error) << outcome.error->describe();
  ASSERT_EQ(outcome.runs.size(), 1U);
  const auto& all_point = outcome.runs[0].points.at(0);
  EXPECT_TRUE(all_point.manager.empty());
  EXPECT_GT(all_point.errors, 0U);
  EXPECT_GT(all_point.iops, 0.0);
  // One notice per manager and target, from the first sample that counted errors.
  std::size_t named = 0;
  for (const auto& notice : observer.notices) {
    if (notice.find("I/O errors in") == std::string::npos) continue;
    EXPECT_NE(notice.find("Worker 1 on " + dir_.path().string()), std::string::npos) << notice;
    ++named;
  }
  EXPECT_EQ(named, 2U);
  const auto read = results::read_results_csv(read_all(csv()), csv().string());
  ASSERT_TRUE(read) << read.error().describe();
  const auto* all = read->front().runs.at(0).find_row("ALL");
  ASSERT_NE(all, nullptr);
  EXPECT_GT(all->stats.errors.value_or(0), 0.0);
  EXPECT_TRUE(read->front().errors.empty()) << "counted I/O errors do not fail the run";
}

TEST_F(SeriesFaultsTest, AFailureWithEveryAgentAliveStopsTheSeriesEvenWithContinue) {
  options_.test_file_bytes = std::uint64_t{1} << 60;  // no file system has an EiB free
  KillingObserver observer(nullptr, 0);
  ResultsRecorder recorder(csv().string(), json().string());
  const auto outcome = run_series(registry_.links(), series(AgentLossPolicy::drop_and_continue), observer, recorder);
  ASSERT_TRUE(outcome.error);
  EXPECT_NE(outcome.error->describe().find("iobw.tst"), std::string::npos) << outcome.error->describe();
  EXPECT_EQ(outcome.outcome, results::SeriesOutcome::aborted);
  EXPECT_TRUE(outcome.runs.empty());
  EXPECT_EQ(outcome.failed_runs.size(), 1U);
  EXPECT_TRUE(outcome.lost_managers.empty());
  const auto read = results::read_results_csv(read_all(csv()), csv().string());
  ASSERT_TRUE(read) << read.error().describe();
  ASSERT_EQ(read->front().errors.size(), 1U);
  EXPECT_TRUE(read->front().errors[0].starts_with("run 1 of 3")) << read->front().errors[0];
  EXPECT_EQ(read->front().end, results::CsvSeriesEnd::aborted);
}

}  // namespace
}  // namespace iomark::controller
