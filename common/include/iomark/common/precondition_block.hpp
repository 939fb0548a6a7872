// How --precondition writes (docs/characterize.md#preconditioning), one home for the agent
// that writes and the controller that records it: SNIA PTS's workload-independent
// preconditioning writes 128 KiB sequentially.
#pragma once

#include <cstddef>
#include <cstdint>

namespace iomark {

inline constexpr std::size_t kPreconditionBlockBytes = std::size_t{128} << 10;

// Writers at once when --precondition-spec names the writes: a spec's small random writes
// from one writer would take hours on an array that serves them from many queues at once.
inline constexpr std::uint32_t kPreconditionSpecStreams = 16;

}  // namespace iomark
