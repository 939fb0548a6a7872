#include "iomark/targets/precondition.hpp"

#include <gtest/gtest.h>

#include <filesystem>
#include <stop_token>

#include "support.hpp"

namespace iomark::targets {
namespace {

using test::read_file;
using test::TempDir;
using test::write_file;

SafetyPolicy allowing(const std::string& path) {
  const std::vector<std::string> allowed{path};
  return SafetyPolicy::create(allowed, Destructive::refuse).value();
}

std::vector<std::uint8_t> filled(std::size_t bytes) { return std::vector<std::uint8_t>(bytes, 'x'); }

PreconditionOptions passes(std::uint32_t count) {
  return {.passes = count, .block_bytes = 64 * 1024, .caching = Caching::direct_or_buffered};
}

// Fills block n with the byte value n + 1 (mod 256), so the file shows which write was last.
ChunkFiller numbered_blocks(std::size_t* blocks) {
  return [blocks](std::span<std::byte> block) {
    ++*blocks;
    std::fill(block.begin(), block.end(), static_cast<std::byte>(*blocks));
  };
}

TEST(Precondition, WritesTheWholeFileEveryPassInBlocks) {
  TempDir dir;
  const auto file = dir / "target";
  write_file(file, filled(1 << 20));  // 1 MiB: 16 blocks of 64 KiB a pass
  std::size_t blocks = 0;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> reports;
  const auto done = precondition_target(file, passes(2), allowing(file), numbered_blocks(&blocks),
                                        [&](Bytes written, Bytes total) { reports.emplace_back(written.count(), total.count()); });
  ASSERT_TRUE(done) << done.error().describe();
  EXPECT_EQ(done->target_bytes, 1U << 20);
  EXPECT_EQ(done->written_bytes, 2U << 20);
  EXPECT_FALSE(done->cancelled);
  EXPECT_EQ(blocks, 32U);
  ASSERT_EQ(reports.size(), 32U);
  EXPECT_EQ(reports.back(), (std::pair<std::uint64_t, std::uint64_t>{2U << 20, 2U << 20}));
  const auto content = read_file(file);
  ASSERT_EQ(content.size(), 1U << 20) << "never grown";
  EXPECT_EQ(content.front(), 17) << "the second pass's first block";
  EXPECT_EQ(content.back(), 32) << "the second pass's last block";
}

TEST(Precondition, OutsideTheWriteScopeNothingIsWritten) {
  TempDir dir;
  const auto file = dir / "target";
  write_file(file, filled(64 * 1024));
  std::filesystem::create_directory(dir / "elsewhere");
  const auto refused = precondition_target(file, passes(1), allowing(dir / "elsewhere"));
  ASSERT_FALSE(refused);
  EXPECT_EQ(refused.error().code(), ErrorCode::validation_error) << refused.error().describe();
  EXPECT_EQ(read_file(file), filled(64 * 1024));
}

TEST(Precondition, ADirectoryIsRefusedItsTestFileIsWhatGetsWritten) {
  TempDir dir;
  EXPECT_FALSE(precondition_target(dir.path(), passes(1), allowing(dir.path())));
}

TEST(Precondition, AStopEndsItBetweenBlocks) {
  TempDir dir;
  const auto file = dir / "target";
  write_file(file, filled(1 << 20));
  std::stop_source stop;
  std::size_t blocks = 0;
  const auto done = precondition_target(
      file, passes(2), allowing(file), numbered_blocks(&blocks),
      [&](Bytes written, Bytes) {
        if (written.count() >= (256U << 10)) stop.request_stop();
      },
      stop.get_token());
  ASSERT_TRUE(done) << done.error().describe();
  EXPECT_TRUE(done->cancelled);
  EXPECT_EQ(done->written_bytes, 256U << 10);
  EXPECT_EQ(blocks, 4U);
}

TEST(Precondition, ZeroPassesOrAnEmptyTargetIsAnError) {
  TempDir dir;
  const auto file = dir / "target";
  write_file(file, {});
  EXPECT_FALSE(precondition_target(file, passes(1), allowing(file))) << "empty";
  write_file(file, filled(4096));
  EXPECT_FALSE(precondition_target(file, passes(0), allowing(file)));
}

}  // namespace
}  // namespace iomark::targets
