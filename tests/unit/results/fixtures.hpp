// Inputs shared by the results tests.
#pragma once

#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/results/run_results.hpp"

namespace iomark::results::test_support {

// The whole text of a file of ../shared/icf-corpus (a failed expectation when it is missing;
// tests that call it skip first when the folder is absent, see icf_corpus.hpp).
[[nodiscard]] std::string corpus_file(std::string_view name);

// The spec named in docs/iometer-reference.md#results-example.
inline constexpr std::string_view kExampleSpecName = "4 KiB aligned; 50% Read; 100% random";

// The inputs behind the example block (docs/iometer-reference.md#results-example): one 2-CPU
// manager `hostA`, one worker, one target `sdb`, a 60 s window, 402000 reads and 198000 writes of 4
// KiB with 1.6 ms / 1.7 ms average latency, 25 ms / 31 ms maxima, and the example's latency bins.
// `timer_resolution_hz` is what the manager reports (iomark: 1e9; the example: 2.4e9).
[[nodiscard]] RunResults example_run(std::uint64_t timer_resolution_hz = kNanosecondTimerHz);

// 2024-05-06 14:03:27.512 local time, 2 h east of UTC: the example's end-of-run stamp.
[[nodiscard]] WallClockTime example_end_time();

// A target that did `reads` reads and `writes` writes of `size` bytes, each taking
// `latency_ns`, with one transaction per I/O.
[[nodiscard]] TargetResult uniform_target(std::string name, std::uint64_t reads, std::uint64_t writes,
                                          std::uint64_t size, std::uint64_t latency_ns);

// A disk worker with the given window and targets; queue depth 1, spec "Spec A".
[[nodiscard]] WorkerResult disk_worker(std::string name, Nanoseconds window, std::vector<TargetResult> targets);

// A richer run: two managers (2 and 1 CPUs), three workers (one a network worker), mixed
// windows, specs and settings, read and write errors, connection-rate counters.
[[nodiscard]] RunResults mixed_run(std::uint32_t access_index, std::uint32_t cycling_step);

// Splits one CSV line into its fields (no quoting, as results.csv has none).
[[nodiscard]] std::vector<std::string> split_csv(std::string_view line);

// Splits text into lines without their line ends.
[[nodiscard]] std::vector<std::string> split_lines(std::string_view text);

}  // namespace iomark::results::test_support
