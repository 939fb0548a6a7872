#include "iomark/agent/legacy_targets.hpp"

#include <sys/stat.h>

#include <algorithm>
#include <filesystem>

#include "iomark/agent/inventory.hpp"
#include "iomark/targets/mount_table.hpp"
#include "iomark/targets/target.hpp"

namespace iomark::agent {

namespace {

// The type of the file system holding `directory`: the mount with the longest mount point
// that is a prefix of it (the mount table lists parents first, so the last match wins on ties).
std::string file_system_type(const std::vector<targets::MountEntry>& mounts, const std::string& directory) {
  std::string type = "unknown";
  std::size_t best = 0;
  for (const auto& mount : mounts) {
    const auto& point = mount.mount_point;
    const bool contains = directory == point || point == "/" ||
                          (directory.starts_with(point) && directory.size() > point.size() && directory[point.size()] == '/');
    if (contains && point.size() >= best) {
      best = point.size();
      type = mount.type;
    }
  }
  return type;
}

LegacyTarget logical_target(const std::string& directory, const std::string& type, const FileSystemStats& stats) {
  legacy::TargetSpec spec;
  // The whole name must fit in 79 characters: Dynamo cuts the mount point, so do we.
  const std::string suffix = " [" + type + "]";
  const std::size_t room = legacy::target_spec_layout::kNameBytes - 1;
  spec.name = directory.substr(0, room > suffix.size() ? room - suffix.size() : 0) + suffix;
  spec.name.resize(std::min(spec.name.size(), room));
  spec.type = legacy::target_type::kLogicalDisk;
  legacy::DiskDetails disk;
  disk.ready = stats.test_file_bytes > 0;
  disk.sector_size = usable_block_bytes(stats.block_bytes);
  disk.not_mounted = false;
  spec.details = disk;
  return {std::move(spec), directory};
}

std::optional<LegacyTarget> physical_target(const std::string& path, const targets::SafetyPolicy& policy) {
  if (!targets::authorize_target(path, targets::AccessMode::read_write, policy)) return std::nullopt;
  auto opened = targets::open_target(path, {targets::AccessMode::read_only, targets::Caching::buffered, {}}, policy);
  if (!opened || opened->info().kind != targets::TargetKind::block_device || opened->info().size_bytes == 0) {
    return std::nullopt;
  }
  legacy::TargetSpec spec;
  spec.name = std::filesystem::path(opened->info().path).filename().string();
  if (spec.name.size() >= legacy::target_spec_layout::kNameBytes) return std::nullopt;
  spec.type = legacy::target_type::kPhysicalDisk;
  legacy::DiskDetails disk;
  disk.ready = true;
  disk.not_mounted = true;
  disk.sector_size = opened->info().sector_size_bytes;
  spec.details = disk;
  return LegacyTarget{std::move(spec), opened->info().path};
}

}  // namespace

std::vector<LegacyTarget> list_legacy_targets(const targets::SafetyPolicy& policy) {
  // An unreadable mount table lists no file systems; allowed devices and directories still count.
  const auto mounts = targets::read_mount_table().value_or(std::vector<targets::MountEntry>{});
  std::vector<LegacyTarget> listed;
  std::vector<std::string> directories;
  for (const auto& file_system : file_systems_from_mounts(mounts, stat_file_system)) {
    if (policy.allows(file_system.mount_point)) directories.push_back(file_system.mount_point);
  }
  for (const auto& allowed : policy.allowed_paths()) {
    struct stat status {};
    if (::stat(allowed.c_str(), &status) != 0) continue;
    if (S_ISDIR(status.st_mode)) {
      if (std::find(directories.begin(), directories.end(), allowed) == directories.end()) directories.push_back(allowed);
    } else if (S_ISBLK(status.st_mode)) {
      if (auto device = physical_target(allowed, policy)) listed.push_back(std::move(*device));
    }
  }
  for (const auto& directory : directories) {
    const auto stats = stat_file_system(directory);
    if (!stats || stats->read_only) continue;
    listed.push_back(logical_target(directory, file_system_type(mounts, directory), *stats));
  }
  std::sort(listed.begin(), listed.end(), [](const auto& a, const auto& b) { return a.spec.name < b.spec.name; });
  if (listed.size() > legacy::kMaxTargets) listed.resize(legacy::kMaxTargets);
  return listed;
}

const LegacyTarget* find_legacy_target(const std::vector<LegacyTarget>& listed, std::string_view name) {
  const auto found =
      std::find_if(listed.begin(), listed.end(), [&](const LegacyTarget& target) { return target.spec.name == name; });
  return found == listed.end() ? nullptr : &*found;
}

}  // namespace iomark::agent
