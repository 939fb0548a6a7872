#include "iomark/history/history.hpp"

#include <gtest/gtest.h>

#include <algorithm>
#include <cmath>
#include <filesystem>
#include <fstream>
#include <map>
#include <sstream>
#include <vector>

#include "fixtures.hpp"
#include "icf_corpus.hpp"
#include "iomark/results/results_csv.hpp"
#include "iomark/results/summary.hpp"

namespace iomark::history {
namespace {

using results::test_support::example_run;
using results::test_support::mixed_run;

results::SeriesInfo series_info(std::int64_t unix_ms) {
  return {access_specs::TestType::normal, "nightly", {unix_ms, 60}, access_specs::RecordResults::all, "0.1.0"};
}

History open_memory() {
  auto history = History::open(":memory:");
  EXPECT_TRUE(history) << history.error().describe();
  return std::move(*history);
}

RunId record(History& history, SeriesId series, std::uint32_t position, const results::RunResults& run) {
  auto id = history.record_run(series, position, run, results::summarize_run(run));
  EXPECT_TRUE(id) << id.error().describe();
  return *id;
}

TEST(History, NewDatabaseHasTheCurrentSchema) {
  auto history = open_memory();
  EXPECT_EQ(history.schema_version().value(), kSchemaVersion);
}

TEST(History, StoredRunReadsBackWhole) {
  auto history = open_memory();
  const auto run = mixed_run(1, 2);
  const auto summary = results::summarize_run(run);
  auto series = history.begin_series(series_info(1'700'000'000'000), std::nullopt, "iomark run");
  ASSERT_TRUE(series);
  const RunId id = record(history, *series, 3, run);

  auto stored = history.show(id);
  ASSERT_TRUE(stored) << stored.error().describe();
  ASSERT_TRUE(stored->results);
  EXPECT_EQ(*stored->results, run);  // every manager, worker, target, counter and histogram
  EXPECT_EQ(stored->series, series_info(1'700'000'000'000));
  EXPECT_EQ(stored->record.position, 3U);
  EXPECT_EQ(stored->record.status, RunStatus::completed);
  EXPECT_DOUBLE_EQ(stored->record.iops.value(), summary.all.rates.iops);
  EXPECT_DOUBLE_EQ(stored->record.mb_per_s.value(), summary.all.rates.mb_per_s);
  EXPECT_DOUBLE_EQ(stored->record.average_ms.value(), summary.all.average_response_ms());
  EXPECT_EQ(stored->record.errors.value(), static_cast<std::int64_t>(summary.all.counters.error_count()));
  EXPECT_DOUBLE_EQ(stored->record.p99_ms.value(),
                   static_cast<double>(summary.all.counters.latency.percentile(99.0).count()) / 1e6);
  ASSERT_EQ(stored->hosts.size(), run.managers.size());
  for (std::size_t m = 0; m < run.managers.size(); ++m) {
    EXPECT_EQ(stored->hosts[m].manager, run.managers[m].name);
    EXPECT_EQ(stored->hosts[m].facts, run.managers[m].host);
  }

  // The run a stop cut short is a row with its figures; its stored tree says it was cut.
  auto cut = run;
  cut.end = results::RunEnd::interrupted;
  const auto stored_cut = history.show(record(history, *series, 4, cut));
  ASSERT_TRUE(stored_cut && stored_cut->results);
  EXPECT_EQ(*stored_cut->results, cut);
}

TEST(History, LoadResultsGivesTheRunsInTheOrderAsked) {
  auto history = open_memory();
  auto series = history.begin_series(series_info(5), std::nullopt, "iomark run");
  ASSERT_TRUE(series);
  const RunId first = record(history, *series, 1, mixed_run(0, 0));
  const RunId second = record(history, *series, 2, example_run());
  const std::vector<RunId> ids{second, first};
  auto loaded = history.load_results(ids);
  ASSERT_TRUE(loaded) << loaded.error().describe();
  ASSERT_EQ(loaded->runs.size(), 2U);
  EXPECT_EQ(loaded->runs[0], example_run());
  EXPECT_EQ(loaded->runs[1], mixed_run(0, 0));
  EXPECT_EQ(loaded->info, series_info(5));

  const std::vector<RunId> unknown{first, 999};
  EXPECT_EQ(history.load_results(unknown).error().code(), ErrorCode::not_found);
}

TEST(History, ListFiltersBySinceSpecAndHostNewestFirst) {
  auto history = open_memory();
  auto series = history.begin_series(series_info(0), std::nullopt, "iomark run");
  ASSERT_TRUE(series);
  auto early = mixed_run(0, 0);
  early.info.start_time = {1'000, 0};
  auto late = example_run();
  late.info.start_time = {2'000, 0};
  const RunId early_id = record(history, *series, 1, early);
  const RunId late_id = record(history, *series, 2, late);

  auto all = history.list({});
  ASSERT_TRUE(all);
  ASSERT_EQ(all->size(), 2U);
  EXPECT_EQ((*all)[0].id, late_id);
  EXPECT_EQ((*all)[1].id, early_id);

  RunFilter since;
  since.since = results::WallClockTime{1'500, 0};
  ASSERT_EQ(history.list(since)->size(), 1U);
  EXPECT_EQ(history.list(since)->front().id, late_id);

  RunFilter by_spec;
  by_spec.spec = std::string(results::test_support::kExampleSpecName);
  ASSERT_EQ(history.list(by_spec)->size(), 1U);
  EXPECT_EQ(history.list(by_spec)->front().id, late_id);

  RunFilter by_host;
  by_host.host = early.managers.back().name;
  ASSERT_EQ(history.list(by_host)->size(), 1U);
  EXPECT_EQ(history.list(by_host)->front().id, early_id);
  by_host.host = "no-such-host";
  EXPECT_TRUE(history.list(by_host)->empty());

  RunFilter newest;
  newest.limit = 1;
  ASSERT_EQ(history.list(newest)->size(), 1U);
  EXPECT_EQ(history.list(newest)->front().id, late_id);
}

TEST(History, FailedRunIsListedWithItsErrorAndHasNoTree) {
  auto history = open_memory();
  auto series = history.begin_series(series_info(0), std::nullopt, "iomark run");
  ASSERT_TRUE(series);
  const results::FailedRun failed{2, example_run().info, "manager hostA lost"};
  auto id = history.record_failure(*series, failed);
  ASSERT_TRUE(id);
  auto stored = history.show(*id);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->record.status, RunStatus::failed);
  EXPECT_EQ(stored->record.error, "manager hostA lost");
  EXPECT_FALSE(stored->record.iops);
  EXPECT_FALSE(stored->results);
  const std::vector<RunId> ids{*id};
  EXPECT_EQ(history.load_results(ids).error().code(), ErrorCode::unsupported);
}

TEST(History, VariationCoversRepeatsOfTheSameSpecDepthAndHosts) {
  auto history = open_memory();
  auto series = history.begin_series(series_info(0), std::nullopt, "iomark run");
  ASSERT_TRUE(series);
  // The same run three times in 1, 1/2 and 1/3 of the window: IOPS 1:2:3, so CV = 0.5.
  std::vector<RunId> ids;
  for (std::uint64_t scale = 1; scale <= 3; ++scale) {
    auto run = example_run();
    run.managers[0].workers[0].recording_window /= static_cast<std::int64_t>(scale);
    ids.push_back(record(history, *series, static_cast<std::uint32_t>(scale), run));
  }
  record(history, *series, 4, mixed_run(0, 0));  // another spec and hosts: not a repeat
  auto run = history.show(ids[0]);
  ASSERT_TRUE(run);
  auto variation = history.variation_of(run->record);
  ASSERT_TRUE(variation) << variation.error().describe();
  EXPECT_EQ(variation->iops.runs, 3U);
  EXPECT_NEAR(variation->iops.coefficient, 0.5, 1e-9);
  EXPECT_NEAR(variation->iops.mean, run->record.iops.value() * 2.0, 1e-6);

  // Compared with the third, the first has only the second as a repeat: IOPS 1:2.
  auto without_third = history.variation_of(run->record, ids[2]);
  ASSERT_TRUE(without_third);
  EXPECT_EQ(without_third->iops.runs, 2U);
  EXPECT_NEAR(without_third->iops.coefficient, std::sqrt(0.5) / 1.5, 1e-9);
}

TEST(History, BulkKeepsAllWritesOrNone) {
  auto history = open_memory();
  auto failed = history.bulk([&]() -> Result<void> {
    auto series = history.begin_series(series_info(0), std::nullopt, "bench");
    if (!series) return fail(series.error());
    if (auto id = history.record_run(*series, 1, example_run(), results::summarize_run(example_run())); !id) {
      return fail(id.error());
    }
    return fail(ErrorCode::internal, "stop halfway");
  });
  EXPECT_FALSE(failed);
  EXPECT_TRUE(history.list({})->empty());

  auto kept = history.bulk([&]() -> Result<void> {
    auto series = history.begin_series(series_info(0), std::nullopt, "bench");
    if (!series) return fail(series.error());
    for (std::uint32_t position = 1; position <= 3; ++position) {
      if (auto id = history.record_run(*series, position, example_run(), results::summarize_run(example_run()));
          !id) {
        return fail(id.error());
      }
    }
    return {};
  });
  ASSERT_TRUE(kept) << kept.error().describe();
  EXPECT_EQ(history.list({})->size(), 3U);
}

TEST(History, ImportsTheRunsOfAResultsCsv) {
  // iomark's own results.csv writer makes the file, so the imported figures are known.
  const auto first = mixed_run(0, 0);
  const auto second = example_run();
  results::ResultsCsvAppender appender;
  const auto info = series_info(0);
  const std::string csv = appender.begin_series(info) + appender.append_run(first) + appender.append_run(second) +
                          appender.end_series(results::SeriesOutcome::completed);
  auto history = open_memory();
  auto imported = history.import_results_csv(csv, "old/results.csv");
  ASSERT_TRUE(imported) << imported.error().describe();
  EXPECT_EQ(imported->series, 1U);
  EXPECT_EQ(imported->runs, 2U);

  auto runs = history.list({});
  ASSERT_TRUE(runs);
  ASSERT_EQ(runs->size(), 2U);
  // The same end stamp would tie; list breaks ties by id, newest first.
  const auto& second_record = (*runs)[0].position == 2 ? (*runs)[0] : (*runs)[1];
  const auto summary = results::summarize_run(second);
  EXPECT_NEAR(second_record.iops.value(), summary.all.rates.iops, 0.01);
  EXPECT_NEAR(second_record.average_ms.value(), summary.all.average_response_ms(), 0.001);
  EXPECT_EQ(second_record.spec, results::test_support::kExampleSpecName);
  EXPECT_EQ(second_record.hosts, "hostA");
  EXPECT_EQ(second_record.source, "import old/results.csv");
  EXPECT_FALSE(second_record.p99_ms);  // results.csv has no percentiles
  RunFilter by_host;
  by_host.host = first.managers.back().name;  // only the mixed run has a second manager
  ASSERT_EQ(history.list(by_host)->size(), 1U);
  EXPECT_EQ(history.list(by_host)->front().position, 1U);
  auto shown = history.show(second_record.id);
  ASSERT_TRUE(shown);
  EXPECT_FALSE(shown->results);  // figures only
}

TEST(History, ImportsEveryResultsCsvOfTheCorpus) {
  IOMARK_SKIP_WITHOUT_ICF_CORPUS();
  const auto& corpus = test_support::icf_corpus_dir();
  auto history = open_memory();
  std::size_t files = 0;
  for (const auto& entry : std::filesystem::directory_iterator(corpus)) {
    if (entry.path().extension() != ".csv") continue;
    std::ifstream in(entry.path());
    std::stringstream text;
    text << in.rdbuf();
    auto imported = history.import_results_csv(text.str(), entry.path().filename().string());
    ASSERT_TRUE(imported) << entry.path() << ": " << imported.error().describe();
    ++files;
  }
  if (files == 0) GTEST_SKIP() << "no results.csv in " << corpus;
  auto runs = history.list({});
  ASSERT_TRUE(runs);
  EXPECT_FALSE(runs->empty());
  for (const auto& run : *runs) EXPECT_TRUE(run.iops) << "run " << run.id << " of " << run.source;
}

TEST(History, DatabaseFileSurvivesReopening) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("iomark-history-test-" + std::to_string(::getpid()) + "/sub/history.sqlite");
  std::filesystem::remove_all(path.parent_path().parent_path());
  RunId id{};
  {
    auto history = History::open(path.string());
    ASSERT_TRUE(history) << history.error().describe();
    auto series = history->begin_series(series_info(0), std::nullopt, "iomark run");
    ASSERT_TRUE(series);
    id = record(*history, *series, 1, example_run());
  }
  auto reopened = History::open(path.string());
  ASSERT_TRUE(reopened);
  auto stored = reopened->show(id);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->results, example_run());
  std::filesystem::remove_all(path.parent_path().parent_path());
}

TEST(History, RateControlledRunKeepsServiceTimeAndIssueLag) {
  auto history = open_memory();
  auto series = history.begin_series(series_info(0), std::nullopt, "iomark run");
  ASSERT_TRUE(series);
  auto rated = example_run();
  for (auto& worker : rated.managers[0].workers) {
    for (auto& target : worker.targets) {
      target.counters.service.add(300'000);
      target.counters.service.add(500'000);
      target.counters.issue_lag.add(20'000);
    }
  }
  const auto summary = results::summarize_run(rated);
  ASSERT_TRUE(summary.all.rate_controlled());
  const RunId rated_id = record(history, *series, 1, rated);
  const RunId plain_id = record(history, *series, 2, example_run());

  auto stored = history.show(rated_id);
  ASSERT_TRUE(stored) << stored.error().describe();
  EXPECT_DOUBLE_EQ(stored->record.average_service_ms.value(), summary.all.average_service_ms());
  EXPECT_DOUBLE_EQ(stored->record.average_issue_lag_ms.value(), summary.all.average_issue_lag_ms());
  EXPECT_DOUBLE_EQ(stored->record.average_service_ms.value(), 0.4);
  EXPECT_DOUBLE_EQ(stored->record.average_issue_lag_ms.value(), 0.02);
  // Only rate-controlled runs have the figures: 0 would read as "issued on time".
  auto plain = history.show(plain_id);
  ASSERT_TRUE(plain);
  EXPECT_FALSE(plain->record.average_service_ms);
  EXPECT_FALSE(plain->record.average_issue_lag_ms);
  auto listed = history.list({});
  ASSERT_TRUE(listed);
  ASSERT_EQ(listed->size(), 2U);
  EXPECT_EQ(listed->at(0).id == rated_id ? listed->at(0) : listed->at(1), stored->record);
}

results::SteadyStateRecord steady_record(std::vector<double> rounds, bool steady) {
  return {.figure = "iops", .max_rounds = 25, .window = 3, .rounds = std::move(rounds), .steady = steady,
          .window_first = 0, .average = 1000.0, .data_excursion = 0.02, .slope_excursion = 0.01, .slope = 5.0,
          .reason = steady ? "" : "only 2 of the 3 rounds of the window"};
}

// A series of two runs per round, the second judged: rounds end at positions 2, 4, 6.
TEST(History, SteadyStateVerdictIsKeptWithItsSeriesAndMarksTheJudgedRun) {
  auto history = open_memory();
  auto series = history.begin_series(series_info(0), std::nullopt, "iomark run");
  auto other = history.begin_series(series_info(0), std::nullopt, "iomark run");
  ASSERT_TRUE(series && other);
  std::vector<RunId> ids;
  for (std::uint32_t position = 1; position <= 4; ++position) {
    ids.push_back(record(history, *series, position, example_run()));
  }
  const RunId unrelated = record(history, *other, 4, example_run());
  ASSERT_TRUE(history.record_steady_state(*series, 2, steady_record({990.0}, false)));
  ASSERT_TRUE(history.record_steady_state(*series, 4, steady_record({990.0, 1010.0}, false)));

  const auto marks = [&] {
    std::map<RunId, std::optional<SteadyMark>> by_id;
    auto runs = history.list({});
    EXPECT_TRUE(runs) << runs.error().describe();
    for (const auto& run : *runs) by_id[run.id] = run.steady_state;
    return by_id;
  };
  auto marked = marks();
  EXPECT_EQ(marked[ids[1]], std::nullopt);  // round 1's run: the mark follows the latest round
  EXPECT_EQ(marked[ids[3]], (SteadyMark{.round = 2, .steady = false}));
  EXPECT_EQ(marked[unrelated], std::nullopt);  // same position, another series

  for (std::uint32_t position = 5; position <= 6; ++position) {
    ids.push_back(record(history, *series, position, example_run()));
  }
  const auto verdict = steady_record({990.0, 1010.0, 1000.0}, true);
  ASSERT_TRUE(history.record_steady_state(*series, 6, verdict));
  marked = marks();
  EXPECT_EQ(marked[ids[3]], std::nullopt);
  EXPECT_EQ(marked[ids[5]], (SteadyMark{.round = 3, .steady = true}));
  for (const RunId id : ids) {
    auto stored = history.show(id);
    ASSERT_TRUE(stored) << stored.error().describe();
    EXPECT_EQ(stored->steady_state, verdict);  // every run of the series shows its verdict
    EXPECT_FALSE(stored->max_iops_search);
    EXPECT_EQ(stored->series, series_info(0));  // the rewritten document keeps the identity
  }
  EXPECT_FALSE(history.show(unrelated)->steady_state);
  EXPECT_EQ(history.record_steady_state(999, 1, verdict).error().code(), ErrorCode::not_found);
}

results::MaxIopsRecord search_record(std::optional<std::uint32_t> chosen, bool finished) {
  return {.figure = "p99",
          .limit_ms = 2.0,
          .steps = {{.run = 1, .outstanding_ios = 1, .rate_iops = std::nullopt, .iops = 1000.0, .latency_ms = 0.5,
                     .within = true},
                    {.run = 2, .outstanding_ios = 4, .rate_iops = std::nullopt, .iops = 4094.0, .latency_ms = 1.8,
                     .within = true},
                    {.run = 3, .outstanding_ios = 8, .rate_iops = 6000.0, .iops = 5900.0, .latency_ms = 3.1,
                     .within = false}},
          .chosen = chosen,
          .finished = finished,
          .conclusion = "4094 IOPS at QD 4 (p99 1.800 ms within p99 <= 2 ms)"};
}

TEST(History, MaxIopsSearchIsKeptWithItsSeriesAndMarksTheChosenRun) {
  auto history = open_memory();
  auto series = history.begin_series(series_info(0), std::nullopt, "iomark run");
  ASSERT_TRUE(series);
  std::vector<RunId> ids;
  for (std::uint32_t position = 1; position <= 3; ++position) {
    ids.push_back(record(history, *series, position, example_run()));
  }
  const auto chosen_mark = [&]() -> std::vector<std::optional<MaxIopsMark>> {
    std::vector<std::optional<MaxIopsMark>> marks;
    for (const RunId id : ids) marks.push_back(history.show(id).value().record.max_iops);
    return marks;
  };

  ASSERT_TRUE(history.record_max_iops_search(*series, search_record(std::nullopt, false)));
  for (const auto& mark : chosen_mark()) EXPECT_EQ(mark, std::nullopt);  // nothing within the bound yet

  const auto search = search_record(1, true);
  ASSERT_TRUE(history.record_max_iops_search(*series, search));
  const auto marks = chosen_mark();
  EXPECT_EQ(marks[0], std::nullopt);
  EXPECT_EQ(marks[1], (MaxIopsMark{.figure = "p99", .limit_ms = 2.0, .finished = true}));
  EXPECT_EQ(marks[2], std::nullopt);
  auto listed = history.list({});
  ASSERT_TRUE(listed);
  const auto marked = [](const RunRecord& run) { return run.max_iops.has_value(); };
  EXPECT_EQ(std::count_if(listed->begin(), listed->end(), marked), 1);
  auto stored = history.show(ids[2]);
  ASSERT_TRUE(stored);
  EXPECT_EQ(stored->max_iops_search, search);
  EXPECT_FALSE(stored->steady_state);
  EXPECT_EQ(history.record_max_iops_search(999, search).error().code(), ErrorCode::not_found);
}

TEST(History, ASeriesKeepsItsPreconditioningAndPtsMatrixForEveryRun) {
  auto history = open_memory();
  const results::PreconditionRecord precondition{.passes = 2, .block_bytes = 131072, .targets = {"db1: /dev/sdb"}};
  const results::PtsIopsRecord pts{.read_percents = {100, 0}, .block_bytes = {4096}};
  auto series = history.begin_series(series_info(0), std::nullopt, "iomark pts iops",
                                     {.steady_state = {}, .max_iops_search = {}, .precondition = precondition,
                                      .pts_iops = pts});
  ASSERT_TRUE(series) << series.error().describe();
  const auto first = record(history, *series, 1, example_run());
  const auto second = record(history, *series, 2, example_run());
  for (const auto id : {first, second}) {
    auto stored = history.show(id);
    ASSERT_TRUE(stored) << stored.error().describe();
    EXPECT_EQ(stored->precondition, precondition);
    EXPECT_EQ(stored->pts_iops, pts);
  }
  auto plain = history.begin_series(series_info(0), std::nullopt, "iomark run");
  ASSERT_TRUE(plain);
  auto stored = history.show(record(history, *plain, 1, example_run()));
  ASSERT_TRUE(stored);
  EXPECT_FALSE(stored->precondition);
  EXPECT_FALSE(stored->pts_iops);
}

TEST(History, SeriesVerdictsAndRateFiguresSurviveReopening) {
  const auto path = std::filesystem::temp_directory_path() /
                    ("iomark-history-verdicts-" + std::to_string(::getpid()) + ".sqlite");
  const auto remove = [&path] {
    for (const char* suffix : {"", "-wal", "-shm"}) std::filesystem::remove(path.string() + suffix);
  };
  remove();
  auto rated = example_run();
  rated.managers[0].workers[0].targets[0].counters.service.add(1'000'000);
  rated.managers[0].workers[0].targets[0].counters.issue_lag.add(100'000);
  const auto verdict = steady_record({990.0, 1010.0, 1000.0}, true);
  const auto search = search_record(0, false);
  RunId steady_run{};
  RunId search_run{};
  {
    auto history = History::open(path.string());
    ASSERT_TRUE(history) << history.error().describe();
    auto steady_series = history->begin_series(series_info(0), std::nullopt, "iomark run");
    auto search_series = history->begin_series(series_info(0), std::nullopt, "iomark run");
    ASSERT_TRUE(steady_series && search_series);
    steady_run = record(*history, *steady_series, 3, example_run());
    ASSERT_TRUE(history->record_steady_state(*steady_series, 3, verdict));
    search_run = record(*history, *search_series, 1, rated);
    ASSERT_TRUE(history->record_max_iops_search(*search_series, search));
  }
  for (const auto access : {Access::read_only, Access::read_write}) {
    auto reopened = History::open(path.string(), {.access = access, .lock_wait = std::nullopt});
    ASSERT_TRUE(reopened) << reopened.error().describe();
    auto steady = reopened->show(steady_run);
    ASSERT_TRUE(steady) << steady.error().describe();
    EXPECT_EQ(steady->steady_state, verdict);
    EXPECT_EQ(steady->record.steady_state, (SteadyMark{.round = 3, .steady = true}));
    auto searched = reopened->show(search_run);
    ASSERT_TRUE(searched) << searched.error().describe();
    EXPECT_EQ(searched->max_iops_search, search);
    EXPECT_EQ(searched->record.max_iops, (MaxIopsMark{.figure = "p99", .limit_ms = 2.0, .finished = false}));
    EXPECT_DOUBLE_EQ(searched->record.average_service_ms.value(), 1.0);
    EXPECT_DOUBLE_EQ(searched->record.average_issue_lag_ms.value(), 0.1);
  }
  remove();
}

TEST(History, UnknownRunIsNotFound) {
  auto history = open_memory();
  EXPECT_EQ(history.show(42).error().code(), ErrorCode::not_found);
}

}  // namespace
}  // namespace iomark::history
