#include "iomark/targets/target.hpp"

#include <fcntl.h>
#include <sys/stat.h>
#include <sys/statvfs.h>
#include <sys/wait.h>
#include <unistd.h>

#include <gtest/gtest.h>

#include <filesystem>

#include "support.hpp"

namespace iomark::targets {
namespace {

using test::TempDir;
using test::write_file;

SafetyPolicy allowing(const std::string& path) {
  const std::vector<std::string> allowed{path};
  return SafetyPolicy::create(allowed, Destructive::refuse).value();
}

bool contains(const std::string& text, const std::string& part) { return text.find(part) != std::string::npos; }

TEST(Target, APathOutsideTheAllowListIsRefusedWithTheFlagToAllowIt) {
  TempDir dir;
  write_file(dir / "data.bin", std::vector<std::uint8_t>(8192));
  const auto refused = open_target(dir / "data.bin", {}, SafetyPolicy{});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::validation_error);
  EXPECT_EQ(refused.error().field(), "--allow");
  EXPECT_TRUE(contains(refused.error().message(), "refuses " + (dir / "data.bin"))) << refused.error().message();
  EXPECT_TRUE(contains(refused.error().message(), "without --allow")) << refused.error().message();
  // Reading needs the allow list too.
  EXPECT_FALSE(open_target(dir / "data.bin", {.access = AccessMode::read_only}, SafetyPolicy{}).has_value());
  EXPECT_TRUE(open_target(dir / "data.bin", {}, allowing(dir.path())).has_value());
}

TEST(Target, ASymbolicLinkOutOfTheAllowedDirectoryIsRefused) {
  TempDir allowed_dir;
  TempDir outside;
  write_file(outside / "secret", std::vector<std::uint8_t>(4096, 7));
  std::filesystem::create_symlink(outside / "secret", allowed_dir / "escape");
  const auto refused = authorize_target(allowed_dir / "escape", AccessMode::read_write, allowing(allowed_dir.path()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_TRUE(contains(refused.error().message(), "resolves to " + (outside / "secret"))) << refused.error().message();

  // A ".." walk out of the directory is resolved the same way.
  const auto dotdot = authorize_target(allowed_dir / ("../" + std::filesystem::path(outside.path()).filename().string() +
                                                       "/secret"),
                                       AccessMode::read_only, allowing(allowed_dir.path()));
  EXPECT_FALSE(dotdot.has_value());
  EXPECT_EQ(test::read_file(outside / "secret"), std::vector<std::uint8_t>(4096, 7));
}

TEST(Target, ALinkIntoTheAllowedDirectoryIsFollowed) {
  TempDir allowed_dir;
  TempDir elsewhere;
  write_file(allowed_dir / "data.bin", std::vector<std::uint8_t>(4096));
  std::filesystem::create_symlink(allowed_dir / "data.bin", elsewhere / "link");
  const auto authorized = authorize_target(elsewhere / "link", AccessMode::read_write, allowing(allowed_dir.path()));
  ASSERT_TRUE(authorized.has_value()) << authorized.error().describe();
  EXPECT_EQ(authorized->path, std::filesystem::canonical(allowed_dir / "data.bin").string());
}

TEST(Target, TestFilesAndDirectoriesNeedTheAllowListToo) {
  TempDir dir;
  write_file(dir / "iobw.tst", std::vector<std::uint8_t>(4096));
  EXPECT_FALSE(authorize_target(dir / "iobw.tst", AccessMode::read_write, SafetyPolicy{}).has_value());
  EXPECT_FALSE(authorize_target(dir.path(), AccessMode::read_write, SafetyPolicy{}).has_value());
  EXPECT_TRUE(authorize_target(dir / "iobw.tst", AccessMode::read_write, allowing(dir.path())).has_value());
  EXPECT_TRUE(authorize_target(dir.path(), AccessMode::read_write, allowing(dir.path())).has_value());
  std::filesystem::create_hard_link(dir / "iobw.tst", dir / "precious");
  const auto linked = authorize_target(dir / "iobw.tst", AccessMode::read_write, allowing(dir.path()));
  ASSERT_FALSE(linked.has_value());
  EXPECT_TRUE(contains(linked.error().message(), "2 hard links")) << linked.error().message();
}

TEST(Target, AMissingFileIsANewFileAndAMissingDirectoryIsNotFound) {
  TempDir dir;
  const auto fresh = authorize_target(dir / "new.dat", AccessMode::read_write, allowing(dir.path()));
  ASSERT_TRUE(fresh.has_value()) << fresh.error().describe();
  EXPECT_EQ(fresh->kind, TargetKind::new_file);
  EXPECT_FALSE(open_target(dir / "new.dat", {}, allowing(dir.path())).has_value());
  const auto missing = authorize_target(dir / "no-dir/new.dat", AccessMode::read_write, allowing(dir.path()));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), ErrorCode::not_found);
  EXPECT_TRUE(contains(missing.error().message(), dir / "no-dir")) << missing.error().message();
  EXPECT_FALSE(authorize_target(dir / "new.dat", AccessMode::read_write, SafetyPolicy{}).has_value());
}

TEST(Target, OpensAndSizesAFile) {
  TempDir dir;
  write_file(dir / "data.bin", std::vector<std::uint8_t>(3 * 4096 + 100));
  const auto policy = allowing(dir.path());
  auto opened = open_target(dir / "data.bin", {AccessMode::read_write, Caching::direct_or_buffered, {}}, policy);
  ASSERT_TRUE(opened.has_value()) << opened.error().describe();
  struct statvfs vfs {};
  ASSERT_EQ(::statvfs(dir.path().c_str(), &vfs), 0);
  EXPECT_EQ(opened->info().kind, TargetKind::file);
  EXPECT_EQ(opened->info().size_bytes, 3U * 4096 + 100);
  EXPECT_EQ(opened->info().sector_size_bytes, vfs.f_bsize);
  // Whether the file system takes O_DIRECT, asked independently.
  const int probe = ::open((dir / "data.bin").c_str(), O_RDONLY | O_DIRECT);
  EXPECT_EQ(opened->info().direct_io, probe >= 0);
  if (probe >= 0) ::close(probe);
  EXPECT_EQ(::fcntl(opened->fd(), F_GETFL) & O_ACCMODE, O_RDWR);

  auto read_only = open_target(dir / "data.bin", {AccessMode::read_only, Caching::buffered, 512}, policy);
  ASSERT_TRUE(read_only.has_value());
  EXPECT_EQ(read_only->info().sector_size_bytes, 512U);
  EXPECT_FALSE(read_only->info().direct_io);
  EXPECT_EQ(::fcntl(read_only->fd(), F_GETFL) & O_ACCMODE, O_RDONLY);
}

TEST(Target, ReadsLeaveTheAccessTimeAloneWhereTheKernelAllowsIt) {
  TempDir dir;
  write_file(dir / "data.bin", std::vector<std::uint8_t>(8192));
  const auto owned = open_target(dir / "data.bin", {AccessMode::read_only, Caching::buffered, {}}, allowing(dir.path()));
  ASSERT_TRUE(owned.has_value()) << owned.error().describe();
  EXPECT_NE(::fcntl(owned->fd(), F_GETFL) & O_NOATIME, 0);

  // Someone else's file without CAP_FOWNER: O_NOATIME is refused (EPERM), the target opens without it.
  if (::geteuid() != 0) GTEST_SKIP() << "needs root, to open a root-owned file as another user";
  ASSERT_EQ(::chmod(dir.path().c_str(), 0755), 0);
  ASSERT_EQ(::chmod((dir / "data.bin").c_str(), 0644), 0);
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    if (::setresgid(65534, 65534, 65534) != 0 || ::setresuid(65534, 65534, 65534) != 0) ::_exit(2);
    const auto other = open_target(dir / "data.bin", {AccessMode::read_only, Caching::buffered, {}}, allowing(dir.path()));
    if (!other.has_value()) ::_exit(3);
    ::_exit((::fcntl(other->fd(), F_GETFL) & O_NOATIME) == 0 ? 0 : 4);
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status));
  EXPECT_EQ(WEXITSTATUS(status), 0) << "2: could not drop to nobody, 3: the open failed, 4: O_NOATIME was granted";
}

TEST(Target, DirectoriesAndOtherFileTypesAreNotOpened) {
  TempDir dir;
  const auto directory = open_target(dir.path(), {}, allowing(dir.path()));
  ASSERT_FALSE(directory.has_value());
  EXPECT_TRUE(contains(directory.error().message(), "iobw.tst"));
  const auto null_device = open_target("/dev/null", {}, allowing("/dev/null"));
  ASSERT_FALSE(null_device.has_value());
  EXPECT_EQ(null_device.error().code(), ErrorCode::invalid_argument);
  const auto missing = open_target(dir / "missing", {}, allowing(dir.path()));
  ASSERT_FALSE(missing.has_value());
  EXPECT_EQ(missing.error().code(), ErrorCode::not_found);
}

TEST(Target, OpenTargetClosesItsDescriptor) {
  TempDir dir;
  write_file(dir / "iobw.tst", std::vector<std::uint8_t>(4096));
  int fd = -1;
  {
    auto opened = open_target(dir / "iobw.tst", {AccessMode::read_only, Caching::buffered, {}}, allowing(dir.path()));
    ASSERT_TRUE(opened.has_value());
    OpenTarget moved = std::move(*opened);
    fd = moved.fd();
    EXPECT_EQ(opened->fd(), -1);
    EXPECT_NE(::fcntl(fd, F_GETFD), -1);
  }
  EXPECT_EQ(::fcntl(fd, F_GETFD), -1);
}

}  // namespace
}  // namespace iomark::targets
