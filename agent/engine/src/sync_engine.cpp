// sync: pread/pwrite inline in submit(); completions wait in a ring until reaped.
// Good for: any file or kernel; the simplest engine to reason about; a baseline for tools
// that make a syscall per I/O (legacy Dynamo makes two).
// Bad for: concurrency — a queue depth above 1 only batches bookkeeping, the device sees
// one I/O at a time, and submit() blocks for the whole I/O.
#include <cerrno>

#include "engine_internals.hpp"

namespace iomark::engine::detail {
namespace {

class SyncEngine final : public IoEngine {
 public:
  [[nodiscard]] EngineKind kind() const noexcept override { return EngineKind::sync; }
  [[nodiscard]] Capabilities capabilities() const noexcept override {
    return Capability::transfers_data | Capability::completes_in_submit;
  }

  Result<void> prepare(const EngineOptions& options) override {
    if (auto ok = check_prepare(options, queue_depth_ != 0, name()); !ok) return ok;
    queue_depth_ = options.queue_depth;
    done_.reset(queue_depth_);
    return {};
  }

  Result<void> register_targets(std::span<const int> fds) override {
    if (auto ok = check_register_targets(fds, queue_depth_ != 0, in_flight_, name()); !ok)
      return ok;
    fds_.assign(fds.begin(), fds.end());
    return {};
  }

  Result<void> register_buffers(std::span<const BufferRegion> /*regions*/) override { return {}; }

  SubmitResult submit(std::span<const IoRequest> requests) noexcept override {
    const std::size_t accepted = admissible(requests.size(), queue_depth_, in_flight_);
    for (std::size_t i = 0; i < accepted; ++i) {
      const IoRequest& request = requests[i];
      done_.push({request.tag, posix_transfer(target_fd(fds_, request.target), request)});
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

 private:
  std::uint32_t queue_depth_{};
  std::uint32_t in_flight_{};
  std::vector<int> fds_;
  CompletionRing done_;
};

}  // namespace

std::unique_ptr<IoEngine> make_sync_engine() { return std::make_unique<SyncEngine>(); }

}  // namespace iomark::engine::detail
