// The write size of --precondition's whole-target passes (docs/characterize.md#preconditioning),
// one home for the agent that writes them and the controller that records them: SNIA PTS's
// workload-independent preconditioning writes 128 KiB sequentially.
#pragma once

#include <cstddef>

namespace iomark {

inline constexpr std::size_t kPreconditionBlockBytes = std::size_t{128} << 10;

}  // namespace iomark
