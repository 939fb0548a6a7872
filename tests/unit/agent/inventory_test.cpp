#include "iomark/agent/inventory.hpp"

#include <gtest/gtest.h>
#include <sys/stat.h>
#include <unistd.h>

#include <array>
#include <filesystem>
#include <fstream>
#include <map>
#include <set>

#include "iomark/protocol/codec.hpp"
#include "iomark/protocol/frame.hpp"

namespace iomark::agent {
namespace {

namespace fs = std::filesystem;

std::string repeat(std::string_view piece, std::size_t times) {
  std::string out;
  for (std::size_t i = 0; i < times; ++i) out += piece;
  return out;
}

// What the controller does with the agent's message: encode, then decode with every limit.
Result<protocol::Envelope> round_trip(const protocol::Inventory& inventory) {
  const protocol::Envelope envelope{0, 0, inventory};
  return protocol::decode(protocol::encode(envelope));
}

class TempDir {
 public:
  TempDir() {
    char pattern[] = "/tmp/iomark-inventory-test-XXXXXX";
    if (::mkdtemp(pattern) != nullptr) path_ = pattern;
  }
  TempDir(const TempDir&) = delete;
  TempDir& operator=(const TempDir&) = delete;
  ~TempDir() {
    std::error_code ignored;
    fs::remove_all(path_, ignored);
  }
  [[nodiscard]] const fs::path& path() const noexcept { return path_; }

 private:
  fs::path path_;
};

void write_file(const fs::path& path, std::string_view content) {
  fs::create_directories(path.parent_path());
  std::ofstream(path, std::ios::binary) << content;
}

// ---- Labels ---------------------------------------------------------------------------

TEST(SanitizeLabel, TruncatesOnACharacterBoundary) {
  // 300 two-byte characters: 127 of them (254 bytes) fit in 255 bytes, half of one does not.
  EXPECT_EQ(sanitize_label(repeat("\xc3\x84", 300)), repeat("\xc3\x84", 127));
  // 100 three-byte characters: exactly 85 fill 255 bytes.
  EXPECT_EQ(sanitize_label(repeat("\xe2\x82\xac", 100)), repeat("\xe2\x82\xac", 85));
  EXPECT_EQ(sanitize_label(repeat("a", 254) + "\xc3\x84"), repeat("a", 254));
  EXPECT_EQ(sanitize_label("abcdef", 3), "abc");
}

TEST(SanitizeLabel, ReplacesWhatTheProtocolRejectsAndTrims) {
  EXPECT_EQ(sanitize_label("  ST1000DM003-1ER1   \n"), "ST1000DM003-1ER1");
  EXPECT_EQ(sanitize_label("a\tb\177c"), "a b c");
  EXPECT_EQ(sanitize_label("x\377y"), "x?y");                                   // not UTF-8 at all
  EXPECT_EQ(sanitize_label("\xc0\xaf"), "??");                                  // overlong '/'
  EXPECT_EQ(sanitize_label("\xed\xa0\x80"), "???");                             // a surrogate
  EXPECT_EQ(sanitize_label("\xe2\x82"), "??");                                  // cut short
  EXPECT_EQ(sanitize_label("\xf0\x9f\x92\xbe disk"), "\xf0\x9f\x92\xbe disk");  // valid 4-byte
  EXPECT_EQ(sanitize_label(" \n\t "), "");
}

// ---- Engines --------------------------------------------------------------------------

TEST(EngineNames, AvailableInProbeOrderThenNull) {
  using engine::EngineKind;
  const std::array<engine::EngineProbe, 4> probes{{{EngineKind::io_uring, false, "io_uring_setup: EPERM"},
                                                   {EngineKind::linux_aio, true, ""},
                                                   {EngineKind::threadpool, true, ""},
                                                   {EngineKind::sync, true, ""}}};
  EXPECT_EQ(engine_names(probes), (std::vector<std::string>{"linux-aio", "threadpool", "sync", "null"}));
  EXPECT_EQ(engine_names({}), std::vector<std::string>{"null"});
  const std::array<engine::EngineProbe, 3> with_null{
      {{EngineKind::sync, true, ""}, {EngineKind::null, true, ""}, {EngineKind::sync, true, ""}}};
  EXPECT_EQ(engine_names(with_null), (std::vector<std::string>{"sync", "null"}));
}

// ---- Mounts ---------------------------------------------------------------------------

constexpr std::string_view kMountinfo =
    "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro\n"
    "23 22 0:21 / /proc rw,nosuid,nodev,noexec,relatime shared:12 - proc proc rw\n"
    "24 22 0:22 / /sys rw,nosuid,nodev,noexec,relatime shared:7 - sysfs sysfs rw\n"
    "25 24 0:6 / /sys/kernel/security rw,nosuid,relatime shared:8 - securityfs securityfs rw\n"
    "26 22 0:5 / /dev rw,nosuid,relatime shared:2 - devtmpfs udev rw,size=4012345k,mode=755\n"
    "27 26 0:23 / /dev/pts rw,nosuid,noexec,relatime shared:3 - devpts devpts rw,gid=5,mode=620\n"
    "28 24 0:24 / /sys/fs/cgroup rw,nosuid,nodev,noexec,relatime shared:9 - cgroup2 cgroup2 rw\n"
    "40 22 8:17 / /mnt/my\\040data rw,relatime shared:20 master:3 - xfs /dev/sdb1 rw,attr2\n"
    "41 22 7:0 / /snap/core/1 ro,nodev,relatime shared:21 - squashfs /dev/loop0 ro\n"
    "42 22 0:40 / /run/user/1000 rw,nosuid,nodev,relatime shared:30 - tmpfs tmpfs rw,size=800000k\n"
    "43 22 0:41 / /media/back\\134slash\\011tab rw - fuse.sshfs user@host:/a\\040b rw\n"
    "44 22 0:42 / /home/u/.cache/doc rw,nosuid,nodev,relatime - fuse.portal portal rw\n"
    "this line is garbage\n"
    "45 22 8:32 / /broken rw shared:5 ext4 /dev/sdc rw\n"
    "46 22 8:33 / /mnt/super\\040ro rw,relatime - ext4 /dev/sdc1 ro,errors=continue";

TEST(IsPseudoFileSystem, KnowsKernelPseudoFileSystemsOnly) {
  for (const char* type : {"proc",    "sysfs",  "devpts",      "devtmpfs",   "cgroup", "cgroup2",   "securityfs",
                           "pstore",  "bpf",    "tracefs",     "debugfs",    "mqueue", "hugetlbfs", "configfs",
                           "fusectl", "autofs", "binfmt_misc", "rpc_pipefs", "nsfs",   "efivarfs",  "ramfs"}) {
    EXPECT_TRUE(is_pseudo_file_system(type)) << type;
  }
  for (const char* type : {"ext4", "xfs", "btrfs", "tmpfs", "overlay", "nfs4", "fuse.sshfs", "zfs", ""}) {
    EXPECT_FALSE(is_pseudo_file_system(type)) << type;
  }
}

// A stat function that answers from a table and records what it was asked.
struct FakeStat {
  std::map<std::string, FileSystemStats> table;
  std::vector<std::string> asked;

  StatFileSystem function() {
    return [this](const std::string& mount_point) -> std::optional<FileSystemStats> {
      asked.push_back(mount_point);
      const auto it = table.find(mount_point);
      if (it == table.end()) return std::nullopt;
      return it->second;
    };
  }
};

TEST(FileSystemsFromMounts, KeepsUsableFileSystemsInMountOrder) {
  FakeStat fake;
  fake.table["/"] = {100 << 20, 40 << 20, 4096, false, 0};
  fake.table["/mnt/my data"] = {1ULL << 40, 2ULL << 40, 3 * 4096, false, 12345};  // free > total: clamped
  fake.table["/run/user/1000"] = {800 << 20, 800 << 20, 4096, true, 0};           // read-only after all
  fake.table["/media/back\\slash\ttab"] = {1 << 30, 1 << 29, 4 << 20, false, 0};
  fake.table["/home/u/.cache/doc"] = {0, 0, 4096, false, 0};  // no blocks: virtual
  const auto file_systems = file_systems_from_mounts(targets::parse_mount_table(kMountinfo), fake.function());

  // Pseudo and read-only mounts are never statted (a stat can hang on a dead network mount).
  EXPECT_EQ(fake.asked, (std::vector<std::string>{"/", "/mnt/my data", "/run/user/1000", "/media/back\\slash\ttab",
                                                  "/home/u/.cache/doc"}));
  ASSERT_EQ(file_systems.size(), 3U);
  EXPECT_EQ(file_systems[0], (protocol::FileSystem{"/", "/dev/sda1", "ext4", 100 << 20, 40 << 20, 4096, 0}));
  EXPECT_EQ(file_systems[1],
            (protocol::FileSystem{"/mnt/my data", "/dev/sdb1", "xfs", 1ULL << 40, 1ULL << 40, 4096, 12345}));
  EXPECT_EQ(file_systems[2].mount_point, "/media/back\\slash\ttab");
  EXPECT_EQ(file_systems[2].source, "user@host:/a b");
  EXPECT_EQ(file_systems[2].block_bytes, protocol::kMaxSectorBytes);  // 4 MiB is above the protocol's maximum
}

TEST(FileSystemsFromMounts, CountsAMountPointOnceAtItsVisibleMount) {
  FakeStat fake;
  fake.table["/data"] = {1 << 20, 1 << 20, 4096, false, 0};
  fake.table["/scratch"] = {1 << 20, 1 << 20, 4096, false, 0};
  const auto file_systems = file_systems_from_mounts(targets::parse_mount_table(
      "30 1 8:1 / /data rw - ext4 /dev/sda1 rw\n"
      "31 1 8:2 / /scratch rw - ext4 /dev/sda2 rw\n"
      "32 1 0:50 / /data rw - tmpfs tmpfs rw\n"
      "33 1 0:51 / /scratch rw - proc proc rw\n"),
      fake.function());
  ASSERT_EQ(file_systems.size(), 1U);
  EXPECT_EQ(file_systems[0].type, "tmpfs");  // the ext4 under it is hidden
  EXPECT_EQ(fake.asked, std::vector<std::string>{"/data"});
}

TEST(FileSystemsFromMounts, StopsAtTheProtocolLimit) {
  constexpr std::size_t kMounts = 10'000;
  std::string mountinfo;
  FakeStat fake;
  for (std::size_t i = 0; i < kMounts; ++i) {
    const std::string mount_point = "/mnt/m" + std::to_string(i);
    mountinfo += std::to_string(100 + i) + " 1 0:" + std::to_string(i) + " / " + mount_point +
                 " rw,relatime shared:1 - tmpfs tmpfs rw\n";
    fake.table[mount_point] = {1 << 20, 1 << 19, 4096, false, 0};
  }
  const auto file_systems = file_systems_from_mounts(targets::parse_mount_table(mountinfo), fake.function());
  ASSERT_EQ(file_systems.size(), protocol::kMaxFileSystems);
  EXPECT_EQ(fake.asked.size(), protocol::kMaxFileSystems);
  EXPECT_EQ(file_systems.front().mount_point, "/mnt/m0");
  EXPECT_EQ(file_systems.back().mount_point, "/mnt/m" + std::to_string(protocol::kMaxFileSystems - 1));

  protocol::Inventory inventory;
  inventory.host_name = "host";
  inventory.engines = {"null"};
  inventory.file_systems = file_systems;
  fit_to_limits(inventory);
  EXPECT_EQ(inventory.file_systems, file_systems);  // within every limit already
  ASSERT_TRUE(round_trip(inventory).has_value());
  // One more is one too many for the controller.
  inventory.file_systems.push_back(file_systems.front());
  EXPECT_FALSE(round_trip(inventory).has_value());
}

TEST(UsableBlockBytes, IsAPowerOfTwoTheProtocolAccepts) {
  EXPECT_EQ(usable_block_bytes(4096), 4096U);
  EXPECT_EQ(usable_block_bytes(512), 512U);
  EXPECT_EQ(usable_block_bytes(1), 1U);
  EXPECT_EQ(usable_block_bytes(0), 4096U);
  EXPECT_EQ(usable_block_bytes(3 * 4096), 4096U);       // the alignment it implies
  EXPECT_EQ(usable_block_bytes(4ULL << 20), 1U << 20);  // kMaxSectorBytes
  EXPECT_EQ(usable_block_bytes(1ULL << 40), 1U << 20);
}

TEST(StatFileSystem, MeasuresAnExistingTestFileAndCreatesNone) {
  TempDir with_file;
  TempDir without_file;
  ASSERT_FALSE(with_file.path().empty());
  ASSERT_FALSE(without_file.path().empty());
  write_file(with_file.path() / "iobw.tst", std::string(12345, 'x'));

  const auto measured = stat_file_system(with_file.path().string());
  ASSERT_TRUE(measured.has_value());
  EXPECT_EQ(measured->test_file_bytes, 12345U);
  EXPECT_GT(measured->total_bytes, 0U);
  EXPECT_LE(measured->free_bytes, measured->total_bytes);

  const auto empty = stat_file_system(without_file.path().string() + "/");
  ASSERT_TRUE(empty.has_value());
  EXPECT_EQ(empty->test_file_bytes, 0U);
  EXPECT_FALSE(fs::exists(without_file.path() / "iobw.tst"));
  EXPECT_TRUE(fs::is_empty(without_file.path()));

  EXPECT_FALSE(stat_file_system(without_file.path().string() + "/no/such/dir").has_value());
}

// ---- Block devices --------------------------------------------------------------------

TEST(ReadSysfsBlockDevices, ReadsSizeSectorAndModelFromAFakeTree) {
  TempDir sys;
  ASSERT_FALSE(sys.path().empty());
  const fs::path root = sys.path() / "block";
  write_file(root / "sda" / "size", "1953525168\n");
  write_file(root / "sda" / "queue" / "logical_block_size", "512\n");
  write_file(root / "sda" / "device" / "model", "ST1000DM003-1ER1\n");  // SCSI pads to 16
  write_file(root / "nvme0n1" / "size", "2048\n");
  write_file(root / "nvme0n1" / "queue" / "logical_block_size", "4096\n");
  write_file(root / "nvme0n1" / "device" / "model", repeat("\xc3\x84", 150) + "   \n");  // 300 characters
  write_file(root / "loop0" / "size", "0\n");                                            // empty loop device
  write_file(root / "vda" / "size", "8\n");                                              // no queue, no model
  write_file(root / "cciss!c0d0" / "size", "16\n");
  write_file(root / "bad" / "size", "lots\n");
  write_file(root / "huge" / "size", "36028797018963968\n");  // 2^55 sectors overflow 64 bits
  write_file(root / "odd" / "size", "8\n");
  write_file(root / "odd" / "queue" / "logical_block_size", "four\n");
  fs::create_directories(root / "nosize");

  const auto devices = read_sysfs_block_devices(root);
  ASSERT_EQ(devices.size(), 4U);
  EXPECT_EQ(devices[0].path, "/dev/cciss/c0d0");
  EXPECT_EQ(devices[0].size_bytes, 16U * 512U);
  EXPECT_EQ(devices[1].path, "/dev/nvme0n1");
  EXPECT_EQ(devices[1].size_bytes, 1024U * 1024U);
  EXPECT_EQ(devices[1].logical_sector_bytes, 4096U);
  EXPECT_EQ(devices[1].model, repeat("\xc3\x84", 127));  // 254 of 300 bytes: no half character
  EXPECT_EQ(devices[2], (protocol::BlockDevice{"/dev/sda", 1953525168ULL * 512, 512, "ST1000DM003-1ER1",
                                               protocol::MountState::not_mounted, false}));
  EXPECT_EQ(devices[3].path, "/dev/vda");
  EXPECT_EQ(devices[3].logical_sector_bytes, 512U);
  EXPECT_EQ(devices[3].model, "");

  EXPECT_TRUE(read_sysfs_block_devices(sys.path() / "missing").empty());
}

TEST(ApplyUsage, DerivesMountStateAndSignature) {
  targets::BlockDeviceUsage usage;
  usage.name = "sdb";
  usage.partitions = {"sdb1", "sdb2"};
  protocol::BlockDevice device;

  apply_usage(usage, device);
  EXPECT_EQ(device.mount_state, protocol::MountState::not_mounted);
  EXPECT_FALSE(device.has_signature);

  usage.swaps = {"sdb2"};
  apply_usage(usage, device);
  EXPECT_EQ(device.mount_state, protocol::MountState::swap);

  usage.mounts = {{"sdb1", "/data"}};
  apply_usage(usage, device);
  EXPECT_EQ(device.mount_state, protocol::MountState::partition_mounted);

  usage.swaps = {"sdb"};
  apply_usage(usage, device);
  EXPECT_EQ(device.mount_state, protocol::MountState::swap);

  usage.mounts.push_back({"sdb", "/mnt/raw"});
  apply_usage(usage, device);
  EXPECT_EQ(device.mount_state, protocol::MountState::mounted);

  usage.signature = targets::Signature{"gpt", "partition table"};
  apply_usage(usage, device);
  EXPECT_TRUE(device.has_signature);

  targets::BlockDeviceUsage unreadable;
  unreadable.name = "sdc";
  unreadable.probe_problem = "libblkid could not open it: Permission denied";
  apply_usage(unreadable, device);
  EXPECT_EQ(device.mount_state, protocol::MountState::not_mounted);
  EXPECT_TRUE(device.has_signature);  // could not be ruled out
}

// ---- Limits ---------------------------------------------------------------------------

protocol::Inventory hostile_inventory() {
  protocol::Inventory inventory;
  inventory.host_name = "\x01\x02";  // nothing printable
  inventory.cpu_count = 100'000;
  inventory.os_name = repeat("L", 1000);
  inventory.kernel_release = "6.1\xff";
  inventory.block_devices = {
      {"/dev/good", 1 << 20, 4096, repeat("M", 300), protocol::MountState::not_mounted, false},
      {"dev/relative", 1 << 20, 512, "", protocol::MountState::not_mounted, false},
      {"/dev/odd-sector", 1 << 20, 3000, "", protocol::MountState::not_mounted, false},
      {"/dev/huge-sector", 1 << 20, 2U << 20, "", protocol::MountState::not_mounted, false},
      {std::string("/dev/nul\0byte", 13), 1 << 20, 512, "", protocol::MountState::not_mounted, false},
  };
  inventory.file_systems = {
      {"/ok", std::string(5000, 's'), "ext4", 100, 200, 4096, 0},
      {"/notype", "x", "\n", 100, 50, 4096, 0},
      {"/odd-block", "x", "xfs", 100, 50, 12288, 0},
      {"", "x", "xfs", 100, 50, 4096, 0},
      {"/" + repeat("p", protocol::kMaxPathBytes), "x", "xfs", 100, 50, 4096, 0},
  };
  inventory.allowed_paths = {"relative/path", "/allowed"};
  for (int i = 0; i < 2000; ++i) inventory.allowed_paths.push_back("/allowed/" + std::to_string(i));
  inventory.engines = {"IO_URING", "", "sync", "sync", repeat("a", 33)};
  return inventory;
}

TEST(FitToLimits, RepairsOrDropsWhatTheControllerWouldReject) {
  auto inventory = hostile_inventory();
  ASSERT_FALSE(round_trip(inventory).has_value());  // really hostile as it stands

  fit_to_limits(inventory);
  const auto decoded = round_trip(inventory);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
  EXPECT_EQ(std::get<protocol::Inventory>(decoded->message), inventory);

  EXPECT_EQ(inventory.host_name, "localhost");
  EXPECT_EQ(inventory.cpu_count, protocol::kMaxCpus);
  EXPECT_EQ(inventory.os_name, repeat("L", protocol::kMaxLabelBytes));
  EXPECT_EQ(inventory.kernel_release, "6.1?");
  ASSERT_EQ(inventory.block_devices.size(), 1U);
  EXPECT_EQ(inventory.block_devices[0].path, "/dev/good");
  EXPECT_EQ(inventory.block_devices[0].model.size(), protocol::kMaxLabelBytes);
  ASSERT_EQ(inventory.file_systems.size(), 2U);
  EXPECT_EQ(inventory.file_systems[0].source.size(), protocol::kMaxPathBytes);
  EXPECT_EQ(inventory.file_systems[0].free_bytes, 100U);
  EXPECT_EQ(inventory.file_systems[1].mount_point, "/odd-block");
  EXPECT_EQ(inventory.file_systems[1].block_bytes, 4096U);
  ASSERT_EQ(inventory.allowed_paths.size(), protocol::kMaxAllowedPaths);
  EXPECT_EQ(inventory.allowed_paths[0], "/allowed");
  EXPECT_EQ(inventory.engines, std::vector<std::string>{"sync"});

  auto again = inventory;
  fit_to_limits(again);
  EXPECT_EQ(again, inventory);  // idempotent
}

TEST(FitToLimits, AddsNullWhenNoEngineNameIsValid) {
  protocol::Inventory inventory;
  inventory.host_name = "h";
  inventory.engines = {"Bad Name"};
  fit_to_limits(inventory);
  EXPECT_EQ(inventory.engines, std::vector<std::string>{"null"});
}

TEST(FitToLimits, KeepsTheMessageWithinOneFrame) {
  protocol::Inventory inventory;
  inventory.host_name = "host";
  inventory.engines = {"sync", "null"};
  inventory.block_devices.push_back({"/dev/sda", 1 << 20, 512, "model", protocol::MountState::not_mounted, false});
  const std::string long_tail = repeat("d", 4000);
  for (std::size_t i = 0; i < protocol::kMaxFileSystems; ++i) {
    inventory.file_systems.push_back(
        {"/" + std::to_string(i) + long_tail, "/dev/" + long_tail, "xfs", 100, 50, 4096, 0});
  }
  // 8192 file systems of ~8 KiB each: 64 MiB, four times what one frame may carry.
  ASSERT_GT(protocol::encode({0, 0, inventory}).size(), protocol::kMaxFrameBytes);

  fit_to_limits(inventory);
  const auto bytes = protocol::encode({0, 0, inventory});
  EXPECT_LE(bytes.size(), protocol::kMaxFrameBytes);
  EXPECT_GT(bytes.size(), protocol::kMaxFrameBytes / 2);  // dropped only what it had to
  EXPECT_TRUE(protocol::decode(bytes).has_value());
  EXPECT_TRUE(protocol::encode_frame({0, 0, inventory}).has_value());
  ASSERT_EQ(inventory.block_devices.size(), 1U);  // file systems go first
  EXPECT_LT(inventory.file_systems.size(), protocol::kMaxFileSystems);
  EXPECT_EQ(inventory.file_systems.back().mount_point,
            "/" + std::to_string(inventory.file_systems.size() - 1) + long_tail);  // the first ones are kept
}

// ---- This machine ---------------------------------------------------------------------

// Mount points that hold an iobw.tst, from the mount table: what collect_inventory() must not change.
std::set<std::string> mount_points_with_test_file() {
  const auto table = targets::read_mount_table().value();
  std::set<std::string> found;
  for (const auto& entry : table) {
    struct stat st {};
    if (::stat((entry.mount_point + "/iobw.tst").c_str(), &st) == 0) found.insert(entry.mount_point);
  }
  return found;
}

TEST(CollectInventory, ProducesAMessageTheControllerAccepts) {
  TempDir allowed;
  ASSERT_FALSE(allowed.path().empty());
  const std::vector<std::string> paths{allowed.path().string()};
  const auto policy = targets::SafetyPolicy::create(paths, targets::Destructive::refuse);
  ASSERT_TRUE(policy.has_value());
  const auto probes = engine::probe_engines();
  const auto test_files_before = mount_points_with_test_file();

  const protocol::Inventory inventory = collect_inventory(*policy, probes, {});

  const auto decoded = round_trip(inventory);
  ASSERT_TRUE(decoded.has_value()) << decoded.error().describe();
  EXPECT_EQ(std::get<protocol::Inventory>(decoded->message), inventory);

  std::array<char, 256> name{};
  ASSERT_EQ(::gethostname(name.data(), name.size() - 1), 0);
  EXPECT_EQ(inventory.host_name, sanitize_label(name.data()).empty() ? "localhost" : sanitize_label(name.data()));
  EXPECT_GE(inventory.cpu_count, 1U);
  EXPECT_EQ(inventory.allowed_paths, policy->allowed_paths());
  EXPECT_TRUE(inventory.write_scope);
  EXPECT_EQ(inventory.engines, engine_names(probes));
  EXPECT_EQ(inventory.engines.back(), "null");
  for (const auto& device : inventory.block_devices) {
    EXPECT_EQ(device.path.rfind("/dev/", 0), 0U) << device.path;
    EXPECT_GT(device.size_bytes, 0U) << device.path;
  }
  for (const auto& file_system : inventory.file_systems) {
    EXPECT_FALSE(is_pseudo_file_system(file_system.type)) << file_system.mount_point;
    EXPECT_GT(file_system.total_bytes, 0U) << file_system.mount_point;
    if (file_system.test_file_bytes > 0) {
      struct stat st {};
      ASSERT_EQ(::stat((file_system.mount_point + "/iobw.tst").c_str(), &st), 0) << file_system.mount_point;
      EXPECT_EQ(static_cast<std::uint64_t>(st.st_size), file_system.test_file_bytes);
    }
  }
  EXPECT_EQ(mount_points_with_test_file(), test_files_before);  // nothing created, nothing deleted
}

}  // namespace
}  // namespace iomark::agent
