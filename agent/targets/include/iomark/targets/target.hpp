// Opening and sizing targets: block devices and files (docs/iometer-reference.md#region), behind
// the operator's safety policy.
//
// Who may be touched (docs/write-scope.md):
//  * any target, directory or test file must be an allowed path or lie below an allowed
//    directory (SafetyPolicy::allows, after resolving symbolic links); there is no exception
//    for test files. It is then opened beneath the allowed entry's descriptor
//    (SafetyPolicy::open), so a link or a swapped directory cannot lead out between check
//    and open;
//  * a regular file with several hard links is written only if it is itself an allowed
//    entry: its other names may lie anywhere;
//  * writing to a block device is refused while it is mounted (itself, a partition or a
//    device stacked on it), used as swap, partitioned, held by another driver, carries a
//    file-system/RAID/LVM/partition-table signature, or cannot be opened exclusively, unless
//    the policy says Destructive::allow. A mounted device is refused on the same terms: with
//    --allow-destructive the operator has said, on the agent's own command line, that the
//    device may be overwritten, and a second flag for "even while mounted" would only be a
//    second rubber stamp; the refusal message names the mount point so the choice is informed.
//    Reading needs only the allow list.
//
// Sector size: block devices report their logical block size (BLKSSZGET). For files we follow
// what Linux Dynamo did, the file system block size (statvfs f_bsize, usually 4096), although
// IOmeter's User's Guide speaks of 512-byte sectors: it keeps "Starting Disk Sector" and
// "Maximum Disk Size" meaning what they meant on a Linux Dynamo, keeps the default alignment
// (align 0) and therefore the offsets the same as Dynamo's, and always satisfies O_DIRECT,
// whose alignment never exceeds the file system block. OpenOptions::file_sector_size_bytes
// overrides it (512 for the User's Guide meaning).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <utility>

#include "iomark/common/result.hpp"
#include "iomark/targets/safety_policy.hpp"

namespace iomark::targets {

inline constexpr std::string_view kTestFileName = "iobw.tst";

// new_file: a path that does not exist yet in an existing, allowed directory; it is created
// at the size asked (prepare_test_file with its name), as a test file is.
enum class TargetKind : std::uint8_t { block_device, file, directory, new_file };

enum class AccessMode : std::uint8_t { read_only, read_write };

enum class Caching : std::uint8_t {
  direct,              // O_DIRECT (default); a file system that refuses it is an error naming the opt-in
  direct_or_buffered,  // O_DIRECT where the file system accepts it, else the page cache (explicit opt-in)
  buffered,            // always the page cache
};

struct OpenOptions {
  AccessMode access{AccessMode::read_write};
  Caching caching{Caching::direct};
  std::optional<std::uint32_t> file_sector_size_bytes{};  // files only; nullopt = file system block size
};

// A target the policy allows, identified by device and inode so that the object opened later
// can be checked to be the object that was checked.
struct AuthorizedTarget {
  std::string path;  // canonical
  TargetKind kind{TargetKind::file};
  std::uint64_t device_id{};  // st_dev (0 for new_file)
  std::uint64_t inode{};      // st_ino (0 for new_file)
};

// Resolves `path` and applies the policy for `access` (see the top of this file). Directories
// are authorized on the same terms (test files are prepared in them); a path that does not
// exist is a new_file when its directory exists. Errors name the path, the resolved path when
// a symbolic link was followed, and the exact reason: not_found (no such path, or no such
// directory for a new file), validation_error (refused by the policy: SafetyPolicy::refusal,
// field --allow), invalid_argument (a character device, socket...).
[[nodiscard]] Result<AuthorizedTarget> authorize_target(std::string_view path, AccessMode access,
                                                        const SafetyPolicy& policy);

struct TargetInfo {
  std::string path;  // canonical
  TargetKind kind{TargetKind::file};
  std::uint64_t size_bytes{};        // BLKGETSIZE64, or the file's size
  std::uint32_t sector_size_bytes{};  // see the top of this file
  bool direct_io{};                   // opened with O_DIRECT
};

// An open target: owns the file descriptor (closed by the destructor). Move-only.
class OpenTarget {
 public:
  OpenTarget(int fd, TargetInfo info) noexcept : fd_(fd), info_(std::move(info)) {}
  OpenTarget(OpenTarget&& other) noexcept : fd_(std::exchange(other.fd_, -1)), info_(std::move(other.info_)) {}
  OpenTarget& operator=(OpenTarget&& other) noexcept;
  OpenTarget(const OpenTarget&) = delete;
  OpenTarget& operator=(const OpenTarget&) = delete;
  ~OpenTarget();

  [[nodiscard]] int fd() const noexcept { return fd_; }
  [[nodiscard]] const TargetInfo& info() const noexcept { return info_; }

 private:
  int fd_;
  TargetInfo info_;
};

// Authorizes (authorize_target), opens and sizes a block device or a file. A directory is
// refused: prepare its test file (test_file.hpp) and open that. With Caching::direct, a file
// system that refuses O_DIRECT (EINVAL: ramfs, some FUSE and network file systems) gives an
// `unsupported` error that names the path and the buffered-I/O opt-in.
[[nodiscard]] Result<OpenTarget> open_target(std::string_view path, const OpenOptions& options,
                                             const SafetyPolicy& policy);

}  // namespace iomark::targets
