// Safety checks on block devices, on loop devices this test attaches over its own temporary
// files (root and losetup only). No other device is ever opened.
#include "iomark/targets/block_device.hpp"

#include <fcntl.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include "iomark/targets/target.hpp"
#include "support.hpp"

namespace iomark::targets {
namespace {

using test::LoopDevice;

#define IOMARK_SKIP_UNLESS_ATTACHED(loop) \
  if (!(loop).attached() || !(loop).error().empty()) GTEST_SKIP() << (loop).error()

#define IOMARK_SKIP_UNLESS_MKFS()                                                          \
  if (!test::have_program("mkfs.ext4")) GTEST_SKIP() << "mkfs.ext4 (e2fsprogs) is not installed"

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

SafetyPolicy allowing(const std::string& path, Destructive destructive = Destructive::refuse) {
  const std::vector<std::string> allowed{path};
  return SafetyPolicy::create(allowed, destructive).value();
}

TEST(BlockDevice, ABlankDeviceIsUsedOnlyWhenAllowed) {
  LoopDevice loop({});
  IOMARK_SKIP_UNLESS_ATTACHED(loop);
  const auto usage = inspect_block_device(loop.device());
  ASSERT_TRUE(usage.has_value()) << usage.error().describe();
  EXPECT_EQ(usage->name, loop.name());
  EXPECT_TRUE(usage->is_blank()) << testing::PrintToString(usage->reasons());

  const auto refused = open_target(loop.device(), {}, SafetyPolicy{});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().field(), "--allow");
  EXPECT_TRUE(contains(refused.error().message(), "refuses " + loop.device())) << refused.error().message();

  auto opened = open_target(loop.device(), {}, allowing(loop.device()));
  ASSERT_TRUE(opened.has_value()) << opened.error().describe();
  EXPECT_EQ(opened->info().kind, TargetKind::block_device);
  EXPECT_EQ(opened->info().size_bytes, 64ULL << 20);
  EXPECT_EQ(opened->info().sector_size_bytes, 512U);
  EXPECT_TRUE(opened->info().direct_io);
}

TEST(BlockDevice, ReportsTheLogicalBlockSize) {
  LoopDevice loop({32ULL << 20, 4096, false});
  IOMARK_SKIP_UNLESS_ATTACHED(loop);
  auto opened = open_target(loop.device(), {.access = AccessMode::read_only}, allowing(loop.device()));
  ASSERT_TRUE(opened.has_value()) << opened.error().describe();
  EXPECT_EQ(opened->info().sector_size_bytes, 4096U);
  EXPECT_EQ(opened->info().size_bytes, 32ULL << 20);
}

TEST(BlockDevice, AFileSystemSignatureIsRefusedWithoutAllowDestructive) {
  IOMARK_SKIP_UNLESS_MKFS();
  LoopDevice loop({});
  IOMARK_SKIP_UNLESS_ATTACHED(loop);
  ASSERT_TRUE(loop.format_ext4(loop.device()));

  const auto refused = open_target(loop.device(), {}, allowing(loop.device()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::validation_error);
  EXPECT_EQ(refused.error().message(),
            loop.device() + " carries an ext4 file system signature; pass --allow-destructive to overwrite it");

  // Reading does not destroy anything; the operator's flag lets writes through.
  EXPECT_TRUE(open_target(loop.device(), {.access = AccessMode::read_only}, allowing(loop.device())).has_value());
  EXPECT_TRUE(open_target(loop.device(), {}, allowing(loop.device(), Destructive::allow)).has_value());
}

TEST(BlockDevice, AMountedDeviceIsRefusedNamingTheMountPoint) {
  IOMARK_SKIP_UNLESS_MKFS();
  LoopDevice loop({});
  IOMARK_SKIP_UNLESS_ATTACHED(loop);
  ASSERT_TRUE(loop.format_ext4(loop.device()));
  const auto where = loop.mount(loop.device());
  if (!where) GTEST_SKIP() << "cannot mount the loop device here";

  const auto usage = inspect_block_device(loop.device());
  ASSERT_TRUE(usage.has_value());
  ASSERT_EQ(usage->mounts.size(), 1U);
  EXPECT_EQ(usage->mounts[0], (MountUse{loop.name(), *where}));
  EXPECT_FALSE(usage->busy.empty()) << "a mounted device cannot be opened exclusively";

  const auto refused = open_target(loop.device(), {}, allowing(loop.device()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_TRUE(contains(refused.error().message(), loop.device() + " is mounted at " + *where)) << refused.error().message();
  EXPECT_TRUE(contains(refused.error().message(), "--allow-destructive"));
  // Mounted is refused on the same terms as the other findings (see target.hpp).
  EXPECT_TRUE(open_target(loop.device(), {}, allowing(loop.device(), Destructive::allow)).has_value());
}

TEST(BlockDevice, APartitionedDiskIsRefusedAndSoIsOneWhosePartitionIsMounted) {
  IOMARK_SKIP_UNLESS_MKFS();
  LoopDevice loop({64ULL << 20, 512, true});
  IOMARK_SKIP_UNLESS_ATTACHED(loop);
  const std::string partition_name = loop.name() + "p1";

  auto usage = inspect_block_device(loop.device());
  ASSERT_TRUE(usage.has_value());
  EXPECT_EQ(usage->partitions, std::vector<std::string>{partition_name});
  ASSERT_TRUE(usage->signature.has_value());
  EXPECT_EQ(usage->signature->type, "dos");
  auto refused = open_target(loop.device(), {}, allowing(loop.device()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_TRUE(contains(refused.error().message(), "has partitions (" + partition_name + ")")) << refused.error().message();
  EXPECT_TRUE(contains(refused.error().message(), "a dos partition table"));

  ASSERT_TRUE(loop.format_ext4(loop.partition()));
  const auto where = loop.mount(loop.partition());
  if (!where) GTEST_SKIP() << "cannot mount the partition here";
  usage = inspect_block_device(loop.device());
  ASSERT_TRUE(usage.has_value());
  EXPECT_EQ(usage->mounts, std::vector<MountUse>{(MountUse{partition_name, *where})});
  refused = open_target(loop.device(), {}, allowing(loop.device()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_TRUE(contains(refused.error().message(), "has partition " + partition_name + " mounted at " + *where))
      << refused.error().message();
}

TEST(BlockDevice, ADeviceOpenedExclusivelyElsewhereIsInUse) {
  LoopDevice loop({});
  IOMARK_SKIP_UNLESS_ATTACHED(loop);
  const int holder = ::open(loop.device().c_str(), O_RDONLY | O_EXCL | O_CLOEXEC);
  ASSERT_GE(holder, 0);
  const auto refused = open_target(loop.device(), {}, allowing(loop.device()));
  ::close(holder);
  ASSERT_FALSE(refused.has_value());
  EXPECT_TRUE(contains(refused.error().message(), "is in use")) << refused.error().message();
  EXPECT_TRUE(open_target(loop.device(), {}, allowing(loop.device())).has_value());
}

TEST(BlockDevice, InspectingSomethingElseIsAnError) {
  test::TempDir dir;
  test::write_file(dir / "file", {1});
  EXPECT_EQ(inspect_block_device(dir / "file").error().code(), ErrorCode::invalid_argument);
  EXPECT_EQ(inspect_block_device(dir / "missing").error().code(), ErrorCode::not_found);
}

}  // namespace
}  // namespace iomark::targets
