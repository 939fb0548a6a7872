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

SafetyPolicy allowing(const std::string& path) {
  const std::vector<std::string> allowed{path};
  return SafetyPolicy::create(allowed, Destructive::refuse).value();
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
  const auto prepared = prepare_test_file(dir.path(), sized(200, 56), allowing(dir.path()), numbered_chunks(),
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
  const auto prepared = prepare_test_file(dir.path(), options, allowing(dir.path()));
  ASSERT_TRUE(prepared.has_value()) << prepared.error().describe();
  struct statvfs vfs {};
  ASSERT_EQ(::statvfs(dir.path().c_str(), &vfs), 0);
  EXPECT_EQ(prepared->sector_size_bytes, vfs.f_bsize);
  EXPECT_EQ(prepared->size_bytes, 16 * vfs.f_bsize);
}

TEST(TestFile, ReusedWhenLargeEnoughAndNeverShrunk) {
  TempDir dir;
  ASSERT_TRUE(prepare_test_file(dir.path(), sized(128), allowing(dir.path()), numbered_chunks()).has_value());
  const auto before = read_file(dir / "iobw.tst");
  int progress_calls = 0;
  for (const std::uint64_t sectors : {128, 64}) {
    const auto again = prepare_test_file(dir.path(), sized(sectors), allowing(dir.path()),
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
  ASSERT_TRUE(prepare_test_file(dir.path(), sized(64), allowing(dir.path()), numbered_chunks()).has_value());
  const auto grown = prepare_test_file(dir.path(), sized(192), allowing(dir.path()),
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
  const auto prepared = prepare_test_file(dir.path(), sized(128), allowing(dir.path()),
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
  ASSERT_TRUE(prepare_test_file(dir.path(), sized(128), allowing(dir.path())).has_value());
  const auto bytes = read_file(dir / "iobw.tst");
  for (std::size_t chunk = 0; chunk < bytes.size(); chunk += kChunk) {
    for (std::size_t i = chunk; i < chunk + kChunk; ++i) ASSERT_EQ(bytes[i], bytes[chunk]) << i;
  }
}

TEST(TestFile, CancelledBetweenChunksKeepsWhatWasWrittenAndResumes) {
  TempDir dir;
  std::stop_source stop;
  const auto cancelled = prepare_test_file(dir.path(), sized(256), allowing(dir.path()), numbered_chunks(),
                                           [&](Bytes, Bytes) { stop.request_stop(); }, stop.get_token());
  ASSERT_TRUE(cancelled.has_value());
  EXPECT_EQ(cancelled->outcome, PrepareOutcome::cancelled);
  EXPECT_EQ(cancelled->size_bytes, kChunk);
  EXPECT_EQ(std::filesystem::file_size(dir / "iobw.tst"), kChunk);

  const auto resumed = prepare_test_file(dir.path(), sized(256), allowing(dir.path()));
  ASSERT_TRUE(resumed.has_value());
  EXPECT_EQ(resumed->outcome, PrepareOutcome::grown);
  EXPECT_EQ(std::filesystem::file_size(dir / "iobw.tst"), 256U * 4096);
}

TEST(TestFile, CancelledBeforeAnyChunkLeavesNoFile) {
  TempDir dir;
  std::stop_source stop;
  stop.request_stop();
  const auto cancelled = prepare_test_file(dir.path(), sized(64), allowing(dir.path()), {}, {}, stop.get_token());
  ASSERT_TRUE(cancelled.has_value());
  EXPECT_EQ(cancelled->outcome, PrepareOutcome::cancelled);
  EXPECT_FALSE(std::filesystem::exists(dir / "iobw.tst"));
}

TEST(TestFile, ATestFileLinkingOutsideTheAllowListIsRefused) {
  TempDir dir;
  TempDir outside;
  write_file(outside / "precious", std::vector<std::uint8_t>(100, 42));
  std::filesystem::create_symlink(outside / "precious", dir / "iobw.tst");
  const auto refused = prepare_test_file(dir.path(), sized(64), allowing(dir.path()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::validation_error);
  EXPECT_EQ(refused.error().field(), "--allow");
  EXPECT_NE(refused.error().message().find("iobw.tst"), std::string::npos) << refused.error().message();
  EXPECT_EQ(read_file(outside / "precious"), std::vector<std::uint8_t>(100, 42));
}

TEST(TestFile, AHardLinkedTestFileIsRefused) {
  TempDir dir;
  write_file(dir / "precious", std::vector<std::uint8_t>(100, 42));
  std::filesystem::create_hard_link(dir / "precious", dir / "iobw.tst");
  const auto refused = prepare_test_file(dir.path(), sized(64), allowing(dir.path()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message().find("hard links"), std::string::npos);
  EXPECT_EQ(read_file(dir / "precious"), std::vector<std::uint8_t>(100, 42));
}

TEST(TestFile, OnlyDirectoriesArePrepared) {
  TempDir dir;
  write_file(dir / "iobw.tst", {1, 2, 3});
  EXPECT_FALSE(prepare_test_file(dir / "iobw.tst", sized(64), allowing(dir.path())).has_value());
  EXPECT_FALSE(prepare_test_file(dir / "missing", sized(64), allowing(dir.path())).has_value());
}

TEST(TestFile, NothingIsMadeOutsideTheWriteScopeNotEvenATestFile) {
  TempDir dir;
  std::filesystem::create_directory(dir / "allowed");
  auto policy = allowing(dir / "allowed");
  policy.set_agent_name("agent-7");
  for (const auto& where : {dir.path(), std::string("/")}) {
    const auto refused = prepare_test_file(where, sized(64), policy);
    ASSERT_FALSE(refused.has_value()) << where;
    EXPECT_EQ(refused.error().code(), ErrorCode::validation_error);
    EXPECT_EQ(refused.error().field(), "--allow");
    const auto& message = refused.error().message();
    EXPECT_NE(message.find("agent agent-7 refuses " + where), std::string::npos) << message;
    EXPECT_NE(message.find(std::filesystem::canonical(dir / "allowed").string()), std::string::npos) << message;
  }
  EXPECT_FALSE(std::filesystem::exists(dir / "iobw.tst"));
  EXPECT_FALSE(prepare_test_file(dir.path(), sized(64), SafetyPolicy{}).has_value());
  EXPECT_FALSE(std::filesystem::exists(dir / "iobw.tst"));
  EXPECT_TRUE(prepare_test_file(dir / "allowed", sized(64), policy).has_value());
}

TEST(TestFile, AHardLinkedFileIsWrittenOnlyWhenItIsItselfAllowed) {
  TempDir dir;
  write_file(dir / "data.bin", std::vector<std::uint8_t>(4096, 1));
  std::filesystem::create_hard_link(dir / "data.bin", dir / "other-name");
  const std::string path = std::filesystem::canonical(dir / "data.bin").string();
  const auto refused = authorize_target(path, AccessMode::read_write, allowing(dir.path()));
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message().find("2 hard links"), std::string::npos) << refused.error().message();
  EXPECT_TRUE(authorize_target(path, AccessMode::read_only, allowing(dir.path())).has_value());
  EXPECT_TRUE(authorize_target(path, AccessMode::read_write, allowing(path)).has_value());
}

TEST(TestFile, ANewTargetFileIsCreatedAtTheSizeAskedUnderItsOwnName) {
  TempDir dir;
  const std::string path = dir / "new.dat";
  const std::vector<std::string> allowed{path};
  const auto policy = SafetyPolicy::create(allowed, Destructive::refuse, MissingPath::allow_new_file);
  ASSERT_TRUE(policy.has_value()) << policy.error().describe();
  const auto authorized = authorize_target(path, AccessMode::read_write, *policy);
  ASSERT_TRUE(authorized.has_value()) << authorized.error().describe();
  EXPECT_EQ(authorized->kind, TargetKind::new_file);
  // Only the file is in the scope, not its directory: the file is made, and nothing else.
  TestFileOptions options = sized(16);
  options.file_name = "new.dat";
  const auto made = prepare_test_file(dir.path(), options, *policy);
  ASSERT_TRUE(made.has_value()) << made.error().describe();
  EXPECT_EQ(made->outcome, PrepareOutcome::created);
  EXPECT_EQ(std::filesystem::file_size(path), 16U * 4096);
  EXPECT_FALSE(prepare_test_file(dir.path(), sized(16), *policy).has_value());  // iobw.tst beside it: refused
  EXPECT_FALSE(std::filesystem::exists(dir / "iobw.tst"));

  // A missing directory is not_found, naming it.
  const std::vector<std::string> missing{dir / "no-such-dir/new.dat"};
  const auto refused = SafetyPolicy::create(missing, Destructive::refuse, MissingPath::allow_new_file);
  ASSERT_FALSE(refused.has_value());
  EXPECT_EQ(refused.error().code(), ErrorCode::not_found);
  EXPECT_NE(refused.error().message().find(dir / "no-such-dir"), std::string::npos) << refused.error().message();
}

TEST(TestFile, FreeSpaceMarginIsFivePercentOrOneGibibyte) {
  EXPECT_EQ(free_space_margin(0), 0U);
  EXPECT_EQ(free_space_margin(std::uint64_t{100} << 20), std::uint64_t{5} << 20);
  EXPECT_EQ(free_space_margin(std::uint64_t{20} << 30), std::uint64_t{1} << 30);
  EXPECT_EQ(free_space_margin(std::uint64_t{1} << 40), std::uint64_t{1} << 30);
}

}  // namespace
}  // namespace iomark::targets
