// open_beneath and SafetyPolicy::open: nothing resolved beneath an allowed directory can lead
// out of it, by a symbolic link, "..", or a directory swapped for a link while it is opened.
// Each case runs with the kernel's openat2 (where it has it) and with the component walk.
#include "iomark/targets/beneath.hpp"

#include <fcntl.h>
#include <sys/stat.h>

#include <gtest/gtest.h>

#include <atomic>
#include <filesystem>
#include <thread>

#include "iomark/targets/safety_policy.hpp"
#include "support.hpp"

namespace iomark::targets {
namespace {

namespace fs = std::filesystem;
using test::TempDir;
using test::write_file;

class Beneath : public ::testing::TestWithParam<Resolution> {
 protected:
  void SetUp() override {
    if (GetParam() == Resolution::automatic && !kernel_has_openat2()) GTEST_SKIP() << "this kernel has no openat2";
    fs::create_directory(root_ / "sub");
    write_file(root_ / "sub/inside", std::vector<std::uint8_t>(512, 1));
    write_file(outside_ / "precious", std::vector<std::uint8_t>(512, 9));
    root_fd_.reset(::open(root_.path().c_str(), O_PATH | O_DIRECTORY | O_CLOEXEC));
    ASSERT_TRUE(root_fd_.valid());
  }
  Result<Fd> open(const std::string& relative, int flags, mode_t mode = 0) {
    return open_beneath(root_fd_.get(), relative, flags, mode, relative, GetParam());
  }
  void expect_outside_untouched() {
    EXPECT_EQ(test::read_file(outside_ / "precious"), std::vector<std::uint8_t>(512, 9));
    EXPECT_EQ(std::distance(fs::directory_iterator(outside_.path()), fs::directory_iterator()), 1);
  }

  TempDir root_;
  TempDir outside_;
  Fd root_fd_;
};

TEST_P(Beneath, OpensAndCreatesBelowTheDirectory) {
  auto opened = open("sub/inside", O_RDONLY);
  ASSERT_TRUE(opened.has_value()) << opened.error().describe();
  auto created = open("sub/new", O_WRONLY | O_CREAT | O_EXCL, 0600);
  ASSERT_TRUE(created.has_value()) << created.error().describe();
  EXPECT_TRUE(fs::exists(root_ / "sub/new"));
  EXPECT_TRUE(open("", O_PATH | O_DIRECTORY).has_value());
}

TEST_P(Beneath, ASymbolicLinkOutIsRefused) {
  fs::create_symlink(outside_ / "precious", root_ / "sub/escape");
  fs::create_directory_symlink(outside_.path(), root_ / "out");
  for (const auto& relative : std::vector<std::string>{"sub/escape", "out/precious", "out/new"}) {
    const auto refused = open(relative, O_WRONLY | O_CREAT | O_TRUNC, 0600);
    ASSERT_FALSE(refused.has_value()) << relative;
    EXPECT_EQ(refused.error().code(), ErrorCode::validation_error) << refused.error().describe();
    EXPECT_EQ(refused.error().field(), "--allow");
  }
  expect_outside_untouched();
}

TEST_P(Beneath, DotDotAndAbsolutePathsAreRefused) {
  const std::string out = "../" + fs::path(outside_.path()).filename().string() + "/precious";
  const std::vector<std::string> paths{out, "sub/../../x", "sub/..", outside_.path() + "/precious"};
  for (const auto& relative : paths) {
    const auto refused = open(relative, O_WRONLY | O_CREAT, 0600);
    ASSERT_FALSE(refused.has_value()) << relative;
    EXPECT_EQ(refused.error().code(), ErrorCode::validation_error) << relative;
  }
  expect_outside_untouched();
}

TEST_P(Beneath, AMagicLinkIsRefused) {
  // /proc/self/cwd is a "magic" link: it jumps wherever the process stands, whatever its text.
  fs::create_symlink("/proc/self/cwd", root_ / "magic");
  const auto refused = open("magic", O_PATH);
  ASSERT_FALSE(refused.has_value());
}

TEST_P(Beneath, ALinkThatStaysInsideIsFollowedOnlyByTheKernelsResolver) {
  fs::create_symlink("sub/inside", root_ / "alias");
  const auto opened = open("alias", O_RDONLY);
  // The walk refuses every link: stricter, never looser.
  EXPECT_EQ(opened.has_value(), GetParam() == Resolution::automatic);
}

TEST_P(Beneath, ADirectorySwappedForALinkOutIsNotFollowed) {
  // What a racing user does between the policy's check and the open: the checked directory
  // becomes a link to a directory outside holding a file of the same name.
  write_file(outside_ / "inside", std::vector<std::uint8_t>(512, 9));
  fs::rename(root_ / "sub", root_ / "sub.old");
  fs::create_directory_symlink(outside_.path(), root_ / "sub");
  const auto refused = open("sub/inside", O_WRONLY | O_TRUNC);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::validation_error);
  EXPECT_EQ(test::read_file(outside_ / "inside"), std::vector<std::uint8_t>(512, 9));
}

TEST_P(Beneath, ARacingSwapNeverOpensTheFileOutside) {
  // A thread flips `sub` between the real directory and a link out while this one opens
  // sub/inside for writing; every open that succeeds must be the file inside. Bounded by a
  // count of opens, not by time.
  write_file(outside_ / "inside", std::vector<std::uint8_t>(512, 9));
  struct stat outside_file {};
  ASSERT_EQ(::stat((outside_ / "inside").c_str(), &outside_file), 0);
  fs::create_directory_symlink(outside_.path(), root_ / "link");
  std::atomic<bool> done{false};
  std::thread swapper([&] {
    const std::string sub = root_ / "sub";
    const std::string parked = root_ / "parked";
    const std::string link = root_ / "link";
    while (!done.load()) {
      // sub -> parked, link -> sub (a link out), then back.
      if (::rename(sub.c_str(), parked.c_str()) == 0 && ::rename(link.c_str(), sub.c_str()) == 0) {
        ::rename(sub.c_str(), link.c_str());
        ::rename(parked.c_str(), sub.c_str());
      }
    }
  });
  int opened_inside = 0;
  for (int i = 0; i < 20000; ++i) {
    auto opened = open("sub/inside", O_WRONLY);
    if (!opened) continue;
    struct stat st {};
    ASSERT_EQ(::fstat(opened->get(), &st), 0);
    EXPECT_FALSE(st.st_dev == outside_file.st_dev && st.st_ino == outside_file.st_ino) << "opened the file outside";
    ++opened_inside;
  }
  done = true;
  swapper.join();
  EXPECT_EQ(test::read_file(outside_ / "inside"), std::vector<std::uint8_t>(512, 9));
  RecordProperty("opened_inside", opened_inside);
}

INSTANTIATE_TEST_SUITE_P(Resolvers, Beneath, ::testing::Values(Resolution::automatic, Resolution::walk),
                         [](const auto& param_info) { return param_info.param == Resolution::automatic ? "openat2" : "walk"; });

TEST(ScopeOpen, OpensBeneathTheAllowedEntryAndRefusesWhatItDoesNotCover) {
  TempDir root;
  TempDir outside;
  fs::create_directory(root / "data");
  write_file(root / "data/f", std::vector<std::uint8_t>(512, 1));
  write_file(outside / "precious", std::vector<std::uint8_t>(512, 9));
  const std::vector<std::string> allowed{root / "data"};
  const auto policy = SafetyPolicy::create(allowed, Destructive::refuse).value();
  const std::string data = fs::canonical(root / "data").string();
  EXPECT_TRUE(policy.open(data + "/f", O_RDWR).has_value());
  const auto refused = policy.open(fs::canonical(outside / "precious").string(), O_RDWR);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().field(), "--allow");
  EXPECT_NE(refused.error().message().find("refuses"), std::string::npos) << refused.error().message();
  EXPECT_NE(refused.error().message().find(data), std::string::npos) << refused.error().message();

  // The allowed directory itself swapped for a link after the policy was made: the policy
  // holds the directory it checked, so the link is never followed.
  fs::rename(root / "data", root / "data.old");
  fs::create_directory_symlink(outside.path(), root / "data");
  auto held = policy.open(data + "/precious", O_RDWR | O_TRUNC);
  EXPECT_FALSE(held.has_value());
  EXPECT_EQ(test::read_file(outside / "precious"), std::vector<std::uint8_t>(512, 9));
}

TEST(ScopeOpen, AnAllowedFileIsOpenedByItsNameInItsDirectory) {
  TempDir root;
  write_file(root / "a.dat", std::vector<std::uint8_t>(512, 1));
  write_file(root / "b.dat", std::vector<std::uint8_t>(512, 2));
  const std::vector<std::string> allowed{root / "a.dat"};
  const auto policy = SafetyPolicy::create(allowed, Destructive::refuse).value();
  const std::string dir = fs::canonical(root.path()).string();
  EXPECT_TRUE(policy.open(dir + "/a.dat", O_RDWR).has_value());
  EXPECT_FALSE(policy.open(dir + "/b.dat", O_RDWR).has_value());
  EXPECT_FALSE(policy.allows(dir));
}

}  // namespace
}  // namespace iomark::targets
