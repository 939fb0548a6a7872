#include <gtest/gtest.h>

#include <array>
#include <cerrno>
#include <set>
#include <vector>

#include "iomark/engine/engines.hpp"

namespace iomark::engine {
namespace {

std::unique_ptr<IoEngine> prepared_null(std::uint32_t depth) {
  EngineOptions options;
  options.queue_depth = depth;
  auto engine = make_prepared_engine(EngineKind::null, options);
  EXPECT_TRUE(engine);
  return engine ? std::move(*engine) : nullptr;
}

TEST(NullEngine, ClaimsNoDataTransferAndInstantCompletion) {
  const auto engine = make_engine(EngineKind::null);
  const Capabilities caps = engine->capabilities();
  EXPECT_FALSE(caps.has(Capability::transfers_data));
  EXPECT_TRUE(caps.has(Capability::completes_in_submit));
  EXPECT_FALSE(caps.has(Capability::kernel_async));
  EXPECT_EQ(engine->name(), "null");
}

TEST(NullEngine, CompletesWithTheFullLengthWithoutTouchingDescriptorsOrBuffers) {
  auto engine = prepared_null(8);
  ASSERT_NE(engine, nullptr);
  // A real engine would fail on this descriptor and fault on these buffers.
  const std::array<int, 1> fds{-1};
  ASSERT_TRUE(engine->register_targets(fds));
  std::vector<IoRequest> requests;
  for (std::uint32_t i = 0; i < 8; ++i) {
    requests.push_back(
        {i * 11, 0, i % 2 == 0 ? IoOp::read : IoOp::write, i * 1000003ULL, 512 * (i + 1), nullptr});
  }
  const SubmitResult submitted = engine->submit(requests);
  EXPECT_EQ(submitted.accepted, 8U);
  EXPECT_EQ(submitted.status, SubmitStatus::all_accepted);
  EXPECT_EQ(engine->in_flight(), 8U);

  std::array<IoCompletion, 8> out{};
  const ReapResult reaped = engine->reap(out, 0, Nanoseconds::zero());
  ASSERT_EQ(reaped.count, 8U) << "everything completed in submit";
  for (std::uint32_t i = 0; i < 8; ++i) {
    EXPECT_EQ(out[i].tag, i * 11);
    EXPECT_EQ(out[i].result, 512 * (i + 1));
  }
  EXPECT_EQ(engine->in_flight(), 0U);
}

TEST(NullEngine, HoldsAtMostQueueDepthUnreapedCompletions) {
  auto engine = prepared_null(4);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->register_targets(std::array{0}));
  std::vector<IoRequest> requests(6, IoRequest{0, 0, IoOp::read, 0, 4096, nullptr});
  for (std::size_t i = 0; i < requests.size(); ++i) requests[i].tag = i;

  const SubmitResult first = engine->submit(requests);
  EXPECT_EQ(first.accepted, 4U);
  EXPECT_EQ(first.status, SubmitStatus::queue_full);
  std::array<IoCompletion, 3> out{};
  EXPECT_EQ(engine->reap(out, 3, Nanoseconds::zero()).count, 3U);
  EXPECT_EQ(engine->in_flight(), 1U);
  const SubmitResult second = engine->submit(std::span(requests).subspan(4));
  EXPECT_EQ(second.accepted, 2U);
  EXPECT_EQ(engine->in_flight(), 3U);

  std::set<std::uint64_t> tags{out[0].tag, out[1].tag, out[2].tag};
  std::array<IoCompletion, 8> rest{};
  const ReapResult last = engine->reap(rest, 8, Nanoseconds::zero());
  EXPECT_EQ(last.count, 3U);
  for (std::size_t i = 0; i < last.count; ++i) tags.insert(rest[i].tag);
  EXPECT_EQ(tags, (std::set<std::uint64_t>{0, 1, 2, 3, 4, 5}));
}

TEST(NullEngine, CompletionsComeOutInSubmissionOrderThroughAnyWindow) {
  auto engine = prepared_null(16);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->register_targets(std::array{0}));
  std::vector<IoRequest> requests(16, IoRequest{0, 0, IoOp::write, 0, 8192, nullptr});
  for (std::size_t i = 0; i < requests.size(); ++i) requests[i].tag = 100 + i;
  ASSERT_EQ(engine->submit(requests).accepted, 16U);
  std::vector<std::uint64_t> order;
  std::array<IoCompletion, 3> window{};
  for (int round = 0; round < 10 && order.size() < 16; ++round) {
    const ReapResult reaped = engine->reap(window, 1, Nanoseconds::zero());
    for (std::size_t i = 0; i < reaped.count; ++i) order.push_back(window[i].tag);
  }
  ASSERT_EQ(order.size(), 16U);
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], 100 + i);
}

TEST(NullEngine, CompletionsKeepSubmissionOrderAcrossTheRingsWrap) {
  // Depth 4, submitting in threes and reaping in twos: head and tail both wrap many times.
  auto engine = prepared_null(4);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->register_targets(std::array{0}));
  std::uint64_t next_tag = 0;
  std::vector<std::uint64_t> order;
  std::array<IoCompletion, 2> window{};
  for (int round = 0; round < 20; ++round) {
    std::vector<IoRequest> requests(4 - engine->in_flight(), IoRequest{0, 0, IoOp::read, 0, 512, nullptr});
    if (requests.size() > 3) requests.resize(3);
    for (auto& request : requests) request.tag = next_tag++;
    ASSERT_EQ(engine->submit(requests).accepted, requests.size());
    const ReapResult reaped = engine->reap(window, 1, Nanoseconds::zero());
    for (std::size_t i = 0; i < reaped.count; ++i) order.push_back(window[i].tag);
  }
  ASSERT_GT(order.size(), 30U);
  for (std::size_t i = 0; i < order.size(); ++i) EXPECT_EQ(order[i], i);
}

TEST(NullEngine, UnregisteredTargetCompletesWithEbadf) {
  auto engine = prepared_null(2);
  ASSERT_NE(engine, nullptr);
  ASSERT_TRUE(engine->register_targets(std::array{3, 4}));
  const std::array<IoRequest, 2> requests{
      {{1, 1, IoOp::read, 0, 4096, nullptr}, {2, 2, IoOp::read, 0, 4096, nullptr}}};
  ASSERT_EQ(engine->submit(requests).accepted, 2U);
  std::array<IoCompletion, 2> out{};
  ASSERT_EQ(engine->reap(out, 2, Nanoseconds::zero()).count, 2U);
  EXPECT_EQ(out[0], (IoCompletion{1, 4096}));
  EXPECT_EQ(out[1], (IoCompletion{2, -EBADF}));
}

}  // namespace
}  // namespace iomark::engine
