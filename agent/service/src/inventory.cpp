#include "iomark/common/host_name.hpp"
#include "iomark/agent/inventory.hpp"
#include "iomark/common/ascii.hpp"
#include "iomark/common/text_file.hpp"
#include "iomark/network/interfaces.hpp"

#include <sys/stat.h>
#include <sys/statvfs.h>
#include <unistd.h>

#include <algorithm>
#include <array>
#include <bit>
#include <charconv>
#include <fstream>
#include <iterator>
#include <limits>
#include <unordered_map>
#include <utility>

#include "iomark/agent/engine_inventory.hpp"
#include "iomark/agent/host_stats.hpp"
#include "iomark/agent/run_session.hpp"
#include "iomark/common/utf8.hpp"
#include "iomark/engine/engine_kind.hpp"
#include "iomark/targets/target.hpp"

namespace iomark::agent {
namespace {

namespace fs = std::filesystem;

constexpr std::string_view kNullEngine = "null";
constexpr std::uint64_t kSysfsSectorBytes = 512;

// Per-item allowance for protobuf tags, length prefixes and numeric fields; generous, so
// that the estimate stays above the encoded size (a FileSystem's numbers take at most 46).
constexpr std::size_t kItemOverheadBytes = 64;
constexpr std::size_t kStringOverheadBytes = 8;

template <typename Number>
std::optional<Number> parse_number(std::string_view text) noexcept {
  text = ascii::trim(text);
  Number value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

bool is_control(char c) noexcept {
  const auto byte = static_cast<unsigned char>(c);
  return byte < 0x20 || byte == 0x7f;
}

std::uint64_t saturating_multiply(std::uint64_t a, std::uint64_t b) noexcept {
  if (a != 0 && b > std::numeric_limits<std::uint64_t>::max() / a) return std::numeric_limits<std::uint64_t>::max();
  return a * b;
}

std::size_t estimated_bytes(const protocol::BlockDevice& device) noexcept {
  return kItemOverheadBytes + device.path.size() + device.model.size();
}

std::size_t estimated_bytes(const protocol::FileSystem& file_system) noexcept {
  return kItemOverheadBytes + file_system.mount_point.size() + file_system.source.size() + file_system.type.size();
}

std::size_t estimated_bytes(const std::string& text) noexcept { return kStringOverheadBytes + text.size(); }

std::size_t estimated_bytes(const protocol::TargetEngines& target) noexcept {
  std::size_t total = kItemOverheadBytes + target.path.size();
  for (const auto& name : target.usable_engines) total += estimated_bytes(name);
  for (const auto& choice : target.choices) total += kItemOverheadBytes + choice.engine.size() + choice.reason.size();
  return total;
}

template <typename Item>
std::size_t estimated_bytes(const std::vector<Item>& items) noexcept {
  std::size_t total = 0;
  for (const auto& item : items) total += estimated_bytes(item);
  return total;
}

// Drops the last items while `total` is above the budget.
template <typename Item>
void drop_tail_over_budget(std::vector<Item>& items, std::size_t& total) {
  while (total > kInventoryBudgetBytes && !items.empty()) {
    total -= estimated_bytes(items.back());
    items.pop_back();
  }
}

template <typename Item>
void keep_first(std::vector<Item>& items, std::size_t count) {
  if (items.size() > count) items.resize(count);
}

void fit_engines(std::vector<std::string>& engines) {
  std::vector<std::string> kept;
  for (auto& name : engines) {
    if (kept.size() == protocol::kMaxEngines) break;
    if (is_valid_engine_name(name) && std::find(kept.begin(), kept.end(), name) == kept.end()) {
      kept.push_back(std::move(name));
    }
  }
  if (kept.empty()) kept.emplace_back(kNullEngine);
  engines = std::move(kept);
}

}  // namespace

bool is_valid_path(std::string_view path) noexcept {
  return !path.empty() && path.front() == '/' && path.size() <= protocol::kMaxPathBytes &&
         path.find('\0') == std::string_view::npos;
}

bool is_valid_engine_name(std::string_view name) noexcept {
  return !name.empty() && name.size() <= protocol::kMaxEngineNameBytes &&
         name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") == std::string_view::npos;
}

std::string sanitize_label(std::string_view text, std::size_t max_bytes) {
  std::string clean;
  clean.reserve(text.size());
  for (std::size_t i = 0; i < text.size();) {
    const std::size_t length = utf8_sequence_length(text, i);
    if (length == 0) {
      clean.push_back('?');
      ++i;
    } else {
      clean.append(text.substr(i, length));
      i += length;
    }
  }
  std::replace_if(clean.begin(), clean.end(), is_control, ' ');
  std::string_view view = ascii::trim(clean);
  if (view.size() > max_bytes) {
    // Back off to the start of the character that would be cut.
    std::size_t cut = max_bytes;
    while (cut > 0 && (static_cast<unsigned char>(view[cut]) & 0xc0) == 0x80) --cut;
    view = ascii::trim(view.substr(0, cut));
  }
  return std::string(view);
}

std::vector<std::string> engine_names(std::span<const engine::EngineProbe> probes) {
  std::vector<std::string> names;
  for (const auto& probe : probes) {
    if (!probe.available) continue;
    std::string name(engine::to_string(probe.kind));
    if (std::find(names.begin(), names.end(), name) == names.end()) names.push_back(std::move(name));
  }
  if (std::find(names.begin(), names.end(), kNullEngine) == names.end()) names.emplace_back(kNullEngine);
  return names;
}

std::vector<protocol::BlockDevice> read_sysfs_block_devices(const fs::path& sys_block_dir) {
  std::vector<std::string> names;
  std::error_code error;
  for (fs::directory_iterator it(sys_block_dir, error), end; !error && it != end; it.increment(error)) {
    names.push_back(it->path().filename().string());
  }
  std::sort(names.begin(), names.end());

  std::vector<protocol::BlockDevice> devices;
  for (const std::string& name : names) {
    const fs::path dir = sys_block_dir / name;
    const auto size_text = read_text_file(dir / "size");
    if (!size_text) continue;
    const auto sectors = parse_number<std::uint64_t>(*size_text);
    if (!sectors || *sectors == 0 || *sectors > std::numeric_limits<std::uint64_t>::max() / kSysfsSectorBytes) {
      continue;
    }
    protocol::BlockDevice device;
    std::string node = name;
    std::replace(node.begin(), node.end(), '!', '/');
    device.path = "/dev/" + node;
    device.size_bytes = *sectors * kSysfsSectorBytes;
    if (const auto sector_text = read_text_file(dir / "queue" / "logical_block_size")) {
      const auto sector_bytes = parse_number<std::uint32_t>(*sector_text);
      if (!sector_bytes) continue;
      device.logical_sector_bytes = *sector_bytes;
    }
    if (const auto model = read_text_file(dir / "device" / "model")) device.model = sanitize_label(*model);
    devices.push_back(std::move(device));
  }
  return devices;
}

void apply_usage(const targets::BlockDeviceUsage& usage, protocol::BlockDevice& device) {
  const auto is_self = [&usage](const std::string& name) { return name == usage.name; };
  const bool self_mounted = std::any_of(usage.mounts.begin(), usage.mounts.end(),
                                        [&](const targets::MountUse& m) { return is_self(m.device); });
  const bool self_swap = std::any_of(usage.swaps.begin(), usage.swaps.end(), is_self);
  if (self_mounted) {
    device.mount_state = protocol::MountState::mounted;
  } else if (self_swap) {
    device.mount_state = protocol::MountState::swap;
  } else if (!usage.mounts.empty()) {
    device.mount_state = protocol::MountState::partition_mounted;
  } else if (!usage.swaps.empty()) {
    device.mount_state = protocol::MountState::swap;
  } else {
    device.mount_state = protocol::MountState::not_mounted;
  }
  device.has_signature = usage.signature.has_value() || !usage.probe_problem.empty();
}

bool is_pseudo_file_system(std::string_view type) noexcept {
  static constexpr auto kPseudo = std::to_array<std::string_view>(
      {"autofs",   "binfmt_misc", "bpf",        "cgroup",    "cgroup2", "configfs", "debugfs", "devpts", "devtmpfs",
       "efivarfs", "fusectl",     "hugetlbfs",  "mqueue",    "nfsd",    "nsfs",     "proc",    "pstore", "ramfs",
       "rootfs",   "rpc_pipefs",  "securityfs", "selinuxfs", "smackfs", "sysfs",    "tracefs", "xenfs"});
  return std::find(kPseudo.begin(), kPseudo.end(), type) != kPseudo.end();
}

std::optional<FileSystemStats> stat_file_system(const std::string& mount_point) {
  struct statvfs info {};
  if (::statvfs(mount_point.c_str(), &info) != 0) return std::nullopt;
  FileSystemStats stats;
  stats.total_bytes = saturating_multiply(info.f_blocks, info.f_frsize);
  stats.free_bytes = saturating_multiply(info.f_bavail, info.f_frsize);
  stats.block_bytes = info.f_bsize;
  stats.read_only = (info.f_flag & ST_RDONLY) != 0;
  const std::string test_file =
      (mount_point.ends_with('/') ? mount_point : mount_point + "/") + std::string(targets::kTestFileName);
  struct stat file {};
  if (::stat(test_file.c_str(), &file) == 0 && S_ISREG(file.st_mode)) {
    stats.test_file_bytes = static_cast<std::uint64_t>(file.st_size);
  }
  return stats;
}

std::vector<protocol::FileSystem> file_systems_from_mounts(const std::vector<targets::MountEntry>& entries,
                                                          const StatFileSystem& stat) {
  // A later mount on the same point hides the earlier ones; only the last is reachable.
  std::unordered_map<std::string_view, std::size_t> last_mount;
  for (std::size_t i = 0; i < entries.size(); ++i) last_mount[entries[i].mount_point] = i;

  std::vector<protocol::FileSystem> file_systems;
  for (std::size_t i = 0; i < entries.size() && file_systems.size() < protocol::kMaxFileSystems; ++i) {
    const targets::MountEntry& entry = entries[i];
    if (last_mount[entry.mount_point] != i || entry.read_only || is_pseudo_file_system(entry.type)) continue;
    const auto stats = stat(entry.mount_point);
    if (!stats || stats->read_only || stats->total_bytes == 0) continue;
    protocol::FileSystem file_system;
    file_system.mount_point = entry.mount_point;
    file_system.source = entry.source;
    file_system.type = entry.type;
    file_system.total_bytes = stats->total_bytes;
    file_system.free_bytes = std::min(stats->free_bytes, stats->total_bytes);
    file_system.block_bytes = usable_block_bytes(stats->block_bytes);
    file_system.test_file_bytes = stats->test_file_bytes;
    file_systems.push_back(std::move(file_system));
  }
  return file_systems;
}

std::uint32_t usable_block_bytes(std::uint64_t block_bytes) noexcept {
  if (block_bytes == 0) return 4096;
  const std::uint64_t lowest_bit = block_bytes & (~block_bytes + 1);
  return static_cast<std::uint32_t>(std::min<std::uint64_t>(lowest_bit, protocol::kMaxSectorBytes));
}

void fit_to_limits(protocol::Inventory& inventory) {
  inventory.host_name = sanitize_label(inventory.host_name);
  if (inventory.host_name.empty()) inventory.host_name = "localhost";
  inventory.cpu_count = std::clamp<std::uint32_t>(inventory.cpu_count, 1, protocol::kMaxCpus);
  inventory.os_name = sanitize_label(inventory.os_name);
  inventory.kernel_release = sanitize_label(inventory.kernel_release);

  auto& devices = inventory.block_devices;
  std::erase_if(devices, [](const protocol::BlockDevice& device) {
    const auto sector = device.logical_sector_bytes;
    return !is_valid_path(device.path) || !std::has_single_bit(sector) || sector > protocol::kMaxSectorBytes;
  });
  for (auto& device : devices) device.model = sanitize_label(device.model);
  keep_first(devices, protocol::kMaxBlockDevices);

  auto& file_systems = inventory.file_systems;
  for (auto& file_system : file_systems) {
    file_system.type = sanitize_label(file_system.type);
    if (file_system.source.size() > protocol::kMaxPathBytes) file_system.source.resize(protocol::kMaxPathBytes);
    file_system.free_bytes = std::min(file_system.free_bytes, file_system.total_bytes);
    file_system.block_bytes = usable_block_bytes(file_system.block_bytes);
  }
  std::erase_if(file_systems, [](const protocol::FileSystem& file_system) {
    return !is_valid_path(file_system.mount_point) || file_system.type.empty();
  });
  keep_first(file_systems, protocol::kMaxFileSystems);

  std::erase_if(inventory.allowed_paths, [](const std::string& path) { return !is_valid_path(path); });
  keep_first(inventory.allowed_paths, protocol::kMaxAllowedPaths);
  fit_engines(inventory.engines);
  fit_target_engines(inventory.target_engines);

  std::size_t total = kItemOverheadBytes + estimated_bytes(inventory.host_name) + estimated_bytes(inventory.os_name) +
                      estimated_bytes(inventory.kernel_release) + estimated_bytes(inventory.engines) +
                      estimated_bytes(inventory.allowed_paths) + estimated_bytes(devices) +
                      estimated_bytes(file_systems) + estimated_bytes(inventory.target_engines);
  drop_tail_over_budget(inventory.target_engines, total);
  drop_tail_over_budget(file_systems, total);
  drop_tail_over_budget(devices, total);
  drop_tail_over_budget(inventory.allowed_paths, total);
}

protocol::Inventory collect_inventory(const targets::SafetyPolicy& policy,
                                      std::span<const engine::EngineProbe> probes,
                                      std::span<const engine::MeasuredChoice> measured) {
  protocol::Inventory inventory;
  const results::HostFacts facts = host_facts(std::string());
  inventory.host_name = local_host_name();
  inventory.cpu_count = facts.cpu_count;
  inventory.os_name = facts.os_name;
  inventory.kernel_release = facts.kernel_release;

  for (auto& device : read_sysfs_block_devices("/sys/block")) {
    if (inventory.block_devices.size() == protocol::kMaxBlockDevices) break;
    const auto usage = targets::inspect_block_device(device.path);
    if (!usage) continue;
    apply_usage(*usage, device);
    inventory.block_devices.push_back(std::move(device));
  }
  if (const auto mounts = targets::read_mount_table()) {
    inventory.file_systems = file_systems_from_mounts(*mounts, stat_file_system);
  }
  inventory.allowed_paths = policy.allowed_paths();
  inventory.write_scope = true;
  inventory.engines = engine_names(probes);
  inventory.interfaces = network::list_interfaces();
  for (auto& nic : inventory.interfaces) nic.name = sanitize_label(nic.name);
  std::erase_if(inventory.interfaces, [](const protocol::NetworkInterface& nic) { return nic.name.empty(); });
  inventory.target_engines = target_engines(measured);
  fit_to_limits(inventory);
  return inventory;
}

}  // namespace iomark::agent
