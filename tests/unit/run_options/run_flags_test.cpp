#include "iomark/run_options/run_flags.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cstdio>
#include <fstream>
#include <string>
#include <vector>

#include "iomark/access_specs/field_descriptors.hpp"

namespace iomark::run_options {
namespace {

using access_specs::FieldId;

constexpr std::array kFrontEnds{FrontEnd::controller_run, FrontEnd::agent_run_local};

// What parsing `arguments` (after the program name) gives on one front end: the flags, or
// the message CLI11 refuses them with.
struct Parsed {
  RunFlags flags;
  std::string refusal;  // empty when accepted
};

Parsed parse(FrontEnd front_end, std::vector<std::string> arguments) {
  Parsed parsed;
  CLI::App app{"test"};
  add_run_flags(app, parsed.flags, front_end);
  // run-local requires a target; give one so each test sees only its own flags' verdict (the
  // GUI takes none: it edits its workload in the window).
  if (front_end != FrontEnd::gui) arguments.insert(arguments.begin(), {"--target", "/tmp/iomark-run-options-test"});
  std::reverse(arguments.begin(), arguments.end());
  try {
    app.parse(arguments);
  } catch (const CLI::ParseError& error) {
    parsed.refusal = error.what();
  }
  return parsed;
}

TEST(RunFlags, EveryFrontEndAcceptsTheSameValues) {
  const std::vector<std::string> arguments{"--spec", "Database", "--qd", "32", "--workers", "4", "--ramp", "5",
                                           "--time", "60", "--engine", "libaio", "--size", "4G",
                                           "--data-pattern", "full-random", "--seed", "7", "--buffered-io",
                                           "--results", "r.csv", "--json", "-", "--description", "a test"};
  for (const auto front_end : kFrontEnds) {
    const auto parsed = parse(front_end, arguments);
    ASSERT_EQ(parsed.refusal, "");
    EXPECT_EQ(parsed.flags.queue_depths, "32");
    EXPECT_EQ(parsed.flags.workers, 4u);
    EXPECT_EQ(parsed.flags.ramp_s, 5u);
    EXPECT_EQ(parsed.flags.time_s, 60u);
    EXPECT_EQ(parsed.flags.engine, "libaio");
    EXPECT_EQ(parsed.flags.size, "4G");
    EXPECT_EQ(parsed.flags.data_pattern, "full-random");
    EXPECT_EQ(parsed.flags.seed, 7u);
    EXPECT_TRUE(parsed.flags.buffered);
    EXPECT_EQ(parsed.flags.results_csv, "r.csv");
    EXPECT_EQ(parsed.flags.results_json, std::string(kStandardOutput));
    EXPECT_EQ(parsed.flags.description, "a test");
  }
}

TEST(RunFlags, DataPatternTakesIometersNamesAndReductionPatterns) {
  for (const auto front_end : kFrontEnds) {
    for (const std::string pattern : {"repeating", "pseudo-random", "compress:2", "dedupe:3/8k", "compress:1.5,dedupe:2"}) {
      const auto parsed = parse(front_end, {"--data-pattern", pattern});
      EXPECT_EQ(parsed.refusal, "") << pattern;
      EXPECT_EQ(parsed.flags.data_pattern, pattern);
    }
    for (const std::string pattern : {"zeros", "compress:0.5", "dedupe:2/3k"}) {
      EXPECT_NE(parse(front_end, {"--data-pattern", pattern}).refusal, "") << pattern;
    }
  }
}

// Values just inside and just outside each limit: the same verdict and the same message on
// every front end, the limits those of the field descriptors.
TEST(RunFlags, LimitsComeFromTheFieldDescriptorsAndRefuseAlike) {
  const auto& depth = access_specs::field_descriptor(FieldId::outstanding_ios);
  const auto& ramp = access_specs::field_descriptor(FieldId::ramp_up);
  const auto& time = access_specs::field_descriptor(FieldId::run_time);
  struct Case {
    std::vector<std::string> arguments;
    bool accepted;
  };
  const std::vector<Case> cases{
      {{"--qd", std::to_string(depth.max_value)}, true},
      {{"--qd", std::to_string(depth.max_value + 1)}, false},
      {{"--qd", "0"}, false},
      {{"--ramp", std::to_string(ramp.max_value)}, true},
      {{"--ramp", std::to_string(ramp.max_value + 1)}, false},
      {{"--time", std::to_string(time.max_value)}, true},
      {{"--time", "0"}, false},  // "until stopped" exists in plans only
      {{"--workers", "1024"}, true},
      {{"--workers", "1025"}, false},
      {{"--workers", "0"}, false},
      {{"--engine", "auto"}, true},
      {{"--engine", "io_uring"}, true},
      {{"--engine", "fault-eio-every-10"}, true},
      {{"--engine", "bogus"}, false},
      {{"--data-pattern", "zeros"}, false},
  };
  for (const auto& test : cases) {
    const auto run = parse(FrontEnd::controller_run, test.arguments);
    const auto local = parse(FrontEnd::agent_run_local, test.arguments);
    EXPECT_EQ(run.refusal.empty(), test.accepted) << test.arguments[0] << ' ' << test.arguments[1] << ": "
                                                   << run.refusal;
    EXPECT_EQ(run.refusal, local.refusal) << test.arguments[0] << ' ' << test.arguments[1];
  }
}

TEST(RunFlags, RefusalsNameTheFlagAndTheLimits) {
  const auto& depth = access_specs::field_descriptor(FieldId::outstanding_ios);
  const auto refused = parse(FrontEnd::controller_run, {"--qd", "1,2," + std::to_string(depth.max_value + 1)});
  EXPECT_NE(refused.refusal.find("--qd"), std::string::npos) << refused.refusal;
  EXPECT_NE(refused.refusal.find("1.." + std::to_string(depth.max_value)), std::string::npos) << refused.refusal;
  const auto engine = parse(FrontEnd::agent_run_local, {"--engine", "bogus"});
  EXPECT_NE(engine.refusal.find("unknown engine 'bogus'"), std::string::npos) << engine.refusal;
}

TEST(RunFlags, EachFrontEndKeepsWhatOnlyItCanDo) {
  EXPECT_EQ(parse(FrontEnd::controller_run, {"--timeseries", "t.csv"}).refusal, "");
  EXPECT_NE(parse(FrontEnd::agent_run_local, {"--timeseries", "t.csv"}).refusal, "");
  EXPECT_EQ(parse(FrontEnd::controller_run, {}).flags.results_csv, "results.csv");
  EXPECT_EQ(parse(FrontEnd::agent_run_local, {}).flags.results_csv, "");

  RunFlags flags;
  CLI::App app{"test"};
  add_run_flags(app, flags, FrontEnd::agent_run_local);
  std::vector<std::string> no_target{"4", "--qd"};  // CLI11 takes them last first
  EXPECT_THROW(app.parse(no_target), CLI::RequiredError);
}

TEST(RunFlags, NetworkPairsAreTheControllersOnly) {
  const auto parsed = parse(FrontEnd::controller_run, {"--network-pair", "a:b", "--network-pair", "c@10.0.0.1:d"});
  EXPECT_EQ(parsed.refusal, "");
  EXPECT_EQ(parsed.flags.network_pairs, (std::vector<std::string>{"a:b", "c@10.0.0.1:d"}));
  EXPECT_NE(parse(FrontEnd::agent_run_local, {"--network-pair", "a:b"}).refusal, "");
}

// The GUI edits its workload in the window: it takes the times, result files, engine and
// test file size from the same table, with the same limits, and none of the workload flags.
TEST(RunFlags, TheGuiTakesTheSettingsOfAPlanNotAWorkload) {
  const auto gui = [](std::vector<std::string> arguments) { return parse(FrontEnd::gui, std::move(arguments)); };
  const auto parsed = gui({"--ramp", "5", "--time", "60", "--engine", "libaio", "--buffered-io", "--size", "4G",
                           "--results", "r.csv", "--json", "r.json", "--description", "a test"});
  ASSERT_EQ(parsed.refusal, "");
  EXPECT_EQ(parsed.flags.ramp_s, 5u);
  EXPECT_EQ(parsed.flags.time_s, 60u);
  EXPECT_EQ(parsed.flags.engine, "libaio");
  EXPECT_TRUE(parsed.flags.buffered);
  EXPECT_EQ(parsed.flags.size, "4G");
  EXPECT_EQ(parsed.flags.results_csv, "r.csv");
  EXPECT_EQ(parsed.flags.results_json, "r.json");
  EXPECT_EQ(parsed.flags.description, "a test");
  EXPECT_EQ(gui({}).flags.results_csv, "") << "the Test Setup page keeps its own default";
  for (const auto* workload : {"--target", "--spec", "--qd", "--workers", "--seed", "--timeseries"}) {
    EXPECT_NE(gui({workload, "1"}).refusal, "") << workload;
  }
  // The same limits as the other front ends, with the same words.
  const auto& time = access_specs::field_descriptor(FieldId::run_time);
  const auto too_long = std::vector<std::string>{"--time", std::to_string(time.max_value + 1)};
  EXPECT_NE(gui(too_long).refusal, "");
  EXPECT_EQ(gui(too_long).refusal, parse(FrontEnd::controller_run, too_long).refusal);
  EXPECT_EQ(gui({"--engine", "bogus"}).refusal, parse(FrontEnd::controller_run, {"--engine", "bogus"}).refusal);
}

TEST(RunFlags, HelpGroupsTheFlagsWithValueNamesAndDefaults) {
  RunFlags flags;
  CLI::App app{"test"};
  add_run_flags(app, flags, FrontEnd::controller_run);
  const auto help = app.help();
  for (const auto group : {kWorkloadGroup, kTimingGroup, kResultsGroup}) {
    EXPECT_NE(help.find(std::string(group) + ":"), std::string::npos) << group;
  }
  EXPECT_NE(help.find("--qd N[,N...]"), std::string::npos) << help;
  EXPECT_NE(help.find("--engine ENGINE=auto"), std::string::npos) << help;
  EXPECT_NE(help.find("--results FILE=results.csv"), std::string::npos) << help;
  EXPECT_NE(help.find("each in 1.." + std::to_string(access_specs::field_descriptor(FieldId::outstanding_ios).max_value)),
            std::string::npos)
      << help;
}

// Every bad value is refused by CLI11 (a usage error, exit 2), named by its flag, on every
// front end that has the flag.
TEST(RunFlags, BadValuesOfEveryConvertedFlagAreRefusedWhileParsing) {
  const std::vector<std::vector<std::string>> bad{
      {"--size", "x"},     {"--size", "0"},           {"--spec", "No Such Spec"},
      {"--spec-line", "4096,100,200,0,0,1,0,0"},   {"--qd", "1,,2"}, {"--engine", "bogus"},
      {"--data-pattern", "zeros"},
  };
  for (const auto front_end : kFrontEnds) {
    for (const auto& arguments : bad) {
      const auto parsed = parse(front_end, arguments);
      EXPECT_NE(parsed.refusal.find(arguments[0]), std::string::npos) << arguments[0] << ' ' << arguments[1] << ": "
                                                                      << parsed.refusal;
    }
  }
  for (const std::string cpus : {"3abc", "-1", "8192", ""}) {
    const auto parsed = parse(FrontEnd::agent_run_local, {"--cpus", cpus});
    EXPECT_NE(parsed.refusal.find("--cpus"), std::string::npos) << cpus << ": " << parsed.refusal;
  }
  EXPECT_EQ(parse(FrontEnd::agent_run_local, {"--cpus", "0,3,8191"}).flags.cpus, (std::vector<std::uint32_t>{0, 3, 8191}));
  EXPECT_NE(parse(FrontEnd::controller_run, {"--cpus", "0"}).refusal, "") << "run-local's alone";
}

// The flags become one typed request: what each front end runs, with no text left to read.
TEST(RunRequest, TheFlagsConvertedOnce) {
  const auto parsed = parse(FrontEnd::controller_run,
                            {"--spec", "4K random read", "--qd", "1,2,4", "--workers", "3", "--time", "7", "--engine",
                             "libaio", "--size", "64M", "--data-pattern", "compress:2", "--seed", "9", "--buffered-io",
                             "--verify", "--description", "d"});
  ASSERT_EQ(parsed.refusal, "");
  const auto request = make_run_request(parsed.flags);
  ASSERT_TRUE(request) << request.error().describe();
  EXPECT_EQ(request->targets, std::vector<std::string>{"/tmp/iomark-run-options-test"});
  EXPECT_EQ(request->spec.name, "4K random read");
  EXPECT_EQ(request->outstanding_ios, (std::vector<std::uint32_t>{1, 2, 4}));
  EXPECT_EQ(request->workers, 3U);
  EXPECT_EQ(request->run_time_s, 7U);
  EXPECT_FALSE(request->ramp_up_s);
  EXPECT_EQ(request->engine, "linux-aio") << "the canonical name the agents read";
  EXPECT_EQ(request->test_file_bytes, 64U << 20);
  ASSERT_TRUE(request->write_data.reduction);
  EXPECT_EQ(request->seed, 9U);
  EXPECT_TRUE(request->buffered);
  EXPECT_TRUE(request->verify);
  EXPECT_EQ(request->description, "d");

  const auto defaults = make_run_request(parse(FrontEnd::controller_run, {}).flags);
  ASSERT_TRUE(defaults);
  EXPECT_EQ(defaults->spec.name, kDefaultSpec);
  EXPECT_EQ(defaults->outstanding_ios, std::vector<std::uint32_t>{1});
  EXPECT_EQ(defaults->engine, "") << "auto: each agent measures";
  EXPECT_EQ(defaults->test_file_bytes, 1U << 30);
}

TEST(RunRequest, AVerifyJournalNamesTheJournalOfOneVerifiedTarget) {
  auto flags = parse(FrontEnd::agent_run_local, {"--verify-journal", "/tmp/j"}).flags;
  const auto unverified = make_run_request(flags);
  ASSERT_FALSE(unverified);
  EXPECT_EQ(unverified.error().field(), "--verify-journal");
  flags.verify = true;
  EXPECT_TRUE(make_run_request(flags));
  flags.targets.push_back("/tmp/other");
  EXPECT_FALSE(make_run_request(flags));
}

TEST(RunRequest, SteadyStateRoundsAreTheSeriesOnly) {
  const auto defaults = make_run_request(parse(FrontEnd::controller_run, {}).flags);
  ASSERT_TRUE(defaults);
  EXPECT_FALSE(defaults->steady_state) << "every run once unless asked";

  const auto asked = make_run_request(parse(FrontEnd::controller_run, {"--steady-state", "p99", "--max-rounds", "9"}).flags);
  ASSERT_TRUE(asked) << asked.error().describe();
  ASSERT_TRUE(asked->steady_state);
  EXPECT_EQ(asked->steady_state->figure, access_specs::SteadyFigure::p99_ms);
  EXPECT_EQ(asked->steady_state->max_rounds, 9U);
  EXPECT_EQ(make_run_request(parse(FrontEnd::controller_run, {"--steady-state", "mbps"}).flags)->steady_state->max_rounds,
            25U);

  EXPECT_NE(parse(FrontEnd::controller_run, {"--steady-state", "latency"}).refusal.find("iops, mbps, avg or p99"),
            std::string::npos);
  EXPECT_NE(parse(FrontEnd::controller_run, {"--max-rounds", "9"}).refusal, "") << "needs --steady-state";
  EXPECT_NE(parse(FrontEnd::controller_run, {"--steady-state", "iops", "--max-rounds", "4"}).refusal, "")
      << "a window needs 5 rounds";
  EXPECT_NE(parse(FrontEnd::agent_run_local, {"--steady-state", "iops"}).refusal, "") << "run-local makes one run";
  EXPECT_EQ(parse(FrontEnd::gui, {"--steady-state", "iops", "--max-rounds", "9"}).refusal, "") << "Test Setup's";
}

TEST(RunRequest, ARateIsEveryManagerTogetherAndTheSeriesOnly) {
  const auto defaults = make_run_request(parse(FrontEnd::controller_run, {}).flags);
  ASSERT_TRUE(defaults);
  EXPECT_FALSE(defaults->rate_iops) << "as fast as the outstanding I/Os allow unless asked";
  const auto asked = make_run_request(parse(FrontEnd::controller_run, {"--rate-iops", "2500.5"}).flags);
  ASSERT_TRUE(asked);
  EXPECT_EQ(asked->rate_iops, 2500.5);
  EXPECT_NE(parse(FrontEnd::controller_run, {"--rate-iops", "0"}).refusal, "");
  EXPECT_NE(parse(FrontEnd::controller_run, {"--rate-iops", "-5"}).refusal, "");
  EXPECT_NE(parse(FrontEnd::controller_run, {"--rate-iops", "fast"}).refusal, "");
  EXPECT_NE(parse(FrontEnd::agent_run_local, {"--rate-iops", "100"}).refusal, "") << "run-local has no schedule";
  EXPECT_NE(parse(FrontEnd::gui, {"--rate-iops", "100"}).refusal, "") << "not in the window yet";
}

TEST(RunRequest, ASearchBoundIsReadOnceIntoTheRequest) {
  const auto defaults = make_run_request(parse(FrontEnd::controller_run, {}).flags);
  ASSERT_TRUE(defaults);
  EXPECT_FALSE(defaults->find_max_iops);
  const auto asked = make_run_request(parse(FrontEnd::controller_run, {"--find-max-iops", "p99<=2ms"}).flags);
  ASSERT_TRUE(asked);
  EXPECT_EQ(asked->find_max_iops, (access_specs::LatencyBound{access_specs::LatencyFigure::p99_ms, 2.0}));
  EXPECT_NE(parse(FrontEnd::controller_run, {"--find-max-iops", "p99<2ms"}).refusal, "");
  EXPECT_NE(parse(FrontEnd::agent_run_local, {"--find-max-iops", "p99<=2ms"}).refusal, "") << "run-local makes one run";
  EXPECT_EQ(parse(FrontEnd::gui, {"--find-max-iops", "p99<=2ms"}).refusal, "") << "Test Setup's";
  EXPECT_NE(parse(FrontEnd::gui, {"--find-max-iops", "p99<=0s"}).refusal, "");
}

TEST(RunRequest, PreconditioningIsTwoPassesUnlessToldAndOnlyWhenAsked) {
  const auto defaults = make_run_request(parse(FrontEnd::controller_run, {}).flags);
  ASSERT_TRUE(defaults);
  EXPECT_EQ(defaults->precondition_passes, 0U);
  const auto asked = make_run_request(parse(FrontEnd::controller_run, {"--precondition"}).flags);
  ASSERT_TRUE(asked);
  EXPECT_EQ(asked->precondition_passes, 2U);
  const auto three = make_run_request(parse(FrontEnd::controller_run, {"--precondition", "--precondition-passes", "3"}).flags);
  ASSERT_TRUE(three);
  EXPECT_EQ(three->precondition_passes, 3U);
  EXPECT_NE(parse(FrontEnd::controller_run, {"--precondition-passes", "3"}).refusal, "") << "needs --precondition";
  EXPECT_NE(parse(FrontEnd::controller_run, {"--precondition", "--precondition-passes", "0"}).refusal, "");
  EXPECT_NE(parse(FrontEnd::controller_run, {"--precondition", "--precondition-passes", "101"}).refusal, "");
  EXPECT_EQ(asked->precondition_spec, "") << "128 KiB sequential writes";
  for (const auto front_end : {FrontEnd::controller_run, FrontEnd::gui}) {
    const auto spec = make_run_request(
        parse(front_end, {"--precondition", "--precondition-spec", "4K random write"}).flags);
    ASSERT_TRUE(spec);
    EXPECT_EQ(spec->precondition_spec, "4K random write");
    EXPECT_NE(parse(front_end, {"--precondition-spec", "4K random write"}).refusal, "") << "needs --precondition";
  }
}

TEST(RunRequest, PtsIopsIsPtsEsMatrixPreconditionedAndTrackedOn4KRandomWrites) {
  const auto defaults = make_run_request(parse(FrontEnd::controller_pts, {}).flags);
  ASSERT_TRUE(defaults) << defaults.error().describe();
  ASSERT_TRUE(defaults->pts_iops);
  EXPECT_EQ(*defaults->pts_iops, access_specs::PtsIopsMatrix{});
  EXPECT_EQ(defaults->pts_iops->read_percents.size() * defaults->pts_iops->block_bytes.size(), 56U);
  EXPECT_EQ(defaults->precondition_passes, 2U);
  EXPECT_EQ(defaults->outstanding_ios, (std::vector<std::uint32_t>{32}));
  EXPECT_EQ(defaults->run_time_s, 60U);
  EXPECT_EQ(defaults->description, "iomark pts iops");
  ASSERT_TRUE(defaults->steady_state);
  EXPECT_EQ(defaults->steady_state->figure, access_specs::SteadyFigure::iops);
  EXPECT_EQ(defaults->steady_state->tracked_spec, "PTS 4 KiB 0/100");
  EXPECT_EQ(defaults->steady_state->max_rounds, 25U);

  const auto small = make_run_request(parse(FrontEnd::controller_pts, {"--block-sizes", "4K,8k", "--mixes", "0/100,65/35",
                                                                       "--max-rounds", "6", "--precondition-passes", "1",
                                                                       "--time", "2"})
                                          .flags);
  ASSERT_TRUE(small) << small.error().describe();
  EXPECT_EQ(small->pts_iops->block_bytes, (std::vector<std::uint64_t>{4096, 8192}));
  EXPECT_EQ(small->pts_iops->read_percents, (std::vector<std::uint32_t>{0, 65}));
  EXPECT_EQ(small->steady_state->max_rounds, 6U);
  EXPECT_EQ(small->precondition_passes, 1U);
  EXPECT_EQ(small->run_time_s, 2U);

  const auto no_4k = make_run_request(parse(FrontEnd::controller_pts, {"--block-sizes", "8K"}).flags);
  ASSERT_FALSE(no_4k);
  EXPECT_EQ(no_4k.error().field(), "--block-sizes");
  const auto no_writes = make_run_request(parse(FrontEnd::controller_pts, {"--mixes", "100/0"}).flags);
  ASSERT_FALSE(no_writes);
  EXPECT_EQ(no_writes.error().field(), "--mixes");
  const auto depths = make_run_request(parse(FrontEnd::controller_pts, {"--qd", "1,2"}).flags);
  ASSERT_FALSE(depths);
  EXPECT_EQ(depths.error().field(), "--qd");
  EXPECT_NE(parse(FrontEnd::controller_pts, {"--spec", "Database"}).refusal, "") << "the matrix is the workload";
  EXPECT_NE(parse(FrontEnd::controller_pts, {"--steady-state", "p99"}).refusal, "") << "always 4 KiB write IOPS";
  EXPECT_NE(parse(FrontEnd::controller_pts, {"--block-sizes", "4K,1000"}).refusal, "") << "not whole sectors";
  EXPECT_NE(parse(FrontEnd::controller_pts, {"--block-sizes", "4K,2M"}).refusal, "") << "above 1 MiB";
  EXPECT_NE(parse(FrontEnd::controller_pts, {"--mixes", "0/100,60/30"}).refusal, "") << "not adding to 100";
  EXPECT_NE(parse(FrontEnd::controller_pts, {"--mixes", "0/100,0/100"}).refusal, "") << "twice";
}

TEST(QueueDepths, ListWithinTheDescriptor) {
  EXPECT_EQ(parse_queue_depths("1,2,4,8"), (std::vector<std::uint32_t>{1, 2, 4, 8}));
  const auto max = access_specs::field_descriptor(FieldId::outstanding_ios).max_value;
  EXPECT_EQ(parse_queue_depths(std::to_string(max)), (std::vector<std::uint32_t>{static_cast<std::uint32_t>(max)}));
  for (const auto* bad : {"", "0", "1,,2", "x", "-1", "4,"}) {
    const auto depths = parse_queue_depths(bad);
    ASSERT_FALSE(depths) << bad;
    EXPECT_EQ(depths.error().field(), "--qd");
  }
  EXPECT_FALSE(parse_queue_depths(std::to_string(max + 1)));
}

TEST(RunFlags, VerifyOnEveryFrontEndAndTheLyingEnginesAreNamedEngines) {
  const auto local = parse(FrontEnd::agent_run_local, {"--verify", "--verify-journal", "/tmp/j"});
  EXPECT_EQ(local.refusal, "");
  EXPECT_TRUE(local.flags.verify);
  EXPECT_EQ(local.flags.verify_journal, "/tmp/j");
  EXPECT_FALSE(parse(FrontEnd::agent_run_local, {}).flags.verify);
  EXPECT_TRUE(parse(FrontEnd::controller_run, {"--verify"}).flags.verify);
  for (const std::string name : {"fault-flip", "fault-shift-every-100", "fault-drop-after-10"}) {
    const auto chosen = parse_engine_choice(name);
    ASSERT_TRUE(chosen && chosen->has_value()) << name;
    EXPECT_EQ((*chosen)->kind, engine::EngineKind::sync) << "lying engines write as sync does";
    EXPECT_EQ(parse(FrontEnd::agent_run_local, {"--engine", name}).refusal, "") << name;
  }
}

TEST(EngineChoice, AutoProbesOthersNameAnEngine) {
  const auto automatic = parse_engine_choice("auto");
  ASSERT_TRUE(automatic);
  EXPECT_FALSE(automatic->has_value());
  const auto aio = parse_engine_choice("libaio");
  ASSERT_TRUE(aio);
  ASSERT_TRUE(aio->has_value());
  EXPECT_EQ((*aio)->kind, engine::EngineKind::linux_aio);
  const auto bogus = parse_engine_choice("bogus");
  ASSERT_FALSE(bogus);
  EXPECT_EQ(bogus.error().field(), "--engine");
}

TEST(EngineAvailable, WhatTheManagersInventoryListsAndAutoAlways) {
  const std::vector<std::string> without_io_uring{"linux-aio", "threadpool", "sync", "null"};
  EXPECT_TRUE(check_engine_available("auto", without_io_uring, "host-a"));
  EXPECT_TRUE(check_engine_available("", without_io_uring, "host-a")) << "RunRequest::engine's auto";
  EXPECT_TRUE(check_engine_available("libaio", without_io_uring, "host-a"));  // the alias of linux-aio
  EXPECT_TRUE(check_engine_available("fault-eio-every-10", without_io_uring, "host-a"));  // runs on sync
  const auto refused = check_engine_available("io_uring", without_io_uring, "host-a");
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().field(), "--engine");
  EXPECT_EQ(refused.error().message(), "manager 'host-a' cannot run io_uring (it has: linux-aio, threadpool, sync, null)");
  EXPECT_FALSE(check_engine_available("fault-eio-every-10", std::vector<std::string>{"io_uring"}, "host-b"));
  EXPECT_FALSE(check_engine_available("bogus", without_io_uring, "host-a"));
}

// The agent's config file is read by CLI11 through the same declarations as its flags.
TEST(ConnectionFlags, ReadFromAConfigFileAsFromTheCommandLine) {
  char path[] = "/tmp/iomark-run-options-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::close(fd);
  std::ofstream(path) << "key-file = /etc/iomark/agent.key\ntls-cert = a.pem\ntls-key = a.key\ntls-ca = ca.pem\n";
  ConnectionFlags flags;
  CLI::App app{"test"};
  app.set_config("--config");
  app.allow_config_extras(CLI::config_extras_mode::error);
  add_connection_flags(app, flags, Peer::controller);
  std::vector<std::string> arguments{path, "--config"};
  EXPECT_NO_THROW(app.parse(arguments));
  ::unlink(path);
  EXPECT_EQ(flags.key_file, "/etc/iomark/agent.key");
  EXPECT_EQ(flags.tls_cert, "a.pem");
  EXPECT_EQ(flags.tls_key, "a.key");
  EXPECT_EQ(flags.tls_ca, "ca.pem");
  EXPECT_FALSE(flags.insecure);
}

}  // namespace
}  // namespace iomark::run_options
