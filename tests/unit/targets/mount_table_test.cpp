// The mount and swap tables through libmount: recorded mountinfo text, and (root only) real
// tmpfs, bind and loop-device mounts this test makes on its own directories, at paths with a
// space, a tab and a backslash (the characters mountinfo escapes), unmounted in teardown.
#include "iomark/targets/mount_table.hpp"

#include <sys/mount.h>
#include <sys/stat.h>
#include <sys/swap.h>
#include <sys/sysmacros.h>

#include <gtest/gtest.h>

#include <algorithm>
#include <cerrno>
#include <cstring>
#include <filesystem>
#include <optional>

#include "iomark/targets/block_device.hpp"
#include "support.hpp"

namespace iomark::targets {
namespace {

// A name with every character mountinfo escapes as \ooo except the newline.
constexpr const char* kAwkwardName = "my data\tfor\\iomark";

// A mount made by this test with mount(2) (no shell quoting), undone on destruction.
class TestMount {
 public:
  TestMount(const std::string& source, const std::string& target, const char* type, unsigned long flags,
            const char* data) {
    if (::mount(source.c_str(), target.c_str(), type, flags, data) == 0) {
      target_ = target;
    } else {
      error_ = "mount " + target + ": " + std::strerror(errno);
    }
  }
  TestMount(const TestMount&) = delete;
  TestMount& operator=(const TestMount&) = delete;
  ~TestMount() {
    if (!target_.empty()) ::umount2(target_.c_str(), 0);
  }
  [[nodiscard]] bool mounted() const { return !target_.empty(); }
  [[nodiscard]] const std::string& error() const { return error_; }

 private:
  std::string target_;
  std::string error_;
};

std::string make_directory(const test::TempDir& parent, const std::string& name) {
  const auto path = parent / name;
  std::filesystem::create_directory(path);
  return path;
}

std::optional<MountEntry> find_mount(const std::vector<MountEntry>& table, const std::string& mount_point) {
  // The last mount on a point is the visible one.
  const auto it = std::find_if(table.rbegin(), table.rend(),
                               [&](const MountEntry& entry) { return entry.mount_point == mount_point; });
  if (it == table.rend()) return std::nullopt;
  return *it;
}

dev_t device_of(const std::string& path) {
  struct stat st {};
  return ::stat(path.c_str(), &st) == 0 ? st.st_dev : dev_t{};
}

#define IOMARK_SKIP_UNLESS_ROOT() \
  if (!test::is_root()) GTEST_SKIP() << "needs root to mount"

TEST(ParseMountTable, UnescapesFieldsReadsDevicesAndOptions) {
  const auto table = parse_mount_table(
      "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw,errors=remount-ro\n"
      "40 22 8:17 / /mnt/my\\040data rw,relatime shared:20 master:3 - xfs /dev/sdb1 rw,attr2\n"
      "41 22 7:0 / /snap/core/1 ro,nodev,relatime shared:21 - squashfs /dev/loop0 ro\n"
      "43 22 0:41 / /media/back\\134slash\\011tab rw - fuse.sshfs user@host:/a\\040b rw\n"
      "46 22 8:33 / /mnt/super\\040ro rw,relatime - ext4 /dev/sdc1 ro,errors=continue\n");
  ASSERT_EQ(table.size(), 5U);
  EXPECT_EQ(table[0], (MountEntry{"/", "/dev/sda1", "ext4", false, makedev(8, 1)}));
  // Two optional fields before the separator.
  EXPECT_EQ(table[1], (MountEntry{"/mnt/my data", "/dev/sdb1", "xfs", false, makedev(8, 17)}));
  EXPECT_EQ(table[2], (MountEntry{"/snap/core/1", "/dev/loop0", "squashfs", true, makedev(7, 0)}));
  // No optional field at all; backslash, tab and space escapes.
  EXPECT_EQ(table[3], (MountEntry{"/media/back\\slash\ttab", "user@host:/a b", "fuse.sshfs", false, makedev(0, 41)}));
  // Read-only through the super block's options only.
  EXPECT_EQ(table[4], (MountEntry{"/mnt/super ro", "/dev/sdc1", "ext4", true, makedev(8, 33)}));
}

TEST(ParseMountTable, SkipsLinesItCannotParse) {
  const auto table = parse_mount_table(
      "22 1 8:1 / / rw,relatime shared:1 - ext4 /dev/sda1 rw\n"
      "this line is garbage\n"
      "42 22 0:40 / /run/user/1000 rw,nosuid shared:30 - tmpfs tmpfs rw,size=800000k\n");
  ASSERT_EQ(table.size(), 2U);
  EXPECT_EQ(table[1].mount_point, "/run/user/1000");
  EXPECT_TRUE(parse_mount_table("").empty());
}

TEST(ReadMountTable, SeesThisProcessRootAndItsDevice) {
  const auto table = read_mount_table();
  ASSERT_TRUE(table) << table.error().describe();
  const auto root = find_mount(*table, "/");
  ASSERT_TRUE(root);
  EXPECT_EQ(root->device, device_of("/"));
}

TEST(ReadMountTable, SeesATmpfsAndABindMountAtAwkwardPaths) {
  IOMARK_SKIP_UNLESS_ROOT();
  test::TempDir dir;
  const auto mount_point = make_directory(dir, kAwkwardName);
  const auto bind_point = make_directory(dir, std::string("bind of ") + kAwkwardName);
  TestMount tmpfs("iomark test", mount_point, "tmpfs", 0, "size=1m");
  if (!tmpfs.mounted()) GTEST_SKIP() << tmpfs.error();
  TestMount bind(mount_point, bind_point, nullptr, MS_BIND, nullptr);
  ASSERT_TRUE(bind.mounted()) << bind.error();

  const auto table = read_mount_table();
  ASSERT_TRUE(table) << table.error().describe();
  const auto original = find_mount(*table, mount_point);
  ASSERT_TRUE(original) << mount_point;
  EXPECT_EQ(original->type, "tmpfs");
  EXPECT_EQ(original->source, "iomark test");
  EXPECT_FALSE(original->read_only);
  EXPECT_EQ(original->device, device_of(mount_point));
  const auto bound = find_mount(*table, bind_point);
  ASSERT_TRUE(bound) << bind_point;
  EXPECT_EQ(bound->device, original->device) << "a bind mount shows the same file system";
}

TEST(ReadMountTable, SeesAReadOnlyRemount) {
  IOMARK_SKIP_UNLESS_ROOT();
  test::TempDir dir;
  const auto mount_point = make_directory(dir, kAwkwardName);
  TestMount tmpfs("tmpfs", mount_point, "tmpfs", MS_RDONLY, "size=1m");
  if (!tmpfs.mounted()) GTEST_SKIP() << tmpfs.error();
  const auto table = read_mount_table();
  ASSERT_TRUE(table) << table.error().describe();
  const auto entry = find_mount(*table, mount_point);
  ASSERT_TRUE(entry);
  EXPECT_TRUE(entry->read_only);
}

// The safety path: a loop device this test formats and mounts at an awkward path, and a
// bind mount of it, are both named by inspect_block_device().
TEST(ReadMountTable, ALoopDeviceMountedAtAwkwardPathsIsReportedMountedThere) {
  IOMARK_SKIP_UNLESS_ROOT();
  if (!test::have_program("mkfs.ext4")) GTEST_SKIP() << "mkfs.ext4 (e2fsprogs) is not installed";
  test::LoopDevice loop({});
  if (!loop.attached()) GTEST_SKIP() << loop.error();
  ASSERT_TRUE(loop.format_ext4(loop.device()));
  test::TempDir dir;
  const auto mount_point = make_directory(dir, kAwkwardName);
  const auto bind_point = make_directory(dir, "bind with space");
  TestMount ext4(loop.device(), mount_point, "ext4", 0, nullptr);
  if (!ext4.mounted()) GTEST_SKIP() << ext4.error();
  TestMount bind(mount_point, bind_point, nullptr, MS_BIND, nullptr);
  ASSERT_TRUE(bind.mounted()) << bind.error();

  const auto table = read_mount_table();
  ASSERT_TRUE(table) << table.error().describe();
  const auto entry = find_mount(*table, mount_point);
  ASSERT_TRUE(entry);
  EXPECT_EQ(entry->source, loop.device());
  const auto usage = inspect_block_device(loop.device());
  ASSERT_TRUE(usage) << usage.error().describe();
  EXPECT_EQ(usage->mounts,
            (std::vector<MountUse>{MountUse{loop.name(), mount_point}, MountUse{loop.name(), bind_point}}));
  EXPECT_FALSE(usage->is_blank());
}

// A swap area on a loop device this test makes: read_swap_sources() and the safety check see it.
TEST(ReadSwapSources, SeesASwapAreaOnALoopDevice) {
  IOMARK_SKIP_UNLESS_ROOT();
  if (!test::have_program("mkswap")) GTEST_SKIP() << "mkswap (util-linux) is not installed";
  test::LoopDevice loop({});
  if (!loop.attached()) GTEST_SKIP() << loop.error();
  ASSERT_EQ(test::run("mkswap " + loop.device()), 0);
  if (::swapon(loop.device().c_str(), 0) != 0) GTEST_SKIP() << "swapon: " << std::strerror(errno);
  const auto sources = read_swap_sources();
  const auto usage = inspect_block_device(loop.device());
  ::swapoff(loop.device().c_str());
  ASSERT_TRUE(sources) << sources.error().describe();
  EXPECT_NE(std::find(sources->begin(), sources->end(), loop.device()), sources->end());
  ASSERT_TRUE(usage) << usage.error().describe();
  EXPECT_EQ(usage->swaps, std::vector<std::string>{loop.name()});
}

TEST(ReadSwapSources, AMissingTableIsAnErrorNamingIt) {
  const auto sources = read_swap_sources("/nonexistent/iomark/swaps");
  ASSERT_FALSE(sources);
  EXPECT_EQ(sources.error().location().file, "/nonexistent/iomark/swaps");
}

}  // namespace
}  // namespace iomark::targets
