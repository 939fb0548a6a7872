// The agent's inventory: what this host offers the controller right after
// authentication: host facts, block devices, file systems usable for test files, the paths
// the operator allowed and the I/O engines that work here (protocol::Inventory).
//
// Gathering only reads. Devices are inspected read-only (targets::inspect_block_device) and
// no file is ever created: an existing `<mount point>/iobw.tst` is measured with stat(),
// never written (IOmeter's discovery created and deleted iobw.tst on every file system,
// docs/iometer-reference.md#fix-discovery-creates-files).
//
// Parsing takes text or a directory root, so tests use fake /proc and /sys content; only
// collect_inventory() and stat_file_system() look at this machine. Every function is
// thread-compatible (no shared state).
//
// Limits: the controller's protocol::decode() rejects an Inventory that breaks any limit of
// messages.hpp, so fit_to_limits() (which collect_inventory() applies last) repairs or drops
// whatever would break one; see its contract for what is clipped and what is dropped.
#pragma once

#include <cstddef>
#include <cstdint>
#include <filesystem>
#include <functional>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/engine/engine_choice_cache.hpp"
#include "iomark/engine/engines.hpp"
#include "iomark/protocol/frame.hpp"
#include "iomark/protocol/messages.hpp"
#include "iomark/targets/block_device.hpp"
#include "iomark/targets/mount_table.hpp"
#include "iomark/targets/safety_policy.hpp"

namespace iomark::agent {

// ---- The whole inventory ------------------------------------------------------------

// Everything this host offers, within the protocol's limits:
// - host_name: gethostname(); cpu_count, os_name, kernel_release: host_facts();
// - block_devices: read_sysfs_block_devices("/sys/block") whose /dev node
//   inspect_block_device() can inspect (a device without a node here, as in many
//   containers, cannot be a target and is left out), with apply_usage();
// - file_systems: file_systems_from_mounts(targets::read_mount_table(), stat_file_system);
// - allowed_paths: policy.allowed_paths(); engines: engine_names(probes);
// - target_engines: target_engines(measured) (engine_inventory.hpp), what `auto` measured.
// `probes` is normally engine::probe_engines(), passed in so the caller probes once;
// `measured` the agent's EngineChoiceCache::measured().
// Never fails: a source that cannot be read contributes nothing. Cold path: inspects every
// device (libblkid, an O_EXCL read-only open) and calls statvfs() on every candidate mount;
// like df, it blocks while a network file system does not answer.
[[nodiscard]] protocol::Inventory collect_inventory(const targets::SafetyPolicy& policy,
                                                    std::span<const engine::EngineProbe> probes,
                                                    std::span<const engine::MeasuredChoice> measured);

// Makes `inventory` acceptable to protocol::decode() and small enough for one frame:
// - labels (host_name, os_name, kernel_release, model, file system type): invalid UTF-8
//   bytes become '?', control characters spaces, surrounding spaces are trimmed, and the
//   rest is cut to kMaxLabelBytes on a character boundary (sanitize_label); an empty host
//   name becomes "localhost"; a file system whose type ends up empty is dropped;
// - cpu_count is clamped to 1..kMaxCpus;
// - paths (device path, mount point, allowed path) that are not absolute, are longer than
//   kMaxPathBytes or contain NUL drop their item; a source is cut to kMaxPathBytes;
// - a block device whose logical sector size is not a power of two up to kMaxSectorBytes
//   is dropped; a file system's block size is repaired with usable_block_bytes(), and its
//   free bytes are clamped to its total;
// - engine names that are not 1..kMaxEngineNameBytes of [a-z0-9_-] are dropped, duplicates
//   too, and "null" is added when none is left;
// - target_engines go through fit_target_engines() (engine_inventory.hpp);
// - lists keep their first kMax... items, and then, while the message would exceed
//   kInventoryBudgetBytes, the last measured targets (target_engines), then the last file
//   systems, then the last block devices, then the last allowed paths are dropped (engines
//   and host facts are always small).
// Idempotent.
void fit_to_limits(protocol::Inventory& inventory);

// The most one Inventory may take once encoded: below protocol::kMaxFrameBytes, with room
// for the envelope. fit_to_limits() estimates generously, so the real size is smaller.
inline constexpr std::size_t kInventoryBudgetBytes = protocol::kMaxFrameBytes - 64 * 1024;

// ---- Pieces, for tests and for callers that need only one ------------------------------

// What protocol::decode() accepts as a path: absolute, 1..kMaxPathBytes, no NUL.
[[nodiscard]] bool is_valid_path(std::string_view path) noexcept;
// What protocol::decode() accepts as an engine name: 1..kMaxEngineNameBytes of [a-z0-9_-].
[[nodiscard]] bool is_valid_engine_name(std::string_view name) noexcept;

// `text` as a protocol label of at most `max_bytes`: valid UTF-8 (an invalid byte becomes
// '?'), no control characters (each becomes a space), no leading or trailing spaces, cut on
// a character boundary.
[[nodiscard]] std::string sanitize_label(std::string_view text, std::size_t max_bytes = protocol::kMaxLabelBytes);

// The names of the available engines in probe order, then "null" (which always exists),
// each once.
[[nodiscard]] std::vector<std::string> engine_names(std::span<const engine::EngineProbe> probes);

// Block devices under a sysfs block directory (normally /sys/block), sorted by name:
// - path: "/dev/<name>", with '!' in the name read as '/' (sysfs spells /dev/cciss/c0d0
//   "cciss!c0d0");
// - size_bytes: <name>/size (in 512-byte units whatever the sector size); devices whose size
//   is 0 (empty loop devices, drives without media), unreadable or overflowing are skipped;
// - logical_sector_bytes: <name>/queue/logical_block_size, 512 when the file is missing;
//   a device whose value is not a number is skipped;
// - model: <name>/device/model through sanitize_label() (SCSI pads it with spaces); empty
//   when absent.
// mount_state and has_signature keep their defaults: apply_usage() fills them. Reads only;
// an unreadable directory gives an empty list.
[[nodiscard]] std::vector<protocol::BlockDevice> read_sysfs_block_devices(const std::filesystem::path& sys_block_dir);

// Fills mount_state and has_signature of `device` from what inspect_block_device() found:
// - mount_state: `mounted` if the device itself is mounted, else `swap` if it is itself
//   swap, else `partition_mounted` if a partition or holder is mounted, else `swap` if one is
//   swap, else `not_mounted`;
// - has_signature: libblkid found a signature, or could not check (no permission to read
//   the device, conflicting signatures): when in doubt, writing may destroy data.
void apply_usage(const targets::BlockDeviceUsage& usage, protocol::BlockDevice& device);

// Whether a file system type is a kernel pseudo file system that cannot hold test files:
// autofs, binfmt_misc, bpf, cgroup, cgroup2, configfs, debugfs, devpts, devtmpfs, efivarfs,
// fusectl, hugetlbfs, mqueue, nfsd, nsfs, proc, pstore, ramfs, rootfs, rpc_pipefs,
// securityfs, selinuxfs, smackfs, sysfs, tracefs, xenfs. Other virtual file systems (FUSE
// helpers such as lxcfs or gvfs) report no blocks and are left out by that rule instead.
[[nodiscard]] bool is_pseudo_file_system(std::string_view type) noexcept;

// What statvfs() and stat() say about one mount point.
struct FileSystemStats {
  std::uint64_t total_bytes{};      // f_blocks * f_frsize (saturating)
  std::uint64_t free_bytes{};       // f_bavail * f_frsize: what an unprivileged user may use
  std::uint64_t block_bytes{};      // f_bsize, raw
  bool read_only{false};            // ST_RDONLY
  std::uint64_t test_file_bytes{};  // size of a regular <mount point>/iobw.tst; 0 = none
};

// Looks at one mount point; nullopt when statvfs() fails. Never creates anything.
using StatFileSystem = std::function<std::optional<FileSystemStats>(const std::string& mount_point)>;

// statvfs(mount_point) and stat(mount_point + "/iobw.tst").
[[nodiscard]] std::optional<FileSystemStats> stat_file_system(const std::string& mount_point);

// The file systems of a mount table that may hold test files, in mount order: pseudo file
// systems and read-only mounts are skipped without calling `stat`; then those that `stat`
// cannot look at, that are read-only or that have no blocks (total_bytes 0) are skipped.
// A mount point mounted more than once counts once, at its last (visible) mount. At most
// protocol::kMaxFileSystems are returned; `stat` is not called for the rest. block_bytes is
// usable_block_bytes(stats.block_bytes).
[[nodiscard]] std::vector<protocol::FileSystem> file_systems_from_mounts(
    const std::vector<targets::MountEntry>& mounts, const StatFileSystem& stat);

// A block size the protocol accepts: the largest power of two that divides `block_bytes`,
// at most protocol::kMaxSectorBytes; 4096 when `block_bytes` is 0.
[[nodiscard]] std::uint32_t usable_block_bytes(std::uint64_t block_bytes) noexcept;

}  // namespace iomark::agent
