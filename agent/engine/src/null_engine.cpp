// null: completes every request at once with its full length and makes no syscall.
// Good for: tests of everything above the engine, and measuring the tool's own cost per
// I/O (the worker loop, timestamps, histograms) with no storage in the way.
// Bad for: anything about storage; it does not even look at the descriptors or buffers.
#include <cerrno>

#include "engine_internals.hpp"

namespace iomark::engine::detail {
namespace {

class NullEngine final : public CompletesInSubmitEngine<NullEngine> {
 public:
  [[nodiscard]] EngineKind kind() const noexcept override { return EngineKind::null; }
  [[nodiscard]] Capabilities capabilities() const noexcept override {
    return Capabilities(Capability::completes_in_submit);
  }

  // Same contract as the real engines for a target that was never registered.
  [[nodiscard]] std::int64_t transfer(const IoRequest& request) const noexcept {
    return request.target < fds().size() ? static_cast<std::int64_t>(request.length_bytes) : -EBADF;
  }
};

}  // namespace

std::unique_ptr<IoEngine> make_null_engine() { return std::make_unique<NullEngine>(); }

}  // namespace iomark::engine::detail
