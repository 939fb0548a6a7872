// The limits on outstanding I/Os (queue depth), one home for the plan's fields, the wire and
// the engine.
#pragma once

#include <cstdint>

namespace iomark {

// Per target: io_uring's largest submission ring (IORING_MAX_ENTRIES); a deeper queue on one
// target could not be kept in flight by one engine instance anyway.
inline constexpr std::uint32_t kMaxOutstandingIosPerTarget = 32768;

// Per worker, over all its targets: the most requests one engine instance holds at once.
inline constexpr std::uint32_t kMaxOutstandingIosPerWorker = 65536;

}  // namespace iomark
