// What is mounted and what is swap, read with libmount (util-linux): the one place that
// reads /proc/self/mountinfo and /proc/swaps, for the "never write to a mounted device"
// safety check (inspect_block_device) and for the agent's inventory of file systems.
// libmount undoes the kernel's octal escapes (\040 for a space, \011, \012, \134).
//
// Reads only. Thread-safe: every call has its own libmount table.
#pragma once

#include <sys/types.h>

#include <string>
#include <string_view>
#include <vector>

#include "iomark/common/result.hpp"

namespace iomark::targets {

// One mount of this process's mount namespace.
struct MountEntry {
  std::string mount_point;
  std::string source;     // "/dev/sda1", "tmpfs", "user@host:/a b"
  std::string type;       // "ext4", "fuse.sshfs"
  bool read_only{false};  // "ro" in the mount's or the super block's options
  dev_t device{};         // st_dev of files on it (mountinfo's major:minor)
  friend bool operator==(const MountEntry&, const MountEntry&) = default;
};

// Every mount, in mount order (parents first): libmount reading /proc/self/mountinfo.
// Errors: io_error naming the file.
[[nodiscard]] Result<std::vector<MountEntry>> read_mount_table();

// The same from mountinfo text (tests, recorded tables). Lines libmount cannot parse are
// skipped.
[[nodiscard]] std::vector<MountEntry> parse_mount_table(std::string_view mountinfo);

// The sources of the active swap areas (device nodes or files): libmount reading
// `swaps_path` (/proc/swaps by default). Errors: io_error naming the file.
[[nodiscard]] Result<std::vector<std::string>> read_swap_sources(const std::string& swaps_path = "/proc/swaps");

}  // namespace iomark::targets
