// io_uring (liburing): a submission and a completion ring shared with the kernel.
// Good for: the fewest syscalls per I/O — one io_uring_enter submits a whole batch and, in
// reap, waits for several completions; registered files skip per-I/O file reference
// counting and fixed buffers skip per-I/O page pinning on O_DIRECT; optional SQPOLL takes
// the submit syscall away entirely at the price of a polling kernel thread.
// Bad for: targets whose driver cannot complete a read without blocking (zram): the kernel
// punts each one to an io-wq worker thread, which is slow at depth 1 and costs a second core
// at depth (calibration.hpp detects this). Can be disabled by sysctl or seccomp.
//
// Ring setup: SUBMIT_ALL so that one bad request does not stop the rest of a batch (it gets
// its own error completion), COOP_TASKRUN + TASKRUN_FLAG so completions do not interrupt the
// worker with IPIs (liburing enters the kernel to run them when the flag says so), on
// request (CallingThreads::single) SINGLE_ISSUER + DEFER_TASKRUN, created disabled
// (R_DISABLED) so that the thread that submits first, not the one that prepared, becomes the
// ring's only issuer, and on request (CompletionPolling::polled) IOPOLL, in every attempt. The
// completion ring holds at least queue_depth entries and the engine never holds more than
// queue_depth requests, so it cannot overflow.
#include <fcntl.h>
#include <liburing.h>
#include <sys/syscall.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <chrono>

#include "engine_internals.hpp"

namespace iomark::engine::detail {
namespace {

// io_uring refuses registered buffers larger than this (per iovec).
constexpr std::size_t kMaxFixedBufferBytes = std::size_t{1} << 30;
// How long the destructor waits for requests it has asked the kernel to cancel.
constexpr std::chrono::seconds kTeardownWait{10};
constexpr std::uint64_t kCancelTag = ~std::uint64_t{0};

__kernel_timespec to_timespec(Nanoseconds timeout) noexcept {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout);
  return {seconds.count(), (timeout - seconds).count()};
}

// IORING_REGISTER_ENABLE_RINGS. liburing 2.3 (Debian 12) declares io_uring_enable_rings()
// but does not export it, so the system call is made directly. 0 or -1 with errno.
int enable_ring(const io_uring& ring) noexcept {
  return static_cast<int>(::syscall(__NR_io_uring_register, ring.ring_fd, IORING_REGISTER_ENABLE_RINGS, nullptr, 0));
}

class IoUringEngine final : public IoEngine {
 public:
  IoUringEngine() = default;
  IoUringEngine(const IoUringEngine&) = delete;
  IoUringEngine& operator=(const IoUringEngine&) = delete;
  ~IoUringEngine() override;

  [[nodiscard]] EngineKind kind() const noexcept override { return EngineKind::io_uring; }
  [[nodiscard]] Capabilities capabilities() const noexcept override;

  Result<void> prepare(const EngineOptions& options) override;
  Result<void> register_targets(std::span<const int> fds) override;
  Result<void> register_buffers(std::span<const BufferRegion> regions) override;
  SubmitResult submit(std::span<const IoRequest> requests) noexcept override;
  ReapResult reap(std::span<IoCompletion> out, std::size_t min_completions,
                  Nanoseconds timeout) noexcept override;

  [[nodiscard]] std::uint32_t in_flight() const noexcept override { return in_flight_; }
  [[nodiscard]] std::uint32_t queue_depth() const noexcept override { return queue_depth_; }

 private:
  [[nodiscard]] bool prepared() const noexcept { return queue_depth_ != 0; }
  // Completions already in the completion ring, without entering the kernel unless
  // liburing sees task work pending.
  std::size_t drain(std::span<IoCompletion> out) noexcept;
  // Index of the registered buffer holding the whole request, or -1.
  [[nodiscard]] int fixed_buffer_index(const IoRequest& request) const noexcept;
  void prep(io_uring_sqe* sqe, const IoRequest& request) noexcept;
  void cancel_and_wait_for_in_flight() noexcept;

  io_uring ring_{};
  bool single_issuer_{};
  bool enabled_{true};  // false until the first submit when created with R_DISABLED
  bool completion_polling_{};
  std::uint32_t queue_depth_{};
  std::uint32_t in_flight_{};
  bool polling_{};
  bool files_registered_{};
  std::vector<int> fds_;
  std::vector<BufferRegion> fixed_regions_;
  std::vector<io_uring_cqe*> cqes_;
  CompletionRing synthetic_;  // requests failed before reaching the kernel
};

IoUringEngine::~IoUringEngine() {
  if (!prepared()) return;
  // With SINGLE_ISSUER, cancelling works only from the issuing thread; workers and trials
  // reap everything before they let go of the engine, so in_flight_ is normally 0 here.
  // Buffers may be freed right after we return, so nothing may still be writing to them.
  if (in_flight_ != 0) cancel_and_wait_for_in_flight();
  io_uring_queue_exit(&ring_);
}

void IoUringEngine::cancel_and_wait_for_in_flight() noexcept {
  in_flight_ -= static_cast<std::uint32_t>(synthetic_.size());  // never reached the kernel
  bool cancel_pending = false;
  if (io_uring_sqe* sqe = io_uring_get_sqe(&ring_); sqe != nullptr) {
    io_uring_prep_cancel64(sqe, 0, IORING_ASYNC_CANCEL_ALL | IORING_ASYNC_CANCEL_ANY);
    io_uring_sqe_set_data64(sqe, kCancelTag);
    cancel_pending = io_uring_submit(&ring_) >= 0;
  }
  const auto deadline = std::chrono::steady_clock::now() + kTeardownWait;
  while ((in_flight_ != 0 || cancel_pending) && std::chrono::steady_clock::now() < deadline) {
    io_uring_cqe* cqe = nullptr;
    __kernel_timespec wait = to_timespec(std::chrono::milliseconds(100));
    if (io_uring_wait_cqe_timeout(&ring_, &cqe, &wait) != 0 || cqe == nullptr) continue;
    if (io_uring_cqe_get_data64(cqe) == kCancelTag) {
      cancel_pending = false;
    } else {
      --in_flight_;
    }
    io_uring_cqe_seen(&ring_, cqe);
  }
}

Capabilities IoUringEngine::capabilities() const noexcept {
  Capabilities caps =
      Capability::transfers_data | Capability::kernel_async | Capability::batched_submit;
  if (files_registered_) caps |= Capability::registered_files;
  if (!fixed_regions_.empty()) caps |= Capability::fixed_buffers;
  if (polling_) caps |= Capability::submission_polling;
  if (single_issuer_) caps |= Capability::single_issuer;
  if (completion_polling_) caps |= Capability::completion_polling;
  return caps;
}

Result<void> IoUringEngine::prepare(const EngineOptions& options) {
  if (auto ok = check_prepare(options, prepared(), name()); !ok) return ok;
  const bool polling = options.submission_polling == SubmissionPolling::kernel_thread;
  const bool completion_polling = options.completion_polling == CompletionPolling::polled;

  // Most capable first; a kernel that lacks a flag says EINVAL and the next set is tried.
  // Only the first two sets are optimisations, the last is plain io_uring (IOPOLL, when
  // asked for, is in every set: without it the engine would not be what was asked).
  const unsigned base = IORING_SETUP_CQSIZE | IORING_SETUP_CLAMP | (polling ? IORING_SETUP_SQPOLL : 0U) |
                        (completion_polling ? IORING_SETUP_IOPOLL : 0U);
  std::array<unsigned, 3> attempts{};
  std::size_t attempt_count = 0;
  // The IPI-avoiding flags make no sense with SQPOLL (and the kernel refuses them there).
  if (!polling) {
    const unsigned cooperative =
        base | IORING_SETUP_SUBMIT_ALL | IORING_SETUP_COOP_TASKRUN | IORING_SETUP_TASKRUN_FLAG;
    if (options.calling_threads == CallingThreads::single) {
      attempts[attempt_count++] =
          cooperative | IORING_SETUP_SINGLE_ISSUER | IORING_SETUP_DEFER_TASKRUN | IORING_SETUP_R_DISABLED;
    }
    attempts[attempt_count++] = cooperative;
  }
  attempts[attempt_count++] = base;

  // An SQPOLL thread releases submission slots in batches, possibly after the requests in
  // them have completed and been reaped, so give it slack.
  const unsigned submission_entries = polling ? 2 * options.queue_depth : options.queue_depth;
  io_uring_params params{};
  int rc = -EINVAL;
  for (std::size_t i = 0; i < attempt_count && rc == -EINVAL; ++i) {
    params = io_uring_params{};
    params.flags = attempts[i];
    params.cq_entries = submission_entries;  // at least queue_depth, and never below the SQ
    params.sq_thread_idle = static_cast<unsigned>(options.polling_idle.count());
    rc = io_uring_queue_init_params(submission_entries, &ring_, &params);
  }
  if (rc < 0) return tl::unexpected(system_error(name(), "io_uring_setup", -rc));
  if (params.cq_entries < options.queue_depth) {
    io_uring_queue_exit(&ring_);
    return fail(ErrorCode::unsupported, "io_uring: completion ring limited to " +
                                            std::to_string(params.cq_entries) + " entries");
  }

  queue_depth_ = options.queue_depth;
  polling_ = polling;
  single_issuer_ = (params.flags & IORING_SETUP_SINGLE_ISSUER) != 0;
  enabled_ = (params.flags & IORING_SETUP_R_DISABLED) == 0;
  completion_polling_ = completion_polling;
  cqes_.assign(queue_depth_, nullptr);
  synthetic_.reset(queue_depth_);
  return {};
}

Result<void> IoUringEngine::register_targets(std::span<const int> fds) {
  if (auto ok = check_register_targets(fds, prepared(), in_flight_, name()); !ok) return ok;
  if (files_registered_) {
    io_uring_unregister_files(&ring_);
    files_registered_ = false;
  }
  fds_.assign(fds.begin(), fds.end());
  if (fds_.empty()) return {};

  // An invalid descriptor becomes an empty slot, whose I/Os the kernel fails with EBADF,
  // instead of failing the registration of the valid ones.
  std::vector<int> slots(fds_);
  for (int& fd : slots) {
    if (fd < 0 || ::fcntl(fd, F_GETFD) == -1) fd = -1;
  }
  // Registration is only an optimisation: on failure (RLIMIT_NOFILE, an fd of a type that
  // cannot be registered) the plain descriptors are used.
  files_registered_ =
      io_uring_register_files(&ring_, slots.data(), static_cast<unsigned>(slots.size())) == 0;
  return {};
}

Result<void> IoUringEngine::register_buffers(std::span<const BufferRegion> regions) {
  if (!prepared()) {
    return fail(ErrorCode::invalid_argument, "io_uring: register_buffers before prepare");
  }
  if (in_flight_ != 0) {
    return fail(ErrorCode::invalid_argument, "io_uring: cannot change buffers with I/O in flight");
  }
  if (!fixed_regions_.empty()) {
    io_uring_unregister_buffers(&ring_);
    fixed_regions_.clear();
  }
  if (regions.empty()) return {};

  std::vector<iovec> iovecs;
  iovecs.reserve(regions.size());
  for (const BufferRegion& region : regions) {
    if (region.data == nullptr || region.size_bytes == 0 ||
        region.size_bytes > kMaxFixedBufferBytes) {
      return fail(ErrorCode::invalid_argument,
                  "io_uring: a fixed buffer region must be 1 byte..1 GiB, got " +
                      std::to_string(region.size_bytes) + " bytes");
    }
    iovecs.push_back({region.data, region.size_bytes});
  }
  const int rc =
      io_uring_register_buffers(&ring_, iovecs.data(), static_cast<unsigned>(iovecs.size()));
  if (rc < 0) return tl::unexpected(system_error(name(), "io_uring_register_buffers", -rc));
  fixed_regions_.assign(regions.begin(), regions.end());
  return {};
}

int IoUringEngine::fixed_buffer_index(const IoRequest& request) const noexcept {
  for (std::size_t i = 0; i < fixed_regions_.size(); ++i) {
    const BufferRegion& region = fixed_regions_[i];
    if (request.buffer >= region.data && request.length_bytes <= region.size_bytes &&
        request.buffer <= region.data + (region.size_bytes - request.length_bytes)) {
      return static_cast<int>(i);
    }
  }
  return -1;
}

void IoUringEngine::prep(io_uring_sqe* sqe, const IoRequest& request) noexcept {
  const int fd = files_registered_ ? static_cast<int>(request.target) : fds_[request.target];
  const int buffer_index = fixed_buffer_index(request);
  if (request.op == IoOp::read) {
    if (buffer_index >= 0) {
      io_uring_prep_read_fixed(sqe, fd, request.buffer, request.length_bytes, request.offset_bytes,
                               buffer_index);
    } else {
      io_uring_prep_read(sqe, fd, request.buffer, request.length_bytes, request.offset_bytes);
    }
  } else {
    if (buffer_index >= 0) {
      io_uring_prep_write_fixed(sqe, fd, request.buffer, request.length_bytes, request.offset_bytes,
                                buffer_index);
    } else {
      io_uring_prep_write(sqe, fd, request.buffer, request.length_bytes, request.offset_bytes);
    }
  }
  if (files_registered_) sqe->flags |= IOSQE_FIXED_FILE;
  io_uring_sqe_set_data64(sqe, request.tag);
}

SubmitResult IoUringEngine::submit(std::span<const IoRequest> requests) noexcept {
  if (!enabled_) {
    // The first submit makes this thread the ring's single issuer (see the file comment).
    if (enable_ring(ring_) != 0) return {0, SubmitStatus::failed, errno};
    enabled_ = true;
  }
  const std::size_t admitted = admissible(requests.size(), queue_depth_, in_flight_);
  // `accepted` counts up below; the status already says whether there was room for all.
  SubmitResult outcome = accepted_of(admitted, requests.size());
  outcome.accepted = 0;
  bool queued = false;
  for (std::size_t i = 0; i < admitted; ++i) {
    const IoRequest& request = requests[i];
    if (request.target >= fds_.size()) {
      synthetic_.push({request.tag, -EBADF});
      ++outcome.accepted;
      continue;
    }
    io_uring_sqe* sqe = io_uring_get_sqe(&ring_);
    if (sqe == nullptr) {
      // Without SQPOLL the ring is smaller than this batch (it is clamped at 32 K entries):
      // hand over what is queued. With SQPOLL the kernel thread may not have released the
      // slots of requests that have already completed: wait until it has.
      if (polling_) {
        io_uring_sqring_wait(&ring_);
      } else {
        io_uring_submit(&ring_);
      }
      sqe = io_uring_get_sqe(&ring_);
      if (sqe == nullptr) {
        outcome.status = SubmitStatus::retry_later;
        break;
      }
    }
    prep(sqe, request);
    queued = true;
    ++outcome.accepted;
  }
  in_flight_ += static_cast<std::uint32_t>(outcome.accepted);
  if (!queued) return outcome;

  const int rc = io_uring_submit(&ring_);
  // EAGAIN/EBUSY: the kernel is out of request memory or has completions to flush first.
  // The entries stay in the submission ring and go with the next io_uring_enter (reap sees
  // to that), so they are still accepted and will complete.
  if (rc < 0 && rc != -EAGAIN && rc != -EBUSY && rc != -EINTR) {
    outcome.status = SubmitStatus::failed;
    outcome.error = -rc;
  }
  return outcome;
}

std::size_t IoUringEngine::drain(std::span<IoCompletion> out) noexcept {
  const std::size_t room = out.size() < cqes_.size() ? out.size() : cqes_.size();
  const unsigned count = io_uring_peek_batch_cqe(&ring_, cqes_.data(), static_cast<unsigned>(room));
  for (unsigned i = 0; i < count; ++i) {
    out[i] = {io_uring_cqe_get_data64(cqes_[i]), cqes_[i]->res};
  }
  io_uring_cq_advance(&ring_, count);
  in_flight_ -= count;
  return count;
}

ReapResult IoUringEngine::reap(std::span<IoCompletion> out, std::size_t min_completions,
                               Nanoseconds timeout) noexcept {
  if (out.empty() || in_flight_ == 0) return {0, 0};
  // Entries left in the submission ring by an EAGAIN/EBUSY submit must reach the kernel
  // before waiting for them makes sense. (With SQPOLL the kernel thread picks them up.)
  if (!polling_ && io_uring_sq_ready(&ring_) != 0) io_uring_submit(&ring_);

  std::size_t count = synthetic_.pop_into(out);
  in_flight_ -= static_cast<std::uint32_t>(count);
  count += drain(out.subspan(count));

  std::size_t wanted = min_completions < out.size() ? min_completions : out.size();
  if (wanted > count + in_flight_) wanted = count + in_flight_;
  if (count >= wanted || timeout <= Nanoseconds::zero()) return {count, 0};

  io_uring_cqe* first = nullptr;
  __kernel_timespec wait = to_timespec(timeout);
  const int rc = io_uring_submit_and_wait_timeout(
      &ring_, &first, static_cast<unsigned>(wanted - count), &wait, nullptr);
  count += drain(out.subspan(count));
  // ETIME is the timeout itself; EINTR a signal: the caller just sees fewer completions.
  if (rc < 0 && rc != -ETIME && rc != -EINTR && rc != -EAGAIN && rc != -EBUSY) {
    return {count, -rc};
  }
  return {count, 0};
}

}  // namespace

std::unique_ptr<IoEngine> make_io_uring_engine() { return std::make_unique<IoUringEngine>(); }

}  // namespace iomark::engine::detail
