// iomark-agent --protocol iometer against a fake IOmeter GUI (legacy_fake_gui.hpp): a full
// run on a temporary test file, hostile input, and the differential test against the real
// Dynamo 1.1.0 built from ../shared (skipped, naming what is missing, where it is absent).
#include <gtest/gtest.h>
#include <signal.h>
#include <stdlib.h>
#include <unistd.h>

#include <cstdio>
#include <cstring>
#include <filesystem>
#include <fstream>
#include <iostream>
#include <sstream>
#include <thread>

#include "iomark/legacy/test_spec.hpp"
#include "legacy_fake_gui.hpp"
#include "scratch_dir.hpp"
#include "support.hpp"

namespace iomark::test {
namespace {

namespace fs = std::filesystem;
using legacy::Purpose;
using namespace std::chrono_literals;

struct AgentUnderTest {
  TempDir dir;
  FakeGui gui;
  std::optional<ChildProcess> agent;
  [[nodiscard]] fs::path log() const { return dir.path() / "agent.log"; }
};

enum class Options : std::uint8_t { command_line, config_file };

// `more` is appended to the command line (Options::command_line).
std::unique_ptr<AgentUnderTest> start_agent(Options options = Options::command_line,
                                            const std::vector<std::string>& more = {}) {
  auto gui = FakeGui::listen();
  EXPECT_TRUE(gui) << gui.error().describe();
  if (!gui) return nullptr;
  auto under_test = std::unique_ptr<AgentUnderTest>(new AgentUnderTest{TempDir{"iomark-legacy-agent"}, std::move(*gui), std::nullopt});
  const auto data = under_test->dir.path() / "data";
  fs::create_directory(data);
  const std::string gui_address = "127.0.0.1:" + std::to_string(under_test->gui.port());
  std::vector<std::string> argv = {IOMARK_AGENT_BINARY, "--protocol", "iometer", "-i", gui_address, "-m",
                                   "127.0.0.1",         "-n",         "legacy-test", "--allow", data.string()};
  argv.insert(argv.end(), more.begin(), more.end());
  if (options == Options::config_file) {
    // As the packaged service is configured: every option from /etc/iomark/agent.conf.
    const auto config = under_test->dir.path() / "agent.conf";
    std::ofstream(config) << "protocol = \"iometer\"\ncontroller = \"" << gui_address
                          << "\"\naddress = \"127.0.0.1\"\nname = \"from-config\"\nallow = [\"" << data.string()
                          << "\"]\n";
    argv = {IOMARK_AGENT_BINARY, "--config", config.string()};
  }
  auto agent = ChildProcess::spawn(argv, under_test->log());
  EXPECT_TRUE(agent) << agent.error().describe();
  if (!agent) return nullptr;
  under_test->agent.emplace(std::move(*agent));
  return under_test;
}

// EXIT MANAGER: the agent exits with 0 (within Dynamo's second or so).
void expect_exit_manager_ends_agent(AgentUnderTest& under_test) {
  EXPECT_TRUE(under_test.gui.send(Purpose::exit, legacy::kManager));
  EXPECT_EQ(under_test.agent->wait_exit(5s), 0) << read_all(under_test.log());
}

// The conversation of run_plan, block for block, as Dynamo 1.1.0 holds it (IOManager.cpp).
const std::vector<std::string> kExpectedConversation = {
    "agent: LOGIN 16777472", "agent: block 888840", "gui: LOGIN 268435471",
    "gui: REPORT_TARGETS -8", "agent: block 888840", "agent: block 888840", "agent: block 888840",
    "gui: ADD_WORKERS 1", "agent: ADD_WORKERS 1",
    "gui: SET_ACCESS 0", "gui: block 888840", "agent: SET_ACCESS 1",
    "gui: SET_TARGETS 0", "gui: block 888840", "agent: SET_TARGETS 1", "agent: block 888840",
    "gui: PREP_DISKS -4", "agent: PREP_DISKS 1",
    "gui: START -4", "agent: START 1",
    "gui: BEGIN_IO -4", "agent: BEGIN_IO 1",
    "gui: RECORD_ON -4",
    "gui: REPORT_UPDATE -8", "agent: block 888840", "agent: block 888840",
    "gui: RECORD_OFF -4", "agent: RECORD_OFF -4",
    "gui: STOP -4", "agent: STOP -4",
    "gui: REPORT_RESULTS -8", "agent: block 888840", "agent: block 888840",
    "gui: EXIT -8"};

void expect_plausible(const PlanOutcome& outcome) {
  ASSERT_EQ(outcome.results.targets.size(), 1U);
  const auto& target = outcome.results.targets[0];
  const auto ios = target.read_count + target.write_count;
  EXPECT_GT(ios, 0U);
  EXPECT_GT(outcome.results.time_end, outcome.results.time_start);
  EXPECT_EQ(target.bytes_read, target.read_count * 4096);
  EXPECT_EQ(target.bytes_written, target.write_count * 4096);
  if (ios > 0) {
    const double read_percent = 100.0 * static_cast<double>(target.read_count) / static_cast<double>(ios);
    EXPECT_NEAR(read_percent, kPlanPercentReads, 5.0) << ios << " I/Os";
    const double seconds =
        static_cast<double>(outcome.results.time_end - outcome.results.time_start) / outcome.timer_resolution_hz;
    std::cout << "  " << ios << " I/Os in " << seconds << " s (" << static_cast<double>(ios) / seconds << " IOPS), "
              << read_percent << " % reads\n";
  }
  ASSERT_EQ(outcome.update.targets.size(), 1U);
  EXPECT_GT(outcome.update.targets[0].read_count + outcome.update.targets[0].write_count, 0U);
}

TEST(LegacyAgent, FullRunOnTempFileFollowsDynamosConversation) {
  auto under_test = start_agent();
  ASSERT_TRUE(under_test);
  auto outcome = run_plan(under_test->gui, {.target = (under_test->dir.path() / "data").string()});
  ASSERT_TRUE(outcome) << outcome.error().describe() << "\n" << read_all(under_test->log());
  EXPECT_EQ(outcome->timer_resolution_hz, 1e9);
  expect_plausible(*outcome);
  EXPECT_EQ(under_test->gui.transcript(), kExpectedConversation);
  EXPECT_EQ(under_test->agent->wait_exit(5s), 0) << read_all(under_test->log());
  // The test file was made where the GUI asked, at the size it asked.
  EXPECT_EQ(fs::file_size(under_test->dir.path() / "data" / "iobw.tst"), kPlanTestFileBytes);
}

TEST(LegacyAgent, ConfigFileSelectsTheIometerProtocol) {
  auto under_test = start_agent(Options::config_file);
  ASSERT_TRUE(under_test);
  auto info = under_test->gui.accept_login();
  ASSERT_TRUE(info) << info.error().describe() << "\n" << read_all(under_test->log());
  EXPECT_EQ(info->manager_name, "from-config");
  EXPECT_EQ(info->network_address, "127.0.0.1");
  EXPECT_EQ(info->version, "1.1.0");
  expect_exit_manager_ends_agent(*under_test);
}

TEST(LegacyAgent, ListsOnlyWhatAllowPermits) {
  auto under_test = start_agent();
  ASSERT_TRUE(under_test);
  ASSERT_TRUE(under_test->gui.accept_login());
  ASSERT_TRUE(under_test->gui.send(Purpose::report_targets, legacy::kManager));
  auto disks = under_test->gui.receive_block();
  ASSERT_TRUE(disks);
  auto listed = legacy::decode_target_list(*disks, legacy::TargetListUse::discovery);
  ASSERT_TRUE(listed) << listed.error().describe();
  ASSERT_EQ(listed->size(), 1U);
  EXPECT_TRUE((*listed)[0].name.starts_with((under_test->dir.path() / "data").string() + " ["));
  EXPECT_TRUE(legacy::is_type((*listed)[0].type, legacy::target_type::kLogicalDisk));
  EXPECT_FALSE(std::get<legacy::DiskDetails>((*listed)[0].details).ready);  // no iobw.tst yet
  EXPECT_FALSE(fs::exists(under_test->dir.path() / "data" / "iobw.tst"));  // listing created nothing
  for (int list = 0; list < 2; ++list) {
    auto empty = under_test->gui.receive_block();
    ASSERT_TRUE(empty);
    EXPECT_EQ(legacy::data_block_count_field(*empty), 0);
  }
  expect_exit_manager_ends_agent(*under_test);
}

legacy::DataBlock target_block(const std::string& name, std::uint32_t type = legacy::target_type::kLogicalDisk) {
  legacy::TargetSpec target;
  target.name = name;
  target.type = type | legacy::target_type::kActive;
  target.details = legacy::DiskDetails{};
  auto block = legacy::encode_target_list(std::span(&target, 1));
  EXPECT_TRUE(block);
  return block ? *block : legacy::make_data_block();
}

// A device carrying a file system is neither listed nor usable unless the operator passed
// --allow-destructive, as on the iomark protocol (a loop device over a temporary file;
// root, losetup and mkfs.ext4 only).
TEST(LegacyAgent, FormattedDeviceNeedsAllowDestructive) {
  if (!targets::test::have_program("mkfs.ext4")) GTEST_SKIP() << "mkfs.ext4 (e2fsprogs) is not installed";
  targets::test::LoopDevice loop({});
  if (!loop.attached() || !loop.error().empty()) GTEST_SKIP() << loop.error();
  ASSERT_TRUE(loop.format_ext4(loop.device()));
  struct Seen {
    bool listed{};    // REPORT_TARGETS listed the device
    bool assigned{};  // SET_TARGETS naming it answered 1
  };
  const auto try_device = [&](const std::vector<std::string>& more) -> Seen {
    Seen seen;
    auto under_test = start_agent(Options::command_line, more);
    if (!under_test || !under_test->gui.accept_login()) return seen;
    EXPECT_TRUE(under_test->gui.send(Purpose::report_targets, legacy::kManager));
    auto disks = under_test->gui.receive_block();
    EXPECT_TRUE(disks && under_test->gui.receive_block() && under_test->gui.receive_block());
    auto listed = disks ? legacy::decode_target_list(*disks, legacy::TargetListUse::discovery)
                        : Result<std::vector<legacy::TargetSpec>>(tl::unexpected(disks.error()));
    seen.listed = listed && std::any_of(listed->begin(), listed->end(), [&](const auto& t) {
                    return t.name == loop.name() && legacy::is_type(t.type, legacy::target_type::kPhysicalDisk);
                  });
    EXPECT_TRUE(under_test->gui.send(Purpose::add_workers, 1) && under_test->gui.receive());
    EXPECT_TRUE(under_test->gui.send(Purpose::set_targets, 0) &&
                under_test->gui.send_block(target_block(loop.name(), legacy::target_type::kPhysicalDisk)));
    auto answer = under_test->gui.receive();
    EXPECT_TRUE(answer && under_test->gui.receive_block());
    seen.assigned = answer && answer->data == 1;
    expect_exit_manager_ends_agent(*under_test);
    return seen;
  };
  const auto refused = try_device({"--allow", loop.device()});
  EXPECT_FALSE(refused.listed);
  EXPECT_FALSE(refused.assigned);
  const auto allowed = try_device({"--allow", loop.device(), "--allow-destructive"});
  EXPECT_TRUE(allowed.listed);
  EXPECT_TRUE(allowed.assigned);
}

TEST(LegacyAgent, RefusesOutOfRangeIndexesCountsAndNamesAndKeepsInStep) {
  auto under_test = start_agent();
  ASSERT_TRUE(under_test);
  auto& gui = under_test->gui;
  ASSERT_TRUE(gui.accept_login());
  const auto answer = [&](Purpose purpose) {
    auto reply = gui.receive();
    EXPECT_TRUE(reply) << (reply ? "" : reply.error().describe());
    EXPECT_TRUE(!reply || reply->purpose == purpose);
    return reply ? reply->data : -1000;
  };
  // More than fit: none made, answered 0, as Dynamo answers a count it cannot make in full.
  ASSERT_TRUE(gui.send(Purpose::add_workers, 1000));
  EXPECT_EQ(answer(Purpose::add_workers), 0);
  ASSERT_TRUE(gui.send(Purpose::add_workers, static_cast<std::int32_t>(legacy::kMaxWorkers)));
  EXPECT_EQ(answer(Purpose::add_workers), static_cast<std::int32_t>(legacy::kMaxWorkers));
  ASSERT_TRUE(gui.send(Purpose::exit, legacy::kAllWorkers));
  ASSERT_TRUE(gui.send(Purpose::add_workers, -5));
  EXPECT_EQ(answer(Purpose::add_workers), 0);

  access_specs::AccessSpec spec;
  spec.lines.push_back({});
  auto spec_block = legacy::encode_test_spec(spec);
  ASSERT_TRUE(spec_block);
  ASSERT_TRUE(gui.send(Purpose::set_access, 500));  // no such worker
  ASSERT_TRUE(gui.send_block(*spec_block));
  EXPECT_EQ(answer(Purpose::set_access), 0);

  ASSERT_TRUE(gui.send(Purpose::add_workers, 1));
  EXPECT_EQ(answer(Purpose::add_workers), 1);
  ASSERT_TRUE(gui.send(Purpose::set_targets, -3));  // neither a worker nor ALL_WORKERS
  ASSERT_TRUE(gui.send_block(target_block("x")));
  EXPECT_EQ(answer(Purpose::set_targets), 0);
  EXPECT_TRUE(gui.receive_block());  // the echo still comes: the conversation stays in step

  auto too_many = target_block("x");
  const std::int32_t count = 5000;  // more than the 2048 a Data_Message holds
  std::memcpy(too_many.data() + legacy::kDataCountOffset, &count, sizeof count);
  ASSERT_TRUE(gui.send(Purpose::set_targets, 0));
  ASSERT_TRUE(gui.send_block(too_many));
  EXPECT_EQ(answer(Purpose::set_targets), 0);
  EXPECT_TRUE(gui.receive_block());

  ASSERT_TRUE(gui.send(Purpose::set_targets, 0));  // not listed: outside --allow
  ASSERT_TRUE(gui.send_block(target_block("/etc [ext4]")));
  EXPECT_EQ(answer(Purpose::set_targets), 0);
  EXPECT_TRUE(gui.receive_block());

  expect_exit_manager_ends_agent(*under_test);
  EXPECT_NE(read_all(under_test->log()).find("'/etc [ext4]' is not a target this agent listed"), std::string::npos);
}

// The agent closed the command channel within `wait`, exited with 1 and logged `why`.
void expect_closed_and_failed(AgentUnderTest& under_test, std::chrono::seconds wait, const std::string& why) {
  EXPECT_TRUE(under_test.gui.channel_closed_within(wait));
  EXPECT_EQ(under_test.agent->wait_exit(3s), 1);
  EXPECT_NE(read_all(under_test.log()).find(why), std::string::npos) << read_all(under_test.log());
}

TEST(LegacyAgent, GarbagePurposeEndsTheSessionWithANamedError) {
  auto under_test = start_agent();
  ASSERT_TRUE(under_test);
  ASSERT_TRUE(under_test->gui.accept_login());
  const std::array<std::byte, 8> garbage{std::byte{0x55}, std::byte{0xAA}, std::byte{0x12}, std::byte{0x34},
                                         std::byte{0},    std::byte{1},    std::byte{2},    std::byte{3}};
  ASSERT_TRUE(under_test->gui.send_raw(garbage));
  expect_closed_and_failed(*under_test, 3s, "unknown message purpose 0x3412AA55");
}

TEST(LegacyAgent, ShortBlockTimesOutInsteadOfHanging) {
  auto under_test = start_agent();
  ASSERT_TRUE(under_test);
  ASSERT_TRUE(under_test->gui.accept_login());
  ASSERT_TRUE(under_test->gui.send(Purpose::add_workers, 1));
  ASSERT_TRUE(under_test->gui.receive());
  ASSERT_TRUE(under_test->gui.send(Purpose::set_access, 0));
  const std::vector<std::byte> part(1000);
  ASSERT_TRUE(under_test->gui.send_raw(part));  // and then nothing: the GUI stalled mid-block
  expect_closed_and_failed(*under_test, 8s, "SET_ACCESS: stalled: 1000 of 888840 bytes arrived before the deadline");
}

// WRONG_VERSION does not change by retrying: exit 5 ("refused"), which the unit does not restart.
TEST(LegacyAgent, WrongVersionAnswerEndsTheAgentAsRefused) {
  auto under_test = start_agent();
  ASSERT_TRUE(under_test);
  ASSERT_TRUE(under_test->gui.accept_login(FakeGui::LoginAnswer::wrong_version));
  EXPECT_EQ(under_test->agent->wait_exit(5s), 5);
  EXPECT_NE(read_all(under_test->log()).find("WRONG_VERSION"), std::string::npos) << read_all(under_test->log());
}

// The line of the agent's log holding `text` (empty when none does).
std::string log_line_with(const AgentUnderTest& under_test, const std::string& text) {
  std::istringstream log(read_all(under_test.log()));
  for (std::string line; std::getline(log, line);) {
    if (line.find(text) != std::string::npos) return line;
  }
  return {};
}

// A GUI that closes the connection after the results ends the agent as EXIT does.
TEST(LegacyAgent, CloseAfterTheResultsEndsTheAgentWithZero) {
  auto under_test = start_agent();
  ASSERT_TRUE(under_test);
  Plan plan{.target = (under_test->dir.path() / "data").string(), .record = 500ms};
  plan.ending = Plan::Ending::close;
  auto outcome = run_plan(under_test->gui, plan);
  ASSERT_TRUE(outcome) << outcome.error().describe() << "\n" << read_all(under_test->log());
  EXPECT_EQ(under_test->agent->wait_exit(5s), 0) << read_all(under_test->log());
  EXPECT_FALSE(log_line_with(*under_test, "closed the connection with no test running").empty())
      << read_all(under_test->log());
  EXPECT_TRUE(log_line_with(*under_test, "error").empty()) << read_all(under_test->log());
}

// ... but a GUI lost while the workers run is a failed run.
TEST(LegacyAgent, CloseInTheMiddleOfATestEndsTheAgentWithOne) {
  auto under_test = start_agent();
  ASSERT_TRUE(under_test);
  auto& gui = under_test->gui;
  auto assigned = assign_plan(gui, {.target = (under_test->dir.path() / "data").string()});
  ASSERT_TRUE(assigned) << assigned.error().describe() << "\n" << read_all(under_test->log());
  for (const auto purpose : {Purpose::prep_disks, Purpose::start, Purpose::begin_io}) {
    ASSERT_TRUE(gui.send(purpose, legacy::kAllWorkers));
    auto answer = gui.receive();
    ASSERT_TRUE(answer && answer->data == 1) << read_all(under_test->log());
  }
  gui.close_channel();
  EXPECT_EQ(under_test->agent->wait_exit(5s), 1) << read_all(under_test->log());
  const auto line = log_line_with(*under_test, "in the middle of a test");
  EXPECT_NE(line.find("error"), std::string::npos) << read_all(under_test->log());
}

// SIGTERM (systemctl stop) and SIGINT end the agent with 0, as they end the iomark daemon:
// while it waits for the GUI, while it waits for a command, and while workers run.
TEST(LegacyAgent, SigtermAndSigintEndTheAgentWithZero) {
  for (const int signal_number : {SIGTERM, SIGINT}) {
    SCOPED_TRACE(sigabbrev_np(signal_number));
    {
      auto under_test = start_agent();  // never logged in: it retries until the signal
      ASSERT_TRUE(under_test);
      std::this_thread::sleep_for(300ms);
      under_test->agent->signal(signal_number);
      EXPECT_EQ(under_test->agent->wait_exit(5s), 0) << read_all(under_test->log());
    }
    {
      auto under_test = start_agent();
      ASSERT_TRUE(under_test);
      ASSERT_TRUE(under_test->gui.accept_login());
      under_test->agent->signal(signal_number);
      EXPECT_EQ(under_test->agent->wait_exit(5s), 0) << read_all(under_test->log());
    }
    {
      auto under_test = start_agent();
      ASSERT_TRUE(under_test);
      auto& gui = under_test->gui;
      ASSERT_TRUE(assign_plan(gui, {.target = (under_test->dir.path() / "data").string()}));
      for (const auto purpose : {Purpose::prep_disks, Purpose::start, Purpose::begin_io}) {
        ASSERT_TRUE(gui.send(purpose, legacy::kAllWorkers));
        ASSERT_TRUE(gui.receive());
      }
      under_test->agent->signal(signal_number);
      EXPECT_EQ(under_test->agent->wait_exit(5s), 0) << read_all(under_test->log());
      EXPECT_TRUE(gui.channel_closed_within(1s));
    }
  }
}

// --log-level trace shows every message both ways with what its block holds; a refusal is
// an `error` line naming the message, the field and the value.
TEST(LegacyAgent, TraceLogsEveryMessageAndRefusalsAreErrors) {
  auto under_test = start_agent(Options::command_line, {"--log-level", "trace"});
  ASSERT_TRUE(under_test);
  auto outcome = run_plan(under_test->gui, {.target = (under_test->dir.path() / "data").string(), .record = 500ms});
  ASSERT_TRUE(outcome) << outcome.error().describe() << "\n" << read_all(under_test->log());
  EXPECT_EQ(under_test->agent->wait_exit(5s), 0);
  for (const std::string expected :
       {"in: REPORT_TARGETS MANAGER", "out: block (888840 bytes): REPORT_TARGETS disks, 1 target(s)",
        "in: ADD_WORKERS 1", "out: ADD_WORKERS 1", "in: SET_ACCESS 0",
        "in: SET_ACCESS block (888840 bytes): Test_Spec 'plan', 1 line(s) read: [4096,100,67,100,0,1,4096,0]",
        "in: SET_TARGETS block (888840 bytes): Target_Spec count 1: '", "out: block (888840 bytes): SET_TARGETS echo",
        "in: START ALL_WORKERS", "out: START 1", "in: RECORD_ON ALL_WORKERS",
        "out: block (888840 bytes): REPORT_UPDATE Manager_Results", "in: STOP ALL_WORKERS", "out: STOP ALL_WORKERS",
        "out: block (888840 bytes): REPORT_RESULTS Worker_Results of worker 0, 1 target(s), ", "in: EXIT MANAGER"}) {
    EXPECT_FALSE(log_line_with(*under_test, expected).empty()) << "no trace line with: " << expected;
  }

  auto refused = start_agent();
  ASSERT_TRUE(refused);
  auto& gui = refused->gui;
  ASSERT_TRUE(gui.accept_login());
  ASSERT_TRUE(gui.send(Purpose::add_workers, 1));
  ASSERT_TRUE(gui.receive());
  auto spec = legacy::encode_test_spec({"bad", access_specs::DefaultAssignment::none, {{4096, 100, 101, 0, 0, 1, 0, 0}}});
  ASSERT_TRUE(spec);
  ASSERT_TRUE(gui.send(Purpose::set_access, 0));
  ASSERT_TRUE(gui.send_block(*spec));
  auto answer = gui.receive();
  ASSERT_TRUE(answer);
  EXPECT_EQ(answer->data, 0);  // as Dynamo answers a SET_ACCESS it could not take
  expect_exit_manager_ends_agent(*refused);
  const auto line = log_line_with(*refused, "SET_ACCESS: ");
  EXPECT_NE(line.find("error"), std::string::npos) << line;
  EXPECT_NE(line.find("Test_Spec.access[0].reads"), std::string::npos) << line;
  EXPECT_NE(line.find("101"), std::string::npos) << line;
}

TEST(LegacyAgent, StopPrepareCutsPreparationShort) {
  auto under_test = start_agent();
  ASSERT_TRUE(under_test);
  Plan plan{.target = (under_test->dir.path() / "data").string()};
  // Half the free space, capped at 64 GiB: far more than is written before STOP_PREPARE,
  // yet not refused for lack of space.
  const auto free_bytes = fs::space(under_test->dir.path()).available;
  if (free_bytes < (std::uint64_t{2} << 30)) GTEST_SKIP() << "needs 2 GiB free in " << under_test->dir.path();
  plan.test_file_bytes = std::min(free_bytes / 2, std::uint64_t{64} << 30) / 4096 * 4096;
  auto assigned = assign_plan(under_test->gui, plan);
  ASSERT_TRUE(assigned) << assigned.error().describe() << "\n" << read_all(under_test->log());
  ASSERT_TRUE(under_test->gui.send(Purpose::prep_disks, legacy::kAllWorkers));
  std::this_thread::sleep_for(200ms);
  ASSERT_TRUE(under_test->gui.send(Purpose::stop_prepare, 0));
  auto done = under_test->gui.receive();  // within the receive deadline, not after 64 GiB
  ASSERT_TRUE(done) << done.error().describe();
  EXPECT_EQ(done->purpose, Purpose::prep_disks);
  EXPECT_EQ(done->data, 1);
  const auto test_file = under_test->dir.path() / "data" / "iobw.tst";
  EXPECT_LT(fs::exists(test_file) ? fs::file_size(test_file) : 0, plan.test_file_bytes);
  expect_exit_manager_ends_agent(*under_test);
}

TEST(LegacyAgent, ResetLogsInAgain) {
  auto under_test = start_agent();
  ASSERT_TRUE(under_test);
  ASSERT_TRUE(under_test->gui.accept_login());
  ASSERT_TRUE(under_test->gui.send(Purpose::add_workers, 2));
  ASSERT_TRUE(under_test->gui.receive());
  ASSERT_TRUE(under_test->gui.send(Purpose::reset, 0));
  EXPECT_TRUE(under_test->gui.channel_closed_within(3s));
  ASSERT_TRUE(under_test->gui.accept_login()) << read_all(under_test->log());
  // The workers went with the reset: results come for none of them (the manager block only).
  ASSERT_TRUE(under_test->gui.send(Purpose::report_results, legacy::kManager));
  ASSERT_TRUE(under_test->gui.receive_block());
  expect_exit_manager_ends_agent(*under_test);
  const auto& said = under_test->gui.transcript();
  EXPECT_EQ(std::count(said.begin(), said.end(), "agent: LOGIN 16777472"), 2);
  EXPECT_EQ(said.back(), "gui: EXIT -8");
  EXPECT_EQ(said[said.size() - 2], "agent: block 888840");
}

// The real Dynamo 1.1.0, built from ../shared into the build tree, isolated in a mount
// namespace where /proc/partitions is empty and $MNTTAB lists only a temporary directory,
// so it sees (and opens) nothing else.
TEST(LegacyAgent, DifferentialConversationMatchesRealDynamo) {
  const fs::path script = IOMARK_BUILD_DYNAMO_SCRIPT;
  if (!fs::exists(script)) GTEST_SKIP() << "missing " << script << " (../shared/tools/build-dynamo)";
  if (!fs::exists(fs::path(script).parent_path().parent_path() / "third-party" / "iometer-1.1.0-dynamo")) {
    GTEST_SKIP() << "missing ../shared/third-party/iometer-1.1.0-dynamo";
  }
  if (::geteuid() != 0 || std::system("unshare --mount --propagation private true 2>/dev/null") != 0) {
    GTEST_SKIP() << "needs root and unshare --mount to isolate Dynamo's device discovery";
  }
  const std::string build = std::string(IOMARK_BUILD_DYNAMO_SCRIPT) + " " + IOMARK_DYNAMO_DIR + " >/dev/null";
  ASSERT_EQ(std::system(build.c_str()), 0) << "build-dynamo failed (needs g++, make, libaio-dev)";
  const fs::path dynamo = fs::path(IOMARK_DYNAMO_DIR) / "dynamo";

  TempDir dir{"iomark-legacy-agent"};
  const auto data = dir.path() / "data";
  fs::create_directory(data);
  const auto mnttab = dir.path() / "mtab";
  std::ofstream(mnttab) << "iomark-test " << data.string() << " ext4 rw 0 0\n";
  const auto empty = dir.path() / "empty";
  std::ofstream(empty).flush();
  auto gui = FakeGui::listen();
  ASSERT_TRUE(gui);
  const std::string isolated = "mount --bind " + empty.string() + " /proc/partitions && exec " + dynamo.string() +
                               " -i 127.0.0.1 -p " + std::to_string(gui->port()) + " -m 127.0.0.1 -n dynamo";
  auto process = ChildProcess::spawn({"/usr/bin/unshare", "--mount", "--propagation", "private", "/bin/sh", "-c", isolated},
                                     dir.path() / "dynamo.log", {"MNTTAB=" + mnttab.string()});
  ASSERT_TRUE(process) << process.error().describe();
  auto dynamo_outcome = run_plan(*gui, {.target = data.string()});
  ASSERT_TRUE(dynamo_outcome) << dynamo_outcome.error().describe() << "\n" << read_all(dir.path() / "dynamo.log");
  expect_plausible(*dynamo_outcome);
  const auto dynamo_conversation = gui->transcript();
  EXPECT_TRUE(process->wait_exit(10s).has_value());

  auto under_test = start_agent();
  ASSERT_TRUE(under_test);
  auto agent_outcome = run_plan(under_test->gui, {.target = (under_test->dir.path() / "data").string()});
  ASSERT_TRUE(agent_outcome) << agent_outcome.error().describe() << "\n" << read_all(under_test->log());
  expect_plausible(*agent_outcome);
  EXPECT_EQ(under_test->gui.transcript(), dynamo_conversation);
  EXPECT_EQ(dynamo_conversation, kExpectedConversation);
}

}  // namespace
}  // namespace iomark::test
