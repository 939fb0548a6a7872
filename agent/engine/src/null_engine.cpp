// null: completes every request at once with its full length and makes no syscall.
// Good for: tests of everything above the engine, and measuring the tool's own cost per
// I/O (the worker loop, timestamps, histograms) with no storage in the way.
// Bad for: anything about storage; it does not even look at the descriptors or buffers.
#include <cerrno>

#include "engine_internals.hpp"

namespace iomark::engine::detail {
namespace {

class NullEngine final : public IoEngine {
 public:
  [[nodiscard]] EngineKind kind() const noexcept override { return EngineKind::null; }
  [[nodiscard]] Capabilities capabilities() const noexcept override {
    return Capabilities(Capability::completes_in_submit);
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
    target_count_ = fds.size();
    return {};
  }

  Result<void> register_buffers(std::span<const BufferRegion> /*regions*/) override { return {}; }

  SubmitResult submit(std::span<const IoRequest> requests) noexcept override {
    const std::size_t accepted = admissible(requests.size(), queue_depth_, in_flight_);
    for (std::size_t i = 0; i < accepted; ++i) {
      const IoRequest& request = requests[i];
      // Same contract as the real engines for a target that was never registered.
      const std::int64_t result =
          request.target < target_count_ ? static_cast<std::int64_t>(request.length_bytes) : -EBADF;
      done_.push({request.tag, result});
    }
    in_flight_ += static_cast<std::uint32_t>(accepted);
    return accepted_of(accepted, requests.size());
  }

  ReapResult reap(std::span<IoCompletion> out, std::size_t /*min_completions*/,
                  Nanoseconds /*timeout*/) noexcept override {
    const std::size_t count = done_.pop_into(out);
    in_flight_ -= static_cast<std::uint32_t>(count);
    return {count, 0};
  }

  [[nodiscard]] std::uint32_t in_flight() const noexcept override { return in_flight_; }
  [[nodiscard]] std::uint32_t queue_depth() const noexcept override { return queue_depth_; }

 private:
  std::uint32_t queue_depth_{};
  std::uint32_t in_flight_{};
  std::size_t target_count_{};
  CompletionRing done_;
};

}  // namespace

std::unique_ptr<IoEngine> make_null_engine() { return std::make_unique<NullEngine>(); }

}  // namespace iomark::engine::detail
