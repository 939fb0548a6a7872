#include "iomark/controller/series_runner.hpp"

#include <algorithm>
#include <cstdio>
#include <set>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/common/precondition_block.hpp"
#include "iomark/controller/network_pairing.hpp"
#include "iomark/results/max_iops_curve.hpp"
#include "iomark/results/wall_clock.hpp"
#include "iomark/run_builder/run_builder.hpp"
#include "run_driver.hpp"

namespace iomark::controller {

namespace {

// "run 3 of 6 ('Database' QD 4)": how failures name the run.
std::string run_name(std::size_t index, std::size_t count, const RunPlan& run) {
  return "run " + std::to_string(index + 1) + " of " + std::to_string(count) + " (" + run.label + ")";
}

// The run without the managers dropped so far.
RunPlan without(const RunPlan& run, const std::set<std::size_t>& dropped) {
  RunPlan active = run;
  drop_managers(active, {dropped.begin(), dropped.end()});
  return active;
}

}  // namespace

Result<AgentLossPolicy> parse_agent_loss_policy(std::string_view text) {
  if (text == "stop") return AgentLossPolicy::stop;
  if (text == "continue") return AgentLossPolicy::drop_and_continue;
  return fail(Error(ErrorCode::invalid_argument, "expected stop or continue, not \"" + std::string(text) + "\"")
                  .in_field("on-agent-loss"));
}

std::optional<SteadyStateRounds> steady_state_rounds(const access_specs::RunRequest& request,
                                                    const std::vector<RunPlan>& runs) {
  if (!request.steady_state || runs.empty()) return std::nullopt;
  std::size_t tracked = runs.size() - 1;
  if (const auto& name = request.steady_state->tracked_spec; !name.empty()) {
    const auto found = std::find_if(runs.rbegin(), runs.rend(), [&](const RunPlan& run) {
      return std::any_of(run.info.specs.begin(), run.info.specs.end(),
                         [&](const access_specs::AccessSpec& spec) { return spec.name == name; });
    });
    if (found != runs.rend()) tracked = static_cast<std::size_t>(runs.rend() - found) - 1;
  }
  return SteadyStateRounds{.figure = request.steady_state->figure,
                           .tracked_run = tracked,
                           .rule = {},
                           .max_rounds = request.steady_state->max_rounds};
}

Result<std::optional<MaxIopsSearchPlan>> max_iops_search_plan(const access_specs::RunRequest& request,
                                                             const std::vector<RunPlan>& runs) {
  if (!request.find_max_iops) return std::optional<MaxIopsSearchPlan>{};
  const auto refuse = [](std::string why) {
    return fail(Error(ErrorCode::invalid_argument, std::move(why)).in_field("--find-max-iops"));
  };
  if (runs.size() != 1) {
    return refuse("the search starts from one run and makes its own depths; this series has " +
                  std::to_string(runs.size()) + " (a --qd list, or a plan's cycling or access specs)");
  }
  if (request.rate_iops) return refuse("the search chooses its rates itself: leave out --rate-iops");
  if (request.steady_state) return refuse("a search is not run in rounds: leave out --steady-state");
  std::optional<std::uint32_t> shallowest;
  for (const auto& manager : runs.front().managers) {
    for (const auto& worker : manager.assignment.workers) {
      for (const auto& target : worker.targets) {
        if (!target.network) shallowest = std::min(shallowest.value_or(target.outstanding_ios), target.outstanding_ios);
      }
    }
  }
  if (!shallowest) return refuse("the run has no disk target to search on");
  return std::optional<MaxIopsSearchPlan>{
      MaxIopsSearchPlan{.bound = *request.find_max_iops, .limits = {.first_outstanding_ios = *shallowest}}};
}

Result<void> plan_pts_iops(const access_specs::RunRequest& request, SeriesPlan& series) {
  if (!request.pts_iops) return {};
  const auto refuse = [](std::string why) {
    return fail(Error(ErrorCode::invalid_argument, std::move(why)).in_field("PTS IOPS"));
  };
  if (series.runs.size() != 1) {
    return refuse("the matrix makes the runs of a round from one run; this series has " +
                  std::to_string(series.runs.size()) + " (a --qd list, or a plan's cycling or access specs)");
  }
  const RunPlan template_run = std::move(series.runs.front());
  if (!template_run.network_pairs.empty()) return refuse("the matrix is for disk targets: leave out the network workers");
  if (template_run.managers.empty()) return refuse("no disk worker to run the matrix");
  series.runs.clear();
  std::uint32_t step = 0;
  for (const auto& cell : access_specs::pts_iops_specs(*request.pts_iops)) {
    RunPlan run = template_run;
    run.info.cycling_step = step;
    run.info.specs = {cell};
    run.label = "'" + cell.name + "'" +
                (run.info.queue_depth ? " QD " + std::to_string(*run.info.queue_depth) : std::string());
    for (auto& manager : run.managers) {
      for (auto& worker : manager.assignment.workers) worker.spec = cell;
      // Test files are made, and preconditioned, before the first run only.
      if (step != 0) manager.prepare.clear();
    }
    series.runs.push_back(std::move(run));
    ++step;
  }
  series.pts_iops = results::PtsIopsRecord{.read_percents = request.pts_iops->read_percents,
                                           .block_bytes = request.pts_iops->block_bytes};
  return {};
}

namespace {

// --precondition-spec's spec: the series' own of that name first (a plan's), then a built-in.
Result<access_specs::AccessSpec> precondition_spec(std::string_view name, const SeriesPlan& series) {
  for (const auto& run : series.runs) {
    for (const auto& spec : run.info.specs) {
      if (spec.name == name) return spec;
    }
  }
  if (const auto* builtin = access_specs::find_builtin_spec(name)) return *builtin;
  return fail(Error(ErrorCode::invalid_argument, "no access spec named '" + std::string(name) +
                                                     "' in the plan or among the built-in ones (iomark specs)")
                  .in_field("--precondition-spec"));
}

}  // namespace

Result<void> plan_preconditioning(const access_specs::RunRequest& request, const std::vector<ManagerLink*>& links,
                                  SeriesPlan& series) {
  if (request.precondition_passes == 0) return {};
  std::optional<access_specs::AccessSpec> spec;
  if (!request.precondition_spec.empty()) {
    auto named = precondition_spec(request.precondition_spec, series);
    if (!named) return fail(named.error());
    if (!access_specs::writes(*named)) {
      return fail(Error(ErrorCode::invalid_argument, "'" + named->name + "' only reads: it would write nothing")
                      .in_field("--precondition-spec"));
    }
    spec = std::move(*named);
  }
  const auto writes = [](const protocol::WorkerAssignment& worker) { return access_specs::writes(worker.spec); };
  bool any_writes = false;
  for (const auto& run : series.runs) {
    for (const auto& manager : run.managers) {
      any_writes = any_writes || std::any_of(manager.assignment.workers.begin(), manager.assignment.workers.end(), writes);
    }
  }
  if (!any_writes) {
    series.notices.push_back(
        "--precondition skipped: every access spec of the series only reads, and preconditioning writes every "
        "target whole");
    return {};
  }
  results::PreconditionRecord record{.passes = request.precondition_passes,
                                     .block_bytes = spec ? 0 : kPreconditionBlockBytes,
                                     .targets = {},
                                     .spec = spec};
  for (auto& run : series.runs) {
    run_builder::precondition(run.managers, request.precondition_passes, spec);
    for (const auto& manager : run.managers) {
      const std::string name = manager.manager < links.size() ? links[manager.manager]->name() : std::string("?");
      for (const auto& prepare : manager.prepare) record.targets.push_back(name + ": " + prepare.path);
    }
  }
  series.precondition = std::move(record);
  return {};
}

results::PtsIopsTable pts_iops_table(const SeriesOutcome& outcome, const results::PtsIopsRecord& pts) {
  std::vector<results::PtsRunFigure> figures;
  for (const auto& run : outcome.runs) {
    if (run.points.empty()) continue;
    figures.push_back({.position = static_cast<std::uint32_t>(run.index + 1), .iops = run.points.front().iops});
  }
  std::optional<results::SteadyStateRecord> steady;
  if (outcome.steady_state) steady = steady_state_record(*outcome.steady_state);
  return results::pts_iops_table(pts, figures, steady);
}

results::SteadyStateRecord steady_state_record(const SteadyStateProgress& progress) {
  const auto& verdict = progress.verdict;
  return {
      .figure = std::string(access_specs::to_string(progress.figure)),
      .max_rounds = progress.max_rounds,
      .window = static_cast<std::uint32_t>(progress.window),
      .rounds = progress.rounds,
      .steady = verdict.steady,
      .window_first = static_cast<std::uint32_t>(verdict.window_first),
      .average = verdict.average,
      .data_excursion = verdict.data_excursion,
      .slope_excursion = verdict.slope_excursion,
      .slope = verdict.slope,
      .reason = verdict.reason,
  };
}

namespace {

std::string fixed(double value, int decimals) {
  char text[64];
  std::snprintf(text, sizeof text, "%.*f", decimals, value);
  return text;
}

// "p99 1.910 ms"
std::string latency_text(const results::MaxIopsRecord& record, double latency_ms) {
  return record.figure + " " + fixed(latency_ms, 3) + " ms";
}

std::string step_text(const results::MaxIopsStep& step) {
  std::string text = fixed(step.iops, 0) + " IOPS at QD " + std::to_string(step.outstanding_ios);
  if (step.rate_iops) text += ", rate " + fixed(*step.rate_iops, 0);
  return text;
}

}  // namespace

std::string max_iops_conclusion(const results::MaxIopsRecord& record, latency_search::SearchEnd end) {
  const std::string bound = results::bound_text(record);
  if (!record.chosen) {
    if (record.steps.empty()) return "no run yet";
    const auto& last = record.steps.back();
    return "no run kept " + bound + ": the last, " + step_text(last) + ", gave " + latency_text(record, last.latency_ms);
  }
  const auto& chosen = record.steps.at(*record.chosen);
  std::string text = step_text(chosen) + " (" + latency_text(record, chosen.latency_ms) + " within " + bound + ")";
  switch (end) {
    case latency_search::SearchEnd::held_at_max_depth:
      return text + "; the bound held at the deepest queue tried";
    case latency_search::SearchEnd::out_of_steps:
      return text + "; the search stopped after " + std::to_string(record.steps.size()) +
             " runs, its rates not yet within 2%";
    case latency_search::SearchEnd::searching:
    case latency_search::SearchEnd::bracketed:
    case latency_search::SearchEnd::never_within: break;
  }
  return text;
}

namespace {

// One series: the runs in order, failures recorded, lost managers dropped or the end.
class SeriesDriver {
 public:
  SeriesDriver(const std::vector<ManagerLink*>& links, const SeriesPlan& series, SeriesObserver& observer,
               ResultsRecorder& recorder, const std::stop_token& stop)
      : links_(links), series_(series), observer_(observer), recorder_(recorder), stop_(stop),
        driver_(links, series, observer, recorder, stop) {}

  SeriesOutcome run() {
    if (auto fits = dynamo_can_run(); !fits) {
      stopped(fits.error());
      return std::move(outcome_);
    }
    if (auto begun = recorder_.begin(series_); !begun) {
      stopped(begun.error());
      return std::move(outcome_);
    }
    for (const auto& notice : series_.notices) observer_.notice(notice);
    if (series_.max_iops_search) {
      run_search(*series_.max_iops_search);
    } else {
      const std::size_t rounds = series_.steady_state ? series_.steady_state->max_rounds : 1;
      for (std::size_t round = 0; round < rounds && !outcome_.error; ++round) {
        if (!run_round(round, rounds)) break;
        if (series_.steady_state && !judge_round(round)) break;
      }
    }
    if (auto finished = recorder_.finish(outcome_.outcome); !finished && !outcome_.error) {
      outcome_.error = finished.error();
    }
    outcome_.samples_received = driver_.samples_received();
    outcome_.samples_lost = driver_.samples_lost();
    return std::move(outcome_);
  }

 private:
  // Every run of the series once, as round `round` of `rounds`; false when the series must stop.
  bool run_round(std::size_t round, std::size_t rounds) {
    const std::size_t per_round = series_.runs.size();
    const std::size_t count = per_round * rounds;
    for (std::size_t position = 0; position < per_round; ++position) {
      const std::size_t index = round * per_round + position;
      if (stop_.stop_requested()) {
        stopped(Error(ErrorCode::cancelled,
                      "stopped by the user before " + run_name(index, count, series_.runs[position])),
                StopCause::stop_requested);
        return false;
      }
      if (series_.on_agent_loss == AgentLossPolicy::drop_and_continue) drop_closed(position);
      RunPlan plan = without(series_.runs[position], dropped_);
      if (rounds > 1) plan.label = "round " + std::to_string(round + 1) + ": " + plan.label;
      // The first round made the test files; later rounds find them made.
      if (round > 0) {
        for (auto& manager : plan.managers) manager.prepare.clear();
      }
      if (plan.managers.empty()) {
        stopped(Error(ErrorCode::io_error,
                      "every manager of " + run_name(index, count, plan) + " was lost; nothing left to run"));
        return false;
      }
      if (!run_one(plan, index, count, position)) return false;
    }
    return true;
  }

  // Adds the tracked run's figure of round `round` and judges the rounds so far; false when
  // they are steady (the series is done) or the figure is missing.
  bool judge_round(std::size_t round) {
    const auto& rule = *series_.steady_state;
    const std::size_t tracked = round * series_.runs.size() + rule.tracked_run;
    const auto completed = std::find_if(outcome_.runs.begin(), outcome_.runs.end(),
                                        [&](const CompletedRun& run) { return run.index == tracked; });
    const auto figure = completed == outcome_.runs.end() || completed->points.empty()
                            ? std::nullopt
                            : figure_of(completed->points.front(), rule.figure);
    if (!figure) {
      stopped(Error(ErrorCode::unsupported, "round " + std::to_string(round + 1) + ": run " +
                                                std::to_string(tracked + 1) + " has no " +
                                                std::string(access_specs::to_string(rule.figure)) +
                                                " figure to judge steady state on"));
      return false;
    }
    if (!outcome_.steady_state) {
      outcome_.steady_state = SteadyStateProgress{.figure = rule.figure, .max_rounds = rule.max_rounds,
                                                  .window = rule.rule.window};
    }
    auto& progress = *outcome_.steady_state;
    progress.rounds.push_back(*figure);
    progress.verdict = steady_state::judge(progress.rounds, rule.rule);
    if (auto recorded = recorder_.record_rounds(progress); !recorded) {
      stopped(recorded.error());
      return false;
    }
    observer_.round_judged(progress);
    return !progress.verdict.steady;
  }

  // The search's runs, one after another, each the series' run at the search's depth and rate;
  // each recorded and observed with every step so far.
  void run_search(const MaxIopsSearchPlan& plan) {
    latency_search::MaxIopsSearch search(plan.bound.limit_ms, plan.limits);
    auto& record = outcome_.max_iops_search.emplace();
    record.figure = std::string(access_specs::to_string(plan.bound.figure));
    record.limit_ms = plan.bound.limit_ms;
    for (std::size_t index = 0; !outcome_.error; ++index) {
      const auto step = search.next();
      if (!step) break;
      const std::size_t count = index + search.steps_left_at_most();
      if (stop_.stop_requested()) {
        stopped(Error(ErrorCode::cancelled, "stopped by the user before run " + std::to_string(index + 1) +
                                                " of the --find-max-iops search"),
                StopCause::stop_requested);
        break;
      }
      if (series_.on_agent_loss == AgentLossPolicy::drop_and_continue) drop_closed(0);
      auto run = step_plan(*step, index);
      if (!run) {
        stopped(run.error());
        break;
      }
      if (!run_one(*run, index, count, 0)) break;
      const auto completed = std::find_if(outcome_.runs.begin(), outcome_.runs.end(),
                                          [&](const CompletedRun& done) { return done.index == index; });
      if (completed == outcome_.runs.end()) {
        stopped(Error(ErrorCode::io_error, run_name(index, count, *run) +
                                               " failed; the search cannot go on without its figures"));
        break;
      }
      const auto& all = completed->points.front();
      const auto latency = latency_of(all, plan.bound.figure);
      if (!latency) {
        stopped(Error(ErrorCode::unsupported, run_name(index, count, *run) + " has no " + record.figure +
                                                  " latency to hold within the bound")
                    .in_field("--find-max-iops"));
        break;
      }
      search.record(all.iops, *latency);
      const auto& measured = search.steps().back();
      record.steps.push_back({.run = static_cast<std::uint32_t>(index + 1),
                              .outstanding_ios = measured.step.outstanding_ios,
                              .rate_iops = measured.step.rate_iops,
                              .iops = measured.iops,
                              .latency_ms = measured.latency_ms,
                              .within = measured.within});
      const auto chosen = search.chosen();
      record.chosen = chosen ? std::optional<std::uint32_t>(static_cast<std::uint32_t>(*chosen)) : std::nullopt;
      record.finished = search.end() != latency_search::SearchEnd::searching;
      record.conclusion = max_iops_conclusion(record, search.end());
      if (auto recorded = recorder_.record_search(record); !recorded) {
        stopped(recorded.error());
        break;
      }
      observer_.search_step(record);
    }
  }

  // The series' run at the step's depth on every disk target and, with a rate, that rate
  // shared over every disk worker; network targets are left as planned.
  [[nodiscard]] Result<RunPlan> step_plan(const latency_search::Step& step, std::size_t index) const {
    RunPlan plan = without(series_.runs.front(), dropped_);
    if (plan.managers.empty()) {
      return fail(Error(ErrorCode::io_error, "every manager of the search was lost; nothing left to run"));
    }
    for (auto& manager : plan.managers) {
      for (auto& worker : manager.assignment.workers) {
        for (auto& target : worker.targets) {
          if (!target.network) target.outstanding_ios = step.outstanding_ios;
        }
      }
      // The first run made the test files; later runs find them made.
      if (index > 0) manager.prepare.clear();
    }
    if (step.rate_iops) {
      if (auto shared = run_builder::share_rate_iops(plan.managers, *step.rate_iops); !shared) {
        return fail(Error(shared.error()).in_field("--find-max-iops"));
      }
    }
    plan.info.queue_depth = step.outstanding_ios;
    plan.info.cycling_step = static_cast<std::uint32_t>(index);
    plan.label = "search: '" + (plan.info.specs.empty() ? std::string() : plan.info.specs.front().name) + "' QD " +
                 std::to_string(step.outstanding_ios);
    if (step.rate_iops) plan.label += " at " + fixed(*step.rate_iops, 0) + " IOPS";
    return plan;
  }

  static std::optional<double> latency_of(const results::RunPoint& all, access_specs::LatencyFigure figure) {
    switch (figure) {
      case access_specs::LatencyFigure::average_ms: return all.average_response_ms;
      case access_specs::LatencyFigure::p99_ms: return all.p99_response_ms;
      case access_specs::LatencyFigure::p99_9_ms:
        if (!all.latency) return std::nullopt;
        for (const auto& percentile : all.latency->percentiles) {
          if (percentile.percentile == 99.9) return percentile.latency_ms;
        }
        return std::nullopt;
    }
    return std::nullopt;
  }

  static std::optional<double> figure_of(const results::RunPoint& all, access_specs::SteadyFigure figure) {
    switch (figure) {
      case access_specs::SteadyFigure::iops: return all.iops;
      case access_specs::SteadyFigure::mb_per_s: return all.mb_per_s;
      case access_specs::SteadyFigure::average_ms: return all.average_response_ms;
      case access_specs::SteadyFigure::p99_ms: return all.p99_response_ms;
    }
    return std::nullopt;
  }

  // False when the series must stop. `position`: the run's place in SeriesPlan::runs.
  bool run_one(const RunPlan& plan, std::size_t index, std::size_t count, std::size_t position) {
    observer_.run_started(index, count, plan);
    const std::uint64_t run_id = index + 1;
    results::FailedRun failed{static_cast<std::uint32_t>(index + 1), plan.info, {}};
    failed.info.start_time = results::wall_clock_now();
    auto run = driver_.run(plan, index, count, run_id);
    if (!run) {
      driver_.abort(plan, run_id);
      if (stop_.stop_requested()) {
        stopped(run.error(), StopCause::stop_requested);
        return false;
      }
      failed.info.end_time = results::wall_clock_now();
      failed.error = run_name(index, count, plan) + ": " + run.error().describe();
      observer_.run_failed(index, plan, run.error());
      outcome_.failed_runs.push_back(failed);
      if (auto recorded = recorder_.record_failure(failed); !recorded) {
        stopped(recorded.error());
        return false;
      }
      const auto lost = closed_managers(plan);
      outcome_.lost_managers.insert(outcome_.lost_managers.end(), lost.begin(), lost.end());
      if (lost.empty() || series_.on_agent_loss == AgentLossPolicy::stop) {
        stopped(run.error());
        return false;
      }
      for (const auto manager : lost) drop(manager, position, run.error().describe());
      return true;
    }
    const auto summary = results::summarize_run(*run);
    outcome_.runs.push_back(
        {index, run->info, results::run_points(*run, summary, index, series_.info.description), run->end});
    if (auto recorded = recorder_.record(*run, summary); !recorded) {
      stopped(recorded.error());
      return false;
    }
    observer_.run_finished(index, *run, summary);
    if (run->end == results::RunEnd::interrupted) {
      stopped(Error(ErrorCode::cancelled, "stopped by the user during " + run_name(index, count, plan) +
                                              " (its results so far are recorded)"),
              StopCause::stop_requested);
      return false;
    }
    return true;
  }

  // Managers whose connection closed between runs (noticed by the transport on its own).
  void drop_closed(std::size_t position) {
    for (const auto& manager : series_.runs[position].managers) {
      if (!dropped_.contains(manager.manager) && !links_[manager.manager]->is_open()) {
        outcome_.lost_managers.push_back(manager.manager);
        drop(manager.manager, position, "the connection is closed");
      }
    }
  }

  // Counts the runs left in this round (later rounds run without it too).
  void drop(std::size_t manager, std::size_t position, const std::string& why) {
    dropped_.insert(manager);
    std::size_t remaining = 0;
    for (std::size_t later = position + 1; later < series_.runs.size(); ++later) {
      for (const auto& planned : series_.runs[later].managers) remaining += planned.manager == manager ? 1 : 0;
    }
    observer_.notice("manager '" + links_[manager]->name() + "' lost (" + why + "); dropped from the remaining " +
                     std::to_string(remaining) + " run(s), which go on without it");
  }

  [[nodiscard]] std::vector<std::size_t> closed_managers(const RunPlan& plan) const {
    std::vector<std::size_t> closed;
    for (const auto& manager : plan.managers) {
      if (!links_[manager.manager]->is_open()) closed.push_back(manager.manager);
    }
    return closed;
  }

  // What a Dynamo manager cannot do, refused before the first run rather than at the run or
  // the round it would fail: it keeps no schedule (--rate-iops), and times its I/Os in
  // IOmeter's 21 bins, which give no p99 to judge rounds on.
  Result<void> dynamo_can_run() const {
    for (const auto& run : series_.runs) {
      for (const auto& manager : run.managers) {
        const auto& link = *links_.at(manager.manager);
        if (!is_dynamo(link.inventory())) continue;
        if (series_.max_iops_search) {
          return fail(Error(ErrorCode::unsupported, "Dynamo '" + link.name() +
                                                        "' keeps no schedule and reports no percentiles: only iomark "
                                                        "agents take part in a search")
                          .in_field("--find-max-iops"));
        }
        if (series_.steady_state && series_.steady_state->figure == access_specs::SteadyFigure::p99_ms) {
          return fail(Error(ErrorCode::unsupported, "Dynamo '" + link.name() +
                                                        "' reports no percentiles: judge the rounds on iops, mbps "
                                                        "or avg")
                          .in_field("--steady-state"));
        }
        for (const auto& worker : manager.assignment.workers) {
          if (worker.rate_iops != 0) {
            return fail(Error(ErrorCode::unsupported, "Dynamo '" + link.name() + "' (worker '" + worker.name +
                                                          "') keeps no schedule: only iomark agents run at a rate")
                            .in_field("--rate-iops"));
          }
        }
      }
    }
    return {};
  }

  void stopped(Error error, StopCause cause = StopCause::failure) {
    outcome_.outcome = results::SeriesOutcome::aborted;
    if (outcome_.error) return;
    outcome_.error = std::move(error);
    outcome_.stop_cause = cause;
  }

  const std::vector<ManagerLink*>& links_;
  const SeriesPlan& series_;
  SeriesObserver& observer_;
  ResultsRecorder& recorder_;
  const std::stop_token& stop_;
  RunDriver driver_;
  SeriesOutcome outcome_;
  std::set<std::size_t> dropped_;
};

}  // namespace

SeriesOutcome run_series(const std::vector<ManagerLink*>& links, const SeriesPlan& series, SeriesObserver& observer,
                         ResultsRecorder& recorder, std::stop_token stop) {
  return SeriesDriver(links, series, observer, recorder, stop).run();
}

}  // namespace iomark::controller
