// threadpool: pread/pwrite on N helper threads fed through a queue.
// Good for: anything POSIX — every file system, buffered or direct, any kernel, inside
// seccomp sandboxes that forbid io_uring and aio. Real concurrency up to N.
// Bad for: CPU per I/O — each one costs a hand-off to a helper and back (futex wake-ups
// when threads sleep) plus a syscall, and N threads compete with the worker for CPUs.
//
// Locking (the one engine whose hot path locks, documented in engines.hpp): a job queue
// and a completion queue, each a preallocated ring guarded by its own mutex held only for
// a push or pop; helpers sleep on one condition variable, the worker on another, and the
// helpers wake the worker only once as many completions as it waits for are ready.
#include <condition_variable>
#include <mutex>
#include <system_error>
#include <thread>

#include "engine_internals.hpp"

namespace iomark::engine::detail {
namespace {

constexpr std::uint32_t kDefaultMaxHelpers = 8;
// condition_variable::wait_until overflows on "forever"; a day is forever for a reap.
constexpr Nanoseconds kLongestWait = std::chrono::hours(24);

class ThreadPoolEngine final : public IoEngine {
 public:
  ThreadPoolEngine() = default;
  ThreadPoolEngine(const ThreadPoolEngine&) = delete;
  ThreadPoolEngine& operator=(const ThreadPoolEngine&) = delete;
  // Helpers finish the I/O they are doing and exit; queued jobs that no helper has started
  // are dropped, so no buffer is touched after this returns.
  ~ThreadPoolEngine() override { stop_helpers(); }

  [[nodiscard]] EngineKind kind() const noexcept override { return EngineKind::threadpool; }
  [[nodiscard]] Capabilities capabilities() const noexcept override {
    return Capability::transfers_data | Capability::helper_threads;
  }

  Result<void> prepare(const EngineOptions& options) override;
  Result<void> register_targets(std::span<const int> fds) override {
    if (auto ok = check_register_targets(fds, prepared(), in_flight_, name()); !ok) return ok;
    fds_.assign(fds.begin(), fds.end());
    return {};
  }
  Result<void> register_buffers(std::span<const BufferRegion> /*regions*/) override { return {}; }
  SubmitResult submit(std::span<const IoRequest> requests) noexcept override;
  ReapResult reap(std::span<IoCompletion> out, std::size_t min_completions,
                  Nanoseconds timeout) noexcept override;

  [[nodiscard]] std::uint32_t in_flight() const noexcept override { return in_flight_; }
  [[nodiscard]] std::uint32_t queue_depth() const noexcept override { return queue_depth_; }

 private:
  struct Job {
    IoRequest request;
    int fd{-1};
  };

  [[nodiscard]] bool prepared() const noexcept { return queue_depth_ != 0; }
  void helper_loop() noexcept;
  void stop_helpers() noexcept;

  // Worker thread only.
  std::uint32_t queue_depth_{};
  std::uint32_t in_flight_{};
  std::vector<int> fds_;
  std::vector<std::thread> helpers_;

  std::mutex jobs_mutex_;
  std::condition_variable jobs_ready_;
  std::vector<Job> jobs_;    // ring of queue_depth_ entries, guarded by jobs_mutex_
  std::size_t job_head_{};   // guarded by jobs_mutex_
  std::size_t job_count_{};  // guarded by jobs_mutex_
  bool stopping_{};          // guarded by jobs_mutex_

  std::mutex done_mutex_;
  std::condition_variable done_ready_;
  CompletionRing done_;    // guarded by done_mutex_
  std::size_t awaited_{};  // completions the worker sleeps for; 0 when awake
};

Result<void> ThreadPoolEngine::prepare(const EngineOptions& options) {
  if (auto ok = check_prepare(options, prepared(), name()); !ok) return ok;
  std::uint32_t helpers = options.helper_threads;
  if (helpers == 0)
    helpers = options.queue_depth < kDefaultMaxHelpers ? options.queue_depth : kDefaultMaxHelpers;
  // More helpers than requests in flight would never all have work.
  if (helpers > options.queue_depth) helpers = options.queue_depth;

  jobs_.assign(options.queue_depth, Job{});
  done_.reset(options.queue_depth);
  helpers_.reserve(helpers);
  try {
    for (std::uint32_t i = 0; i < helpers; ++i) helpers_.emplace_back([this] { helper_loop(); });
  } catch (const std::system_error& error) {
    stop_helpers();
    stopping_ = false;
    return fail(ErrorCode::unsupported, "threadpool: cannot start helper thread " +
                                            std::to_string(helpers_.size() + 1) + " of " +
                                            std::to_string(helpers) + ": " + error.what());
  }
  queue_depth_ = options.queue_depth;
  return {};
}

void ThreadPoolEngine::stop_helpers() noexcept {
  {
    const std::lock_guard lock(jobs_mutex_);
    stopping_ = true;
  }
  jobs_ready_.notify_all();
  for (std::thread& helper : helpers_) helper.join();
  helpers_.clear();
}

void ThreadPoolEngine::helper_loop() noexcept {
  for (;;) {
    Job job;
    {
      std::unique_lock lock(jobs_mutex_);
      jobs_ready_.wait(lock, [this] { return stopping_ || job_count_ != 0; });
      if (stopping_) return;
      job = jobs_[job_head_];
      job_head_ = (job_head_ + 1) % jobs_.size();
      --job_count_;
    }
    const IoCompletion completion{job.request.tag, posix_transfer(job.fd, job.request)};
    bool wake = false;
    {
      const std::lock_guard lock(done_mutex_);
      done_.push(completion);
      wake = awaited_ != 0 && done_.size() >= awaited_;
    }
    if (wake) done_ready_.notify_one();
  }
}

SubmitResult ThreadPoolEngine::submit(std::span<const IoRequest> requests) noexcept {
  const std::size_t accepted = admissible(requests.size(), queue_depth_, in_flight_);
  if (accepted != 0) {
    {
      const std::lock_guard lock(jobs_mutex_);
      for (std::size_t i = 0; i < accepted; ++i) {
        const IoRequest& request = requests[i];
        jobs_[(job_head_ + job_count_) % jobs_.size()] = {request, target_fd(fds_, request.target)};
        ++job_count_;
      }
    }
    if (accepted == 1) {
      jobs_ready_.notify_one();
    } else {
      jobs_ready_.notify_all();
    }
    in_flight_ += static_cast<std::uint32_t>(accepted);
  }
  return accepted_of(accepted, requests.size());
}

ReapResult ThreadPoolEngine::reap(std::span<IoCompletion> out, std::size_t min_completions,
                                  Nanoseconds timeout) noexcept {
  if (out.empty() || in_flight_ == 0) return {0, 0};
  std::size_t wanted = min_completions < out.size() ? min_completions : out.size();
  if (wanted > in_flight_) wanted = in_flight_;

  std::unique_lock lock(done_mutex_);
  if (done_.size() < wanted && timeout > Nanoseconds::zero()) {
    const auto deadline =
        std::chrono::steady_clock::now() + (timeout < kLongestWait ? timeout : kLongestWait);
    awaited_ = wanted;
    done_ready_.wait_until(lock, deadline, [this, wanted] { return done_.size() >= wanted; });
    awaited_ = 0;
  }
  const std::size_t count = done_.pop_into(out);
  lock.unlock();
  in_flight_ -= static_cast<std::uint32_t>(count);
  return {count, 0};
}

}  // namespace

std::unique_ptr<IoEngine> make_threadpool_engine() { return std::make_unique<ThreadPoolEngine>(); }

}  // namespace iomark::engine::detail
