// Preconditioning (docs/characterize.md#preconditioning): `passes` times a target's size
// written to it, so that an SSD array is measured in the state it reaches in service, not
// fresh from the factory or from an idle garbage collector. By default in 128 KiB sequential
// writes, start to end (SNIA PTS's workload-independent preconditioning); with a named spec,
// in that spec's writes (its block sizes, randomness and alignment) from several streams at
// once, as SNIA's workload-dependent preconditioning asks.
#pragma once

#include <cstddef>
#include <cstdint>
#include <stop_token>
#include <string_view>
#include <vector>

#include "iomark/common/precondition_block.hpp"
#include "iomark/common/result.hpp"
#include "iomark/targets/safety_policy.hpp"
#include "iomark/targets/target.hpp"
#include "iomark/targets/test_file.hpp"

namespace iomark::targets {

// One kind of write: a spec line's writes.
struct PreconditionWrite {
  std::size_t block_bytes{kPreconditionBlockBytes};  // rounded down to whole sectors
  std::uint32_t weight{1};                           // its share of the writes, against the others'
  std::uint32_t percent_random{0};                   // the rest continue where the stream's last ended
  std::size_t align_bytes{0};                        // of a random write's offset; 0: the sector
  friend bool operator==(const PreconditionWrite&, const PreconditionWrite&) = default;
};

struct PreconditionOptions {
  std::uint32_t passes{2};
  std::vector<PreconditionWrite> writes{PreconditionWrite{}};  // 1 or more, each of weight >= 1
  // Writers at once, each its own sequential position (starting 1/streams of the target
  // apart) and its own random offsets, as IOmeter's workers sharing a target.
  std::uint32_t streams{1};
  std::uint64_t seed{};  // of the random offsets
  Caching caching{Caching::direct};
};

struct Preconditioned {
  std::uint64_t target_bytes{};   // written per pass
  std::uint64_t written_bytes{};  // over every pass
  bool cancelled{false};
};

// Writes `options.passes` times the size of the block device or file at `path` (a directory
// is refused: precondition its test file) to it, opened for writing by the same rules as any
// run (open_target: the policy's scope, never a mounted device or one carrying a file system
// unless forced). `fill` is called for every block, one call at a time whatever the streams.
// `progress` is called on the calling thread after each of its blocks with the bytes written
// over every pass by every stream and their total (with several streams, once more when all
// are done); `stop` is checked between blocks. Errors name the path and, for a failed write,
// the pass and byte.
[[nodiscard]] Result<Preconditioned> precondition_target(std::string_view path, const PreconditionOptions& options,
                                                         const SafetyPolicy& policy, const ChunkFiller& fill = {},
                                                         const PrepareProgress& progress = {},
                                                         std::stop_token stop = {});

}  // namespace iomark::targets
