#include "iomark/workload/worker_workload.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <map>
#include <random>
#include <vector>

#include "iomark/workload/data_pattern.hpp"
#include "support.hpp"

namespace iomark::workload {
namespace {

using std::chrono::milliseconds;
using test::line;
using test::make_workload;
using test::run_immediate;
using test::spec;
using test::target;

constexpr std::uint64_t kMiB = 1ULL << 20;

std::uint64_t next_multiple(std::uint64_t x, std::uint64_t unit) { return (x + unit - 1) / unit * unit; }

// Keeps every slot busy and completes a random in-flight I/O each round, as a device with
// out-of-order completions would; hands each issued I/O to `seen`.
void run_shuffled(WorkerWorkload& workload, std::uint64_t count, std::uint32_t seed,
                  const std::function<void(const PlannedIo&, const std::vector<std::uint32_t>&)>& seen) {
  std::mt19937 random(seed);
  std::vector<std::uint32_t> in_flight;
  std::uint64_t issued = 0;
  while (issued < count) {
    while (const auto slot = workload.take_slot()) {
      const Step step = workload.next_io(*slot, Nanoseconds(0));
      ASSERT_EQ(step.kind, StepKind::issue);
      in_flight.push_back(*slot);
      seen(step.io, in_flight);
      ++issued;
    }
    const std::size_t pick = random() % in_flight.size();
    workload.complete_io(in_flight[pick]);
    in_flight.erase(in_flight.begin() + static_cast<std::ptrdiff_t>(pick));
  }
}

TEST(WorkerWorkload, OffsetSequenceMatchesAnIndependentModelOfDynamo) {
  const auto s = spec({line(4096, 40, 30, 50, 0, 2, 0), line(8192, 60, 80, 70, 0, 3, 4096)});
  auto workload = make_workload(s, {target(64 * kMiB, 512, 1, 0x1234567, 3, 5000)});

  // Dynamo's decisions written out from the rules (docs/iometer-reference.md#access-semantics) with
  // the bare recurrence.
  const auto step = [](std::uint64_t& x) { return x = 136204069ULL * x + 28500701229ULL; };
  std::uint64_t worker = 0x1234567;
  std::uint64_t trand = 0x1234567;
  const std::uint64_t start = 3 * 512;
  const std::uint64_t end = start + 5000 * 512;
  std::uint64_t next_sequential = start;
  int remaining = 0;
  std::uint32_t current = 0;

  run_immediate(workload, 100000, [&](const PlannedIo& io) {
    if (--remaining <= 0) {
      current = step(worker) % 100 < 40 ? 0 : 1;
      remaining = current == 0 ? 2 : 3;
    }
    const auto& l = s.lines[current];
    const bool read = step(trand) % 100 < l.percent_reads;
    const bool random = step(trand) % 100 < l.percent_random;
    const std::uint64_t unit = l.align_bytes == 0 ? 512 : l.align_bytes;
    std::uint64_t offset = next_multiple(random ? start + step(trand) % (end - start) : next_sequential, unit);
    if (offset + l.size_bytes > end) offset = next_multiple(start, unit);
    next_sequential = offset + l.size_bytes;

    ASSERT_EQ(io.line, current);
    ASSERT_EQ(io.direction, read ? IoDirection::read : IoDirection::write);
    ASSERT_EQ(io.order, random ? AccessOrder::random : AccessOrder::sequential);
    ASSERT_EQ(io.offset_bytes, offset);
    ASSERT_EQ(io.size_bytes, l.size_bytes);
  });
}

TEST(WorkerWorkload, SequentialStreamsContinuePerTargetWhateverTheCompletionOrder) {
  auto workload = make_workload(spec({line(4096, 100, 50, 0)}),
                                {target(8 * kMiB, 512, 3, 1), target(4 * kMiB, 4096, 2, 2, 16, 100)});
  std::map<std::uint32_t, std::uint64_t> expected{{0, 0}, {1, 16 * 4096}};
  const std::map<std::uint32_t, Region> regions{{0, workload.region(0)}, {1, workload.region(1)}};
  run_shuffled(workload, 50000, 3, [&](const PlannedIo& io, const std::vector<std::uint32_t>&) {
    std::uint64_t& next = expected[io.target];
    if (next + io.size_bytes > regions.at(io.target).end_bytes) next = regions.at(io.target).start_bytes;
    ASSERT_EQ(io.offset_bytes, next) << "target " << io.target;
    next += io.size_bytes;
  });
}

TEST(WorkerWorkload, SequentialIoFollowsTheLastIssuedIoRandomOrNot) {
  auto workload = make_workload(spec({line(4096, 50, 50, 50), line(1024, 50, 50, 50)}), {target(64 * kMiB, 512, 4, 8)});
  std::uint64_t previous_end = 0;
  std::uint64_t sequential = 0;
  run_shuffled(workload, 100000, 4, [&](const PlannedIo& io, const std::vector<std::uint32_t>&) {
    if (io.order == AccessOrder::sequential) {
      ++sequential;
      const std::uint64_t expected = next_multiple(previous_end, 512);
      ASSERT_EQ(io.offset_bytes, expected + io.size_bytes > 64 * kMiB ? 0 : expected);
    }
    previous_end = io.offset_bytes + io.size_bytes;
  });
  EXPECT_GT(sequential, 40000U);
}

TEST(WorkerWorkload, WorkersKeepIndependentSequentialStreamsOnTheSameTarget) {
  const auto s = spec({line(4096, 100, 100, 0)});
  auto first = make_workload(s, {target(kMiB, 512, 1, 1)});
  auto second = make_workload(s, {target(kMiB, 512, 1, 1)});
  std::uint64_t expected_first = 0;
  std::uint64_t expected_second = 0;
  for (int i = 0; i < 100; ++i) {
    run_immediate(first, 3, [&](const PlannedIo& io) {
      if (expected_first + 4096 > kMiB) expected_first = 0;
      EXPECT_EQ(io.offset_bytes, expected_first);
      expected_first += 4096;
    });
    run_immediate(second, 1, [&](const PlannedIo& io) {
      EXPECT_EQ(io.offset_bytes, expected_second);
      expected_second += 4096;
    });
  }
}

TEST(WorkerWorkload, OffsetsAreAlignedAndInsideTheRegion) {
  auto workload = make_workload(
      spec({line(4096, 40, 50, 80, 0, 1, 4096), line(1536, 30, 50, 80, 0, 1, 0), line(3000, 30, 50, 80, 0, 1, 3000)}),
      {target(4 * kMiB, 512, 4, 21, 7, 1000)});
  const Region region = workload.region(0);
  ASSERT_EQ(region, (Region{7 * 512, 7 * 512 + 1000 * 512}));
  std::map<std::uint32_t, std::uint64_t> lowest;
  run_shuffled(workload, 300000, 5, [&](const PlannedIo& io, const std::vector<std::uint32_t>&) {
    const std::uint64_t unit = io.line == 0 ? 4096 : io.line == 1 ? 512 : 3000;
    ASSERT_EQ(io.offset_bytes % unit, 0U) << "line " << io.line;
    ASSERT_GE(io.offset_bytes, region.start_bytes);
    ASSERT_LE(io.offset_bytes + io.size_bytes, region.end_bytes);
    auto [it, inserted] = lowest.try_emplace(io.line, io.offset_bytes);
    if (!inserted) it->second = std::min(it->second, io.offset_bytes);
  });
  // Every line reaches the first aligned offset of the region (wraps and small random offsets).
  EXPECT_EQ(lowest[0], next_multiple(region.start_bytes, 4096));
  EXPECT_EQ(lowest[1], region.start_bytes);
  EXPECT_EQ(lowest[2], next_multiple(region.start_bytes, 3000));
}

TEST(WorkerWorkload, SequentialWrapsToTheStartOfTheRegion) {
  // Region [4096, 45056): room for ten 4 KiB I/Os.
  auto workload = make_workload(spec({line(4096, 100, 100, 0)}), {target(kMiB, 512, 1, 1, 8, 80)});
  std::vector<std::uint64_t> offsets;
  run_immediate(workload, 12, [&](const PlannedIo& io) { offsets.push_back(io.offset_bytes); });
  for (std::size_t i = 0; i < 10; ++i) EXPECT_EQ(offsets[i], 4096 * (i + 1));
  EXPECT_EQ(offsets[10], 4096U);
  EXPECT_EQ(offsets[11], 8192U);
}

TEST(WorkerWorkload, NonPowerOfTwoAlignmentAndHoles) {
  // 3 KiB transfers on 2 KiB alignment skip 1 KiB each time (docs/iometer-reference.md#region).
  auto holes = make_workload(spec({line(3072, 100, 100, 0, 0, 1, 2048)}), {target(kMiB, 512, 1, 1)});
  std::vector<std::uint64_t> offsets;
  run_immediate(holes, 4, [&](const PlannedIo& io) { offsets.push_back(io.offset_bytes); });
  EXPECT_EQ(offsets, (std::vector<std::uint64_t>{0, 4096, 8192, 12288}));

  auto odd = make_workload(spec({line(2500, 100, 100, 0, 0, 1, 3000)}), {target(kMiB, 512, 1, 1)});
  offsets.clear();
  run_immediate(odd, 4, [&](const PlannedIo& io) { offsets.push_back(io.offset_bytes); });
  EXPECT_EQ(offsets, (std::vector<std::uint64_t>{0, 3000, 6000, 9000}));
}

TEST(WorkerWorkload, BurstsDrawTheirLineFromTheWorkerRngAcrossAllTargets) {
  // Two targets share one burst counter; the worker RNG is seeded with the first target's seed.
  auto workload = make_workload(spec({line(512, 30, 50, 50, 0, 4), line(1024, 70, 50, 50, 0, 2)}),
                                {target(kMiB, 512, 1, 100), target(kMiB, 512, 1, 200)});
  std::uint64_t worker = 100;
  std::vector<std::uint32_t> expected;
  while (expected.size() < 10000) {
    worker = 136204069ULL * worker + 28500701229ULL;
    const std::uint32_t l = worker % 100 < 30 ? 0 : 1;
    expected.insert(expected.end(), l == 0 ? 4 : 2, l);
  }
  std::vector<std::uint32_t> lines;
  std::vector<std::uint32_t> targets;
  run_immediate(workload, 10000, [&](const PlannedIo& io) {
    lines.push_back(io.line);
    targets.push_back(io.target);
  });
  expected.resize(10000);
  EXPECT_EQ(lines, expected);
  // The slots alternate between the two targets, so bursts span targets.
  for (std::size_t i = 0; i < targets.size(); ++i) ASSERT_EQ(targets[i], i % 2);
}

TEST(WorkerWorkload, DelayPrecedesEveryBurst) {
  auto workload = make_workload(spec({line(512, 100, 100, 0, 5, 3)}), {target(kMiB, 512, 1, 1)});
  const auto issue_at = [&](Nanoseconds now) {
    const auto slot = workload.take_slot();
    EXPECT_TRUE(slot.has_value());
    Step step = workload.next_io(*slot, now);
    return std::pair{*slot, step};
  };
  auto [slot, step] = issue_at(Nanoseconds(0));
  ASSERT_EQ(step.kind, StepKind::wait);
  EXPECT_EQ(step.resume_at, milliseconds(5));
  // Asking again early neither issues nor starts another delay.
  step = workload.next_io(slot, milliseconds(4));
  ASSERT_EQ(step.kind, StepKind::wait);
  EXPECT_EQ(step.resume_at, milliseconds(5));
  ASSERT_EQ(workload.next_io(slot, milliseconds(5)).kind, StepKind::issue);
  workload.complete_io(slot);
  // The rest of the burst of 3 goes at once.
  for (int i = 0; i < 2; ++i) {
    std::tie(slot, step) = issue_at(milliseconds(5));
    ASSERT_EQ(step.kind, StepKind::issue) << i;
    workload.complete_io(slot);
  }
  // The next burst waits again, counted from when it was asked for.
  std::tie(slot, step) = issue_at(milliseconds(7));
  ASSERT_EQ(step.kind, StepKind::wait);
  EXPECT_EQ(step.resume_at, milliseconds(12));
  EXPECT_EQ(workload.next_io(slot, milliseconds(12)).kind, StepKind::issue);
}

TEST(WorkerWorkload, NothingIsIssuedDuringADelayNotEvenReplies) {
  auto workload = make_workload(spec({line(512, 100, 100, 0, 5, 1, 0, 512)}), {target(kMiB, 512, 2, 1)});
  const auto a = *workload.take_slot();
  ASSERT_EQ(workload.next_io(a, Nanoseconds(0)).kind, StepKind::wait);
  ASSERT_EQ(workload.next_io(a, milliseconds(5)).kind, StepKind::issue);
  EXPECT_EQ(workload.complete_io(a), TransactionStatus::reply_pending);
  const auto b = *workload.take_slot();
  const Step b_step = workload.next_io(b, milliseconds(5));
  ASSERT_EQ(b_step.kind, StepKind::wait);
  EXPECT_EQ(b_step.resume_at, milliseconds(10));
  const auto a_again = *workload.take_slot();
  ASSERT_EQ(a_again, a);
  EXPECT_EQ(workload.next_io(a, milliseconds(6)).kind, StepKind::wait);
  const Step reply = workload.next_io(a, milliseconds(10));
  ASSERT_EQ(reply.kind, StepKind::issue);
  EXPECT_EQ(reply.io.role, IoRole::reply);
  const Step request = workload.next_io(b, milliseconds(10));
  ASSERT_EQ(request.kind, StepKind::issue);
  EXPECT_EQ(request.io.role, IoRole::request);
}

std::vector<PlannedIo> record(std::uint64_t seed, access_specs::DataPattern pattern) {
  auto workload = make_workload(spec({line(4096, 50, 60, 70, 0, 3), line(65536, 50, 20, 10, 0, 1, 0, 512)}),
                                {target(64 * kMiB, 512, 3, seed), target(32 * kMiB, 4096, 2, seed)}, pattern);
  std::vector<PlannedIo> ios;
  run_shuffled(workload, 20000, 9, [&](const PlannedIo& io, const std::vector<std::uint32_t>&) { ios.push_back(io); });
  return ios;
}

TEST(WorkerWorkload, SameSeedGivesTheSameSequenceAndAnotherSeedDoesNot) {
  for (const auto pattern : {access_specs::DataPattern::repeating_bytes, access_specs::DataPattern::full_random}) {
    const auto first = record(42, pattern);
    EXPECT_EQ(first, record(42, pattern));
    const auto other = record(43, pattern);
    ASSERT_EQ(other.size(), first.size());
    std::size_t different_offsets = 0;
    for (std::size_t i = 0; i < first.size(); ++i) different_offsets += first[i].offset_bytes != other[i].offset_bytes;
    EXPECT_GT(different_offsets, first.size() / 2);
  }
}

TEST(WorkerWorkload, ACopyContinuesIndependentlyFromTheSameState) {
  auto original = make_workload(spec({line(4096, 60, 50, 50, 0, 2), line(512, 40, 50, 50, 2, 1, 0, 1024)}),
                                {target(kMiB, 512, 2, 31)});
  // One I/O, waiting out any delay; time advances 10 ms per call.
  Nanoseconds now{0};
  const auto step_once = [&now](WorkerWorkload& workload) {
    now += milliseconds(10);
    const auto slot = *workload.take_slot();
    Step step = workload.next_io(slot, now);
    if (step.kind == StepKind::wait) step = workload.next_io(slot, step.resume_at);
    EXPECT_EQ(step.kind, StepKind::issue);
    workload.complete_io(slot);
    return step.io;
  };
  for (int i = 0; i < 10; ++i) step_once(original);
  WorkerWorkload copy = original;
  std::vector<PlannedIo> from_original;
  std::vector<PlannedIo> from_copy;
  const Nanoseconds fork_time = now;
  for (int i = 0; i < 1000; ++i) from_original.push_back(step_once(original));
  now = fork_time;
  for (int i = 0; i < 1000; ++i) from_copy.push_back(step_once(copy));
  EXPECT_EQ(from_original, from_copy);
}

TEST(WorkerWorkload, ReplyIsTheOppositeDirectionWithItsOwnSize) {
  auto workload = make_workload(spec({line(512, 100, 67, 0, 0, 1, 0, 8192)}), {target(kMiB, 512, 1, 3)});
  std::uint64_t read_requests = 0;
  for (int i = 0; i < 1000; ++i) {
    const auto slot = *workload.take_slot();
    const Step request = workload.next_io(slot, Nanoseconds(0));
    ASSERT_EQ(request.io.role, IoRole::request);
    ASSERT_EQ(request.io.size_bytes, 512U);
    read_requests += request.io.direction == IoDirection::read;
    ASSERT_EQ(workload.complete_io(slot), TransactionStatus::reply_pending);
    ASSERT_EQ(workload.take_slot(), slot);
    const Step reply = workload.next_io(slot, Nanoseconds(0));
    ASSERT_EQ(reply.io.role, IoRole::reply);
    ASSERT_EQ(reply.io.size_bytes, 8192U);
    ASSERT_NE(reply.io.direction, request.io.direction);
    ASSERT_EQ(reply.io.offset_bytes, request.io.offset_bytes + 512 > kMiB - 8192 ? 0 : request.io.offset_bytes + 512);
    ASSERT_EQ(workload.complete_io(slot), TransactionStatus::complete);
  }
  EXPECT_GT(read_requests, 500U);
  EXPECT_LT(read_requests, 850U);
}

TEST(WorkerWorkload, RetryLaterReissuesTheSameDirectionAtTheRefusedOffset) {
  auto workload = make_workload(spec({line(4096, 100, 50, 0, 0, 1, 0, 1024)}), {target(kMiB, 512, 1, 17)});
  auto slot = *workload.take_slot();
  const Step refused = workload.next_io(slot, Nanoseconds(0));
  workload.retry_later(slot);
  slot = *workload.take_slot();
  const Step retried = workload.next_io(slot, Nanoseconds(0));
  EXPECT_EQ(retried.io.role, IoRole::request);
  EXPECT_EQ(retried.io.direction, refused.io.direction);
  EXPECT_EQ(retried.io.offset_bytes, refused.io.offset_bytes);
  EXPECT_EQ(workload.complete_io(slot), TransactionStatus::reply_pending);

  slot = *workload.take_slot();
  const Step reply = workload.next_io(slot, Nanoseconds(0));
  workload.retry_later(slot);
  slot = *workload.take_slot();
  const Step reply_again = workload.next_io(slot, Nanoseconds(0));
  EXPECT_EQ(reply_again.io.role, IoRole::reply);
  EXPECT_EQ(reply_again.io.direction, reply.io.direction);
  EXPECT_EQ(reply_again.io.offset_bytes, reply.io.offset_bytes);
}

TEST(WorkerWorkload, ResetSequentialRestartsAtTheRegionStart) {
  auto workload = make_workload(spec({line(4096, 100, 100, 0)}), {target(kMiB, 512, 1, 1, 2)});
  std::vector<std::uint64_t> offsets;
  run_immediate(workload, 3, [&](const PlannedIo& io) { offsets.push_back(io.offset_bytes); });
  workload.reset_sequential(0);
  run_immediate(workload, 1, [&](const PlannedIo& io) { offsets.push_back(io.offset_bytes); });
  EXPECT_EQ(offsets, (std::vector<std::uint64_t>{1024, 5120, 9216, 1024}));
}

TEST(WorkerWorkload, QueueDepthPerTargetIsNeverExceeded) {
  auto workload = make_workload(spec({line(4096, 100, 50, 50)}),
                                {target(kMiB, 512, 1, 1), target(kMiB, 512, 4, 2), target(kMiB, 512, 2, 3)});
  std::vector<std::uint32_t> first_targets;
  run_shuffled(workload, 100000, 11, [&](const PlannedIo& io, const std::vector<std::uint32_t>& in_flight) {
    if (first_targets.size() < 7) first_targets.push_back(io.target);
    std::uint32_t per_target[3] = {};
    for (const auto slot : in_flight) ++per_target[workload.slots().target_of(slot)];
    ASSERT_LE(per_target[0], 1U);
    ASSERT_LE(per_target[1], 4U);
    ASSERT_LE(per_target[2], 2U);
  });
  EXPECT_EQ(first_targets, (std::vector<std::uint32_t>{0, 1, 2, 1, 2, 1, 1}));
}

TEST(WorkerWorkload, WritesCarryTheirDataPattern) {
  auto full = make_workload(spec({line(65536, 50, 0, 100), line(32u << 20, 50, 0, 100)}), {target(1ULL << 30, 512, 2, 5)},
                            access_specs::DataPattern::full_random);
  EXPECT_EQ(full.random_buffer_size(), 32u << 20);
  EXPECT_EQ(full.worker_seed(), 5U);
  run_immediate(full, 10000, [&](const PlannedIo& io) {
    ASSERT_EQ(io.direction, IoDirection::write);
    ASSERT_EQ(io.data_offset_bytes % 4096, 0U);
    ASSERT_LE(io.data_offset_bytes + io.size_bytes, full.random_buffer_size());
  });

  auto repeating = make_workload(spec({line(4096, 100, 0, 100)}), {target(kMiB, 512, 1, 5)});
  std::map<std::byte, int> fill_bytes;
  run_immediate(repeating, 1000, [&](const PlannedIo& io) { ++fill_bytes[io.fill_byte]; });
  EXPECT_GT(fill_bytes.size(), 200U);
}

TEST(WorkerWorkload, PseudoRandomFillDrawsFromTheWorkerRngFirst) {
  auto workload = make_workload(spec({line(512, 50, 50, 50), line(1024, 50, 50, 50)}), {target(kMiB, 512, 1, 77)},
                                access_specs::DataPattern::pseudo_random);
  std::vector<std::byte> buffer(1000);
  workload.fill_pseudo_random_buffer(buffer);
  IometerLcg expected_fill(77);
  std::vector<std::byte> expected(1000);
  fill_pseudo_random(expected, expected_fill);
  EXPECT_EQ(buffer, expected);
  // Line draws continue the worker stream after the 1000 fill draws.
  std::uint64_t worker = expected_fill.state();
  run_immediate(workload, 1000, [&](const PlannedIo& io) {
    worker = 136204069ULL * worker + 28500701229ULL;
    ASSERT_EQ(io.line, worker % 100 < 50 ? 0U : 1U);
  });
}

TEST(WorkerWorkload, CreateRefusesWhatCannotRun) {
  WorkerSetup setup{{target(8192, 512, 1, 1)}, access_specs::DataPattern::repeating_bytes, 4096};
  const auto too_big = WorkerWorkload::create(spec({line(512, 50, 100, 0), line(16384, 50, 100, 0)}), setup);
  ASSERT_FALSE(too_big.has_value());
  EXPECT_NE(too_big.error().message().find("target 1: line 2"), std::string::npos) << too_big.error().message();

  const auto reply_too_big = WorkerWorkload::create(spec({line(512, 100, 100, 0, 0, 1, 0, 16384)}), setup);
  EXPECT_FALSE(reply_too_big.has_value());

  setup.targets = {target(kMiB, 512, 1, 1), target(kMiB, 512, 1, 1, 4096)};
  const auto past_end = WorkerWorkload::create(spec({line(512, 100, 100, 0)}), setup);
  ASSERT_FALSE(past_end.has_value());
  EXPECT_EQ(past_end.error().message().rfind("target 2: ", 0), 0U) << past_end.error().message();

  setup.targets = {target(kMiB, 512, 0, 1)};
  EXPECT_FALSE(WorkerWorkload::create(spec({line(512, 100, 100, 0)}), setup).has_value());

  setup.targets = {target(kMiB, 512, 1, 1)};
  setup.buffer_alignment_bytes = 3000;
  EXPECT_FALSE(WorkerWorkload::create(spec({line(512, 100, 100, 0)}), setup).has_value());
  setup.buffer_alignment_bytes = 4096;
  setup.targets.clear();
  EXPECT_FALSE(WorkerWorkload::create(spec({line(512, 100, 100, 0)}), setup).has_value());
}

}  // namespace
}  // namespace iomark::workload
