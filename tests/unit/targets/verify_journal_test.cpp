#include "iomark/targets/verify_journal.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "support.hpp"

namespace iomark::targets {
namespace {

using test::TempDir;

SafetyPolicy scope(const TempDir& dir) {
  const std::vector<std::string> allowed{dir.path()};
  return SafetyPolicy::create(allowed, Destructive::refuse).value();
}

TEST(VerifyJournal, KeepsGenerationsAcrossReopening) {
  TempDir dir;
  const auto path = dir / "t.bin.iomark-journal";
  std::uint32_t id = 0;
  {
    auto journal = VerifyJournal::open(scope(dir), path, 1 << 20, 4096);
    ASSERT_TRUE(journal) << journal.error().describe();
    EXPECT_TRUE((*journal)->created());
    EXPECT_NE((*journal)->target_id(), 0U);
    ASSERT_EQ((*journal)->words().size(), 256U);
    for (const auto word : (*journal)->words()) EXPECT_EQ(word, 0U);
    (*journal)->words()[17] = 5;
    id = (*journal)->target_id();
  }
  auto again = VerifyJournal::open(scope(dir), path, 1 << 20, 4096);
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_FALSE((*again)->created());
  EXPECT_TRUE((*again)->was_clean());
  EXPECT_EQ((*again)->target_id(), id);
  EXPECT_EQ((*again)->words()[17], 5U);
}

TEST(VerifyJournal, RefusesAJournalOfAnotherShape) {
  TempDir dir;
  const auto path = dir / "j";
  ASSERT_TRUE(VerifyJournal::open(scope(dir), path, 1 << 20, 4096));
  const auto other_size = VerifyJournal::open(scope(dir), path, 2 << 20, 4096);
  ASSERT_FALSE(other_size);
  EXPECT_NE(other_size.error().message().find("remove it"), std::string::npos) << other_size.error().message();
  EXPECT_FALSE(VerifyJournal::open(scope(dir), path, 1 << 20, 512));
  test::write_file(dir / "not-a-journal", std::vector<std::uint8_t>(8192, 0x78));
  EXPECT_FALSE(VerifyJournal::open(scope(dir), dir / "not-a-journal", 1 << 20, 4096));
}

// An agent killed with the journal open: every update it made is in the file (shared
// mapping), and the journal says it was not closed cleanly.
TEST(VerifyJournal, UpdatesSurviveAKilledProcess) {
  TempDir dir;
  const auto path = dir / "j";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto journal = VerifyJournal::open(scope(dir), path, 1 << 20, 4096);
    if (!journal) ::_exit(1);
    (*journal)->words()[3] = 9;
    ::_exit(0);  // no destructor: as if killed
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  auto journal = VerifyJournal::open(scope(dir), path, 1 << 20, 4096);
  ASSERT_TRUE(journal) << journal.error().describe();
  EXPECT_FALSE((*journal)->was_clean());
  EXPECT_EQ((*journal)->words()[3], 9U);
}

TEST(VerifyJournal, IsMadeAndRemovedOnlyInTheWriteScope) {
  TempDir dir;
  TempDir outside;
  std::filesystem::create_directory(dir / "in");
  const std::vector<std::string> allowed{dir / "in"};
  const auto policy = SafetyPolicy::create(allowed, Destructive::refuse).value();
  const auto refused = VerifyJournal::open(policy, outside / "j", 1 << 20, 4096);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().field(), "--allow");
  EXPECT_FALSE(std::filesystem::exists(outside / "j"));
  test::write_file(outside / "old.iomark-journal", {1, 2, 3});
  EXPECT_FALSE(VerifyJournal::remove(policy, outside / "old.iomark-journal").has_value());
  EXPECT_TRUE(std::filesystem::exists(outside / "old.iomark-journal"));
  { ASSERT_TRUE(VerifyJournal::open(policy, dir / "in/j", 1 << 20, 4096).has_value()); }
  EXPECT_TRUE(VerifyJournal::remove(policy, dir / "in/j").value());
  EXPECT_FALSE(std::filesystem::exists(dir / "in/j"));
  EXPECT_FALSE(VerifyJournal::remove(policy, dir / "in/j").value());
}

}  // namespace
}  // namespace iomark::targets
