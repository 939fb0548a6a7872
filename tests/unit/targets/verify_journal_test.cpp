#include "iomark/targets/verify_journal.hpp"

#include <gtest/gtest.h>
#include <sys/wait.h>
#include <unistd.h>

#include <filesystem>

#include "support.hpp"

namespace iomark::targets {
namespace {

using test::TempDir;

TEST(VerifyJournal, KeepsGenerationsAcrossReopening) {
  TempDir dir;
  const auto path = dir / "t.bin.iomark-journal";
  std::uint32_t id = 0;
  {
    auto journal = VerifyJournal::open(path, 1 << 20, 4096);
    ASSERT_TRUE(journal) << journal.error().describe();
    EXPECT_TRUE((*journal)->created());
    EXPECT_NE((*journal)->target_id(), 0U);
    ASSERT_EQ((*journal)->words().size(), 256U);
    for (const auto word : (*journal)->words()) EXPECT_EQ(word, 0U);
    (*journal)->words()[17] = 5;
    id = (*journal)->target_id();
  }
  auto again = VerifyJournal::open(path, 1 << 20, 4096);
  ASSERT_TRUE(again) << again.error().describe();
  EXPECT_FALSE((*again)->created());
  EXPECT_TRUE((*again)->was_clean());
  EXPECT_EQ((*again)->target_id(), id);
  EXPECT_EQ((*again)->words()[17], 5U);
}

TEST(VerifyJournal, RefusesAJournalOfAnotherShape) {
  TempDir dir;
  const auto path = dir / "j";
  ASSERT_TRUE(VerifyJournal::open(path, 1 << 20, 4096));
  const auto other_size = VerifyJournal::open(path, 2 << 20, 4096);
  ASSERT_FALSE(other_size);
  EXPECT_NE(other_size.error().message().find("remove it"), std::string::npos) << other_size.error().message();
  EXPECT_FALSE(VerifyJournal::open(path, 1 << 20, 512));
  test::write_file(dir / "not-a-journal", std::vector<std::uint8_t>(8192, 0x78));
  EXPECT_FALSE(VerifyJournal::open(dir / "not-a-journal", 1 << 20, 4096));
}

// An agent killed with the journal open: every update it made is in the file (shared
// mapping), and the journal says it was not closed cleanly.
TEST(VerifyJournal, UpdatesSurviveAKilledProcess) {
  TempDir dir;
  const auto path = dir / "j";
  const pid_t child = ::fork();
  ASSERT_GE(child, 0);
  if (child == 0) {
    auto journal = VerifyJournal::open(path, 1 << 20, 4096);
    if (!journal) ::_exit(1);
    (*journal)->words()[3] = 9;
    ::_exit(0);  // no destructor: as if killed
  }
  int status = 0;
  ASSERT_EQ(::waitpid(child, &status, 0), child);
  ASSERT_TRUE(WIFEXITED(status) && WEXITSTATUS(status) == 0);
  auto journal = VerifyJournal::open(path, 1 << 20, 4096);
  ASSERT_TRUE(journal) << journal.error().describe();
  EXPECT_FALSE((*journal)->was_clean());
  EXPECT_EQ((*journal)->words()[3], 9U);
}

}  // namespace
}  // namespace iomark::targets
