// Helpers shared by the workload tests: spec builders, a binomial tolerance, and a driver that
// plays the worker loop with an engine that completes I/Os at once.
#pragma once

#include <gtest/gtest.h>

#include <cmath>
#include <cstdint>
#include <functional>
#include <vector>

#include "iomark/workload/worker_workload.hpp"

namespace iomark::workload::test {

inline access_specs::AccessSpecLine line(std::uint32_t size, std::uint32_t percent_of_size, std::uint32_t reads,
                                         std::uint32_t random, std::uint32_t delay_ms = 0, std::uint32_t burst = 1,
                                         std::uint32_t align = 0, std::uint32_t reply = 0) {
  return access_specs::AccessSpecLine{size, percent_of_size, reads, random, delay_ms, burst, align, reply};
}

inline access_specs::AccessSpec spec(std::vector<access_specs::AccessSpecLine> lines) {
  return access_specs::AccessSpec{"test", access_specs::DefaultAssignment::none, std::move(lines)};
}

inline TargetSetup target(std::uint64_t size_bytes, std::uint32_t sector, std::uint32_t depth, std::uint64_t seed,
                          std::uint64_t starting_sector = 0, std::uint64_t maximum_sectors = 0) {
  return TargetSetup{TargetGeometry{size_bytes, sector}, depth, seed, starting_sector, maximum_sectors};
}

inline WorkerWorkload make_workload(const access_specs::AccessSpec& s, std::vector<TargetSetup> targets,
                                    access_specs::DataPattern pattern = access_specs::DataPattern::repeating_bytes) {
  WorkerSetup setup{std::move(targets), pattern, 4096};
  auto created = WorkerWorkload::create(s, setup);
  EXPECT_TRUE(created.has_value()) << (created ? "" : created.error().describe());
  return std::move(*created);
}

// Expects `observed` successes of `trials` Bernoulli(p) draws to lie within 5 standard
// deviations of the mean: a false alarm has probability below 1e-6.
inline void expect_binomial(std::uint64_t observed, std::uint64_t trials, double p, const char* what) {
  const double mean = static_cast<double>(trials) * p;
  const double sigma = std::sqrt(static_cast<double>(trials) * p * (1.0 - p));
  EXPECT_NEAR(static_cast<double>(observed), mean, 5.0 * sigma + 1e-9) << what << ": " << observed << " of " << trials;
}

// Issues `count` I/Os with every slot completing right after its I/O is issued, in FIFO order,
// at time 0 (no delays expected), and hands each I/O to `seen`.
inline void run_immediate(WorkerWorkload& workload, std::uint64_t count, const std::function<void(const PlannedIo&)>& seen) {
  for (std::uint64_t i = 0; i < count; ++i) {
    const auto slot = workload.take_slot();
    ASSERT_TRUE(slot.has_value());
    const Step step = workload.next_io(*slot, Nanoseconds(0));
    ASSERT_EQ(step.kind, StepKind::issue);
    seen(step.io);
    workload.complete_io(*slot);
  }
}

}  // namespace iomark::workload::test
