#include "iomark/targets/precondition.hpp"

#include <gtest/gtest.h>

#include <algorithm>
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
  return {.passes = count, .writes = {{.block_bytes = 64 * 1024}}, .caching = Caching::direct_or_buffered};
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

// 4 KiB random writes aligned to 8 KiB from 4 streams on a 1 MiB file, 2 passes: twice the
// size is written in all, each write on a whole even 4 KiB slot, the odd slots never.
TEST(Precondition, ASpecsRandomWritesFromSeveralStreamsWriteThePassesAligned) {
  TempDir dir;
  const auto file = dir / "target";
  write_file(file, filled(1 << 20));
  std::size_t blocks = 0;
  std::vector<std::uint64_t> reported;
  const PreconditionOptions options{
      .passes = 2,
      .writes = {{.block_bytes = 4096, .weight = 1, .percent_random = 100, .align_bytes = 8192}},
      .streams = 4,
      .seed = 7,
      .caching = Caching::direct_or_buffered};
  const auto done = precondition_target(file, options, allowing(file), numbered_blocks(&blocks),
                                        [&](Bytes written, Bytes total) {
                                          EXPECT_EQ(total.count(), 2U << 20);
                                          reported.push_back(written.count());
                                        });
  ASSERT_TRUE(done) << done.error().describe();
  EXPECT_EQ(done->written_bytes, 2U << 20);
  EXPECT_EQ(blocks, 512U) << "2 MiB in 4 KiB writes";
  ASSERT_FALSE(reported.empty());
  EXPECT_TRUE(std::is_sorted(reported.begin(), reported.end()));
  EXPECT_EQ(reported.back(), 2U << 20) << "the last report counts every stream";
  const auto content = read_file(file);
  ASSERT_EQ(content.size(), 1U << 20) << "never grown";
  std::size_t rewritten = 0;
  for (std::size_t slot = 0; slot < content.size(); slot += 4096) {
    const auto first = content.begin() + static_cast<std::ptrdiff_t>(slot);
    EXPECT_TRUE(std::all_of(first, first + 4096, [&](std::uint8_t byte) { return byte == *first; }))
        << "slot at " << slot << " holds parts of two writes";
    if (slot % 8192 != 0) {
      EXPECT_EQ(*first, 'x') << "slot at " << slot << " is off the 8 KiB alignment";
    } else if (*first != 'x') {
      ++rewritten;
    }
  }
  // 512 random writes over 128 aligned slots leave about e^-4 (2%) of them untouched.
  EXPECT_GT(rewritten, 110U);
}

// A spec of two lines, 64 KiB sequential (weight 1) and 4 KiB random (weight 3): the lines
// share the writes by weight and the bytes are the passes'.
TEST(Precondition, ASpecsLinesShareTheWritesByTheirWeight) {
  TempDir dir;
  const auto file = dir / "target";
  write_file(file, filled(1 << 20));
  std::vector<std::size_t> sizes;
  const PreconditionOptions options{
      .passes = 1,
      .writes = {{.block_bytes = 64 * 1024, .weight = 1, .percent_random = 0},
                 {.block_bytes = 4096, .weight = 3, .percent_random = 100}},
      .streams = 1,
      .seed = 11,
      .caching = Caching::direct_or_buffered};
  const auto done = precondition_target(file, options, allowing(file),
                                        [&](std::span<std::byte> block) {
                                          sizes.push_back(block.size());
                                          std::fill(block.begin(), block.end(), std::byte{'r'});
                                        });
  ASSERT_TRUE(done) << done.error().describe();
  EXPECT_EQ(done->written_bytes, 1U << 20);
  const auto small = static_cast<std::size_t>(std::count(sizes.begin(), sizes.end(), std::size_t{4096}));
  const auto large = sizes.size() - small;
  // About 3 of 4 writes are small ones: 1 MiB takes 48 of 64 KiB on average, so a few
  // dozen 4 KiB writes each side of it; anything but a weighted pick is far outside.
  EXPECT_GT(small, 2 * large) << small << " 4 KiB writes against " << large << " of 64 KiB";
  EXPECT_GT(large, 0U);
}

TEST(Precondition, NoWritesOrAWriteOfNoWeightIsAnError) {
  TempDir dir;
  const auto file = dir / "target";
  write_file(file, filled(4096));
  EXPECT_FALSE(precondition_target(file, {.passes = 1, .writes = {}}, allowing(file)));
  EXPECT_FALSE(precondition_target(file, {.passes = 1, .writes = {{.weight = 0}}}, allowing(file)));
  EXPECT_FALSE(precondition_target(file, {.passes = 1, .writes = {{.percent_random = 101}}}, allowing(file)));
  EXPECT_FALSE(precondition_target(file, {.passes = 1, .streams = 0}, allowing(file)));
  EXPECT_EQ(read_file(file), filled(4096));
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
