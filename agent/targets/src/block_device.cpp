#include "iomark/targets/block_device.hpp"

#include <blkid/blkid.h>
#include <fcntl.h>
#include <sys/stat.h>
#include <sys/sysmacros.h>

#include <algorithm>
#include <cerrno>
#include <charconv>
#include <chrono>
#include <filesystem>
#include <thread>

#include "iomark/common/text_file.hpp"
#include "iomark/targets/mount_table.hpp"
#include "posix.hpp"

namespace iomark::targets {
namespace {

namespace fs = std::filesystem;

// A device whose use makes writing to the inspected one destructive.
struct Related {
  dev_t dev{};
  std::string name;
};

std::optional<dev_t> parse_major_minor(std::string_view text) {
  unsigned major_number = 0;
  unsigned minor_number = 0;
  const char* end = text.data() + text.size();
  auto [after_major, major_error] = std::from_chars(text.data(), end, major_number);
  if (major_error != std::errc() || after_major == end || *after_major != ':') return std::nullopt;
  auto [after_minor, minor_error] = std::from_chars(after_major + 1, end, minor_number);
  if (minor_error != std::errc()) return std::nullopt;
  return makedev(major_number, minor_number);
}

std::optional<dev_t> sysfs_dev(const fs::path& block_dir) {
  const auto text = read_text_file(block_dir / "dev");
  if (!text) return std::nullopt;
  return parse_major_minor(*text);
}

// The entries of a sysfs directory; empty when it cannot be read. Never throws.
std::vector<fs::path> list_directory(const fs::path& directory) {
  std::vector<fs::path> entries;
  std::error_code error;
  for (fs::directory_iterator it(directory, error), end; !error && it != end; it.increment(error)) {
    entries.push_back(it->path());
  }
  return entries;
}

bool contains(const std::vector<Related>& related, dev_t dev) {
  return std::any_of(related.begin(), related.end(), [dev](const Related& r) { return r.dev == dev; });
}

// Adds the devices stacked on `block_dir` (dm, md, bcache...), and theirs, recursively.
void add_holders(const fs::path& block_dir, std::vector<Related>& related, std::vector<std::string>& names) {
  for (const fs::path& entry : list_directory(block_dir / "holders")) {
    const std::string holder = entry.filename().string();
    const fs::path holder_dir = fs::path("/sys/class/block") / holder;
    const auto dev = sysfs_dev(holder_dir);
    if (!dev || contains(related, *dev)) continue;
    related.push_back(Related{*dev, holder});
    names.push_back(holder);
    add_holders(holder_dir, related, names);
  }
}

const Related* find(const std::vector<Related>& related, dev_t dev) {
  const auto it = std::find_if(related.begin(), related.end(), [dev](const Related& r) { return r.dev == dev; });
  return it == related.end() ? nullptr : &*it;
}

// The related device a mount source or swap file names, if it is a block device node.
const Related* find_by_node(const std::vector<Related>& related, const std::string& node) {
  struct stat st {};
  if (node.empty() || node.front() != '/' || ::stat(node.c_str(), &st) != 0 || !S_ISBLK(st.st_mode)) return nullptr;
  return find(related, st.st_rdev);
}

// The mounts of `related` devices, found by the mount's device number or its source node.
void scan_mounts(const std::vector<Related>& related, std::vector<MountUse>& mounts) {
  const auto table = read_mount_table();
  if (!table) return;
  for (const auto& entry : *table) {
    const Related* used = find(related, entry.device);
    if (used == nullptr) used = find_by_node(related, entry.source);
    if (used == nullptr) continue;
    MountUse mount{used->name, entry.mount_point};
    if (std::find(mounts.begin(), mounts.end(), mount) == mounts.end()) mounts.push_back(std::move(mount));
  }
}

void scan_swaps(const std::vector<Related>& related, std::vector<std::string>& swaps) {
  const auto sources = read_swap_sources();
  if (!sources) return;
  for (const auto& source : *sources) {
    if (const Related* used = find_by_node(related, source)) swaps.push_back(used->name);
  }
}

void probe_signature(const std::string& path, BlockDeviceUsage& usage) {
  blkid_probe probe = blkid_new_probe_from_filename(path.c_str());
  if (probe == nullptr) {
    usage.probe_problem = "libblkid could not open it: " + detail::errno_text(errno);
    return;
  }
  blkid_probe_enable_superblocks(probe, 1);
  blkid_probe_set_superblocks_flags(probe, BLKID_SUBLKS_TYPE | BLKID_SUBLKS_USAGE);
  blkid_probe_enable_partitions(probe, 1);
  const int result = blkid_do_safeprobe(probe);
  if (result == 0) {
    const char* value = nullptr;
    if (blkid_probe_lookup_value(probe, "TYPE", &value, nullptr) == 0 && value != nullptr) {
      Signature signature{value, "other"};
      if (blkid_probe_lookup_value(probe, "USAGE", &value, nullptr) == 0 && value != nullptr) signature.usage = value;
      usage.signature = std::move(signature);
    } else if (blkid_probe_lookup_value(probe, "PTTYPE", &value, nullptr) == 0 && value != nullptr) {
      usage.signature = Signature{value, "partition table"};
    }
  } else if (result == -2) {
    usage.probe_problem = "libblkid found several conflicting signatures";
  } else if (result < 0) {
    usage.probe_problem = "libblkid could not read it";
  }
  blkid_free_probe(probe);
}

std::string signature_phrase(const Signature& signature) {
  if (signature.usage == "filesystem") return "carries " + detail::with_article(signature.type) + " file system signature";
  if (signature.usage == "raid") return "carries " + detail::with_article(signature.type) + " RAID/volume-manager signature";
  if (signature.usage == "crypto") return "carries " + detail::with_article(signature.type) + " encrypted-volume signature";
  if (signature.usage == "partition table") return "carries " + detail::with_article(signature.type) + " partition table";
  return "carries " + detail::with_article(signature.type) + " signature";
}

std::string join(const std::vector<std::string>& items) {
  std::string text;
  for (const auto& item : items) text += (text.empty() ? "" : ", ") + item;
  return text;
}

}  // namespace

bool BlockDeviceUsage::is_blank() const noexcept {
  return mounts.empty() && swaps.empty() && partitions.empty() && holders.empty() && !signature &&
         probe_problem.empty() && busy.empty();
}

std::vector<std::string> BlockDeviceUsage::reasons() const {
  std::vector<std::string> out;
  const auto is_partition = [this](const std::string& device) {
    return std::find(partitions.begin(), partitions.end(), device) != partitions.end();
  };
  for (const MountUse& mount : mounts) {
    if (mount.device == name) {
      out.push_back("is mounted at " + mount.mount_point);
    } else if (is_partition(mount.device)) {
      out.push_back("has partition " + mount.device + " mounted at " + mount.mount_point);
    } else {
      out.push_back("is used by " + mount.device + ", which is mounted at " + mount.mount_point);
    }
  }
  for (const std::string& device : swaps) {
    out.push_back(device == name ? "is in use as swap" : "has " + device + " in use as swap");
  }
  if (!partitions.empty()) out.push_back("has partitions (" + join(partitions) + ")");
  if (!holders.empty()) out.push_back("is held by " + join(holders) + " (device mapper, RAID or another stacked device)");
  if (signature) out.push_back(signature_phrase(*signature));
  if (!probe_problem.empty()) out.push_back("could not be checked for signatures (" + probe_problem + ")");
  if (!busy.empty()) out.push_back("is in use (" + busy + ")");
  return out;
}

Result<BlockDeviceUsage> inspect_block_device(const std::string& device_path) {
  struct stat st {};
  if (::stat(device_path.c_str(), &st) != 0) return fail(detail::os_error(ErrorCode::io_error, device_path, errno));
  if (!S_ISBLK(st.st_mode)) return fail(ErrorCode::invalid_argument, device_path + " is not a block device");

  BlockDeviceUsage usage;
  std::error_code error;
  usage.path = fs::canonical(device_path, error).string();
  if (error) usage.path = device_path;
  const fs::path sys_dir = fs::canonical(
      fs::path("/sys/dev/block") / (std::to_string(major(st.st_rdev)) + ":" + std::to_string(minor(st.st_rdev))), error);
  if (error) return fail(ErrorCode::io_error, device_path + ": no sysfs entry for the device: " + error.message());
  usage.name = sys_dir.filename().string();

  std::vector<Related> related{Related{st.st_rdev, usage.name}};
  for (const fs::path& entry : list_directory(sys_dir)) {
    if (!fs::exists(entry / "partition", error)) continue;
    const auto dev = sysfs_dev(entry);
    if (!dev) continue;
    const std::string partition = entry.filename().string();
    related.push_back(Related{*dev, partition});
    usage.partitions.push_back(partition);
  }
  std::sort(usage.partitions.begin(), usage.partitions.end());
  add_holders(sys_dir, related, usage.holders);
  for (const std::string& partition : usage.partitions) add_holders(sys_dir / partition, related, usage.holders);

  scan_mounts(related, usage.mounts);
  scan_swaps(related, usage.swaps);
  probe_signature(usage.path, usage);

  // The kernel refuses O_EXCL on a block device that is mounted, held, or opened exclusively
  // by anyone (mkfs, another benchmark, a VM), including mounts in other namespaces. Those
  // hold it for good; another agent on this host checking the same device holds it for
  // microseconds, so EBUSY is asked again for a moment before it counts.
  constexpr int kExclusiveTries = 20;
  for (int attempt = 1;; ++attempt) {
    detail::UniqueFd exclusive(::open(usage.path.c_str(), O_RDONLY | O_EXCL | O_CLOEXEC));
    if (exclusive.valid()) break;
    const int open_errno = errno;
    if (open_errno != EBUSY || attempt == kExclusiveTries) {
      usage.busy = "an exclusive open failed: " + detail::errno_text(open_errno);
      break;
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(5));
  }
  return usage;
}

}  // namespace iomark::targets
