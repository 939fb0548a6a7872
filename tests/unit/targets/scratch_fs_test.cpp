// Test files and O_DIRECT on small RAM file systems this test mounts itself (root only).
#include <sys/statvfs.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>

#include "iomark/targets/target.hpp"
#include "iomark/targets/test_file.hpp"
#include "support.hpp"

namespace iomark::targets {
namespace {

using test::ScratchMount;

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

#define IOMARK_SKIP_UNLESS_MOUNTED(mount)                                                     \
  if (!test::is_root()) GTEST_SKIP() << "needs root to mount a scratch file system";          \
  if (!(mount).mounted()) GTEST_SKIP() << (mount).error()

SafetyPolicy allowing(const std::string& path) {
  const std::vector<std::string> allowed{path};
  return SafetyPolicy::create(allowed, Destructive::refuse).value();
}

TestFileOptions sectors_of_4k(std::uint64_t count) {
  TestFileOptions options;
  options.maximum_size_sectors = count;
  options.sector_size_bytes = 4096;
  options.chunk_bytes = 512 * 1024;
  return options;
}

// Fills the file system until it refuses, so the next write meets ENOSPC.
void exhaust(const std::string& directory) {
  std::ofstream filler(directory + "/filler", std::ios::binary);
  const std::vector<char> block(4096, 'x');
  while (filler.write(block.data(), static_cast<std::streamsize>(block.size())) && filler.flush()) {
  }
}

TEST(ScratchFileSystem, NotEnoughSpaceIsRefusedUpFrontNamingThePathAndTheFreeSpace) {
  ScratchMount tmpfs("tmpfs", "size=4m");
  IOMARK_SKIP_UNLESS_MOUNTED(tmpfs);
  const auto refused = prepare_test_file(tmpfs.path(), sectors_of_4k(2048), allowing(tmpfs.path()));  // 8 MiB
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::io_error);
  const std::string& message = refused.error().message();
  EXPECT_TRUE(contains(message, tmpfs.path() + "/iobw.tst")) << message;
  EXPECT_TRUE(contains(message, "4 MiB")) << message;  // the free space of the 4 MiB tmpfs
  EXPECT_TRUE(contains(message, "free")) << message;
  EXPECT_FALSE(std::filesystem::exists(tmpfs.path() + "/iobw.tst"));
}

TEST(ScratchFileSystem, RunningOutOfSpaceWhileWritingRemovesTheFile) {
  ScratchMount tmpfs("tmpfs", "size=4m");
  IOMARK_SKIP_UNLESS_MOUNTED(tmpfs);
  bool exhausted = false;
  const auto failed = prepare_test_file(tmpfs.path(), sectors_of_4k(768), allowing(tmpfs.path()), {}, [&](Bytes, Bytes) {
    if (!exhausted) exhaust(tmpfs.path());
    exhausted = true;
  });
  ASSERT_FALSE(failed.has_value());
  EXPECT_TRUE(contains(failed.error().message(), "ran out of space")) << failed.error().message();
  EXPECT_TRUE(contains(failed.error().message(), tmpfs.path() + "/iobw.tst"));
  EXPECT_FALSE(std::filesystem::exists(tmpfs.path() + "/iobw.tst"));
}

TEST(ScratchFileSystem, MaximumSizeZeroFillsTheFreeSpace) {
  ScratchMount tmpfs("tmpfs", "size=4m");
  IOMARK_SKIP_UNLESS_MOUNTED(tmpfs);
  struct statvfs before {};
  ASSERT_EQ(::statvfs(tmpfs.path().c_str(), &before), 0);
  const auto prepared = prepare_test_file(tmpfs.path(), sectors_of_4k(0), allowing(tmpfs.path()));
  ASSERT_TRUE(prepared.has_value()) << prepared.error().describe();
  EXPECT_EQ(prepared->outcome, PrepareOutcome::created);
  EXPECT_EQ(prepared->size_bytes % 4096, 0U);
  // All of it but the margin (5% of the file system here).
  const std::uint64_t total = std::uint64_t{before.f_blocks} * before.f_frsize;
  EXPECT_EQ(prepared->size_bytes, (std::uint64_t{before.f_bavail} * before.f_frsize - free_space_margin(total)) / 4096 * 4096);
  // An existing test file is then used as it is.
  const auto again = prepare_test_file(tmpfs.path(), sectors_of_4k(0), allowing(tmpfs.path()));
  ASSERT_TRUE(again.has_value());
  EXPECT_EQ(again->outcome, PrepareOutcome::reused);
}

TEST(ScratchFileSystem, AFileSystemRefusingODirectNeedsTheBufferedOptIn) {
  ScratchMount ramfs("ramfs", "");
  IOMARK_SKIP_UNLESS_MOUNTED(ramfs);
  test::write_file(ramfs.path() + "/data.bin", std::vector<std::uint8_t>(8192));
  const std::vector<std::string> allowed{ramfs.path()};
  const auto policy = SafetyPolicy::create(allowed, Destructive::refuse).value();

  const auto refused = open_target(ramfs.path() + "/data.bin", {}, policy);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::unsupported);
  EXPECT_TRUE(contains(refused.error().message(), ramfs.path() + "/data.bin")) << refused.error().message();
  EXPECT_TRUE(contains(refused.error().message(), "O_DIRECT"));
  EXPECT_TRUE(contains(refused.error().message(), "--buffered-io"));

  const auto buffered = open_target(ramfs.path() + "/data.bin", {AccessMode::read_write, Caching::direct_or_buffered, {}}, policy);
  ASSERT_TRUE(buffered.has_value()) << buffered.error().describe();
  EXPECT_FALSE(buffered->info().direct_io);
  EXPECT_EQ(buffered->info().size_bytes, 8192U);
}

TEST(ScratchFileSystem, PreparingOnAFileSystemRefusingODirectLeavesNoFileUnlessOptedIn) {
  ScratchMount ramfs("ramfs", "");
  IOMARK_SKIP_UNLESS_MOUNTED(ramfs);
  const auto refused = prepare_test_file(ramfs.path(), sectors_of_4k(64), allowing(ramfs.path()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::unsupported);
  EXPECT_TRUE(contains(refused.error().message(), "--buffered-io"));
  EXPECT_FALSE(std::filesystem::exists(ramfs.path() + "/iobw.tst"));

  TestFileOptions options = sectors_of_4k(64);
  options.caching = Caching::direct_or_buffered;
  const auto prepared = prepare_test_file(ramfs.path(), options, allowing(ramfs.path()));
  ASSERT_TRUE(prepared.has_value()) << prepared.error().describe();
  EXPECT_FALSE(prepared->direct_io);
  EXPECT_EQ(std::filesystem::file_size(ramfs.path() + "/iobw.tst"), 64U * 4096);
}

TEST(ScratchFileSystem, WholeFileSystemIsRefusedWhereNoCapacityIsReported) {
  ScratchMount ramfs("ramfs", "");
  IOMARK_SKIP_UNLESS_MOUNTED(ramfs);
  TestFileOptions options = sectors_of_4k(0);
  options.caching = Caching::buffered;
  const auto refused = prepare_test_file(ramfs.path(), options, allowing(ramfs.path()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_TRUE(contains(refused.error().message(), "no capacity")) << refused.error().message();
  EXPECT_FALSE(std::filesystem::exists(ramfs.path() + "/iobw.tst"));
}

TEST(ScratchFileSystem, ATestFileMustLeaveTheFreeSpaceMargin) {
  ScratchMount tmpfs("tmpfs", "size=20m");
  IOMARK_SKIP_UNLESS_MOUNTED(tmpfs);
  struct statvfs vfs {};
  ASSERT_EQ(::statvfs(tmpfs.path().c_str(), &vfs), 0);
  const std::uint64_t free = std::uint64_t{vfs.f_bavail} * vfs.f_frsize;
  const std::uint64_t margin = free_space_margin(std::uint64_t{vfs.f_blocks} * vfs.f_frsize);
  ASSERT_EQ(margin, std::uint64_t{20} * 1024 * 1024 / 20);  // 5% of 20 MiB: 1 MiB
  // One sector more than leaves the margin: refused up front, nothing made.
  const std::uint64_t fits = (free - margin) / 4096;
  const auto refused = prepare_test_file(tmpfs.path(), sectors_of_4k(fits + 1), allowing(tmpfs.path()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_TRUE(contains(refused.error().message(), "kept free")) << refused.error().message();
  EXPECT_FALSE(std::filesystem::exists(tmpfs.path() + "/iobw.tst"));
  const auto made = prepare_test_file(tmpfs.path(), sectors_of_4k(fits), allowing(tmpfs.path()));
  ASSERT_TRUE(made.has_value()) << made.error().describe();
  ASSERT_EQ(::statvfs(tmpfs.path().c_str(), &vfs), 0);
  EXPECT_GE(std::uint64_t{vfs.f_bavail} * vfs.f_frsize, margin);
}

}  // namespace
}  // namespace iomark::targets
