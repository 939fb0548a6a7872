#include "iomark/agent/worker.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <atomic>
#include <chrono>
#include <cmath>
#include <cstdlib>
#include <thread>
#include <vector>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/engine/engines.hpp"

namespace iomark::agent {
namespace {

using namespace std::chrono_literals;

// A temporary file of `size` bytes, removed with the fixture.
class TempFile {
 public:
  explicit TempFile(std::uint64_t size) {
    char path[] = "/tmp/iomark-worker-test-XXXXXX";
    fd_ = ::mkstemp(path);
    path_ = path;
    if (fd_ >= 0 && ::ftruncate(fd_, static_cast<off_t>(size)) != 0) {
      ::close(fd_);
      fd_ = -1;
    }
  }
  ~TempFile() {
    if (fd_ >= 0) ::close(fd_);
    ::unlink(path_.c_str());
  }
  [[nodiscard]] int fd() const { return fd_; }
  [[nodiscard]] const std::string& path() const { return path_; }

 private:
  int fd_{-1};
  std::string path_;
};

WorkerOptions options_for(const TempFile& file, const char* spec_name, std::uint32_t queue_depth,
                          std::uint64_t size) {
  WorkerOptions options;
  options.name = "Worker 1";
  options.spec = *access_specs::find_builtin_spec(spec_name);
  workload::TargetSetup setup;
  setup.geometry = {size, 512};
  setup.queue_depth = queue_depth;
  setup.seed = 42;
  options.targets.push_back({file.path(), file.fd(), setup, 1});
  return options;
}

std::unique_ptr<Worker> make_worker(WorkerOptions options, engine::EngineKind kind, std::uint32_t depth) {
  auto engine = engine::make_prepared_engine(kind, {.queue_depth = depth});
  EXPECT_TRUE(engine.has_value()) << engine.error().describe();
  auto worker = Worker::create(std::move(options), std::move(*engine));
  EXPECT_TRUE(worker.has_value()) << worker.error().describe();
  return std::move(*worker);
}

// What the test devices below share: no file or buffer of their own, a queue depth fixed by
// prepare(), and I/Os pending until the device says they are done.
template <class Pending>
class TestDevice : public engine::IoEngine {
 public:
  [[nodiscard]] engine::EngineKind kind() const noexcept override { return engine::EngineKind::null; }
  [[nodiscard]] engine::Capabilities capabilities() const noexcept override { return {}; }
  [[nodiscard]] Result<void> prepare(const engine::EngineOptions& options) override {
    queue_depth_ = options.queue_depth;
    pending_.reserve(queue_depth_);
    return {};
  }
  [[nodiscard]] Result<void> register_targets(std::span<const int>) override { return {}; }
  [[nodiscard]] Result<void> register_buffers(std::span<const engine::BufferRegion>) override { return {}; }
  [[nodiscard]] std::uint32_t in_flight() const noexcept override {
    return static_cast<std::uint32_t>(pending_.size());
  }
  [[nodiscard]] std::uint32_t queue_depth() const noexcept override { return queue_depth_; }

 protected:
  // How many of `requests` fit beside the I/Os pending, and the status that says so.
  [[nodiscard]] engine::SubmitResult accepted(std::span<const engine::IoRequest> requests) const noexcept {
    const auto count = std::min<std::size_t>(requests.size(), queue_depth_ - pending_.size());
    return {count, count == requests.size() ? engine::SubmitStatus::all_accepted : engine::SubmitStatus::queue_full};
  }

  std::uint32_t queue_depth_{};
  std::vector<Pending> pending_;
};

// A device that hangs: the first submit() blocks until release(), then every I/O completes
// at once. Its flags are relaxed on purpose: they order nothing between the test and the
// worker thread, so ThreadSanitizer judges the worker's own synchronisation alone.
class StuckEngine final : public TestDevice<engine::IoCompletion> {
 public:
  [[nodiscard]] engine::SubmitResult submit(std::span<const engine::IoRequest> requests) noexcept override {
    while (!released_.load(std::memory_order_relaxed)) std::this_thread::sleep_for(1ms);
    const auto result = accepted(requests);
    for (const auto& request : requests.first(result.accepted)) pending_.push_back({request.tag, request.length_bytes});
    return result;
  }
  [[nodiscard]] engine::ReapResult reap(std::span<engine::IoCompletion> out, std::size_t,
                                        Nanoseconds) noexcept override {
    const auto count = std::min(out.size(), pending_.size());
    std::copy_n(pending_.end() - static_cast<std::ptrdiff_t>(count), count, out.begin());
    pending_.resize(pending_.size() - count);
    reaps_.fetch_add(1, std::memory_order_relaxed);
    return {count, 0};
  }

  void release() noexcept { released_.store(true, std::memory_order_relaxed); }
  [[nodiscard]] std::uint64_t reaps() const noexcept { return reaps_.load(std::memory_order_relaxed); }

 private:
  std::atomic<bool> released_{false};
  std::atomic<std::uint64_t> reaps_{0};
};

// A device with a fixed service time: each I/O completes `service` after it was submitted,
// one after another (a device that serves one I/O at a time), so its ceiling is 1 / service.
struct TimedCompletion {
  engine::IoCompletion completion;
  std::chrono::steady_clock::time_point done;
};

class SlowEngine final : public TestDevice<TimedCompletion> {
 public:
  explicit SlowEngine(std::chrono::nanoseconds service) : service_(service) {}
  [[nodiscard]] engine::SubmitResult submit(std::span<const engine::IoRequest> requests) noexcept override {
    const auto result = accepted(requests);
    for (const auto& request : requests.first(result.accepted)) {
      const auto start = std::max(std::chrono::steady_clock::now(), busy_until_);
      busy_until_ = start + service_;
      pending_.push_back({{request.tag, request.length_bytes}, busy_until_});
    }
    return result;
  }
  [[nodiscard]] engine::ReapResult reap(std::span<engine::IoCompletion> out, std::size_t,
                                        Nanoseconds timeout) noexcept override {
    if (pending_.empty()) return {0, 0};
    const auto deadline = std::chrono::steady_clock::now() + timeout;
    std::this_thread::sleep_until(std::min(deadline, pending_.front().done));
    std::size_t count = 0;
    while (count < out.size() && count < pending_.size() &&
           pending_[count].done <= std::chrono::steady_clock::now()) {
      out[count] = pending_[count].completion;
      ++count;
    }
    pending_.erase(pending_.begin(), pending_.begin() + static_cast<std::ptrdiff_t>(count));
    return {count, 0};
  }

 private:
  std::chrono::nanoseconds service_;
  std::chrono::steady_clock::time_point busy_until_{};
};

// Runs `worker` for a recorded `window` and returns its counters.
WorkerIoCounters recorded(Worker& worker, std::chrono::milliseconds window) {
  EXPECT_TRUE(worker.start().has_value());
  worker.record_on();
  std::this_thread::sleep_for(window);
  worker.record_off();
  worker.stop();
  EXPECT_FALSE(worker.failure().has_value());
  return worker.results().targets[0];
}

double iops_of(const Worker& worker, const WorkerIoCounters& counters) {
  const auto window_s = std::chrono::duration<double>(worker.results().window).count();
  return window_s > 0 ? static_cast<double>(counters.io_count()) / window_s : 0;
}

TEST(Worker, UnderARateItIssuesOnScheduleWhateverTheDeviceCouldDo) {
  constexpr std::uint64_t kSize = 64ULL << 20;
  TempFile file(kSize);
  ASSERT_GE(file.fd(), 0);
  auto options = options_for(file, "Database", 4, kSize);
  options.rate_iops = 2000;
  auto worker = make_worker(std::move(options), engine::EngineKind::null, 4);
  const auto counters = recorded(*worker, 500ms);
  // The null engine could do a million a second; the schedule allows 2000. The schedule is
  // kept in absolute time, so a late wake-up issues what is due at once; only a stall right
  // at record_off (whose late I/Os are not counted) costs a few percent on a loaded machine.
  EXPECT_NEAR(iops_of(*worker, counters), 2000, 2000 * 0.10);
  // Each I/O's latency from its scheduled time is its lag plus its service time.
  EXPECT_EQ(counters.service.count, counters.io_count());
  EXPECT_EQ(counters.issue_lag.count, counters.io_count());
  EXPECT_EQ(counters.reads.sum_ns + counters.writes.sum_ns, counters.service.sum_ns + counters.issue_lag.sum_ns);
}

TEST(Worker, WithoutARateNothingIsScheduled) {
  constexpr std::uint64_t kSize = 64ULL << 20;
  TempFile file(kSize);
  ASSERT_GE(file.fd(), 0);
  auto worker = make_worker(options_for(file, "Database", 4, kSize), engine::EngineKind::null, 4);
  const auto counters = recorded(*worker, 100ms);
  EXPECT_GT(counters.io_count(), 0U);
  EXPECT_EQ(counters.service, LatencyTotals{});
  EXPECT_EQ(counters.issue_lag, LatencyTotals{});
}

// Asked for 1000 a second from a device that serves 250 (4 ms each, one at a time): the I/Os
// wait for a slot, and their latency from the schedule grows with the backlog while the
// device's own service time stays at 4 ms. Timed from issue alone, as a closed loop times
// them, the device would look fine: the coordinated omission the schedule exists to show.
TEST(Worker, ADeviceBehindTheScheduleShowsInTheLatencyNotInTheServiceTime) {
  constexpr std::uint64_t kSize = 64ULL << 20;
  TempFile file(kSize);
  ASSERT_GE(file.fd(), 0);
  auto options = options_for(file, "Database", 2, kSize);
  options.rate_iops = 1000;
  auto engine = std::make_unique<SlowEngine>(4ms);
  ASSERT_TRUE(engine->prepare({.queue_depth = 2}).has_value());
  auto worker = Worker::create(std::move(options), std::move(engine));
  ASSERT_TRUE(worker.has_value()) << worker.error().describe();
  const auto counters = recorded(**worker, 600ms);
  ASSERT_GT(counters.io_count(), 50U);
  EXPECT_LT(iops_of(**worker, counters), 300) << "the device's ceiling, not the rate";
  const double latency_ms = static_cast<double>(counters.reads.sum_ns + counters.writes.sum_ns) /
                            static_cast<double>(counters.io_count()) / 1e6;
  const double service_ms = counters.service.mean_ms();
  EXPECT_GE(service_ms, 4.0);
  // Two in flight on a device that serves one at a time: up to 8 ms, more where a loaded
  // machine wakes the reap late.
  EXPECT_LT(service_ms, 20.0);
  // A quarter of the schedule is met: after 600 ms the backlog is ~450 I/Os, ~1.8 s of
  // device time; the average I/O of the window waits for hundreds of milliseconds.
  EXPECT_GT(latency_ms, 10 * service_ms);
  EXPECT_GT(counters.issue_lag.mean_ms(), 100.0);
}

TEST(Worker, CountsOnlyTheRecordingWindow) {
  constexpr std::uint64_t kSize = 64ULL << 20;
  TempFile file(kSize);
  ASSERT_GE(file.fd(), 0);
  auto worker = make_worker(options_for(file, "Database", 4, kSize), engine::EngineKind::null, 4);
  ASSERT_TRUE(worker->start().has_value());
  std::this_thread::sleep_for(50ms);
  // Ramp-up: I/O runs, nothing is counted.
  EXPECT_EQ(worker->snapshot().targets[0].io_count(), 0U);
  worker->record_on();
  std::this_thread::sleep_for(200ms);
  const auto live = worker->snapshot();
  EXPECT_GT(live.targets[0].io_count(), 0U);
  EXPECT_GT(live.window, 0ns);
  worker->record_off();
  const auto at_record_off = worker->snapshot().targets[0].io_count();
  std::this_thread::sleep_for(50ms);
  worker->stop();
  const auto results = worker->results();
  EXPECT_FALSE(worker->failure().has_value());
  const auto& counters = results.targets[0];
  // Nothing completed after record_off counts.
  EXPECT_EQ(counters.io_count(), at_record_off);
  EXPECT_GE(results.window, 150ms);
  EXPECT_LE(results.window, 2s);
  EXPECT_EQ(counters.error_count(), 0U);
  EXPECT_EQ(counters.bytes_read + counters.bytes_written, counters.io_count() * 8192);
  EXPECT_EQ(counters.transactions.count, counters.io_count());  // no reply: one I/O per transaction
  // Database is 67% reads: over many I/Os the split is near it (5 sigma).
  const auto n = static_cast<double>(counters.io_count());
  ASSERT_GT(n, 1000);
  const double read_share = static_cast<double>(counters.reads.count) / n;
  EXPECT_NEAR(read_share, 0.67, 5 * std::sqrt(0.67 * 0.33 / n));
}

// Repeating bytes fill each 4 MiB write before it is submitted: the transaction (planned,
// filled, submitted, completed) includes the fill, the write's latency starts at submission.
TEST(Worker, AnIosLatencyStartsAtItsSubmissionNotAtItsPlanning) {
  constexpr std::uint64_t kSize = 64ULL << 20;
  TempFile file(kSize);
  ASSERT_GE(file.fd(), 0);
  auto options = options_for(file, "Database", 1, kSize);
  options.spec.lines = {{.size_bytes = 4U << 20, .percent_of_size = 100, .percent_reads = 0, .percent_random = 100}};
  options.data_pattern = access_specs::DataPattern::repeating_bytes;
  auto worker = make_worker(std::move(options), engine::EngineKind::null, 1);
  ASSERT_TRUE(worker->start().has_value());
  worker->record_on();
  std::this_thread::sleep_for(200ms);
  worker->record_off();
  worker->stop();
  const auto counters = worker->results().targets[0];
  ASSERT_GT(counters.writes.count, 10U);
  ASSERT_EQ(counters.transactions.count, counters.writes.count);
  // The null engine completes a write inside submit(): its latency is a few stamps, the fill
  // of 4 MiB many times that.
  EXPECT_LT(counters.writes.sum_ns * 4, counters.transactions.sum_ns)
      << "writes " << counters.writes.sum_ns << " ns, transactions " << counters.transactions.sum_ns << " ns";
}

TEST(Worker, RealIoOnAFileThroughEveryKernelEngine) {
  constexpr std::uint64_t kSize = 8ULL << 20;
  for (auto kind : {engine::EngineKind::io_uring, engine::EngineKind::linux_aio, engine::EngineKind::threadpool,
                    engine::EngineKind::sync}) {
    SCOPED_TRACE(std::string(engine::to_string(kind)));
    if (!engine::make_prepared_engine(kind, {.queue_depth = 8})) continue;  // not on this machine
    TempFile file(kSize);
    ASSERT_GE(file.fd(), 0);
    auto worker = make_worker(options_for(file, "4K random write", 8, kSize), kind, 8);
    worker->record_on();
    ASSERT_TRUE(worker->start().has_value());
    std::this_thread::sleep_for(100ms);
    worker->record_off();
    worker->stop();
    const auto counters = worker->results().targets[0];
    EXPECT_FALSE(worker->failure().has_value());
    EXPECT_GT(counters.writes.count, 0U);
    EXPECT_EQ(counters.reads.count, 0U);
    EXPECT_EQ(counters.error_count(), 0U);
    EXPECT_EQ(counters.bytes_written, counters.writes.count * 4096);
    EXPECT_EQ(counters.latency.count(), counters.writes.count);
  }
}

// The reduction patterns reach the target: after sequential writes over the whole file, every
// byte is what the pool makes for its offset (so compression and dedupe follow, as tested in
// workload_tests and against zram).
TEST(Worker, WritesCarryTheReductionPatternsBytesForTheirOffset) {
  constexpr std::uint64_t kSize = 1ULL << 20;
  TempFile file(kSize);
  ASSERT_GE(file.fd(), 0);
  auto options = options_for(file, "4K random write", 4, kSize);
  options.spec.lines = {access_specs::AccessSpecLine{65536, 100, 0, 0, 0, 1, 0, 0}};  // 64 KiB sequential writes
  const access_specs::DataReduction reduction{2.0, 4.0, 8192};
  options.data_pattern = access_specs::DataPattern::full_random;
  options.data_reduction = reduction;
  const std::uint64_t key = options.targets[0].content_key;
  auto worker = make_worker(std::move(options), engine::EngineKind::sync, 4);
  ASSERT_TRUE(worker->start().has_value());
  std::this_thread::sleep_for(200ms);
  worker->stop();
  ASSERT_FALSE(worker->failure().has_value());

  std::vector<std::byte> written(kSize);
  ASSERT_EQ(::pread(file.fd(), written.data(), kSize, 0), static_cast<ssize_t>(kSize));
  const auto pool = workload::ReducedDataPool::create(reduction);
  ASSERT_TRUE(pool);
  std::vector<std::byte> expected(kSize);
  pool->fill(expected, 0, {0, kSize, key});
  EXPECT_TRUE(written == expected) << "the file holds other bytes than the pattern's";
}

TEST(Worker, ReadsPastTheEndAreErrorsNotSuccesses) {
  // The workload believes the target is 1 MiB; the file has only 4 KiB, so reads beyond it
  // come back short and must be counted as errors.
  TempFile file(4096);
  ASSERT_GE(file.fd(), 0);
  auto worker = make_worker(options_for(file, "4K random read", 1, 1ULL << 20), engine::EngineKind::sync, 1);
  worker->record_on();
  ASSERT_TRUE(worker->start().has_value());
  std::this_thread::sleep_for(50ms);
  worker->record_off();
  worker->stop();
  const auto counters = worker->results().targets[0];
  EXPECT_GT(counters.read_errors, 0U);
  EXPECT_EQ(counters.bytes_read, counters.reads.count * 4096);
}

TEST(Worker, RefusesAnEngineTooShallowForItsSlots) {
  TempFile file(1 << 20);
  auto engine = engine::make_prepared_engine(engine::EngineKind::null, {.queue_depth = 2});
  ASSERT_TRUE(engine.has_value());
  const auto worker = Worker::create(options_for(file, "Database", 8, 1 << 20), std::move(*engine));
  ASSERT_FALSE(worker.has_value());
  EXPECT_NE(worker.error().message().find("8 needed"), std::string::npos);
}

// snapshot() gives up on a worker stuck in an I/O call and returns the last copy; the
// worker, once free, must not write that copy while the caller may still be reading it.
// The worker's write and the caller's read race unless snapshot() withdraws its request:
// ThreadSanitizer (the tsan preset) fails this test on such a race.
TEST(Worker, ASnapshotThatGaveUpIsNotWrittenLater) {
  TempFile file(1 << 20);
  auto engine = std::make_unique<StuckEngine>();
  ASSERT_TRUE(engine->prepare({.queue_depth = 4}).has_value());
  auto* stuck = engine.get();
  auto worker = Worker::create(options_for(file, "Database", 4, 1 << 20), std::move(engine));
  ASSERT_TRUE(worker.has_value()) << worker.error().describe();
  (*worker)->record_on();
  ASSERT_TRUE((*worker)->start().has_value());
  const auto while_stuck = (*worker)->snapshot();
  EXPECT_EQ(while_stuck.targets[0].io_count(), 0U);
  stuck->release();
  // Past its next reap the worker has been through publishing once more.
  const auto reaps = stuck->reaps();
  while (stuck->reaps() < reaps + 2) std::this_thread::sleep_for(1ms);
  (*worker)->stop();
  EXPECT_FALSE((*worker)->failure().has_value());
  EXPECT_GT((*worker)->results().targets[0].io_count(), 0U);
}

TEST(Worker, PinsToTheRequestedCpuOrSaysWhyNot) {
  TempFile file(1 << 20);
  auto options = options_for(file, "Database", 1, 1 << 20);
  options.cpu = 100000;  // no machine here has that CPU
  auto worker = make_worker(std::move(options), engine::EngineKind::null, 1);
  const auto started = worker->start();
  ASSERT_FALSE(started.has_value());
  EXPECT_NE(started.error().message().find("cannot pin to CPU 100000"), std::string::npos);
}

}  // namespace
}  // namespace iomark::agent
