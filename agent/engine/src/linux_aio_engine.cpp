// linux-aio (libaio): io_submit a batch of iocbs, io_getevents to reap with a timeout.
// Good for: O_DIRECT on block devices and files — one syscall per batch each way and no
// worker threads, so a synchronous driver such as zram completes the I/O inside io_submit
// at the cost of a single syscall (where io_uring would punt it to an io-wq thread).
// Bad for: buffered I/O (io_submit then blocks for the whole I/O), and some file systems
// block in io_submit on metadata or allocation (e.g. extending writes).
//
// Unlike legacy Dynamo (docs/iometer-reference.md#fix-aio-timeout) the timeout is passed to
// io_getevents, completions are matched to requests in O(1) through the iocb's position in our
// array, and the event's own res/res2 are reported, so short and failed I/Os show.
#include <libaio.h>

#include <cerrno>
#include <chrono>
#include <ctime>

#include "engine_internals.hpp"

namespace iomark::engine::detail {
namespace {

timespec to_timespec(Nanoseconds timeout) noexcept {
  const auto seconds = std::chrono::duration_cast<std::chrono::seconds>(timeout);
  return {static_cast<time_t>(seconds.count()), static_cast<long>((timeout - seconds).count())};
}

// res is the byte count or -errno; res2 is historically a second, driver-specific status
// that is 0 on success. A non-zero res2 on an otherwise successful I/O is reported as an
// error rather than silently dropped.
std::int64_t event_result(const io_event& event) noexcept {
  const auto res = static_cast<long>(event.res);
  const auto res2 = static_cast<long>(event.res2);
  if (res < 0) return res;
  if (res2 != 0) return res2 < 0 ? res2 : -EIO;
  return res;
}

class LinuxAioEngine final : public IoEngine {
 public:
  LinuxAioEngine() = default;
  LinuxAioEngine(const LinuxAioEngine&) = delete;
  LinuxAioEngine& operator=(const LinuxAioEngine&) = delete;
  // io_destroy cancels what it can and blocks until the rest has completed, so no buffer is
  // written to after this returns.
  ~LinuxAioEngine() override {
    if (prepared()) io_destroy(context_);
  }

  [[nodiscard]] EngineKind kind() const noexcept override { return EngineKind::linux_aio; }
  [[nodiscard]] Capabilities capabilities() const noexcept override {
    return Capability::transfers_data | Capability::kernel_async | Capability::batched_submit;
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
  [[nodiscard]] bool prepared() const noexcept { return queue_depth_ != 0; }
  // Sends batch_[0, count) to the kernel; returns how many were taken (a request the kernel
  // rejects on its own, e.g. EBADF, is taken and completes with that error).
  std::size_t flush(std::size_t count, SubmitResult& outcome) noexcept;
  std::uint32_t take_slot() noexcept { return free_slots_[--free_count_]; }
  void release_slot(const iocb* slot) noexcept {
    free_slots_[free_count_++] = static_cast<std::uint32_t>(slot - iocbs_.data());
  }

  io_context_t context_{};
  std::uint32_t queue_depth_{};
  std::uint32_t in_flight_{};
  std::vector<int> fds_;
  std::vector<iocb> iocbs_;                // one per possible request
  std::vector<std::uint64_t> tags_;        // tag of the request in iocbs_[i]
  std::vector<std::uint32_t> free_slots_;  // stack of free iocbs_ indices
  std::size_t free_count_{};
  std::vector<iocb*> batch_;
  std::vector<io_event> events_;
  CompletionRing synthetic_;  // requests the kernel rejected at submission
};

Result<void> LinuxAioEngine::prepare(const EngineOptions& options) {
  if (auto ok = check_prepare(options, prepared(), name()); !ok) return ok;
  io_context_t context{};
  const int rc = io_setup(static_cast<int>(options.queue_depth), &context);
  if (rc < 0) return tl::unexpected(system_error(name(), "io_setup", -rc));

  context_ = context;
  queue_depth_ = options.queue_depth;
  iocbs_.assign(queue_depth_, iocb{});
  tags_.assign(queue_depth_, 0);
  free_slots_.resize(queue_depth_);
  for (std::uint32_t i = 0; i < queue_depth_; ++i) free_slots_[i] = queue_depth_ - 1 - i;
  free_count_ = queue_depth_;
  batch_.assign(queue_depth_, nullptr);
  events_.assign(queue_depth_, io_event{});
  synthetic_.reset(queue_depth_);
  return {};
}

std::size_t LinuxAioEngine::flush(std::size_t count, SubmitResult& outcome) noexcept {
  std::size_t done = 0;
  while (done < count) {
    const int rc = io_submit(context_, static_cast<long>(count - done), &batch_[done]);
    if (rc > 0) {
      done += static_cast<std::size_t>(rc);
    } else if (rc == 0 || rc == -EAGAIN) {
      // Out of kernel resources (or aio-max-nr): the rest is not taken.
      for (std::size_t i = done; i < count; ++i) release_slot(batch_[i]);
      outcome.status = SubmitStatus::retry_later;
      break;
    } else if (rc != -EINTR) {
      // io_submit reports the first failing iocb's error and submits nothing after it.
      const iocb* failed = batch_[done];
      synthetic_.push({tags_[static_cast<std::size_t>(failed - iocbs_.data())], rc});
      release_slot(failed);
      ++done;
    }
  }
  return done;
}

SubmitResult LinuxAioEngine::submit(std::span<const IoRequest> requests) noexcept {
  const std::size_t admitted = admissible(requests.size(), queue_depth_, in_flight_);
  // `accepted` counts up below; the status already says whether there was room for all.
  SubmitResult outcome = accepted_of(admitted, requests.size());
  outcome.accepted = 0;
  std::size_t batched = 0;
  for (std::size_t i = 0; i < admitted; ++i) {
    const IoRequest& request = requests[i];
    if (request.target >= fds_.size()) {
      // Keep the accepted requests a prefix of the batch: what precedes goes first.
      const std::size_t taken = flush(batched, outcome);
      outcome.accepted += taken;
      if (taken < batched) break;
      batched = 0;
      synthetic_.push({request.tag, -EBADF});
      ++outcome.accepted;
      continue;
    }
    const std::uint32_t slot = take_slot();
    iocb* cb = &iocbs_[slot];
    const int fd = fds_[request.target];
    const auto offset = static_cast<long long>(request.offset_bytes);
    if (request.op == IoOp::read) {
      io_prep_pread(cb, fd, request.buffer, request.length_bytes, offset);
    } else {
      io_prep_pwrite(cb, fd, request.buffer, request.length_bytes, offset);
    }
    tags_[slot] = request.tag;
    batch_[batched++] = cb;
  }
  if (outcome.status != SubmitStatus::retry_later) outcome.accepted += flush(batched, outcome);
  in_flight_ += static_cast<std::uint32_t>(outcome.accepted);
  return outcome;
}

ReapResult LinuxAioEngine::reap(std::span<IoCompletion> out, std::size_t min_completions,
                                Nanoseconds timeout) noexcept {
  if (out.empty() || in_flight_ == 0) return {0, 0};
  std::size_t count = synthetic_.pop_into(out);
  in_flight_ -= static_cast<std::uint32_t>(count);

  const std::size_t in_kernel = in_flight_;
  const std::size_t room = out.size() - count;
  const std::size_t most = room < in_kernel ? room : in_kernel;
  if (most == 0) return {count, 0};
  std::size_t wanted = min_completions < out.size() ? min_completions : out.size();
  if (wanted > count + in_kernel) wanted = count + in_kernel;
  const bool wait = count < wanted && timeout > Nanoseconds::zero();

  timespec limit = wait ? to_timespec(timeout) : timespec{0, 0};
  const int rc = io_getevents(context_, wait ? static_cast<long>(wanted - count) : 0,
                              static_cast<long>(most), events_.data(), &limit);
  if (rc < 0) return {count, rc == -EINTR ? 0 : -rc};
  for (int i = 0; i < rc; ++i) {
    const io_event& event = events_[static_cast<std::size_t>(i)];
    out[count++] = {tags_[static_cast<std::size_t>(event.obj - iocbs_.data())],
                    event_result(event)};
    release_slot(event.obj);
  }
  in_flight_ -= static_cast<std::uint32_t>(rc);
  return {count, 0};
}

}  // namespace

std::unique_ptr<IoEngine> make_linux_aio_engine() { return std::make_unique<LinuxAioEngine>(); }

}  // namespace iomark::engine::detail
