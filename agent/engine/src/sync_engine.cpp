// sync: pread/pwrite inline in submit(); completions wait in a ring until reaped.
// Good for: any file or kernel; the simplest engine to reason about; a baseline for tools
// that make a syscall per I/O (legacy Dynamo makes two).
// Bad for: concurrency — a queue depth above 1 only batches bookkeeping, the device sees
// one I/O at a time, and submit() blocks for the whole I/O.
#include <cerrno>

#include "engine_internals.hpp"

namespace iomark::engine::detail {
namespace {

class SyncEngine final : public CompletesInSubmitEngine<SyncEngine> {
 public:
  [[nodiscard]] EngineKind kind() const noexcept override { return EngineKind::sync; }
  [[nodiscard]] Capabilities capabilities() const noexcept override {
    return Capability::transfers_data | Capability::completes_in_submit;
  }

  [[nodiscard]] std::int64_t transfer(const IoRequest& request) const noexcept {
    return posix_transfer(target_fd(fds(), request.target), request);
  }
};

}  // namespace

std::unique_ptr<IoEngine> make_sync_engine() { return std::make_unique<SyncEngine>(); }

}  // namespace iomark::engine::detail
