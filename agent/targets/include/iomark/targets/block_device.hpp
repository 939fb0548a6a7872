// Whether a block device is in use: the facts the safety policy decides on
// (docs/iometer-reference.md#fix-unsafe-discovery: Dynamo offered whole disks whose partitions were
// mounted, RAID members, LVM physical volumes and in-use devices for destructive writes).
#pragma once

#include <optional>
#include <string>
#include <vector>

#include "iomark/common/result.hpp"

namespace iomark::targets {

// A device that is mounted: the inspected device itself, one of its partitions, or a device
// stacked on it (a holder such as dm-0 or md127), by kernel name.
struct MountUse {
  std::string device;  // kernel name, e.g. "loop3p1"
  std::string mount_point;
  friend bool operator==(const MountUse&, const MountUse&) = default;
};

// What libblkid found at the start of the device.
struct Signature {
  std::string type;   // "ext4", "LVM2_member", "linux_raid_member", "swap", or a partition table "gpt"
  std::string usage;  // "filesystem", "raid", "crypto", "other", or "partition table"
  friend bool operator==(const Signature&, const Signature&) = default;
};

struct BlockDeviceUsage {
  std::string path;  // canonical device node, e.g. "/dev/loop3"
  std::string name;  // kernel name, e.g. "loop3"
  std::vector<MountUse> mounts;       // from read_mount_table(), by device number or source
  std::vector<std::string> swaps;     // the device or a partition/holder among read_swap_sources()
  std::vector<std::string> partitions;
  std::vector<std::string> holders;   // /sys/class/block/<name>/holders, of the device and its partitions
  std::optional<Signature> signature;
  std::string probe_problem;          // libblkid failed or found conflicting signatures
  std::string busy;                   // why an exclusive open (O_EXCL) failed; empty if it succeeded

  // Nothing found: writing to the device destroys nothing the system knows about.
  [[nodiscard]] bool is_blank() const noexcept;

  // One phrase per finding, to follow the device path: "is mounted at /mnt/a",
  // "has partitions (loop3p1)", "carries an ext4 file system signature", ...
  [[nodiscard]] std::vector<std::string> reasons() const;
};

// Inspects a block device node through sysfs, the mount and swap tables (mount_table.hpp), libblkid
// and an O_EXCL open (closed again at once). Reads only; never writes to the device.
// Errors: not_found (no such path), invalid_argument (not a block device), io_error.
[[nodiscard]] Result<BlockDeviceUsage> inspect_block_device(const std::string& device_path);

}  // namespace iomark::targets
