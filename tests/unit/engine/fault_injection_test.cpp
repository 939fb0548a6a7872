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

}  // namespace
}  // namespace iomark::engine
