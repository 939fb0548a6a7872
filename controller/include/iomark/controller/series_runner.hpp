// Runs a test series on live managers (docs/iometer-reference.md#one-run): for each run, prepare
// test files, assign, start, begin I/O, ramp up, record, stop, collect final results and aggregate
// them; results are recorded after every run so that nothing completed is ever lost.
//
// The runner is synchronous: call run_series() on a thread of its own (the CLI's main thread,
// the GUI's worker thread); it reports through SeriesObserver from that thread.
#pragma once

#include <cstdint>
#include <optional>
#include <stop_token>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/run_request.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"
#include "iomark/controller/manager_link.hpp"
#include "iomark/protocol/messages.hpp"
#include "iomark/run_builder/run_builder.hpp"
#include "iomark/results/results_csv.hpp"
#include "iomark/results/pts_iops_table.hpp"
#include "iomark/results/results_json_file.hpp"
#include "iomark/results/run_points.hpp"
#include "iomark/results/run_results.hpp"
#include "iomark/results/summary.hpp"
#include "iomark/results/timeseries_csv.hpp"
#include "iomark/results/wall_clock.hpp"
#include "iomark/latency_search/max_iops_search.hpp"
#include "iomark/steady_state/steady_state.hpp"

namespace iomark::controller {

// What one manager does in one run.
// One manager's share of a run (run-builder makes it): `manager` indexes the links given to
// run_series; the runner sets the assignment's run_id.
using ManagerRun = run_builder::ManagerWork;

// A TCP pair of a run (network_pairing.hpp): which worker of which manager serves and which
// connects. Indices: `*_manager` into the links, `*_worker` into that manager's assignment.
struct NetworkPair {
  std::size_t server_manager{};
  std::size_t server_worker{};
  std::size_t client_manager{};
  std::size_t client_worker{};
  friend bool operator==(const NetworkPair&, const NetworkPair&) = default;
};

struct RunPlan {
  results::RunInfo info;  // identity of the run; times are filled in by the runner
  std::vector<ManagerRun> managers;  // active managers only
  std::string label;  // for progress lines, e.g. "'Database' QD 4"
  std::vector<NetworkPair> network_pairs{};  // servers start before their clients connect
};

// What the series does when a manager is lost: its connection closed because the agent was
// killed, stayed silent past the dead-peer deadline (frozen, network cut) or broke the
// protocol. Either way the run in progress fails: it is recorded as failed (results.csv
// `ERROR:` line, JSON failed_runs) and the other managers of that run are told to abort.
enum class AgentLossPolicy : std::uint8_t {
  stop,      // the series ends there (`Aborted test`); the default, as IOmeter stops
  drop_and_continue,  // the lost manager is dropped from the remaining runs, which go on
};

// "stop" or "continue" (`iomark run --on-agent-loss`); anything else is invalid_argument.
[[nodiscard]] Result<AgentLossPolicy> parse_agent_loss_policy(std::string_view text);

// A series repeated in rounds until one figure of the ALL row of one of its runs is steady
// (steady-state/: SNIA's rule over the last rule.window rounds), at most max_rounds rounds.
// Every round runs every run of the series again, as planned.
struct SteadyStateRounds {
  access_specs::SteadyFigure figure{access_specs::SteadyFigure::iops};
  std::size_t tracked_run{};  // the run of each round whose figure is judged, into SeriesPlan::runs
  steady_state::Rule rule{};
  std::uint32_t max_rounds{25};
};

// The rounds a series with SteadyStateRounds has made so far and what the rule says of them.
struct SteadyStateProgress {
  access_specs::SteadyFigure figure{access_specs::SteadyFigure::iops};
  std::uint32_t max_rounds{};
  std::size_t window{};
  std::vector<double> rounds{};  // the tracked figure of every round so far, oldest first
  steady_state::Verdict verdict{};
};

// A series that searches for the most IOPS whose latency figure (of the ALL row, merged over
// every manager) stays within a bound (--find-max-iops, docs/characterize.md#find-max-iops).
// The series' one run is the template: each step runs it again with the search's outstanding
// I/Os on every disk target and, in the rate phase, its rate shared over every disk worker.
struct MaxIopsSearchPlan {
  access_specs::LatencyBound bound{};
  latency_search::SearchLimits limits{};
};

struct SeriesPlan {
  results::SeriesInfo info;
  std::optional<access_specs::TestPlan> plan;  // recorded in the JSON results when known
  std::uint32_t ramp_up_s{};
  std::uint32_t run_time_s{10};
  std::vector<RunPlan> runs;
  AgentLossPolicy on_agent_loss{AgentLossPolicy::stop};
  std::optional<SteadyStateRounds> steady_state{};  // unset: every run once
  std::optional<MaxIopsSearchPlan> max_iops_search{};  // set: runs holds the one run searched from
  std::vector<std::string> notices{};  // said to the observer before the first run
  std::optional<results::PreconditionRecord> precondition{};  // what --precondition writes, for the results
  std::optional<results::PtsIopsRecord> pts_iops{};  // set by `iomark pts iops`: its runs are the matrix
};

// `iomark pts iops` (request.pts_iops, docs/characterize.md#pts-iops) on a series whose one run
// a RunBuilder made (quick_series, plan_series): that run repeated for each cell of the matrix
// in turn, every disk worker running the cell's spec, test files made before the first; and
// SeriesPlan::pts_iops saying so. Nothing without request.pts_iops. Errors: invalid_argument,
// field "PTS IOPS": a series of several runs (a --qd list, a plan's cycling or specs), with
// network workers, or without a disk worker.
[[nodiscard]] Result<void> plan_pts_iops(const access_specs::RunRequest& request, SeriesPlan& series);

// --precondition on a series whose runs a RunBuilder made (quick_series, plan_series) for
// `links`: every target written whole request.precondition_passes times before its first run
// (run_builder::precondition), in the writes of request.precondition_spec when named (the
// plan's spec of that name, else the built-in), and SeriesPlan::precondition saying so. A
// series that only reads is not preconditioned: a notice says so. Errors: invalid_argument,
// field "--precondition-spec": no such spec, or one that only reads.
[[nodiscard]] Result<void> plan_preconditioning(const access_specs::RunRequest& request, const std::vector<ManagerLink*>& links,
                          SeriesPlan& series);

// The rounds and their verdict as the results keep them (the JSON's steady_state).
[[nodiscard]] results::SteadyStateRecord steady_state_record(const SteadyStateProgress& progress);

// The search a request asks for (--find-max-iops), from the series' runs: unset without one.
// It starts from the shallowest depth of the one run's disk targets. Errors: invalid_argument,
// field "--find-max-iops", when the series has more than one run (a --qd list, a plan's
// cycling or specs) or the request also gives --rate-iops or --steady-state.
[[nodiscard]] Result<std::optional<MaxIopsSearchPlan>> max_iops_search_plan(const access_specs::RunRequest& request,
                                                                            const std::vector<RunPlan>& runs);

// What a --find-max-iops search concluded so far, in words: "4012 IOPS at QD 8 (p99 1.910 ms
// <= 2 ms)", with how it ended when that says more (the deepest depth kept the bound, no rate
// kept it, it ran out of runs).
[[nodiscard]] std::string max_iops_conclusion(const results::MaxIopsRecord& record, latency_search::SearchEnd end);

// The rounds a request asks for over `runs` (one round): --steady-state judges the last run of
// each round, or the last run of the request's tracked spec when it names one (`iomark pts
// iops`). Unset when the request runs each run once.
[[nodiscard]] std::optional<SteadyStateRounds> steady_state_rounds(const access_specs::RunRequest& request,
                                                                   const std::vector<RunPlan>& runs);

enum class LivePhase : std::uint8_t { preparing, ramp_up, recording };

// How far the test file being prepared is (the agent's latest PrepareProgress).
struct PrepareFigures {
  std::string path;  // the target whose test file is being created or grown, as assigned
  std::uint64_t bytes_done{};
  std::uint64_t bytes_total{};  // bytes_done <= bytes_total
  friend bool operator==(const PrepareFigures&, const PrepareFigures&) = default;
};

// Live figures of the run in progress, from the agents' latest samples.
struct LiveFigures {
  std::size_t run_index{};  // 0-based
  std::size_t run_count{};
  const RunPlan* run{};
  LivePhase phase{LivePhase::ramp_up};
  double elapsed_s{};  // in this phase (0 while preparing: its progress is in bytes)
  double phase_s{};    // length of this phase (0 while preparing)
  PrepareFigures preparing{};  // while phase is preparing; empty otherwise
  double iops{};
  double mb_per_s{};
  double average_ms{};
  std::optional<double> p99_ms{};  // nullopt where a Dynamo's I/Os are in (no exact latencies)
  double remaining_s{};  // whole series, estimated
  // The latest sample of every manager of the run as a results tree (each worker's window is
  // its sample interval), so results::summarize_run(snapshot) gives the live figures of each
  // manager, worker and target, with CPU and errors. Empty while preparing, and always empty
  // unless the observer's wants_snapshot() says true.
  results::RunResults snapshot{};
};

class SeriesObserver {
 public:
  virtual ~SeriesObserver() = default;
  virtual void notice(const std::string& /*message*/) {}
  virtual void run_started(std::size_t /*index*/, std::size_t /*count*/, const RunPlan& /*run*/) {}
  // Test files are about to be prepared on `manager`, number `position` (0-based) of the `count`
  // managers of this run that prepare, one after another. By default a notice naming it.
  virtual void preparing(const std::string& manager, std::size_t /*position*/, std::size_t /*count*/) {
    notice("preparing test files on " + manager);
  }
  virtual void live(const LiveFigures& /*figures*/) {}
  // Whether live() wants LiveFigures::snapshot filled: converting every worker's sample each
  // second costs what a console does not need.
  [[nodiscard]] virtual bool wants_snapshot() const { return false; }
  virtual void run_finished(std::size_t /*index*/, const results::RunResults& /*run*/,
                            const results::RunSummary& /*summary*/) {}
  // The run did not finish (not called when the user stopped the series).
  virtual void run_failed(std::size_t /*index*/, const RunPlan& /*run*/, const Error& /*error*/) {}
  // A round of a steady-state series ended (SeriesPlan::steady_state): its figure and the verdict.
  virtual void round_judged(const SteadyStateProgress& /*progress*/) {}
  // A run of a --find-max-iops search ended (SeriesPlan::max_iops_search): every step so far.
  virtual void search_step(const results::MaxIopsRecord& /*search*/) {}
};

// Where results go: results.csv appended (and fsynced) after every run, the JSON document
// brought up to date on disk after every run (ResultsJsonFile: no run is kept in memory), and
// optionally IOmeter's time-series side file with one row per
// worker and sample, appended about once a second. Any path may be empty.
class ResultsRecorder {
 public:
  ResultsRecorder(std::string csv_path, std::string json_path, std::string timeseries_path = {});
  [[nodiscard]] Result<void> begin(const SeriesPlan& series);
  // Whether record_sample() keeps anything (a time-series path was given).
  [[nodiscard]] bool records_samples() const noexcept { return !timeseries_path_.empty(); }
  // One manager's counters over one update interval of the recording phase (time series).
  void record_sample(const results::RunResults& interval, results::WallClockTime at);
  // Appends the samples recorded so far (about once a second while a run records).
  [[nodiscard]] Result<void> flush_samples();
  [[nodiscard]] Result<void> record(const results::RunResults& run, const results::RunSummary& summary);
  // A run that did not finish: an `ERROR:` line (results.csv and the side file) and an entry
  // of the JSON's failed_runs.
  [[nodiscard]] Result<void> record_failure(const results::FailedRun& failed);
  // The rounds of a steady-state series so far and their verdict (the JSON's steady_state).
  [[nodiscard]] Result<void> record_rounds(const SteadyStateProgress& progress);
  // The steps of a --find-max-iops search so far and its choice (the JSON's max_iops_search).
  [[nodiscard]] Result<void> record_search(const results::MaxIopsRecord& search);
  [[nodiscard]] Result<void> finish(results::SeriesOutcome outcome);

 private:
  std::string csv_path_;
  std::string json_path_;
  std::optional<results::ResultsJsonFile> json_;
  results::ResultsCsvAppender appender_;
  std::string csv_pending_;  // the series header, written with the first run or the end marker
  std::string timeseries_path_;
  results::TimeSeriesCsvAppender timeseries_;
  std::string timeseries_pending_;
  bool timeseries_run_open_{false};  // the current run's block is begun in the side file
};

// What the outcome keeps of a completed run: its place, its identity and the figures of its
// ALL row and of each manager, not its counters and histograms, so a series of thousands of
// runs on hundreds of workers stays small. Observers get the whole run in run_finished().
struct CompletedRun {
  std::size_t index{};  // its place in the series, 0-based
  results::RunInfo info;
  std::vector<results::RunPoint> points;  // the ALL point, then one per manager in link order
  results::RunEnd end{results::RunEnd::completed};  // interrupted: the run a stop request cut short
};

// Why a series stopped early, as a value: front ends decide on it, never on the error's text.
enum class StopCause : std::uint8_t {
  none,            // it did not stop early
  stop_requested,  // the stop token asked (the user, a signal): not a failure
  failure,         // a run failed, a manager was lost, the results could not be written
};

struct SeriesOutcome {
  // completed when the last run was reached (even if some failed and were skipped under
  // AgentLossPolicy::drop_and_continue), aborted when the series stopped early.
  results::SeriesOutcome outcome{results::SeriesOutcome::completed};
  std::optional<Error> error;  // why the series stopped early
  StopCause stop_cause{StopCause::none};
  std::vector<CompletedRun> runs;  // every completed run
  std::vector<results::FailedRun> failed_runs;  // every run that did not finish
  std::vector<std::size_t> lost_managers;  // indices into the links, in the order they were lost
  std::optional<SteadyStateProgress> steady_state;  // the rounds made, when the series has them
  std::optional<results::MaxIopsRecord> max_iops_search;  // the steps made, when the series searched
  // Samples taken in, and samples missing from the agents' numbering (lost on the way).
  std::uint64_t samples_received{};
  std::uint64_t samples_lost{};
};

// The PTS IOPS table (results/pts_iops_table.hpp) of a series that ran, or began, the matrix `pts`.
[[nodiscard]] results::PtsIopsTable pts_iops_table(const SeriesOutcome& outcome, const results::PtsIopsRecord& pts);

// How long a reply may take; preparing test files is waited for without this bound (the
// dead-peer deadline still ends a hung agent).
inline constexpr std::chrono::seconds kReplyTimeout{60};

// Runs every run of `series` in order. A run that fails is recorded as failed (results of
// completed runs are never touched) and its managers are told to abort; then the series
// stops, unless the failure was the loss of managers and series.on_agent_loss says to go on
// without them. A stop request ends the run in progress within about 50 ms, not as a
// failure: while it records, the run is stopped as at its end and its results so far are
// recorded and observed (RunEnd::interrupted, as IOmeter's "Stop All"); before that it is
// abandoned. Nothing waits longer than the dead-peer deadline for a silent agent.
[[nodiscard]] SeriesOutcome run_series(const std::vector<ManagerLink*>& links, const SeriesPlan& series,
                                       SeriesObserver& observer, ResultsRecorder& recorder,
                                       std::stop_token stop = {});

}  // namespace iomark::controller
