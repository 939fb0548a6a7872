// `auto`'s choice: the pure rule on faked measurements (so every kernel tests every branch),
// then the measuring and the cache on a real temp file.
#include "iomark/engine/engine_choice.hpp"

#include <sched.h>

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "data_file.hpp"
#include "iomark/engine/engine_choice_cache.hpp"
#include "iomark/engine/engine_trial.hpp"

namespace iomark::engine {
namespace {

using test_support::DataFile;
using test_support::quick;

EngineTrial measured(EngineKind kind, double kiops, double cpu_us, std::uint32_t io_worker_threads = 0) {
  EngineTrial trial;
  trial.kind = kind;
  trial.ran = true;
  trial.reads = static_cast<std::uint64_t>(kiops * 100);
  trial.iops = kiops * 1000;
  trial.cpu_ns_per_io = cpu_us * 1000;
  trial.io_worker_threads = io_worker_threads;
  return trial;
}

EngineTrial failed(EngineKind kind, std::string why) {
  EngineTrial trial;
  trial.kind = kind;
  trial.failure = std::move(why);
  return trial;
}

std::vector<EngineProbe> all_available() {
  return {{EngineKind::io_uring, true, {}},
          {EngineKind::linux_aio, true, {}},
          {EngineKind::threadpool, true, {}},
          {EngineKind::sync, true, {}}};
}

bool mentions(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(ChooseMeasuredEngine, SyncWinsAtDepthOneWhenWithinTenPercentAndCheaper) {
  // io_uring is 6% faster here, but sync does each I/O in one syscall at less CPU.
  const std::vector<EngineTrial> trials{measured(EngineKind::io_uring, 318, 3.6), measured(EngineKind::linux_aio, 250, 4.1),
                                        measured(EngineKind::threadpool, 110, 8.5), measured(EngineKind::sync, 300, 3.0)};
  const auto choice = choose_measured_engine(trials, 1, all_available());
  EXPECT_EQ(choice.engine, EngineKind::sync) << choice.reason;
  EXPECT_TRUE(mentions(choice.reason, "sync at depth 1: 300 K IOPS, 3.00 \xC2\xB5s CPU/IO")) << choice.reason;
  EXPECT_TRUE(mentions(choice.reason, "within 10% of the best IOPS")) << choice.reason;
  for (const char* other : {"io_uring 318 K IOPS", "linux-aio 250 K IOPS", "threadpool 110 K IOPS"}) {
    EXPECT_TRUE(mentions(choice.reason, other)) << other << " missing from: " << choice.reason;
  }
}

TEST(ChooseMeasuredEngine, FasterEngineWinsWhenOutsideTheTolerance) {
  const std::vector<EngineTrial> trials{measured(EngineKind::linux_aio, 385, 2.6), measured(EngineKind::sync, 300, 2.5)};
  const auto choice = choose_measured_engine(trials, 32, all_available());
  EXPECT_EQ(choice.engine, EngineKind::linux_aio) << choice.reason;
  EXPECT_TRUE(mentions(choice.reason, "at depth 32")) << choice.reason;
  EXPECT_TRUE(mentions(choice.reason, "the best IOPS at no more than 1.25x the lowest CPU per I/O")) << choice.reason;
}

TEST(ChooseMeasuredEngine, IoUringThatPuntsIsNotChosenEvenWhenFastest) {
  const std::vector<EngineTrial> trials{measured(EngineKind::io_uring, 400, 2.0, 1), measured(EngineKind::linux_aio, 240, 4.1),
                                        measured(EngineKind::sync, 300, 3.0)};
  const auto choice = choose_measured_engine(trials, 1, all_available());
  EXPECT_EQ(choice.engine, EngineKind::sync) << choice.reason;
  EXPECT_TRUE(mentions(choice.reason, "punted reads to 1 io-wq thread(s)")) << choice.reason;
}

TEST(ChooseMeasuredEngine, IoUringThatPuntsIsChosenWhenNothingElseRan) {
  const std::vector<EngineTrial> trials{measured(EngineKind::io_uring, 30, 8.0, 1),
                                        failed(EngineKind::linux_aio, "io_setup: Resource temporarily unavailable")};
  EXPECT_EQ(choose_measured_engine(trials, 1, all_available()).engine, EngineKind::io_uring);
}

TEST(ChooseMeasuredEngine, IoUringWithoutPuntingWinsAtDepth) {
  const std::vector<EngineTrial> trials{measured(EngineKind::io_uring, 600, 1.5), measured(EngineKind::linux_aio, 450, 2.0),
                                        measured(EngineKind::sync, 90, 2.2)};
  EXPECT_EQ(choose_measured_engine(trials, 32, all_available()).engine, EngineKind::io_uring);
}

TEST(ChooseMeasuredEngine, EngineThatFailsToOpenIsSkippedWithItsReason) {
  const std::vector<EngineTrial> trials{failed(EngineKind::io_uring, "io_uring_setup: Operation not permitted"),
                                        measured(EngineKind::linux_aio, 240, 3.5), measured(EngineKind::sync, 200, 3.0)};
  const auto choice = choose_measured_engine(trials, 8, all_available());
  EXPECT_EQ(choice.engine, EngineKind::linux_aio) << choice.reason;
  EXPECT_TRUE(mentions(choice.reason, "io_uring did not run: io_uring_setup: Operation not permitted")) << choice.reason;
}

TEST(ChooseMeasuredEngine, UsableListsEveryEngineThatReadInProbeOrderPuntingIoUringIncluded) {
  const std::vector<EngineTrial> trials{measured(EngineKind::sync, 300, 3.0), failed(EngineKind::threadpool, "no threads"),
                                        measured(EngineKind::io_uring, 20, 9.0, 1), measured(EngineKind::linux_aio, 240, 3.5)};
  const auto choice = choose_measured_engine(trials, 1, all_available());
  EXPECT_EQ(choice.usable, (std::vector<EngineKind>{EngineKind::io_uring, EngineKind::linux_aio, EngineKind::sync}));
  EXPECT_TRUE(choose_measured_engine(std::vector<EngineTrial>{failed(EngineKind::sync, "read failed")}, 1,
                                     all_available())
                  .usable.empty());
}

TEST(ChooseMeasuredEngine, CpuHungryEngineIsNotChosenForItsIops) {
  // threadpool buys 20% more IOPS on a synchronous device with helper threads on other
  // cores, at 2.3x the CPU per I/O.
  const std::vector<EngineTrial> trials{measured(EngineKind::threadpool, 202, 6.3), measured(EngineKind::linux_aio, 168, 2.7)};
  EXPECT_EQ(choose_measured_engine(trials, 8, all_available()).engine, EngineKind::linux_aio);
}

TEST(ChooseMeasuredEngine, EqualCpuGoesToTheHigherIops) {
  const std::vector<EngineTrial> trials{measured(EngineKind::sync, 290, 3.0), measured(EngineKind::linux_aio, 300, 3.0)};
  EXPECT_EQ(choose_measured_engine(trials, 8, all_available()).engine, EngineKind::linux_aio);
}

TEST(ChooseMeasuredEngine, AtDepthOneSyncStaysAgainstAnEngineSpendingMoreCpuPerIo) {
  // A file on ext4 over a loop device: one 100 ms trial of io_uring caught the loop thread on a
  // good CPU and came out 14% ahead, at more CPU per I/O. At depth 1 that is not a win.
  std::vector<EngineTrial> trials{measured(EngineKind::io_uring, 50, 10.0), measured(EngineKind::linux_aio, 38, 13.9),
                                  measured(EngineKind::sync, 44, 9.5)};
  trials[0].setup = RingSetup::single_issuer;
  const auto stays = choose_measured_engine(trials, 1, all_available());
  EXPECT_EQ(stays.engine, EngineKind::sync) << stays.reason;
  EXPECT_EQ(stays.setup, RingSetup::standard);
  EXPECT_TRUE(mentions(stays.reason, "sync at depth 1: 44 K IOPS, 9.50 \xC2\xB5s CPU/IO (one syscall per I/O; at depth 1 "
                                     "an engine that spends more CPU per I/O does not displace it, and io_uring "
                                     "(SINGLE_ISSUER|DEFER_TASKRUN) does)"))
      << stays.reason;
  EXPECT_TRUE(mentions(stays.reason, "io_uring (SINGLE_ISSUER|DEFER_TASKRUN) 50 K IOPS")) << stays.reason;
  // The same trials at depth 8 go by IOPS: io_uring's lead is outside the tolerance.
  EXPECT_EQ(choose_measured_engine(trials, 8, all_available()).engine, EngineKind::io_uring);

  // Polled completions on a device with poll queues: faster and cheaper, so they win at depth 1 too.
  trials[0] = measured(EngineKind::io_uring, 80, 5.0);
  trials[0].setup = RingSetup::polled;
  const auto displaced = choose_measured_engine(trials, 1, all_available());
  EXPECT_EQ(displaced.engine, EngineKind::io_uring) << displaced.reason;
  EXPECT_EQ(displaced.setup, RingSetup::polled);
  // As fast as sync at less CPU per I/O (a ring on a device that completes reads without
  // punting): the lowest CPU per I/O wins at depth 1 as at any depth.
  trials[0] = measured(EngineKind::io_uring, 45, 8.0);
  trials[0].setup = RingSetup::single_issuer;
  const auto cheaper = choose_measured_engine(trials, 1, all_available());
  EXPECT_EQ(cheaper.engine, EngineKind::io_uring) << cheaper.reason;
  EXPECT_EQ(cheaper.setup, RingSetup::single_issuer);
  // Without a sync trial there is nothing to stay with.
  trials[0] = measured(EngineKind::io_uring, 50, 10.0);
  trials.pop_back();
  EXPECT_EQ(choose_measured_engine(trials, 1, all_available()).engine, EngineKind::io_uring);
}

TEST(ChooseMeasuredEngine, NothingRanFallsBackToTheProbeOrder) {
  const std::vector<EngineTrial> trials{failed(EngineKind::io_uring, "refused"), failed(EngineKind::sync, "read failed")};
  const std::vector<EngineProbe> probes{{EngineKind::io_uring, false, "refused"},
                                        {EngineKind::linux_aio, false, "no aio"},
                                        {EngineKind::threadpool, true, {}},
                                        {EngineKind::sync, true, {}}};
  const auto choice = choose_measured_engine(trials, 1, probes);
  EXPECT_EQ(choice.engine, EngineKind::threadpool) << choice.reason;
  EXPECT_TRUE(mentions(choice.reason, "no engine completed reads")) << choice.reason;
  EXPECT_TRUE(mentions(choice.reason, "sync did not run: read failed")) << choice.reason;
  EXPECT_EQ(choose_measured_engine({}, 1, {}).engine, EngineKind::sync);
}

TEST(MeasureEngineReads, SyncReadsARealFile) {
  DataFile file(1024 * 1024);
  ASSERT_GE(file.fd(), 0);
  const auto trial = measure_engine_reads(EngineKind::sync, {file.fd(), 1024 * 1024, 512}, quick(4));
  ASSERT_TRUE(trial.ran) << trial.failure;
  EXPECT_GT(trial.reads, 0U);
  EXPECT_GT(trial.iops, 0.0);
  EXPECT_GT(trial.cpu_ns_per_io, 0.0);
  EXPECT_EQ(trial.io_worker_threads, 0U);
}

TEST(MeasureEngineReads, AFailingReadIsATrialThatDidNotRun) {
  const auto bad_fd = measure_engine_reads(EngineKind::sync, {-1, 1024 * 1024, 512}, quick(1));
  EXPECT_FALSE(bad_fd.ran);
  EXPECT_TRUE(mentions(bad_fd.failure, "Bad file descriptor")) << bad_fd.failure;
  DataFile file(1024);
  const auto too_small = measure_engine_reads(EngineKind::sync, {file.fd(), 1024, 512}, quick(1));
  EXPECT_FALSE(too_small.ran);
  EXPECT_TRUE(mentions(too_small.failure, "less than one 4096-byte block")) << too_small.failure;
  EXPECT_FALSE(measure_engine_reads(EngineKind::sync, {file.fd(), 1024, 512}, quick(0)).ran);
}

TEST(MeasureEngineReads, RunsPinnedToTheWorkersCpu) {
  DataFile file(1024 * 1024);
  ASSERT_GE(file.fd(), 0);
  cpu_set_t allowed;
  ASSERT_EQ(::sched_getaffinity(0, sizeof allowed, &allowed), 0);
  std::uint32_t first_allowed = 0;
  while (!CPU_ISSET(first_allowed, &allowed)) ++first_allowed;
  TrialOptions options = quick(1);
  options.cpu = first_allowed;
  const auto pinned = measure_engine_reads(EngineKind::sync, {file.fd(), 1024 * 1024, 512}, options);
  EXPECT_TRUE(pinned.ran) << pinned.failure;
  options.cpu = 1U << 20;
  const auto nowhere = measure_engine_reads(EngineKind::sync, {file.fd(), 1024 * 1024, 512}, options);
  EXPECT_FALSE(nowhere.ran);
  EXPECT_TRUE(mentions(nowhere.failure, "cannot pin to CPU 1048576: Invalid argument")) << nowhere.failure;
}

TEST(MeasureEngines, SkipsUnavailableEnginesWithTheProbesReason) {
  DataFile file(1024 * 1024);
  ASSERT_GE(file.fd(), 0);
  const std::vector<EngineProbe> probes{{EngineKind::io_uring, false, "io_uring_setup: Operation not permitted"},
                                        {EngineKind::linux_aio, false, "io_setup: no"},
                                        {EngineKind::threadpool, false, "no threads"},
                                        {EngineKind::sync, true, {}}};
  const auto trials = measure_engines({file.fd(), 1024 * 1024, 512}, quick(1), probes);
  // io_uring is a candidate once per ring set-up (ring_setup.hpp), each with the probe's reason.
  ASSERT_EQ(trials.size(), kProbeOrder.size() + kRingSetups.size() - 1);
  for (std::size_t i = 0; i < kRingSetups.size(); ++i) {
    EXPECT_FALSE(trials[i].ran);
    EXPECT_EQ(trials[i].failure, "io_uring_setup: Operation not permitted");
  }
  EXPECT_EQ(trials.back().kind, EngineKind::sync);
  EXPECT_TRUE(trials.back().ran) << trials.back().failure;
  EXPECT_EQ(choose_measured_engine(trials, 1, probes).engine, EngineKind::sync);
}

TEST(EngineChoiceCache, MeasuresOncePerTargetAndDepth) {
  DataFile file(1024 * 1024);
  ASSERT_GE(file.fd(), 0);
  const TrialTarget target{file.fd(), 1024 * 1024, 512};
  const auto probes = probe_engines();
  EngineChoiceCache cache;
  const auto first = cache.choose(target, quick(1), probes, "/srv/iobw.tst");
  EXPECT_FALSE(mentions(first.reason, "measured at an earlier run")) << first.reason;
  const auto again = cache.choose(target, quick(1), probes, "/another/name/of/it");
  EXPECT_EQ(again.engine, first.engine);
  EXPECT_TRUE(mentions(again.reason, "measured at an earlier run")) << again.reason;
  const auto deeper = cache.choose(target, quick(8), probes, "/srv/iobw.tst");
  EXPECT_TRUE(mentions(deeper.reason, "at depth 8")) << deeper.reason;
  EXPECT_FALSE(mentions(deeper.reason, "measured at an earlier run")) << deeper.reason;
  const auto remembered = cache.measured();
  ASSERT_EQ(remembered.size(), 2U);
  for (const auto& choice : remembered) {
    EXPECT_EQ(choice.target_path, "/srv/iobw.tst");  // the path it was first measured under
    EXPECT_EQ(choice.decision.reason.find("measured at an earlier run"), std::string::npos);
    // sync always runs on a regular file, so the calibration lists it as usable there.
    EXPECT_NE(std::find(choice.decision.usable.begin(), choice.decision.usable.end(), EngineKind::sync),
              choice.decision.usable.end());
  }
  EXPECT_EQ(remembered[0].key.queue_depth, 1U);
  EXPECT_EQ(remembered[1].key.queue_depth, 8U);
}

TEST(EngineChoiceKey, NamesTheTargetKernelAndDepth) {
  DataFile one(4096);
  DataFile other(4096);
  const auto a = engine_choice_key({one.fd(), 4096, 512}, quick(1));
  const auto b = engine_choice_key({other.fd(), 4096, 512}, quick(1));
  ASSERT_TRUE(a && b);
  EXPECT_NE(a->inode, b->inode);
  EXPECT_FALSE(a->kernel_release.empty());
  EXPECT_EQ(a->queue_depth, 1U);
  EXPECT_FALSE(engine_choice_key({-1, 4096, 512}, quick(1)));
}

}  // namespace
}  // namespace iomark::engine
