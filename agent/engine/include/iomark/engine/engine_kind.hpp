// The I/O back ends iomark can drive, by name (`--engine`), with what each is good at.
#pragma once

#include <array>
#include <cstdint>
#include <string_view>

#include "iomark/common/result.hpp"

namespace iomark::engine {

enum class EngineKind : std::uint8_t {
  // liburing: one syscall submits a batch and waits for a batch; registered files and
  // fixed buffers remove per-I/O reference counting and page pinning. Best where the
  // target completes I/O without blocking (NVMe, most block devices, O_DIRECT on ext4/xfs).
  // Where a driver cannot (zram, some bio-based drivers), the kernel hands every read to
  // io-wq worker threads: slow at depth 1 and costly in CPU at depth; see calibration.hpp.
  io_uring,
  // libaio (io_submit / io_getevents): batched, no worker threads; a synchronous driver
  // completes the I/O inside io_submit, which is what zram needs. Only truly asynchronous
  // with O_DIRECT; buffered I/O blocks in io_submit.
  linux_aio,
  // pread/pwrite on helper threads: works on any file or kernel, costs a thread hand-off
  // and a lock per I/O. The portable fallback.
  threadpool,
  // pread/pwrite inline in submit: queue depth above 1 gives no concurrency. One syscall per
  // I/O, so usually `auto`'s pick at depth 1 (engine_choice.hpp); half of legacy Dynamo's two.
  sync,
  // No syscalls: every request completes at once with its full length. For tests and for
  // measuring the tool's own overhead. Never chosen by the probe.
  null,
};

// Probe order (Seastar-style): listing order, and make_best_engine's fallback order.
inline constexpr std::array<EngineKind, 4> kProbeOrder{EngineKind::io_uring, EngineKind::linux_aio,
                                                       EngineKind::threadpool, EngineKind::sync};

// Every kind, for listing and tests.
inline constexpr std::array<EngineKind, 5> kAllEngineKinds{
    EngineKind::io_uring, EngineKind::linux_aio, EngineKind::threadpool, EngineKind::sync,
    EngineKind::null};

// The canonical name: "io_uring", "linux-aio", "threadpool", "sync", "null".
[[nodiscard]] std::string_view to_string(EngineKind kind) noexcept;

// Parses an `--engine` value: the canonical names plus "libaio" for linux-aio; ASCII case
// is ignored. Anything else is ErrorCode::invalid_argument naming the accepted values.
[[nodiscard]] Result<EngineKind> parse_engine_kind(std::string_view text);

}  // namespace iomark::engine
