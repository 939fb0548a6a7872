#include "iomark/targets/test_file.hpp"

#include <sys/stat.h>
#include <sys/statvfs.h>

#include <gtest/gtest.h>

#include <filesystem>
#include <stop_token>

#include "iomark/workload/data_pattern.hpp"
#include "support.hpp"

namespace iomark::targets {
namespace {

using test::read_file;
using test::TempDir;
using test::write_file;

constexpr std::size_t kChunk = 256 * 1024;

// Fills chunk n with the byte value n + 1, so the file shows which chunk wrote what.
ChunkFiller numbered_chunks() {
  return [n = 0](std::span<std::byte> chunk) mutable {
    ++n;
    std::fill(chunk.begin(), chunk.end(), static_cast<std::byte>(n));
  };
}

TestFileOptions sized(std::uint64_t maximum_sectors, std::uint64_t starting_sector = 0) {
  TestFileOptions options;
  options.maximum_size_sectors = maximum_sectors;
  options.starting_sector = starting_sector;
  options.sector_size_bytes = 4096;
  options.caching = Caching::direct_or_buffered;
  options.chunk_bytes = kChunk;
  return options;
}

TEST(TestFile, CreatedAtStartPlusMaximumSectorsWithTheFillersData) {
  TempDir dir;
  std::vector<std::pair<std::uint64_t, std::uint64_t>> progress;
  const auto prepared = prepare_test_file(dir.path(), sized(200, 56), SafetyPolicy{}, numbered_chunks(),
                                          [&](Bytes done, Bytes total) { progress.emplace_back(done.count(), total.count()); });
  ASSERT_TRUE(prepared.has_value()) << prepared.error().describe();
  const std::uint64_t expected = (56 + 200) * 4096;  // 1 MiB: four 256 KiB chunks
  EXPECT_EQ(prepared->outcome, PrepareOutcome::created);
  EXPECT_EQ(prepared->size_bytes, expected);
  EXPECT_EQ(prepared->path, std::filesystem::canonical(dir.path()).string() + "/iobw.tst");
  EXPECT_EQ(std::filesystem::file_size(dir / "iobw.tst"), expected);

  const auto bytes = read_file(dir / "iobw.tst");
  for (std::size_t i = 0; i < bytes.size(); i += 4096) ASSERT_EQ(bytes[i], i / kChunk + 1) << "byte " << i;
  ASSERT_EQ(progress.size(), 4U);
  for (std::size_t i = 0; i < progress.size(); ++i) {
    EXPECT_EQ(progress[i].first, (i + 1) * kChunk);
    EXPECT_EQ(progress[i].second, expected);
  }
}

TEST(TestFile, SectorSizeDefaultsToTheFileSystemBlock) {
  TempDir dir;
  TestFileOptions options = sized(16);
  options.sector_size_bytes.reset();
  const auto prepared = prepare_test_file(dir.path(), options, SafetyPolicy{});
  ASSERT_TRUE(prepared.has_value()) << prepared.error().describe();
  struct statvfs vfs {};
  ASSERT_EQ(::statvfs(dir.path().c_str(), &vfs), 0);
  EXPECT_EQ(prepared->sector_size_bytes, vfs.f_bsize);
  EXPECT_EQ(prepared->size_bytes, 16 * vfs.f_bsize);
}

TEST(TestFile, ReusedWhenLargeEnoughAndNeverShrunk) {
  TempDir dir;
  ASSERT_TRUE(prepare_test_file(dir.path(), sized(128), SafetyPolicy{}, numbered_chunks()).has_value());
  const auto before = read_file(dir / "iobw.tst");
  int progress_calls = 0;
  for (const std::uint64_t sectors : {128, 64}) {
    const auto again = prepare_test_file(dir.path(), sized(sectors), SafetyPolicy{},
                                         [](std::span<std::byte> chunk) { std::fill(chunk.begin(), chunk.end(), std::byte{0xEE}); },
                                         [&](Bytes, Bytes) { ++progress_calls; });
    ASSERT_TRUE(again.has_value());
    EXPECT_EQ(again->outcome, PrepareOutcome::reused);
    EXPECT_EQ(again->size_bytes, 128U * 4096);
  }
  EXPECT_EQ(progress_calls, 0);
  EXPECT_EQ(read_file(dir / "iobw.tst"), before);
}

TEST(TestFile, GrownWhenTooSmallKeepingItsData) {
  TempDir dir;
  ASSERT_TRUE(prepare_test_file(dir.path(), sized(64), SafetyPolicy{}, numbered_chunks()).has_value());
  const auto grown = prepare_test_file(dir.path(), sized(192), SafetyPolicy{},
                                       [](std::span<std::byte> chunk) { std::fill(chunk.begin(), chunk.end(), std::byte{0xEE}); });
  ASSERT_TRUE(grown.has_value()) << grown.error().describe();
  EXPECT_EQ(grown->outcome, PrepareOutcome::grown);
  const auto bytes = read_file(dir / "iobw.tst");
  ASSERT_EQ(bytes.size(), 192U * 4096);
  EXPECT_EQ(bytes[64 * 4096 - 1], 1);
  EXPECT_EQ(bytes[64 * 4096], 0xEE);
  EXPECT_EQ(bytes.back(), 0xEE);
}

TEST(TestFile, FilledPerDataPattern) {
  TempDir dir;
  const auto prepared = prepare_test_file(dir.path(), sized(128), SafetyPolicy{},
                                          workload::make_prepare_filler(access_specs::DataPattern::pseudo_random, 9));
  ASSERT_TRUE(prepared.has_value());
  const auto bytes = read_file(dir / "iobw.tst");
  // Every chunk is the same WRand(255) sequence, seeded with the worker seed.
  workload::IometerLcg rng(9);
  for (std::size_t i = 0; i < kChunk; ++i) {
    const auto expected = static_cast<std::uint8_t>(rng.below(255));
    ASSERT_EQ(bytes[i], expected) << i;
    ASSERT_EQ(bytes[i + kChunk], expected) << i;
  }
}

TEST(TestFile, WithoutAFillerEachChunkRepeatsOneByte) {
  TempDir dir;
  ASSERT_TRUE(prepare_test_file(dir.path(), sized(128), SafetyPolicy{}).has_value());
  const auto bytes = read_file(dir / "iobw.tst");
  for (std::size_t chunk = 0; chunk < bytes.size(); chunk += kChunk) {
    for (std::size_t i = chunk; i < chunk + kChunk; ++i) ASSERT_EQ(bytes[i], bytes[chunk]) << i;
  }
}

TEST(TestFile, CancelledBetweenChunksKeepsWhatWasWrittenAndResumes) {
  TempDir dir;
  std::stop_source stop;
  const auto cancelled = prepare_test_file(dir.path(), sized(256), SafetyPolicy{}, numbered_chunks(),
                                           [&](Bytes, Bytes) { stop.request_stop(); }, stop.get_token());
  ASSERT_TRUE(cancelled.has_value());
  EXPECT_EQ(cancelled->outcome, PrepareOutcome::cancelled);
  EXPECT_EQ(cancelled->size_bytes, kChunk);
  EXPECT_EQ(std::filesystem::file_size(dir / "iobw.tst"), kChunk);

  const auto resumed = prepare_test_file(dir.path(), sized(256), SafetyPolicy{});
  ASSERT_TRUE(resumed.has_value());
  EXPECT_EQ(resumed->outcome, PrepareOutcome::grown);
  EXPECT_EQ(std::filesystem::file_size(dir / "iobw.tst"), 256U * 4096);
}

TEST(TestFile, CancelledBeforeAnyChunkLeavesNoFile) {
  TempDir dir;
  std::stop_source stop;
  stop.request_stop();
  const auto cancelled = prepare_test_file(dir.path(), sized(64), SafetyPolicy{}, {}, {}, stop.get_token());
  ASSERT_TRUE(cancelled.has_value());
  EXPECT_EQ(cancelled->outcome, PrepareOutcome::cancelled);
  EXPECT_FALSE(std::filesystem::exists(dir / "iobw.tst"));
}

TEST(TestFile, ATestFileLinkingOutsideTheAllowListIsRefused) {
  TempDir dir;
  TempDir outside;
  write_file(outside / "precious", std::vector<std::uint8_t>(100, 42));
  std::filesystem::create_symlink(outside / "precious", dir / "iobw.tst");
  const auto refused = prepare_test_file(dir.path(), sized(64), SafetyPolicy{});
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::validation_error);
  EXPECT_NE(refused.error().message().find(outside / "precious"), std::string::npos) << refused.error().message();
  EXPECT_EQ(read_file(outside / "precious"), std::vector<std::uint8_t>(100, 42));
}

TEST(TestFile, AHardLinkedTestFileIsRefused) {
  TempDir dir;
  write_file(dir / "precious", std::vector<std::uint8_t>(100, 42));
  std::filesystem::create_hard_link(dir / "precious", dir / "iobw.tst");
  const auto refused = prepare_test_file(dir.path(), sized(64), SafetyPolicy{});
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message().find("hard links"), std::string::npos);
  EXPECT_EQ(read_file(dir / "precious"), std::vector<std::uint8_t>(100, 42));
}

TEST(TestFile, OnlyDirectoriesArePrepared) {
  TempDir dir;
  write_file(dir / "iobw.tst", {1, 2, 3});
  EXPECT_FALSE(prepare_test_file(dir / "iobw.tst", sized(64), SafetyPolicy{}).has_value());
  EXPECT_FALSE(prepare_test_file(dir / "missing", sized(64), SafetyPolicy{}).has_value());
}

}  // namespace
}  // namespace iomark::targets
