// io_uring's set-ups as `auto` candidates: which are ruled out by the facts (faked here, so
// every kernel tests every branch), that the survivors are measured, and that a
// single-issuer ring belongs to the thread that submits first.
#include "iomark/engine/ring_setup.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <filesystem>
#include <fstream>
#include <string>
#include <thread>
#include <vector>

#include "data_file.hpp"
#include "iomark/engine/engine_choice.hpp"
#include "iomark/engine/engine_trial.hpp"

namespace iomark::engine {
namespace {

namespace fs = std::filesystem;
using test_support::DataFile;
using test_support::quick;

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

RingSetupFacts facts(std::string kernel, bool direct, std::optional<bool> polls) {
  return {std::move(kernel), direct, polls, "/sys/dev/block/251:0"};
}

TEST(UnsupportedRingSetup, StandardAlwaysRuns) {
  EXPECT_FALSE(unsupported_ring_setup(RingSetup::standard, facts("4.19.0", false, std::nullopt)));
}

TEST(UnsupportedRingSetup, SingleIssuerNeedsLinux61) {
  const auto old_kernel = unsupported_ring_setup(RingSetup::single_issuer, facts("5.15.0-91-generic", false, false));
  ASSERT_TRUE(old_kernel);
  EXPECT_TRUE(mentions(*old_kernel, "needs Linux 6.1 or later (this kernel: 5.15.0-91-generic)")) << *old_kernel;
  EXPECT_TRUE(unsupported_ring_setup(RingSetup::single_issuer, facts("6.0.19", false, false)));
  EXPECT_TRUE(unsupported_ring_setup(RingSetup::single_issuer, facts("", false, false)));
  EXPECT_FALSE(unsupported_ring_setup(RingSetup::single_issuer, facts("6.1.0-18-amd64", false, false)));
  EXPECT_FALSE(unsupported_ring_setup(RingSetup::single_issuer, facts("6.18.44", false, false)));
}

TEST(UnsupportedRingSetup, PolledNeedsDirectIoAndADeviceThatPolls) {
  const auto buffered = unsupported_ring_setup(RingSetup::polled, facts("6.18.0", false, true));
  ASSERT_TRUE(buffered);
  EXPECT_TRUE(mentions(*buffered, "O_DIRECT")) << *buffered;
  const auto zram_like = unsupported_ring_setup(RingSetup::polled, facts("6.18.0", true, false));
  ASSERT_TRUE(zram_like);
  EXPECT_TRUE(mentions(*zram_like, "/sys/dev/block/251:0/queue/io_poll is 0")) << *zram_like;
  EXPECT_TRUE(unsupported_ring_setup(RingSetup::polled, facts("6.18.0", true, std::nullopt)));
  EXPECT_FALSE(unsupported_ring_setup(RingSetup::polled, facts("6.18.0", true, true)));
}

TEST(RingSetupFacts, ReadsIoPollOfTheDeviceUnderTheTarget) {
  DataFile file(4096);
  ASSERT_GE(file.fd(), 0);
  struct stat status {};
  ASSERT_EQ(::fstat(file.fd(), &status), 0);
  char pattern[] = "/tmp/iomark-fake-sysfs-XXXXXX";
  ASSERT_NE(::mkdtemp(pattern), nullptr);
  const fs::path root = pattern;
  const fs::path node =
      root / "dev" / "block" / (std::to_string(major(status.st_dev)) + ":" + std::to_string(minor(status.st_dev)));
  const auto absent = ring_setup_facts(file.fd(), "6.1.0", root);
  EXPECT_FALSE(absent.device_polls);
  EXPECT_EQ(absent.device, node.string());
  EXPECT_FALSE(absent.direct_io);
  EXPECT_EQ(absent.kernel_release, "6.1.0");
  fs::create_directories(node / "queue");
  std::ofstream(node / "queue" / "io_poll") << "1\n";
  EXPECT_EQ(ring_setup_facts(file.fd(), "6.1.0", root).device_polls, std::optional<bool>(true));
  std::ofstream(node / "queue" / "io_poll") << "0\n";
  EXPECT_EQ(ring_setup_facts(file.fd(), "6.1.0", root).device_polls, std::optional<bool>(false));
  fs::remove_all(root);
}

TEST(CandidateOptions, NameTheRingFlags) {
  EXPECT_EQ(candidate_options(EngineKind::io_uring, RingSetup::single_issuer, 4).calling_threads, CallingThreads::single);
  EXPECT_EQ(candidate_options(EngineKind::io_uring, RingSetup::polled, 4).completion_polling, CompletionPolling::polled);
  EXPECT_EQ(candidate_options(EngineKind::io_uring, RingSetup::standard, 4).calling_threads, CallingThreads::any);
  EXPECT_EQ(candidate_options(EngineKind::sync, RingSetup::standard, 8).queue_depth, 8U);
  EXPECT_EQ(candidate_name(EngineKind::io_uring, RingSetup::single_issuer), "io_uring (SINGLE_ISSUER|DEFER_TASKRUN)");
  EXPECT_EQ(candidate_name(EngineKind::linux_aio, RingSetup::standard), "linux-aio");
}

const EngineTrial& trial_of(const std::vector<EngineTrial>& trials, EngineKind kind, RingSetup setup) {
  for (const auto& trial : trials) {
    if (trial.kind == kind && trial.setup == setup) return trial;
  }
  ADD_FAILURE() << candidate_name(kind, setup) << " is not a candidate";
  return trials.front();
}

TEST(MeasureEngines, RuledOutRingSetupsAreSkippedWithTheirReason) {
  DataFile file(1024 * 1024);
  ASSERT_GE(file.fd(), 0);
  const std::vector<EngineProbe> probes{{EngineKind::io_uring, true, {}},
                                        {EngineKind::linux_aio, false, "io_setup: no"},
                                        {EngineKind::threadpool, false, "no threads"},
                                        {EngineKind::sync, true, {}}};
  // A kernel before 6.1 and a buffered file: only the standard ring is measured.
  const auto trials = measure_engines({file.fd(), 1024 * 1024, 512}, quick(1), probes, facts("5.10.0", false, true));
  ASSERT_EQ(trials.size(), kProbeOrder.size() + 2);
  const auto& single = trial_of(trials, EngineKind::io_uring, RingSetup::single_issuer);
  EXPECT_FALSE(single.ran);
  EXPECT_TRUE(mentions(single.failure, "needs Linux 6.1")) << single.failure;
  const auto& polled = trial_of(trials, EngineKind::io_uring, RingSetup::polled);
  EXPECT_FALSE(polled.ran);
  EXPECT_TRUE(mentions(polled.failure, "O_DIRECT")) << polled.failure;
  EXPECT_EQ(trial_of(trials, EngineKind::linux_aio, RingSetup::standard).failure, "io_setup: no");
  const auto decision = choose_measured_engine(trials, 1, probes);
  EXPECT_TRUE(mentions(decision.reason, "io_uring (SINGLE_ISSUER|DEFER_TASKRUN) did not run: SINGLE_ISSUER"))
      << decision.reason;
}

TEST(MeasureEngines, SingleIssuerIsMeasuredWhereTheKernelHasIt) {
  DataFile file(1024 * 1024);
  ASSERT_GE(file.fd(), 0);
  const auto probes = probe_engines();
  if (!probes.front().available) GTEST_SKIP() << "io_uring does not run here: " << probes.front().reason;
  const auto trials = measure_engines({file.fd(), 1024 * 1024, 512}, quick(2), probes, facts("6.1.0", false, false));
  const auto& single = trial_of(trials, EngineKind::io_uring, RingSetup::single_issuer);
  // Either it read, or the kernel refused the flags and the trial says so: never assumed.
  if (!single.ran) {
    EXPECT_TRUE(mentions(single.failure, "did not grant") || mentions(single.failure, "io_uring_setup")) << single.failure;
  } else {
    EXPECT_GT(single.reads, 0U);
  }
}

TEST(ChooseMeasuredEngine, AWinningRingSetupIsWhatTheWorkerGets) {
  std::vector<EngineTrial> trials(3);
  trials[0] = {EngineKind::io_uring, RingSetup::standard, true, {}, 30000, 300000, 3000, 0};
  trials[1] = {EngineKind::io_uring, RingSetup::single_issuer, true, {}, 40000, 400000, 2500, 0};
  trials[2] = {EngineKind::sync, RingSetup::standard, true, {}, 30000, 300000, 3000, 0};
  const auto decision = choose_measured_engine(trials, 32, {});
  EXPECT_EQ(decision.engine, EngineKind::io_uring);
  EXPECT_EQ(decision.setup, RingSetup::single_issuer);
  EXPECT_TRUE(decision.reason.starts_with("io_uring (SINGLE_ISSUER|DEFER_TASKRUN) at depth 32: 400 K IOPS"))
      << decision.reason;
  EXPECT_TRUE(mentions(decision.reason, "; io_uring 300 K IOPS")) << decision.reason;
}

TEST(IoUringSingleIssuer, TheThreadThatSubmitsFirstOwnsTheRing) {
  DataFile file(64 * 1024);
  ASSERT_GE(file.fd(), 0);
  auto engine = make_prepared_engine(EngineKind::io_uring, candidate_options(EngineKind::io_uring, RingSetup::single_issuer, 2));
  if (!engine) GTEST_SKIP() << "io_uring does not run here: " << engine.error().describe();
  if (!(*engine)->capabilities().has(Capability::single_issuer)) GTEST_SKIP() << "this kernel lacks SINGLE_ISSUER";
  // Prepared and registered here, as the agent's session thread does ...
  const int fds[] = {file.fd()};
  ASSERT_TRUE((*engine)->register_targets(fds));
  alignas(4096) static std::byte buffer[4096];
  std::int64_t result = 0;
  // ... and driven from another thread, as the worker does.
  std::thread worker([&] {
    const IoRequest read{7, 0, IoOp::read, 4096, 4096, buffer};
    const auto submitted = (*engine)->submit(std::span(&read, 1));
    ASSERT_EQ(submitted.accepted, 1U) << submitted.error;
    IoCompletion done[1];
    const auto reaped = (*engine)->reap(done, 1, std::chrono::seconds(5));
    ASSERT_EQ(reaped.count, 1U) << reaped.error;
    result = done[0].result;
  });
  worker.join();
  EXPECT_EQ(result, 4096);
}

}  // namespace
}  // namespace iomark::engine
