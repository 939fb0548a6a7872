// Test-file preparation (docs/iometer-reference.md#prepare, "Preparing Drives"): when a target is a
// directory (a mounted file system), I/O goes to `<directory>/iobw.tst`, which must first be
// written. A `--target` file that does not exist yet is made the same way, under its own name.
// Everything is created, grown and removed relative to the directory's descriptor, opened
// beneath the allowed entry that covers it (safety_policy.hpp, docs/write-scope.md).
#pragma once

#include <cstddef>
#include <cstdint>
#include <functional>
#include <optional>
#include <span>
#include <stop_token>
#include <string>
#include <string_view>

#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"
#include "iomark/targets/safety_policy.hpp"
#include "iomark/targets/target.hpp"

namespace iomark::targets {

// Fills the next chunk of the file with the worker's data pattern (workload's
// make_prepare_filler); empty: a repeating byte per chunk (IOmeter's default pattern).
using ChunkFiller = std::function<void(std::span<std::byte>)>;
// Called after each chunk with the file's size so far and its final size.
using PrepareProgress = std::function<void(Bytes done, Bytes total)>;

struct TestFileOptions {
  std::uint64_t starting_sector{};
  // The file is (starting_sector + maximum_size_sectors) sectors long, as Dynamo sizes it.
  // 0 = as IOmeter: the whole free space of the file system (what the unprivileged user may
  // use, statvfs f_bavail) less the free-space margin, stopping early without error if the
  // file system fills up.
  std::uint64_t maximum_size_sectors{};
  std::optional<std::uint32_t> sector_size_bytes{};  // nullopt = file system block size (target.hpp)
  Caching caching{Caching::direct};
  std::size_t chunk_bytes{std::size_t{8} << 20};  // large sequential writes; rounded to sectors
  // The file's name in the directory: one component, no '/'.
  std::string file_name{kTestFileName};
};

// The free space a test file must leave on its file system: 5% of the file system or 1 GiB,
// whichever is less (docs/write-scope.md#margin). `total_bytes` 0 (ramfs) gives 0.
[[nodiscard]] std::uint64_t free_space_margin(std::uint64_t total_bytes) noexcept;

enum class PrepareOutcome : std::uint8_t {
  created,    // the file did not exist (or was empty) and now has the requested size
  grown,      // an existing, smaller file was extended (its existing data is kept)
  reused,     // an existing file was large enough and left untouched (never shrunk)
  cancelled,  // stopped on request; what was written is kept, a later call resumes
};

struct PreparedTestFile {
  std::string path;  // canonical path of iobw.tst
  std::uint64_t size_bytes{};
  std::uint32_t sector_size_bytes{};
  PrepareOutcome outcome{PrepareOutcome::created};
  bool direct_io{};  // written with O_DIRECT (false when nothing was written)
};

// Creates or grows `<directory>/<options.file_name>` (iobw.tst by default) with large
// sequential writes (O_DIRECT unless the options or the file system say otherwise), checking
// `stop` between chunks. The directory must be in the policy's scope; the file is opened
// beneath it, never through a symbolic link that leads out of the scope.
//
// Errors name the file: not_found / invalid_argument (directory), validation_error (outside
// the scope, an existing file that is a symbolic link, has several hard links and is not
// itself an allowed entry, or is not a regular file), unsupported (O_DIRECT refused and
// Caching::direct), io_error (not enough space: the message gives the space needed, the space
// free and the margin kept; any other failed write).
// After an error a file this call created is removed and a file it grew is cut back to its
// former size, so no half-written file is left behind.
[[nodiscard]] Result<PreparedTestFile> prepare_test_file(std::string_view directory, const TestFileOptions& options,
                                                         const SafetyPolicy& policy, const ChunkFiller& fill = {},
                                                         const PrepareProgress& progress = {},
                                                         std::stop_token stop = {});

}  // namespace iomark::targets
