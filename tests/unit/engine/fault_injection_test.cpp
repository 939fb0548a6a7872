#include "iomark/engine/fault_injection.hpp"

#include <gtest/gtest.h>
#include <unistd.h>

#include <array>
#include <cerrno>
#include <cstdlib>
#include <string>
#include <vector>

#include "iomark/engine/engines.hpp"

namespace iomark::engine {
namespace {

TEST(FaultPlan, NamesReadBackAndRejectAnythingElse) {
  EXPECT_EQ(parse_fault_plan("fault-eio"), (FaultPlan{0, 1}));
  EXPECT_EQ(parse_fault_plan("fault-eio-after-1000"), (FaultPlan{1000, 1}));
  EXPECT_EQ(parse_fault_plan("fault-eio-every-10"), (FaultPlan{0, 10}));
  EXPECT_EQ(parse_fault_plan("fault-eio-after-5-every-3"), (FaultPlan{5, 3}));
  for (const FaultPlan plan : {FaultPlan{0, 1}, FaultPlan{7, 1}, FaultPlan{0, 9}, FaultPlan{123, 45}}) {
    EXPECT_EQ(parse_fault_plan(fault_plan_name(plan)), plan) << fault_plan_name(plan);
  }
  for (const char* bad : {"fault", "fault-eio-", "fault-eio-every-0", "fault-eio-every-", "fault-eio-after-x",
                          "fault-eio-every-3-after-5", "fault-eio-after-1-2", "fault-enospc", "sync"}) {
    const auto parsed = parse_fault_plan(bad);
    ASSERT_FALSE(parsed) << bad;
    EXPECT_EQ(parsed.error().code(), ErrorCode::invalid_argument);
    EXPECT_NE(parsed.error().message().find("fault-eio[-after-N][-every-K]"), std::string::npos);
  }
  // The longest useful name still fits the wire's 32 characters.
  EXPECT_LE(fault_plan_name(FaultPlan{9'999'999, 99}).size(), 32U);
}

TEST(FaultPlan, FailsEveryKthIoAfterTheFirstN) {
  const FaultPlan plan{2, 3};
  std::vector<std::uint64_t> failing;
  for (std::uint64_t ordinal = 1; ordinal <= 12; ++ordinal) {
    if (fails(plan, ordinal)) failing.push_back(ordinal);
  }
  EXPECT_EQ(failing, (std::vector<std::uint64_t>{5, 8, 11}));
  EXPECT_TRUE(fails(FaultPlan{}, 1));
}

TEST(EngineSpec, ParsesBackEndsAndTheTestToolByExplicitNameOnly) {
  EXPECT_EQ(parse_engine_spec("libaio"), (EngineSpec{EngineKind::linux_aio, std::nullopt}));
  EXPECT_EQ(parse_engine_spec("fault-eio-every-2"), (EngineSpec{EngineKind::sync, FaultPlan{0, 2}}));
  EXPECT_EQ(to_string(*parse_engine_spec("fault-eio-every-2")), "fault-eio-every-2");
  EXPECT_EQ(to_string(*parse_engine_spec("null")), "null");
  EXPECT_FALSE(parse_engine_spec("faulty"));
  EXPECT_FALSE(parse_engine_spec("bogus"));
  // Never chosen on its own: not a kind the probe or the listings know.
  for (const auto kind : kAllEngineKinds) EXPECT_NE(to_string(kind).substr(0, 5), "fault");
}

// Reads through the engine on a real file: the chosen I/Os fail with -EIO and leave the
// buffer alone, the others read the file's bytes.
TEST(FaultInjectingEngine, FailsTheChosenIosAndDoesTheOthersLikeSync) {
  char path[] = "/tmp/iomark-fault-XXXXXX";
  const int fd = ::mkstemp(path);
  ASSERT_GE(fd, 0);
  ::unlink(path);
  const std::vector<char> data(4096, 'd');
  ASSERT_EQ(::pwrite(fd, data.data(), data.size(), 0), 4096);

  EngineOptions options;
  options.queue_depth = 8;
  auto engine = make_prepared_engine(EngineSpec{EngineKind::sync, FaultPlan{1, 2}}, options);
  ASSERT_TRUE(engine) << engine.error().describe();
  EXPECT_TRUE((*engine)->capabilities().has(Capability::transfers_data));
  const std::array<int, 1> fds{fd};
  ASSERT_TRUE((*engine)->register_targets(fds));

  std::array<std::array<std::byte, 512>, 6> buffers{};
  std::vector<IoRequest> requests;
  for (std::uint32_t i = 0; i < buffers.size(); ++i) {
    requests.push_back({i, 0, IoOp::read, i * 512ULL, 512, buffers[i].data()});
  }
  ASSERT_EQ((*engine)->submit(requests).accepted, buffers.size());
  std::array<IoCompletion, 8> out{};
  const auto reaped = (*engine)->reap(out, buffers.size(), Nanoseconds(0));
  ASSERT_EQ(reaped.count, buffers.size());
  for (std::size_t i = 0; i < reaped.count; ++i) {
    const auto tag = out[i].tag;
    const bool should_fail = tag == 2 || tag == 4;  // ordinals 3 and 5
    EXPECT_EQ(out[i].result, should_fail ? -EIO : 512) << "tag " << tag;
    EXPECT_EQ(buffers[tag][0], should_fail ? std::byte{0} : std::byte{'d'}) << "tag " << tag;
  }
  ::close(fd);
}

TEST(FaultPlan, LyingKindsParseAndNameThemselves) {
  EXPECT_EQ(parse_fault_plan("fault-flip"), (FaultPlan{0, 1, FaultKind::flip}));
  EXPECT_EQ(parse_fault_plan("fault-shift-every-7"), (FaultPlan{0, 7, FaultKind::misdirect}));
  EXPECT_EQ(parse_fault_plan("fault-drop-after-3-every-2"), (FaultPlan{3, 2, FaultKind::drop}));
  for (const FaultKind kind : {FaultKind::eio, FaultKind::flip, FaultKind::misdirect, FaultKind::drop}) {
    const FaultPlan plan{12'345, 678, kind};
    EXPECT_EQ(parse_fault_plan(fault_plan_name(plan)), plan) << fault_plan_name(plan);
    EXPECT_LE(fault_plan_name(FaultPlan{9'999, 99, kind}).size(), 32U) << "fits the wire's engine names";
  }
  EXPECT_FALSE(parse_fault_plan("fault-lie"));
  EXPECT_FALSE(parse_fault_plan("fault-flip-every-0"));
}

// Writes block i (4 KiB of byte 'a' + i) through a lying engine that lies about every second
// write, reads the file back with pread, and checks what each kind left on the medium.
std::vector<std::byte> medium_after_lies(FaultKind kind) {
  char path[] = "/tmp/iomark-lie-XXXXXX";
  const int fd = ::mkstemp(path);
  EXPECT_GE(fd, 0);
  ::unlink(path);
  constexpr std::uint32_t kBlock = 4096;
  std::vector<std::byte> medium(4 * kBlock, std::byte{'-'});
  EXPECT_EQ(::pwrite(fd, medium.data(), medium.size(), 0), static_cast<ssize_t>(medium.size()));
  auto engine = make_prepared_engine(EngineSpec{EngineKind::sync, FaultPlan{0, 2, kind}}, EngineOptions{.queue_depth = 4});
  EXPECT_TRUE(engine);
  const std::array<int, 1> fds{fd};
  EXPECT_TRUE((*engine)->register_targets(fds));
  std::vector<std::vector<std::byte>> blocks;
  std::vector<IoRequest> requests;
  for (std::uint32_t i = 0; i < 4; ++i) {
    blocks.emplace_back(kBlock, static_cast<std::byte>('a' + i));
    requests.push_back({i, 0, IoOp::write, std::uint64_t{i} * kBlock, kBlock, blocks.back().data()});
  }
  EXPECT_EQ((*engine)->submit(requests).accepted, 4U);
  std::array<IoCompletion, 4> out{};
  EXPECT_EQ((*engine)->reap(out, 4, Nanoseconds(0)).count, 4U);
  for (const auto& completion : out) EXPECT_EQ(completion.result, kBlock) << "every write is acknowledged in full";
  for (std::uint32_t i = 0; i < 4; ++i) {
    EXPECT_EQ(blocks[i][kBlock - 1], static_cast<std::byte>('a' + i)) << "the caller's buffer is given back intact";
  }
  EXPECT_EQ(::pread(fd, medium.data(), medium.size(), 0), static_cast<ssize_t>(medium.size()));
  ::close(fd);
  return medium;
}

TEST(LyingEngine, FlipsOneBitOfTheChosenWrites) {
  const auto medium = medium_after_lies(FaultKind::flip);
  // Writes 2 and 4 (blocks 1 and 3) lie: their last byte has its lowest bit flipped.
  EXPECT_EQ(medium[4096 - 1], std::byte{'a'});
  EXPECT_EQ(medium[2 * 4096 - 1], std::byte{'b' ^ 1});
  EXPECT_EQ(medium[2 * 4096 - 2], std::byte{'b'});
  EXPECT_EQ(medium[4 * 4096 - 1], std::byte{'d' ^ 1});
}

TEST(LyingEngine, WritesTheChosenWritesOneBlockTooLow) {
  const auto medium = medium_after_lies(FaultKind::misdirect);
  // Block 1's data lands on block 0 (after block 0 was written), block 3's on block 2.
  EXPECT_EQ(medium[0], std::byte{'b'});
  EXPECT_EQ(medium[4096], std::byte{'-'});
  EXPECT_EQ(medium[2 * 4096], std::byte{'d'});
  EXPECT_EQ(medium[3 * 4096], std::byte{'-'});
}

TEST(LyingEngine, DropsTheChosenWrites) {
  const auto medium = medium_after_lies(FaultKind::drop);
  EXPECT_EQ(medium[0], std::byte{'a'});
  EXPECT_EQ(medium[4096], std::byte{'-'});
  EXPECT_EQ(medium[2 * 4096], std::byte{'c'});
  EXPECT_EQ(medium[3 * 4096], std::byte{'-'});
}

}  // namespace
}  // namespace iomark::engine
