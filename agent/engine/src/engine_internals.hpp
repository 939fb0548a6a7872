// Pieces the back ends share; private to the engine library.
#pragma once

#include <cstddef>
#include <cstdint>
#include <memory>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/result.hpp"
#include "iomark/engine/io_engine.hpp"

namespace iomark::engine::detail {

// A FIFO of completions with a capacity fixed at reset(); push and pop never allocate.
class CompletionRing {
 public:
  void reset(std::size_t capacity);

  // False when full, which the callers' queue-depth accounting rules out.
  bool push(IoCompletion completion) noexcept {
    if (count_ == slots_.size()) return false;
    // A compare, not a modulo: the ring's size is not a constant, and a division per I/O shows.
    std::size_t tail = head_ + count_;
    if (tail >= slots_.size()) tail -= slots_.size();
    slots_[tail] = completion;
    ++count_;
    return true;
  }
  std::size_t pop_into(std::span<IoCompletion> out) noexcept;
  [[nodiscard]] std::size_t size() const noexcept { return count_; }
  [[nodiscard]] bool empty() const noexcept { return count_ == 0; }

 private:
  std::vector<IoCompletion> slots_;
  std::size_t head_{};
  std::size_t count_{};
};

// pread or pwrite of the whole request, retried on EINTR: bytes transferred or -errno.
// One call only, so a short transfer is reported as short.
[[nodiscard]] std::int64_t posix_transfer(int fd, const IoRequest& request) noexcept;

// The descriptor for a target index, or -1 (which makes the I/O fail with EBADF).
[[nodiscard]] inline int target_fd(std::span<const int> fds, std::uint32_t target) noexcept {
  return target < fds.size() ? fds[target] : -1;
}

// Common checks of prepare(): queue depth in range, not prepared before.
[[nodiscard]] Result<void> check_prepare(const EngineOptions& options, bool already_prepared,
                                         std::string_view engine_name);
[[nodiscard]] Result<void> check_register_targets(std::span<const int> fds, bool prepared,
                                                  std::uint32_t in_flight,
                                                  std::string_view engine_name);

// "name: what: strerror(err)" as an Error.
[[nodiscard]] Error system_error(std::string_view engine_name, std::string_view what, int err);

// Requests of a batch that fit under the queue depth.
[[nodiscard]] inline std::size_t admissible(std::size_t wanted, std::uint32_t queue_depth,
                                            std::uint32_t in_flight) noexcept {
  const std::size_t room = queue_depth - in_flight;
  return wanted < room ? wanted : room;
}

// The outcome when the first `accepted` of `requested` requests were taken for lack of room.
[[nodiscard]] inline SubmitResult accepted_of(std::size_t accepted,
                                              std::size_t requested) noexcept {
  return {accepted, accepted < requested ? SubmitStatus::queue_full : SubmitStatus::all_accepted,
          0};
}

// What the engines that complete every request inside submit() (sync, null) share:
// preparation, target registration, the completion queue and reap. Derived supplies kind(),
// capabilities() and `std::int64_t transfer(const IoRequest&) noexcept` (bytes or -errno);
// CRTP keeps the per-I/O call direct on the hot path.
template <typename Derived>
class CompletesInSubmitEngine : public IoEngine {
 public:
  Result<void> prepare(const EngineOptions& options) override {
    if (auto ok = check_prepare(options, queue_depth_ != 0, name()); !ok) return ok;
    queue_depth_ = options.queue_depth;
    done_.reset(queue_depth_);
    return {};
  }

  Result<void> register_targets(std::span<const int> fds) override {
    if (auto ok = check_register_targets(fds, queue_depth_ != 0, in_flight_, name()); !ok) return ok;
    fds_.assign(fds.begin(), fds.end());
    return {};
  }

  Result<void> register_buffers(std::span<const BufferRegion> /*regions*/) override { return {}; }

  SubmitResult submit(std::span<const IoRequest> requests) noexcept override {
    const std::size_t accepted = admissible(requests.size(), queue_depth_, in_flight_);
    for (std::size_t i = 0; i < accepted; ++i) {
      done_.push({requests[i].tag, static_cast<Derived*>(this)->transfer(requests[i])});
    }
    in_flight_ += static_cast<std::uint32_t>(accepted);
    return accepted_of(accepted, requests.size());
  }

  ReapResult reap(std::span<IoCompletion> out, std::size_t /*min_completions*/,
                  Nanoseconds /*timeout*/) noexcept override {
    // Everything accepted has already completed, so there is never anything to wait for.
    const std::size_t count = done_.pop_into(out);
    in_flight_ -= static_cast<std::uint32_t>(count);
    return {count, 0};
  }

  [[nodiscard]] std::uint32_t in_flight() const noexcept override { return in_flight_; }
  [[nodiscard]] std::uint32_t queue_depth() const noexcept override { return queue_depth_; }

 protected:
  [[nodiscard]] std::span<const int> fds() const noexcept { return fds_; }

 private:
  std::uint32_t queue_depth_{};
  std::uint32_t in_flight_{};
  std::vector<int> fds_;
  CompletionRing done_;
};

std::unique_ptr<IoEngine> make_io_uring_engine();
std::unique_ptr<IoEngine> make_linux_aio_engine();
std::unique_ptr<IoEngine> make_threadpool_engine();
std::unique_ptr<IoEngine> make_sync_engine();
std::unique_ptr<IoEngine> make_null_engine();

}  // namespace iomark::engine::detail
