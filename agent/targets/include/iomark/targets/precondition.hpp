// Preconditioning (docs/characterize.md#preconditioning): a target written whole, start to
// end, `passes` times with large sequential writes, so that an SSD array is measured in the
// state it reaches in service, not fresh from the factory or from an idle garbage collector
// (SNIA PTS's workload-independent preconditioning: twice the capacity in 128 KiB writes).
#pragma once

#include <cstddef>
#include <cstdint>
#include <stop_token>
#include <string_view>

#include "iomark/common/precondition_block.hpp"
#include "iomark/common/result.hpp"
#include "iomark/targets/safety_policy.hpp"
#include "iomark/targets/target.hpp"
#include "iomark/targets/test_file.hpp"

namespace iomark::targets {

struct PreconditionOptions {
  std::uint32_t passes{2};
  std::size_t block_bytes{kPreconditionBlockBytes};  // rounded down to whole sectors
  Caching caching{Caching::direct};
};

struct Preconditioned {
  std::uint64_t target_bytes{};   // written per pass
  std::uint64_t written_bytes{};  // over every pass
  bool cancelled{false};
};

// Writes the block device or file at `path` (a directory is refused: precondition its test
// file) whole, `options.passes` times, opened for writing by the same rules as any run
// (open_target: the policy's scope, never a mounted device or one carrying a file system
// unless forced). `progress` is called after each block with the bytes written over every
// pass and their total; `stop` is checked between blocks. Errors name the path and, for a
// failed write, the pass and byte.
[[nodiscard]] Result<Preconditioned> precondition_target(std::string_view path, const PreconditionOptions& options,
                                                         const SafetyPolicy& policy, const ChunkFiller& fill = {},
                                                         const PrepareProgress& progress = {},
                                                         std::stop_token stop = {});

}  // namespace iomark::targets
