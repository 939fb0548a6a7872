#include "iomark/agent/run_session.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <filesystem>
#include <fstream>
#include <thread>

#include "iomark/access_specs/builtin_specs.hpp"

namespace iomark::agent {
namespace {

namespace fs = std::filesystem;
using namespace std::chrono_literals;

class RunSessionTest : public ::testing::Test {
 protected:
  void SetUp() override {
    char pattern[] = "/tmp/iomark-session-test-XXXXXX";
    ASSERT_NE(::mkdtemp(pattern), nullptr);
    directory_ = pattern;
  }
  void TearDown() override { fs::remove_all(directory_); }

  // Every test's targets live in the temp directory; value() throws (failing the test) if refused.
  targets::SafetyPolicy allowing_the_directory() const {
    return targets::SafetyPolicy::create(std::vector<std::string>{directory_.string()}, targets::Destructive::refuse)
        .value();
  }

  RunAssignment assignment(engine::EngineKind kind, std::uint32_t workers) const {
    RunAssignment run;
    run.engine = engine::EngineSpec{kind, std::nullopt};
    run.caching = targets::Caching::direct_or_buffered;
    for (std::uint32_t w = 0; w < workers; ++w) {
      WorkerAssignment worker;
      worker.name = "Worker " + std::to_string(w + 1);
      worker.spec = *access_specs::find_builtin_spec("Database");
      worker.fixed_seed = 7;
      worker.targets.push_back({directory_.string(), 4, 0, 0, 4ULL << 20, std::nullopt});
      run.workers.push_back(worker);
    }
    return run;
  }

  fs::path directory_;
};

TEST_F(RunSessionTest, PreparesTheTestFileAndReportsEveryWorker) {
  const auto policy = allowing_the_directory();
  auto session = RunSession::prepare(assignment(engine::EngineKind::sync, 2), policy);
  ASSERT_TRUE(session.has_value()) << session.error().describe();
  EXPECT_EQ(fs::file_size(directory_ / "iobw.tst"), 4U << 20);
  ASSERT_TRUE((*session)->start().has_value());
  (*session)->record_on();
  std::this_thread::sleep_for(200ms);
  (*session)->record_off();
  (*session)->stop();
  EXPECT_FALSE((*session)->failure().has_value());
  const auto manager = (*session)->results("hostA");
  EXPECT_EQ(manager.name, "hostA");
  ASSERT_EQ(manager.workers.size(), 2U);
  for (const auto& worker : manager.workers) {
    EXPECT_EQ(worker.spec_name, "Database");
    EXPECT_EQ(worker.queue_depth, 4U);
    EXPECT_GT(worker.recording_window, 100ms);
    ASSERT_EQ(worker.targets.size(), 1U);
    EXPECT_EQ(worker.targets[0].name, fs::canonical(directory_ / "iobw.tst").string());
    EXPECT_GT(worker.targets[0].counters.io_count(), 0U);
    EXPECT_EQ(worker.targets[0].counters.error_count(), 0U);
  }
  EXPECT_FALSE(manager.cpus.empty());
  EXPECT_EQ((*session)->engine_notes().size(), 2U);
}

TEST_F(RunSessionTest, AutoMeasuresOncePerTargetAndDepthAndRecordsTheChoice) {
  const auto policy = allowing_the_directory();
  RunAssignment run = assignment(engine::EngineKind::sync, 1);
  run.engine.reset();
  engine::EngineChoiceCache choices;
  for (const char* expected : {"at depth 4: ", "(measured at an earlier run)"}) {
    auto session = RunSession::prepare(run, policy, {}, {}, &choices);
    ASSERT_TRUE(session.has_value()) << session.error().describe();
    const auto manager = (*session)->results("hostA");
    const auto& worker = manager.workers.at(0);
    EXPECT_NE(worker.engine, "");
    EXPECT_NE(worker.engine, "null");
    // The candidate's name first: the engine, for io_uring with its ring set-up.
    EXPECT_EQ(worker.engine_reason.rfind(worker.engine, 0), 0U) << worker.engine_reason;
    EXPECT_NE(worker.engine_reason.find(" at depth 4: "), std::string::npos) << worker.engine_reason;
    EXPECT_NE(worker.engine_reason.find(expected), std::string::npos) << worker.engine_reason;
    EXPECT_EQ((*session)->engine_notes().at(0), "Worker 1: " + worker.engine_reason);
  }
  ASSERT_EQ(choices.measured().size(), 1U);
  EXPECT_EQ(choices.measured()[0].target_path, (directory_ / "iobw.tst").string());
}

TEST_F(RunSessionTest, AutoCalibratesOnTheCpuTheWorkerIsPinnedTo) {
  const auto policy = allowing_the_directory();
  RunAssignment run = assignment(engine::EngineKind::sync, 1);
  run.engine.reset();
  run.workers[0].cpu = 1U << 20;  // no such CPU: every trial that honours it cannot start
  auto session = RunSession::prepare(run, policy);
  ASSERT_TRUE(session.has_value()) << session.error().describe();
  const std::string note = (*session)->engine_notes().at(0);
  EXPECT_NE(note.find("no engine completed reads"), std::string::npos) << note;
  EXPECT_NE(note.find("sync did not run: cannot pin to CPU 1048576"), std::string::npos) << note;
}

TEST_F(RunSessionTest, IoErrorsAreCountedAndTheRunGoesOnAsInIometer) {
  const auto policy = allowing_the_directory();
  auto run = assignment(engine::EngineKind::sync, 1);
  run.engine = *engine::parse_engine_spec("fault-eio-every-4");
  auto session = RunSession::prepare(run, policy);
  ASSERT_TRUE(session.has_value()) << session.error().describe();
  ASSERT_TRUE((*session)->start().has_value());
  (*session)->record_on();
  std::this_thread::sleep_for(200ms);
  (*session)->record_off();
  (*session)->stop();
  EXPECT_FALSE((*session)->failure().has_value()) << "failed I/Os are counted, not a failure of the run";
  const auto manager = (*session)->results("hostA");
  const auto& counters = manager.workers.at(0).targets.at(0).counters;
  // One I/O in four fails; the other three complete with their data.
  EXPECT_GT(counters.error_count(), 0U);
  EXPECT_GT(counters.io_count(), 2 * counters.error_count());
  EXPECT_NE((*session)->engine_notes().at(0).find("fault-eio-every-4"), std::string::npos);
  EXPECT_EQ(manager.workers.at(0).engine, "fault-eio-every-4");
}

TEST_F(RunSessionTest, RefusesAFileOutsideTheAllowList) {
  // A user's file is touched only when allowed (agent/targets/include/iomark/targets/target.hpp).
  const auto user_file = directory_ / "precious.dat";
  { std::ofstream create(user_file); }
  const auto policy = targets::SafetyPolicy::create(std::vector<std::string>{}, targets::Destructive::refuse);
  ASSERT_TRUE(policy.has_value());
  auto run = assignment(engine::EngineKind::null, 1);
  run.workers[0].targets[0].path = user_file.string();
  const auto session = RunSession::prepare(run, *policy);
  ASSERT_FALSE(session.has_value());
  EXPECT_NE(session.error().message().find("Worker 1"), std::string::npos);
  EXPECT_NE(session.error().message().find(user_file.string()), std::string::npos);
}

TEST_F(RunSessionTest, MakesNoTestFileOutsideTheWriteScope) {
  // The test file is no exception: a directory outside --allow gets no iobw.tst.
  fs::create_directory(directory_ / "allowed");
  fs::create_directory(directory_ / "other");
  const auto policy = targets::SafetyPolicy::create(std::vector<std::string>{(directory_ / "allowed").string()},
                                                    targets::Destructive::refuse);
  ASSERT_TRUE(policy.has_value());
  auto run = assignment(engine::EngineKind::null, 1);
  run.workers[0].targets[0].path = (directory_ / "other").string();
  run.workers[0].targets[0].test_file_bytes = 1 << 20;
  const auto session = RunSession::prepare(run, *policy);
  ASSERT_FALSE(session.has_value());
  EXPECT_EQ(session.error().field(), "--allow");
  EXPECT_FALSE(fs::exists(directory_ / "other/iobw.tst"));
}

TEST_F(RunSessionTest, ATargetFileThatDoesNotExistIsCreatedAtTheSizeAsked) {
  const auto path = directory_ / "new.dat";
  const auto policy = targets::SafetyPolicy::create(std::vector<std::string>{path.string()},
                                                    targets::Destructive::refuse, targets::MissingPath::allow_new_file);
  ASSERT_TRUE(policy.has_value()) << policy.error().describe();
  auto run = assignment(engine::EngineKind::null, 1);
  run.workers[0].targets[0].path = path.string();
  run.workers[0].targets[0].test_file_bytes = 1 << 20;
  const auto session = RunSession::prepare(run, *policy);
  ASSERT_TRUE(session.has_value()) << session.error().describe();
  EXPECT_EQ(fs::file_size(path), 1U << 20);
  EXPECT_FALSE(fs::exists(directory_ / "iobw.tst"));
}

TEST_F(RunSessionTest, AMissingTargetFileWithNoSizeIsNotFoundAndNothingIsCreated) {
  // With no size a test file would grow to fill the file system; a file removed between the
  // runs of a series is reported instead.
  const auto path = directory_ / "gone.dat";
  const auto policy = targets::SafetyPolicy::create(std::vector<std::string>{path.string()},
                                                    targets::Destructive::refuse, targets::MissingPath::allow_new_file);
  ASSERT_TRUE(policy.has_value()) << policy.error().describe();
  auto run = assignment(engine::EngineKind::null, 1);
  run.workers[0].targets[0].path = path.string();
  run.workers[0].targets[0].test_file_bytes = 0;
  const auto session = RunSession::prepare(run, *policy);
  ASSERT_FALSE(session.has_value());
  EXPECT_EQ(session.error().code(), ErrorCode::not_found);
  EXPECT_NE(session.error().message().find(path.string()), std::string::npos) << session.error().describe();
  EXPECT_FALSE(fs::exists(path));
}

}  // namespace
}  // namespace iomark::agent
