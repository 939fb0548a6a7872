// iomark's JSON results format: round trip, content and errors.
#include <gtest/gtest.h>

#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <fstream>
#include <functional>
#include <sstream>

#include <nlohmann/json.hpp>

#include "fixtures.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/results/results_json_file.hpp"

namespace iomark::results {
namespace {

using test_support::mixed_run;
using Json = nlohmann::json;

access_specs::TestPlan full_plan() {
  access_specs::TestPlan plan;
  access_specs::TestSetup setup;
  setup.description = "plan, with comma";
  setup.run_time_s = 90;
  setup.ramp_up_s = 5;
  setup.default_disk_workers = {std::nullopt};
  setup.default_network_workers = {2};
  setup.record_results = access_specs::RecordResults::no_targets;
  setup.worker_cycling = {1, 2, access_specs::StepType::exponential};
  setup.target_cycling = {2, 3, access_specs::StepType::linear};
  setup.queue_depth_cycling = {1, 64, 4, access_specs::StepType::exponential};
  setup.test_type = access_specs::TestType::cycle_outstanding_ios_and_targets;
  plan.setup = setup;

  access_specs::ResultsDisplay display;
  display.record_last_update = true;
  display.update_frequency_s = 2;
  display.update_type = access_specs::UpdateType::last_update;
  display.bar_charts = {access_specs::BarChart{1, "Total I/Os per Second", std::nullopt, "", std::nullopt, ""},
                        access_specs::BarChart{2, "Average I/O Response Time (ms)", 1, "hostA", 2, "Worker 2"}};
  plan.display = display;

  plan.access_specs = mixed_run(0, 0).info.specs;
  plan.access_specs->at(1).default_assignment = access_specs::DefaultAssignment::network;

  access_specs::Worker disk;
  disk.name = "Worker 1";
  disk.outstanding_ios = 16;
  disk.use_fixed_seed = true;
  disk.fixed_seed = 18'446'744'073'709'551'615ULL;
  disk.maximum_disk_size_sectors = 1'000'000;
  disk.starting_sector = 2048;
  disk.data_pattern = access_specs::DataPattern::full_random;
  disk.assigned_specs = std::vector<std::string>{"Spec A", "Spec B", "Spec A"};
  disk.targets = std::vector<access_specs::Target>{access_specs::Target{"/dev/sdb", access_specs::WorkerType::disk, {}, ""}};
  access_specs::Worker net;
  net.name = "Worker 2";
  net.type = access_specs::WorkerType::network_vi;
  net.test_connection_rate = true;
  net.transactions_per_connection = 9;
  net.local_network_interface = "10.0.0.1";
  net.vi_outstanding_ios = 3;
  net.targets = std::vector<access_specs::Target>{
      access_specs::Target{"10.0.0.2", access_specs::WorkerType::network_vi, 2, "hostB"}};
  access_specs::Worker bare;
  bare.name = "Worker 3";
  plan.managers = std::vector<access_specs::Manager>{access_specs::Manager{1, "hostA", "", {disk, net, bare}},
                                                     access_specs::Manager{2, "hostB", "192.0.2.7", {}}};
  return plan;
}

SeriesResults full_series() {
  SeriesResults series;
  series.info.test_type = access_specs::TestType::cycle_outstanding_ios;
  series.info.description = "JSON \"round\" trip \u00e9";
  series.info.start_time = WallClockTime{1'679'922'886'123, -300};
  series.info.record_results = access_specs::RecordResults::no_workers;
  series.info.iomark_version = "0.1.0";
  series.plan = full_plan();
  series.runs = {mixed_run(0, 0), mixed_run(0, 1), test_support::example_run()};
  series.runs[2].managers[0].timer_resolution_hz = 2'400'000'000;
  series.failed_runs = {FailedRun{4, mixed_run(1, 0).info, "agent 'db2' (10.0.0.2:1066): silent for 5.2 s"}};
  series.outcome = SeriesOutcome::aborted;
  return series;
}

TEST(ResultsJson, RoundTrip) {
  const SeriesResults series = full_series();
  const std::string text = write_results_json(series);
  const auto read = read_results_json(text, "results.json");
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(*read, series);
  EXPECT_EQ(write_results_json(*read), text);
}

TEST(ResultsJson, WrittenInPiecesItIsExactlyATwoSpacePrettyPrint) {
  SeriesResults series = full_series();
  for (int runs : {3, 1, 0}) {
    series.runs.resize(static_cast<std::size_t>(runs));
    const std::string text = write_results_json(series);
    EXPECT_EQ(nlohmann::ordered_json::parse(text).dump(2) + "\n", text) << runs << " runs";
  }
  series.failed_runs.clear();
  const std::string text = write_results_json(series);
  EXPECT_EQ(nlohmann::ordered_json::parse(text).dump(2) + "\n", text) << "no runs, no failed runs";
}

class ResultsJsonFileTest : public ::testing::Test {
 protected:
  void SetUp() override {
    dir_ = std::filesystem::temp_directory_path() / ("iomark-json-file-" + std::to_string(::getpid()));
    std::filesystem::remove_all(dir_);
    std::filesystem::create_directories(dir_);
  }
  void TearDown() override { std::filesystem::remove_all(dir_); }
  std::string contents() const {
    std::ifstream in(path(), std::ios::binary);
    std::ostringstream text;
    text << in.rdbuf();
    return text.str();
  }
  std::filesystem::path path() const { return dir_ / "results.json"; }

  std::filesystem::path dir_;
};

TEST_F(ResultsJsonFileTest, OnDiskAfterEveryStepItIsTheDocumentOfTheSeriesSoFar) {
  const SeriesResults full = full_series();
  SeriesResults so_far{full.info, full.plan, {}, SeriesOutcome::in_progress};
  auto file = ResultsJsonFile::create(path(), full.info, full.plan);
  ASSERT_TRUE(file) << file.error().describe();
  EXPECT_EQ(contents(), write_results_json(so_far));

  ASSERT_TRUE(file->add_run(full.runs[0]));
  so_far.runs.push_back(full.runs[0]);
  EXPECT_EQ(contents(), write_results_json(so_far));

  ASSERT_TRUE(file->add_failed_run(full.failed_runs[0]));
  so_far.failed_runs.push_back(full.failed_runs[0]);
  EXPECT_EQ(contents(), write_results_json(so_far));

  for (std::size_t r = 1; r < full.runs.size(); ++r) {
    ASSERT_TRUE(file->add_run(full.runs[r]));
    so_far.runs.push_back(full.runs[r]);
    EXPECT_EQ(contents(), write_results_json(so_far)) << "after run " << r + 1;
  }
  ASSERT_TRUE(file->finish(SeriesOutcome::aborted));
  EXPECT_EQ(contents(), write_results_json(full));
  const auto read = read_results_json(contents(), path().string());
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(*read, full);
}

TEST_F(ResultsJsonFileTest, ASeriesThatEndsWithoutRunsIsStillADocument) {
  auto file = ResultsJsonFile::create(path(), SeriesInfo{}, std::nullopt);
  ASSERT_TRUE(file) << file.error().describe();
  ASSERT_TRUE(file->finish(SeriesOutcome::completed));
  const auto read = read_results_json(contents(), path().string());
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_TRUE(read->runs.empty());
  EXPECT_EQ(read->outcome, SeriesOutcome::completed);
}

TEST_F(ResultsJsonFileTest, AFileThatCannotBeWrittenIsANamedError) {
  const auto missing = dir_ / "no-such-directory" / "results.json";
  const auto file = ResultsJsonFile::create(missing, SeriesInfo{}, std::nullopt);
  ASSERT_FALSE(file);
  EXPECT_NE(file.error().message().find(missing.string()), std::string::npos) << file.error().message();

  auto removed = ResultsJsonFile::create(path(), SeriesInfo{}, std::nullopt);
  ASSERT_TRUE(removed);
  std::filesystem::remove(path());
  const auto added = removed->add_run(mixed_run(0, 0));
  ASSERT_FALSE(added);
  EXPECT_NE(added.error().message().find(path().string()), std::string::npos) << added.error().message();
}

TEST(ResultsJson, RoundTripOfMinimalSeries) {
  for (const SeriesOutcome outcome : {SeriesOutcome::in_progress, SeriesOutcome::completed}) {
    SeriesResults series;
    series.outcome = outcome;
    series.runs.emplace_back();  // a run without managers
    const auto read = read_results_json(write_results_json(series));
    ASSERT_TRUE(read) << read.error().describe();
    EXPECT_EQ(*read, series);
  }
  SeriesResults with_empty_plan;
  with_empty_plan.plan = access_specs::TestPlan{};
  const auto read = read_results_json(write_results_json(with_empty_plan));
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(*read, with_empty_plan);
}

TEST(ResultsJson, DocumentCarriesFormatAndAggregates) {
  const SeriesResults series = full_series();
  const Json json = Json::parse(write_results_json(series));
  EXPECT_EQ(json.at("format"), "iomark-results");
  EXPECT_EQ(json.at("format_version"), 1);
  EXPECT_EQ(json.at("outcome"), "aborted");
  EXPECT_EQ(json.at("series").at("test_type"), "CYCLE_OUTSTANDING_IOS");
  EXPECT_EQ(json.at("series").at("start_time"), "2023-03-27T08:14:46.123-05:00");
  EXPECT_EQ(json.at("plan").at("setup").at("default_disk_workers"), "NUMBER_OF_CPUS");

  // The example run: 600000 I/Os over 60 s, 1.633 ms average, 31 ms maximum.
  const Json& example = json.at("runs").at(2);
  const Json& all = example.at("summary");
  EXPECT_DOUBLE_EQ(all.at("iops").get<double>(), 10000.0);
  EXPECT_DOUBLE_EQ(all.at("mib_per_s").get<double>(), 39.0625);
  EXPECT_DOUBLE_EQ(all.at("mb_per_s").get<double>(), 40.96);
  EXPECT_NEAR(all.at("average_response_ms").get<double>(), 1.633, 1e-12);
  EXPECT_DOUBLE_EQ(all.at("maximum_response_ms").get<double>(), 31.0);
  EXPECT_NEAR(all.at("cpu_effectiveness").get<double>(), 10000.0 / 11.0, 1e-9);
  EXPECT_EQ(all.at("queue_depth"), 16);
  EXPECT_EQ(all.at("transactions_per_connection"), nullptr);
  EXPECT_EQ(all.at("legacy_bins").at(5), 201000);
  EXPECT_EQ(all.at("counters").at("reads").at("count"), 402000);
  // Percentiles of the example's histogram (bins hold 300 us, 700 us, 1.5 ms, 3 ms, ...):
  // of 600000 I/Os the 300000th is among the 1.5 ms ones, the 540000th among the 7 ms ones,
  // the 594000th among the 17 ms ones, the 599400th 40 ms and the 599940th 70 ms.
  const Json& latency = all.at("latency_ns");
  EXPECT_EQ(latency.at("count"), 600000);
  EXPECT_EQ(latency.at("min"), 300000);
  EXPECT_EQ(latency.at("max"), 300000000);
  EXPECT_NEAR(latency.at("p50").get<double>(), 1.5e6, 1.5e4);
  EXPECT_NEAR(latency.at("p90").get<double>(), 7e6, 7e4);
  EXPECT_NEAR(latency.at("p99").get<double>(), 17e6, 17e4);
  EXPECT_NEAR(latency.at("p99_9").get<double>(), 40e6, 40e4);
  EXPECT_NEAR(latency.at("p99_99").get<double>(), 70e6, 70e4);
  const Json& manager = example.at("managers").at(0);
  EXPECT_EQ(manager.at("timer_resolution_hz"), 2400000000ULL);
  EXPECT_EQ(manager.at("summary").at("run_time_ns"), 60000000000LL);
  EXPECT_DOUBLE_EQ(manager.at("summary").at("cpu").at("total_percent").get<double>(), 11.0);
  const Json& target = manager.at("workers").at(0).at("targets").at(0);
  EXPECT_DOUBLE_EQ(target.at("summary").at("iops").get<double>(), 10000.0);
  EXPECT_EQ(target.at("counters").at("latency").at("legacy_bins").size(), 21u);
  EXPECT_FALSE(target.at("summary").contains("cpu"));
}

Error read_error(const Json& document) {
  const auto result = read_results_json(document.dump(), "r.json");
  EXPECT_FALSE(result);
  return result ? Error(ErrorCode::internal, "no error") : result.error();
}

TEST(ResultsJson, RejectsOtherFormatsAndVersions) {
  Json document = Json::parse(write_results_json(full_series()));
  Json other = document;
  other["format"] = "fio";
  EXPECT_EQ(read_error(other).field(), "format");
  Json newer = document;
  newer["format_version"] = 2;
  EXPECT_EQ(read_error(newer).field(), "format_version");
  EXPECT_EQ(read_error(Json::array()).code(), ErrorCode::parse_error);
}

TEST(ResultsJson, ErrorsNameTheJsonPath) {
  Json document = Json::parse(write_results_json(full_series()));
  Json missing = document;
  missing["runs"][1]["managers"][0]["workers"][1].erase("queue_depth");
  EXPECT_EQ(read_error(missing).field(), "runs[1].managers[0].workers[1].queue_depth");

  Json wrong_type = document;
  wrong_type["runs"][0]["managers"][1]["cpus"][0]["user_percent"] = "a lot";
  EXPECT_EQ(read_error(wrong_type).field(), "runs[0].managers[1].cpus[0].user_percent");

  Json bad_enum = document;
  bad_enum["plan"]["managers"][0]["workers"][0]["data_pattern"] = "zeros";
  EXPECT_EQ(read_error(bad_enum).field(), "plan.managers[0].workers[0].data_pattern");

  Json bad_time = document;
  bad_time["runs"][0]["end_time"] = "yesterday";
  EXPECT_EQ(read_error(bad_time).field(), "runs[0].end_time");

  Json too_big = document;
  too_big["runs"][0]["access_index"] = 1ULL << 40;
  EXPECT_EQ(read_error(too_big).field(), "runs[0].access_index");

  Json bad_histogram = document;
  bad_histogram["runs"][0]["managers"][0]["workers"][0]["targets"][0]["counters"]["latency"]["legacy_bins"][3] = 7;
  EXPECT_EQ(read_error(bad_histogram).field(), "runs[0].managers[0].workers[0].targets[0].counters.latency");
}

// Numbers no figure has: refused with their JSON path, and a number no double holds with its
// line (it used to escape as nlohmann's out_of_range and abort the process).
TEST(ResultsJson, RefusesNumbersThatAreNotFigures) {
  Json document = Json::parse(write_results_json(full_series()));
  for (const double value : {1e15, -1e17, 1e300, -1e15}) {
    Json huge = document;
    huge["runs"][0]["managers"][1]["cpus"][0]["user_percent"] = value;
    const Error error = read_error(huge);
    EXPECT_EQ(error.field(), "runs[0].managers[1].cpus[0].user_percent") << value;
    EXPECT_NE(error.message().find("not a figure"), std::string::npos) << error.message();
  }
  std::string text = document.dump(2);
  const auto key = text.find("\"user_percent\": ");
  ASSERT_NE(key, std::string::npos);
  const auto value_end = text.find_first_of(",\n", key);
  const auto value_start = key + std::string_view("\"user_percent\": ").size();
  text.replace(value_start, value_end - value_start, "-1e400");
  const std::uint64_t line = 1 + static_cast<std::uint64_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(key), '\n'));
  const auto overflow = read_results_json(text, "x.json");
  ASSERT_FALSE(overflow);
  EXPECT_EQ(overflow.error().code(), ErrorCode::parse_error);
  EXPECT_EQ(overflow.error().location(), (SourceLocation{"x.json", line})) << overflow.error().describe();
  EXPECT_NE(overflow.error().message().find("-1e400"), std::string::npos) << overflow.error().message();
}

TEST(ResultsJson, RefusesTextsAboveTheSizeLimit) {
  const std::string text(kMaxJsonBytes + 1, ' ');
  const auto read = read_results_json(text, "big.json");
  ASSERT_FALSE(read);
  EXPECT_EQ(read.error().location().file, "big.json");
  EXPECT_NE(read.error().message().find("256 MiB"), std::string::npos) << read.error().message();
}

TEST(ResultsJson, WorkersCarryTheirEngineWhenKnownAndItIsOptionalOnInput) {
  const SeriesResults series = full_series();
  Json document = Json::parse(write_results_json(series));
  const Json& workers = document.at("runs").at(0).at("managers").at(0).at("workers");
  EXPECT_EQ(workers.at(0).at("engine").at("name"), "linux-aio");
  EXPECT_EQ(workers.at(0).at("engine").at("reason"), "linux-aio at depth 8: 168 K IOPS, 2.70 \xC2\xB5s CPU/IO");
  EXPECT_FALSE(workers.at(1).contains("engine")) << "unknown engine: no key";

  // Files written before the engine was recorded have no such key.
  document["runs"][0]["managers"][0]["workers"][0].erase("engine");
  const auto read = read_results_json(document.dump());
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_TRUE(read->runs.at(0).managers.at(0).workers.at(0).engine.empty());
}

TEST(ResultsJson, FailedRunsCarryTheirPlaceAndErrorAndAreOptionalOnInput) {
  const SeriesResults series = full_series();
  Json document = Json::parse(write_results_json(series));
  const Json& failed = document.at("failed_runs").at(0);
  EXPECT_EQ(failed.at("position"), 4);
  EXPECT_EQ(failed.at("error"), "agent 'db2' (10.0.0.2:1066): silent for 5.2 s");
  EXPECT_EQ(failed.at("access_index"), 1);

  // Files written before failed runs were recorded have no such key.
  document.erase("failed_runs");
  const auto read = read_results_json(document.dump());
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_TRUE(read->failed_runs.empty());

  document["failed_runs"] = Json::array({Json{{"position", 1}}});
  EXPECT_EQ(read_error(document).field(), "failed_runs[0].access_index");
}

TEST(ResultsJson, ASeriesRunInRoundsCarriesItsSteadyStateAndOthersHaveNone) {
  SeriesResults series = full_series();
  EXPECT_FALSE(Json::parse(write_results_json(series)).contains("steady_state"));

  series.steady_state = SteadyStateRecord{.figure = "iops",
                                          .max_rounds = 25,
                                          .window = 5,
                                          .rounds = {1200.5, 1010, 1001, 1000, 999, 1002},
                                          .steady = true,
                                          .window_first = 1,
                                          .average = 1002.4,
                                          .data_excursion = 0.0109,
                                          .slope_excursion = 0.0032,
                                          .slope = -0.8,
                                          .reason = ""};
  const std::string text = write_results_json(series);
  EXPECT_EQ(nlohmann::ordered_json::parse(text).dump(2) + "\n", text);
  const auto read = read_results_json(text, "results.json");
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(*read, series);

  Json document = Json::parse(text);
  document["steady_state"]["rounds"][2] = "fast";
  EXPECT_EQ(read_error(document).field(), "steady_state.rounds[2]");
}

// QD 1, 2, 4 as fast as they go, then two rates between what QD 2 and QD 4 achieved.
MaxIopsRecord max_iops_search_of_five_steps() {
  return MaxIopsRecord{.figure = "p99",
                       .limit_ms = 2,
                       .steps = {{.run = 1, .outstanding_ios = 1, .iops = 1210.5, .latency_ms = 0.91, .within = true},
                                 {.run = 2, .outstanding_ios = 2, .iops = 2380, .latency_ms = 1.42, .within = true},
                                 {.run = 3, .outstanding_ios = 4, .iops = 3900, .latency_ms = 3.8, .within = false},
                                 {.run = 4, .outstanding_ios = 4, .rate_iops = 3140, .iops = 3139.5, .latency_ms = 1.87,
                                  .within = true},
                                 {.run = 5, .outstanding_ios = 4, .rate_iops = 3520, .iops = 3518, .latency_ms = 2.6,
                                  .within = false}},
                       .chosen = 3,
                       .finished = true,
                       .conclusion = "3140 IOPS at QD 4 (p99 1.87 ms <= 2 ms)"};
}

TEST(ResultsJson, AMaxIopsSearchCarriesEveryStepAndItsChoiceAndOthersHaveNone) {
  SeriesResults series = full_series();
  EXPECT_FALSE(Json::parse(write_results_json(series)).contains("max_iops_search"));

  series.max_iops_search = max_iops_search_of_five_steps();
  const std::string text = write_results_json(series);
  EXPECT_EQ(nlohmann::ordered_json::parse(text).dump(2) + "\n", text);
  const auto read = read_results_json(text, "results.json");
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(*read, series);

  const Json document = Json::parse(text);
  const Json& search = document.at("max_iops_search");
  EXPECT_EQ(search.at("figure"), "p99");
  EXPECT_EQ(search.at("chosen"), 3);
  EXPECT_TRUE(search.at("steps").at(0).at("rate_iops").is_null()) << "as fast as the depth allows";
  EXPECT_EQ(search.at("steps").at(3).at("rate_iops"), 3140.0);
  const auto in_order = nlohmann::ordered_json::parse(text);
  std::vector<std::string> keys;
  for (const auto& item : in_order.items()) keys.push_back(item.key());
  EXPECT_EQ(keys, (std::vector<std::string>{"format", "format_version", "series", "plan", "runs", "failed_runs",
                                            "max_iops_search", "outcome"}));

  // No step within the bound yet: nothing chosen.
  series.max_iops_search->chosen.reset();
  series.max_iops_search->finished = false;
  const auto none_chosen = read_results_json(write_results_json(series));
  ASSERT_TRUE(none_chosen) << none_chosen.error().describe();
  EXPECT_EQ(*none_chosen, series);
  EXPECT_TRUE(Json::parse(write_results_json(series)).at("max_iops_search").at("chosen").is_null());
}

TEST(ResultsJson, AMaxIopsSearchWithImpossibleFiguresIsRefusedByPath) {
  SeriesResults series = full_series();
  series.max_iops_search = max_iops_search_of_five_steps();
  const Json document = Json::parse(write_results_json(series));
  const auto refused = [&document](const std::function<void(Json&)>& spoil) {
    Json spoiled = document;
    spoil(spoiled["max_iops_search"]);
    const Error error = read_error(spoiled);
    return error.field() + ": " + error.message();
  };
  EXPECT_EQ(refused([](Json& s) { s["steps"][2]["iops"] = -1; }), "max_iops_search.steps[2].iops: must not be negative");
  EXPECT_EQ(refused([](Json& s) { s["steps"][1]["latency_ms"] = -0.5; }),
            "max_iops_search.steps[1].latency_ms: must not be negative");
  EXPECT_EQ(refused([](Json& s) { s["steps"][4]["rate_iops"] = -3520; }),
            "max_iops_search.steps[4].rate_iops: must not be negative");
  EXPECT_EQ(refused([](Json& s) { s["limit_ms"] = -2; }), "max_iops_search.limit_ms: must not be negative");
  EXPECT_EQ(refused([](Json& s) { s["steps"][2]["latency_ms"] = 1e300; }),
            "max_iops_search.steps[2].latency_ms: not a figure (finite, below 1e15 in magnitude)");
  EXPECT_EQ(refused([](Json& s) { s["steps"][0]["iops"] = "fast"; }), "max_iops_search.steps[0].iops: expected a number");
  EXPECT_EQ(refused([](Json& s) { s["steps"][0]["outstanding_ios"] = 0; }),
            "max_iops_search.steps[0].outstanding_ios: must not be 0");
  EXPECT_EQ(refused([](Json& s) { s["chosen"] = 5; }), "max_iops_search.chosen: no such step (5 steps)");
  EXPECT_EQ(refused([](Json& s) { s["chosen"] = -1; }), "max_iops_search.chosen: expected an unsigned integer");
  EXPECT_EQ(refused([](Json& s) { s["steps"] = Json::array(); }), "max_iops_search.chosen: no such step (0 steps)");
  EXPECT_EQ(refused([](Json& s) { s["steps"][3].erase("within"); }), "max_iops_search.steps[3].within: missing");
  EXPECT_EQ(refused([](Json& s) { s = Json::array(); }), "max_iops_search: expected an object");
}

TEST(ResultsJson, ARunAtARateCarriesItsServiceTimesAndLagAndOthersHaveNone) {
  SeriesResults series = full_series();
  const Json plain = Json::parse(write_results_json(series));
  const Json& plain_target = plain.at("runs").at(0).at("managers").at(0).at("workers").at(0).at("targets").at(0);
  EXPECT_FALSE(plain_target.at("counters").contains("service"));
  EXPECT_FALSE(plain_target.at("summary").contains("average_issue_lag_ms"));

  auto& counters = series.runs[0].managers[0].workers[0].targets[0].counters;
  for (std::uint64_t i = 0; i < counters.io_count(); ++i) {
    counters.service.add(400'000);
    counters.issue_lag.add(i % 2 == 0 ? 0 : 2'000'000);
  }
  const std::string text = write_results_json(series);
  const auto read = read_results_json(text, "results.json");
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(*read, series);
  const Json document = Json::parse(text);
  const Json& target = document.at("runs").at(0).at("managers").at(0).at("workers").at(0).at("targets").at(0);
  EXPECT_EQ(target.at("counters").at("service").at("max_ns"), 400'000);
  EXPECT_DOUBLE_EQ(target.at("summary").at("average_service_ms").get<double>(), 0.4);
  EXPECT_NEAR(target.at("summary").at("average_issue_lag_ms").get<double>(), 1.0, 0.01);
  EXPECT_DOUBLE_EQ(target.at("summary").at("maximum_issue_lag_ms").get<double>(), 2.0);
  // Summed into the ALL row as every counter is.
  EXPECT_DOUBLE_EQ(document.at("runs").at(0).at("summary").at("average_service_ms").get<double>(), 0.4);

  Json bad = document;
  bad["runs"][0]["managers"][0]["workers"][0]["targets"][0]["counters"]["issue_lag"]["count"] = -1;
  EXPECT_EQ(read_error(bad).field(), "runs[0].managers[0].workers[0].targets[0].counters.issue_lag.count");
}

TEST_F(ResultsJsonFileTest, TheSteadyStateRecordOnDiskIsTheLatestRound) {
  SeriesResults series = full_series();
  series.runs.resize(1);
  series.failed_runs.clear();
  auto file = ResultsJsonFile::create(path(), series.info, series.plan);
  ASSERT_TRUE(file) << file.error().describe();
  ASSERT_TRUE(file->add_run(series.runs[0]));
  SteadyStateRecord record{.figure = "p99", .max_rounds = 5, .window = 5, .rounds = {2.5}, .reason = "1 of 5 rounds"};
  ASSERT_TRUE(file->set_steady_state(record));
  record.rounds.push_back(2.4);
  record.reason = "2 of 5 rounds";
  ASSERT_TRUE(file->set_steady_state(record));
  ASSERT_TRUE(file->finish(SeriesOutcome::completed));
  series.steady_state = record;
  series.outcome = SeriesOutcome::completed;
  EXPECT_EQ(contents(), write_results_json(series));
}

TEST_F(ResultsJsonFileTest, TheMaxIopsSearchOnDiskIsTheLatestStep) {
  SeriesResults series = full_series();
  series.runs.resize(1);
  series.failed_runs.clear();
  auto file = ResultsJsonFile::create(path(), series.info, series.plan);
  ASSERT_TRUE(file) << file.error().describe();
  ASSERT_TRUE(file->add_run(series.runs[0]));
  MaxIopsRecord record{.figure = "avg", .limit_ms = 1, .conclusion = "searching"};
  record.steps.push_back({.run = 1, .outstanding_ios = 1, .iops = 900, .latency_ms = 0.4, .within = true});
  ASSERT_TRUE(file->set_max_iops_search(record));
  record.steps.push_back({.run = 2, .outstanding_ios = 2, .iops = 1700, .latency_ms = 0.8, .within = true});
  record.chosen = 1;
  ASSERT_TRUE(file->set_max_iops_search(record));
  ASSERT_TRUE(file->finish(SeriesOutcome::completed));
  series.max_iops_search = record;
  series.outcome = SeriesOutcome::completed;
  EXPECT_EQ(contents(), write_results_json(series));
  const auto read = read_results_json(contents());
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(read->max_iops_search, record);
}

TEST_F(ResultsJsonFileTest, PreconditioningAndAPtsMatrixAreInTheDocumentFromItsFirstWriteAndReadBack) {
  SeriesResults series = full_series();
  series.runs.resize(1);
  series.failed_runs.clear();
  const PreconditionRecord precondition{.passes = 2, .block_bytes = 131072, .targets = {"db1: /dev/sdb", "db2: /dev/sdb"}};
  const PtsIopsRecord pts{.read_percents = {100, 0}, .block_bytes = {8192, 4096}};
  auto file = ResultsJsonFile::create(path(), series.info, series.plan,
                                      {.steady_state = {}, .max_iops_search = {}, .precondition = precondition,
                                       .pts_iops = pts});
  ASSERT_TRUE(file) << file.error().describe();
  const auto before_any_run = read_results_json(contents());
  ASSERT_TRUE(before_any_run) << before_any_run.error().describe();
  EXPECT_EQ(before_any_run->precondition, precondition);
  EXPECT_EQ(before_any_run->pts_iops, pts);
  ASSERT_TRUE(file->add_run(series.runs[0]));
  ASSERT_TRUE(file->finish(SeriesOutcome::completed));
  series.precondition = precondition;
  series.pts_iops = pts;
  series.outcome = SeriesOutcome::completed;
  EXPECT_EQ(contents(), write_results_json(series));
  const auto read = read_results_json(contents());
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(*read, series);
  EXPECT_FALSE(Json::parse(write_results_json(full_series())).contains("precondition")) << "only where it ran";
  series.precondition = PreconditionRecord{
      .passes = 3,
      .block_bytes = 0,
      .targets = {"db1: /dev/sdb"},
      .spec = access_specs::AccessSpec{"4K random write", {}, {{4096, 100, 0, 100, 0, 1, 4096, 0}}}};
  const auto with_spec = read_results_json(write_results_json(series));
  ASSERT_TRUE(with_spec) << with_spec.error().describe();
  EXPECT_EQ(with_spec->precondition, series.precondition);
  EXPECT_FALSE(Json::parse(write_results_json(full_series())).contains("pts_iops"));
}

TEST(ResultsJson, ImpossiblePreconditioningAndPtsRecordsAreRefusedByPath) {
  SeriesResults series = full_series();
  series.precondition = PreconditionRecord{.passes = 2, .block_bytes = 131072, .targets = {"db1: /dev/sdb"}};
  series.pts_iops = PtsIopsRecord{.read_percents = {100, 0}, .block_bytes = {8192, 4096}};
  const Json document = Json::parse(write_results_json(series));
  const auto refused = [&document](const char* key, const std::function<void(Json&)>& spoil) {
    Json spoiled = document;
    spoil(spoiled[key]);
    const Error error = read_error(spoiled);
    return error.field() + ": " + error.message();
  };
  EXPECT_EQ(refused("precondition", [](Json& p) { p["passes"] = 0; }), "precondition.passes: must not be 0");
  EXPECT_EQ(refused("precondition", [](Json& p) { p["block_bytes"] = 0; }), "precondition.block_bytes: must not be 0");
  EXPECT_EQ(refused("precondition", [](Json& p) { p["targets"][0] = 3; }), "precondition.targets[0]: expected a string");
  EXPECT_EQ(refused("precondition", [](Json& p) { p["spec"] = Json{{"name", "w"}, {"default_assignment", "none"}, {"lines", Json::array()}}; }),
            "precondition.block_bytes: must be 0 with a spec");
  EXPECT_EQ(refused("pts_iops", [](Json& p) { p["read_percents"][1] = 101; }),
            "pts_iops.read_percents[1]: expected a whole number from 0 to 100");
  EXPECT_EQ(refused("pts_iops", [](Json& p) { p["block_bytes"][0] = 0; }),
            "pts_iops.block_bytes[0]: expected a whole number from 1 to 1073741824");
  EXPECT_EQ(refused("pts_iops", [](Json& p) { p["block_bytes"] = Json::array(); }),
            "pts_iops.block_bytes: must not be empty");
  EXPECT_EQ(refused("pts_iops", [](Json& p) { p["read_percents"] = Json(std::vector<int>(65, 1)); }),
            "pts_iops: more than 64 mixes or block sizes");
}

TEST(ResultsJson, EachRunSaysWhetherAStopCutItShortAndOlderFilesReadAsCompleted) {
  SeriesResults series = full_series();
  series.runs.back().end = RunEnd::interrupted;
  series.outcome = SeriesOutcome::aborted;
  Json document = Json::parse(write_results_json(series));
  EXPECT_EQ(document.at("runs").at(0).at("outcome"), "completed");
  EXPECT_EQ(document.at("runs").back().at("outcome"), "interrupted");
  const auto read = read_results_json(document.dump());
  ASSERT_TRUE(read) << read.error().describe();
  EXPECT_EQ(*read, series);

  for (auto& run : document["runs"]) run.erase("outcome");  // written before runs said so
  const auto older = read_results_json(document.dump());
  ASSERT_TRUE(older) << older.error().describe();
  EXPECT_EQ(older->runs.back().end, RunEnd::completed);

  document["runs"][0]["outcome"] = "half-done";
  EXPECT_EQ(read_error(document).field(), "runs[0].outcome");
}

TEST(ResultsJson, SyntaxErrorsCarryTheLine) {
  const auto result = read_results_json("{\n  \"format\": \"iomark-results\",\n  oops\n}\n", "r.json");
  ASSERT_FALSE(result);
  EXPECT_EQ(result.error().code(), ErrorCode::parse_error);
  EXPECT_EQ(result.error().location(), (SourceLocation{"r.json", 3}));
}

}  // namespace
}  // namespace iomark::results
