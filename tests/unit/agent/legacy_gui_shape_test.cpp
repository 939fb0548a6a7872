// The blocks real IOmeter GUIs send (legacy_fake_gui.hpp: gui_target_block, gui_spec_block,
// written from the 1.1.0 GUI's Worker, AccessSpecList and GalileoView), not the blocks Dynamo
// reports: each shape drives the real Dynamo 1.1.0 and `iomark-agent --protocol iometer`
// through the GUI's own sequence for a QD 1, 2, 4 cycling series of a mixed spec, on a
// directory (iobw.tst prepared by PREP_DISKS) and on a loop device this test creates. Both
// must answer alike at every step, do I/O, and show the spec's read share.
#include <gtest/gtest.h>
#include <stdlib.h>
#include <unistd.h>

#include <cmath>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "legacy_fake_gui.hpp"
#include "scratch_dir.hpp"
#include "support.hpp"

namespace iomark::test {
namespace {

namespace fs = std::filesystem;
using legacy::Purpose;
using namespace std::chrono_literals;

// Every line reads 60 %, so the whole spec does, whichever line a burst draws.
constexpr double kReadPercent = 60.0;
const access_specs::AccessSpec kMixedSpec{"mixed 4K random, 64K sequential, 16K random; 60% read",
                                          access_specs::DefaultAssignment::none,
                                          {{4096, 50, 60, 100, 0, 1, 0, 0},
                                           {65536, 30, 60, 0, 0, 1, 0, 0},
                                           {16384, 20, 60, 100, 0, 1, 0, 0}}};
// Each I/O is a read with probability p = 0.6, so the read share of n I/Os spreads with a
// standard deviation of sqrt(p (1 - p) / n): 0.24 points at n = 40,000. The draws come from
// IOmeter's own generator (Dynamo's, and the agent's copy of its semantics), which at QD 1
// read 59.15-59.32 % in all four runs of the first measurement, for Dynamo and the agent
// alike: about 0.8 point of the generator's own, not chance. The 2-point bound leaves 1.2
// points beyond that, 5 standard deviations at 40,000 I/Os (a false failure about once in
// 3 million checks). A run records until its updates add up to kMinIos I/Os, as long as
// kMaxRecord allows: on a machine so loaded that a run stops short, the check still holds
// down to kFloorIos (1.2 points are 2.4 standard deviations there), and below it the run
// is a failure of its own, not a read share to judge.
constexpr double kTolerancePoints = 2.0;
constexpr std::uint64_t kMinIos = 40'000;
constexpr std::uint64_t kFloorIos = 10'000;
constexpr auto kMaxRecord = std::chrono::seconds(20);  // 12 runs stay within ctest's 300 s
constexpr auto kUpdateEvery = std::chrono::milliseconds(1000);  // the GUI's update frequency
constexpr auto kRamp = std::chrono::milliseconds(500);
constexpr std::uint32_t kQueueDepths[] = {1, 2, 4};
constexpr std::uint64_t kTestFileSectors = 4096;  // of the directory's block size (Dynamo's sector there)

struct RunFigures {
  std::uint32_t queue_depth{};
  std::uint64_t reads{};
  std::uint64_t writes{};
  double seconds{};
  [[nodiscard]] std::uint64_t ios() const { return reads + writes; }
  [[nodiscard]] double read_percent() const {
    return ios() == 0 ? 0.0 : 100.0 * static_cast<double>(reads) / static_cast<double>(ios());
  }
};

struct SeriesOutcome {
  double ticks_per_second{};  // the manager's timer resolution, from its login
  std::vector<RunFigures> runs;
  std::vector<std::string> transcript;  // REPORT_UPDATE polls of a run counted as one
};

Result<legacy::Message> expect(FakeGui& gui, Purpose purpose, std::int32_t data) {
  auto reply = gui.receive();
  if (!reply) return reply;
  if (reply->purpose != purpose || reply->data != data) {
    return fail(ErrorCode::validation_error, "expected " + std::string(legacy::to_string(purpose)) + " " +
                                                 std::to_string(data) + ", got " +
                                                 std::string(legacy::to_string(reply->purpose)) + " " +
                                                 std::to_string(reply->data));
  }
  return reply;
}

Result<void> command(FakeGui& gui, Purpose purpose, std::int32_t data, std::int32_t answer) {
  if (auto sent = gui.send(purpose, data); !sent) return sent;
  if (auto got = expect(gui, purpose, answer); !got) return tl::unexpected(got.error());
  return {};
}

Result<void> with_block(FakeGui& gui, Purpose purpose, const legacy::DataBlock& block, bool echo) {
  if (auto sent = gui.send(purpose, 0); !sent) return sent;
  if (auto sent = gui.send_block(block); !sent) return sent;
  if (auto got = expect(gui, purpose, 1); !got) return tl::unexpected(got.error());
  if (echo) {
    if (auto back = gui.receive_block(); !back) return tl::unexpected(back.error());
  }
  return {};
}

Result<std::vector<legacy::DataBlock>> blocks(FakeGui& gui, Purpose purpose, std::size_t count) {
  if (auto sent = gui.send(purpose, legacy::kManager); !sent) return tl::unexpected(sent.error());
  std::vector<legacy::DataBlock> received;
  for (std::size_t i = 0; i < count; ++i) {
    auto block = gui.receive_block();
    if (!block) return tl::unexpected(block.error());
    received.push_back(std::move(*block));
  }
  return received;
}

std::vector<std::string> without_repeated_updates(const std::vector<std::string>& transcript) {
  std::vector<std::string> kept;
  for (std::size_t i = 0; i < transcript.size(); ++i) {
    if (transcript[i] == "gui: REPORT_UPDATE -8") {
      if (kept.empty() || kept.back() != "(updates)") kept.emplace_back("(updates)");
      i += 2;  // its Manager_Results and Worker_Results blocks
      continue;
    }
    kept.push_back(transcript[i]);
  }
  return kept;
}

// As the 1.1.0 GUI runs a cycling series on one worker and one disk: REPORT_TARGETS and
// ADD_WORKERS at login; the test file first when the disk is not ready (SetTargetsToPrepare,
// PREP_DISKS); then per queue depth StartTest's SET_ACCESS, SET_TARGETS, START, BEGIN_IO,
// RECORD_ON, an update a second, RECORD_OFF, STOP, REPORT_RESULTS; EXIT at the end.
Result<SeriesOutcome> gui_series(FakeGui& gui, const std::string& target, GuiShape shape) {
  auto login = gui.accept_login();
  if (!login) return tl::unexpected(login.error());
  SeriesOutcome outcome;
  outcome.ticks_per_second = login->timer_resolution_hz;
  auto lists = blocks(gui, Purpose::report_targets, 3);
  if (!lists) return tl::unexpected(lists.error());
  const auto& reported = (*lists)[0];
  auto disks = legacy::decode_target_list(reported, legacy::TargetListUse::discovery);
  if (!disks) return tl::unexpected(disks.error());
  std::size_t index = 0;
  while (index < disks->size() && (*disks)[index].name != target && !(*disks)[index].name.starts_with(target + " [")) {
    ++index;
  }
  if (index == disks->size()) return fail(ErrorCode::not_found, "REPORT_TARGETS did not list " + target);
  const auto& disk = (*disks)[index];
  const bool logical = legacy::is_type(disk.type, legacy::target_type::kLogicalDisk);
  if (auto ok = command(gui, Purpose::add_workers, 1, 1); !ok) return tl::unexpected(ok.error());

  GuiWorkerSettings worker;
  worker.maximum_size_sectors = logical ? kTestFileSectors : 0;
  if (logical && !std::get<legacy::DiskDetails>(disk.details).ready) {
    if (auto set = with_block(gui, Purpose::set_targets, gui_target_block(reported, index, worker, shape), true); !set) {
      return tl::unexpected(set.error());
    }
    if (auto prepared = command(gui, Purpose::prep_disks, legacy::kAllWorkers, 1); !prepared) {
      return tl::unexpected(prepared.error());
    }
  }
  for (const auto queue_depth : kQueueDepths) {
    worker.queue_depth = queue_depth;
    ++worker.timestamp;  // timer_value() moves on between runs
    if (auto set = with_block(gui, Purpose::set_access, gui_spec_block(kMixedSpec, shape), false); !set) {
      return tl::unexpected(set.error());
    }
    if (auto set = with_block(gui, Purpose::set_targets, gui_target_block(reported, index, worker, shape), true); !set) {
      return tl::unexpected(set.error());
    }
    for (const auto purpose : {Purpose::start, Purpose::begin_io}) {
      if (auto ok = command(gui, purpose, legacy::kAllWorkers, 1); !ok) return tl::unexpected(ok.error());
    }
    std::this_thread::sleep_for(kRamp);
    if (auto sent = gui.send(Purpose::record_on, legacy::kAllWorkers); !sent) return tl::unexpected(sent.error());
    const auto started = std::chrono::steady_clock::now();
    std::uint64_t updated = 0;
    while (updated < kMinIos && std::chrono::steady_clock::now() - started < kMaxRecord) {
      std::this_thread::sleep_for(kUpdateEvery);
      auto update = blocks(gui, Purpose::report_update, 2);
      if (!update) return tl::unexpected(update.error());
      auto results = legacy::decode_worker_results((*update)[1]);
      if (!results) return tl::unexpected(results.error());
      for (const auto& t : results->targets) updated += t.read_count + t.write_count;
    }
    for (const auto purpose : {Purpose::record_off, Purpose::stop}) {
      if (auto ok = command(gui, purpose, legacy::kAllWorkers, legacy::kAllWorkers); !ok) {
        return tl::unexpected(ok.error());
      }
    }
    auto final_blocks = blocks(gui, Purpose::report_results, 2);
    if (!final_blocks) return tl::unexpected(final_blocks.error());
    auto results = legacy::decode_worker_results((*final_blocks)[1]);
    if (!results) return tl::unexpected(results.error());
    if (results->targets.size() != 1) return fail(ErrorCode::validation_error, "results for other than one target");
    outcome.runs.push_back({queue_depth, results->targets[0].read_count, results->targets[0].write_count,
                            static_cast<double>(results->time_end - results->time_start) / outcome.ticks_per_second});
  }
  if (auto sent = gui.send(Purpose::exit, legacy::kManager); !sent) return tl::unexpected(sent.error());
  outcome.transcript = without_repeated_updates(gui.transcript());
  return outcome;
}

class GuiShapes : public ::testing::TestWithParam<GuiShape> {};

// A manager logged in to `gui` and runs the series for `target`; its log goes to `log`.
struct Driven {
  Result<SeriesOutcome> outcome;
  std::optional<int> exit_code;
  std::string log;
};

Driven drive(const std::vector<std::string>& argv, const fs::path& log, const std::vector<std::string>& env,
             FakeGui& gui, const std::string& target, GuiShape shape) {
  auto process = ChildProcess::spawn(argv, log, env);
  if (!process) return {tl::unexpected(process.error()), std::nullopt, {}};
  auto outcome = gui_series(gui, target, shape);
  auto exit_code = process->wait_exit(10s);
  return {std::move(outcome), exit_code, read_all(log)};
}

void expect_runs_did_the_spec(const SeriesOutcome& outcome, const std::string& who) {
  ASSERT_EQ(outcome.runs.size(), std::size(kQueueDepths)) << who;
  for (const auto& run : outcome.runs) {
    const double iops = run.seconds > 0 ? static_cast<double>(run.ios()) / run.seconds : 0.0;
    std::cout << "  " << who << " QD " << run.queue_depth << ": " << run.ios() << " I/Os in " << run.seconds << " s, "
              << iops << " IOPS, " << run.read_percent() << " % reads\n";
    EXPECT_GT(iops, 0.0) << who << " QD " << run.queue_depth;
    EXPECT_GE(run.ios(), kFloorIos) << who << " QD " << run.queue_depth
                                    << ": too few I/Os in " << kMaxRecord.count() << " s to judge the read share";
    EXPECT_NEAR(run.read_percent(), kReadPercent, kTolerancePoints) << who << " QD " << run.queue_depth;
  }
}

TEST_P(GuiShapes, DriveDynamoAndAgentAlike) {
  const auto shape = GetParam();
  const fs::path script = IOMARK_BUILD_DYNAMO_SCRIPT;
  if (!fs::exists(script)) GTEST_SKIP() << "missing " << script << " (../shared/tools/build-dynamo)";
  if (!fs::exists(fs::path(script).parent_path().parent_path() / "third-party" / "iometer-1.1.0-dynamo")) {
    GTEST_SKIP() << "missing ../shared/third-party/iometer-1.1.0-dynamo";
  }
  if (::geteuid() != 0 || std::system("unshare --mount --propagation private true 2>/dev/null") != 0) {
    GTEST_SKIP() << "needs root and unshare --mount to isolate Dynamo's device discovery";
  }
  targets::test::LoopDevice loop({});
  if (!loop.attached() || !loop.error().empty()) GTEST_SKIP() << loop.error();
  // A folder per shape: ctest runs the shapes in parallel, and copying over a Dynamo that
  // another shape is running fails ("Text file busy").
  const fs::path dynamo_dir = fs::path(IOMARK_DYNAMO_DIR) / ("gui-shape-" + std::to_string(static_cast<int>(shape)));
  const std::string build = std::string(IOMARK_BUILD_DYNAMO_SCRIPT) + " " + dynamo_dir.string() + " >/dev/null";
  ASSERT_EQ(std::system(build.c_str()), 0) << "build-dynamo failed (needs g++, make, libaio-dev)";
  const fs::path dynamo = dynamo_dir / "dynamo";

  TempDir dir{"iomark-gui-shape"};
  const auto data = dir.path() / "data";
  fs::create_directory(data);
  // Dynamo sees only what this test made: $MNTTAB lists the directory, and a bind mount
  // over /proc/partitions (in its own mount namespace) lists the loop device alone.
  const auto mnttab = dir.path() / "mtab";
  std::ofstream(mnttab) << "iomark-test " << data.string() << " ext4 rw 0 0\n";
  const auto partitions = dir.path() / "partitions";
  std::ofstream(partitions) << "major minor  #blocks  name\n\n   7        0      65536 " << loop.name() << "\n";
  const std::vector<std::string> env{"MNTTAB=" + mnttab.string()};

  for (const auto& target : {data.string(), loop.name()}) {
    SCOPED_TRACE(std::string(to_string(shape)) + " on " + target);
    fs::remove(data / "iobw.tst");
    auto dynamo_gui = FakeGui::listen();
    ASSERT_TRUE(dynamo_gui);
    const std::string isolated = "mount --bind " + partitions.string() + " /proc/partitions && exec " +
                                 dynamo.string() + " -i 127.0.0.1 -p " + std::to_string(dynamo_gui->port()) +
                                 " -m 127.0.0.1 -n dynamo";
    const auto by_dynamo = drive({"/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", isolated},
                                 dir.path() / "dynamo.log", env, *dynamo_gui, target, shape);
    ASSERT_TRUE(by_dynamo.outcome) << by_dynamo.outcome.error().describe() << "\n" << by_dynamo.log;

    fs::remove(data / "iobw.tst");
    auto agent_gui = FakeGui::listen();
    ASSERT_TRUE(agent_gui);
    const auto by_agent =
        drive({IOMARK_AGENT_BINARY, "--protocol", "iometer", "-i", "127.0.0.1:" + std::to_string(agent_gui->port()), "-m",
               "127.0.0.1", "-n", "dynamo", "--allow", data.string(), "--allow", loop.device()},
              dir.path() / "agent.log", {}, *agent_gui, target, shape);
    ASSERT_TRUE(by_agent.outcome) << by_agent.outcome.error().describe() << "\n" << by_agent.log;
    EXPECT_EQ(by_agent.exit_code, 0) << by_agent.log;

    EXPECT_EQ(by_agent.outcome->transcript, by_dynamo.outcome->transcript);
    expect_runs_did_the_spec(*by_dynamo.outcome, "Dynamo");
    expect_runs_did_the_spec(*by_agent.outcome, "agent");
  }
}

INSTANTIATE_TEST_SUITE_P(LegacyGuiShape, GuiShapes,
                         ::testing::Values(GuiShape::iometer_1_1_0, GuiShape::zero_filled, GuiShape::garbage),
                         [](const auto& shape) {
                           switch (shape.param) {
                             case GuiShape::iometer_1_1_0: return std::string("Iometer110");
                             case GuiShape::zero_filled: return std::string("ZeroFilled");
                             case GuiShape::garbage: return std::string("Garbage");
                           }
                           return std::string("Unknown");
                         });

}  // namespace
}  // namespace iomark::test
