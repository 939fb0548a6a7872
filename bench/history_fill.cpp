// bench/history-scale's filler: stores N synthetic runs in a history database through the
// history library itself (the same record_run an `iomark run --history` uses), in
// transactions of 10,000 runs. The runs repeat 4 queue depths of one spec on the same two
// hosts, with IOPS scattered about 3 % around each depth's mean, so that `history compare`
// has repeat groups of N/4 runs to take the variation of.
// usage: iomark-history-fill DB RUNS
#include <cstdio>
#include <cstdlib>
#include <random>
#include <string>

#include "iomark/history/history.hpp"
#include "iomark/results/summary.hpp"

namespace {

using namespace iomark;

results::RunResults synthetic_run(std::uint32_t queue_depth, double iops_scale, std::int64_t start_ms) {
  results::RunResults run;
  run.info.queue_depth = queue_depth;
  run.info.specs = {{"4K random read", access_specs::DefaultAssignment::none, {{4096, 100, 100, 100, 0, 1, 0, 0}}}};
  run.info.start_time = {start_ms, 0};
  run.info.end_time = {start_ms + 10'000, 0};
  for (const char* host : {"bench-a", "bench-b"}) {
    results::ManagerResult manager;
    manager.name = host;
    manager.host = {16, "Linux", "6.1.0-bench", "iomark 0.1.0"};
    results::WorkerResult worker;
    worker.name = "Worker 1";
    worker.spec_name = "4K random read";
    worker.queue_depth = queue_depth;
    worker.recording_window = Nanoseconds(10'000'000'000);
    results::TargetResult target;
    target.name = "/dev/nvme0n1";
    // 10 s at about 10,000 x QD IOPS: latency about 100 us, recorded in a few buckets.
    const auto ios = static_cast<std::uint64_t>(100'000.0 * queue_depth * iops_scale);
    for (std::uint64_t latency_ns : {90'000ULL, 100'000ULL, 120'000ULL, 400'000ULL}) {
      target.counters.record_read(4096, latency_ns * queue_depth);
    }
    target.counters.reads.count = ios;
    target.counters.reads.sum_ns = ios * 100'000ULL * queue_depth;
    target.counters.bytes_read = ios * 4096;
    worker.targets.push_back(std::move(target));
    manager.workers.push_back(std::move(worker));
    run.managers.push_back(std::move(manager));
  }
  return run;
}

}  // namespace

int main(int argc, char** argv) {
  if (argc != 3) {
    std::fprintf(stderr, "usage: iomark-history-fill DB RUNS\n");
    return 2;
  }
  const long runs = std::strtol(argv[2], nullptr, 10);
  auto history = history::History::open(argv[1]);
  if (!history) {
    std::fprintf(stderr, "iomark-history-fill: %s\n", history.error().describe().c_str());
    return 1;
  }
  std::mt19937_64 random(42);
  std::normal_distribution<double> scatter(1.0, 0.03);
  constexpr long kRunsPerTransaction = 10'000;
  for (long done = 0; done < runs; done += kRunsPerTransaction) {
    auto written = history->bulk([&]() -> Result<void> {
      const results::SeriesInfo info{access_specs::TestType::cycle_outstanding_ios, "history-scale bench",
                                     {1'700'000'000'000 + done * 10'000, 0}, access_specs::RecordResults::all,
                                     "0.1.0"};
      auto series = history->begin_series(info, std::nullopt, "bench");
      if (!series) return tl::unexpected(series.error());
      for (long i = done; i < runs && i < done + kRunsPerTransaction; ++i) {
        const auto depth = static_cast<std::uint32_t>(1U << (i % 4));
        const auto run = synthetic_run(depth, scatter(random), 1'700'000'000'000 + i * 10'000);
        auto id = history->record_run(*series, static_cast<std::uint32_t>(i - done + 1), run,
                                      results::summarize_run(run));
        if (!id) return tl::unexpected(id.error());
      }
      return {};
    });
    if (!written) {
      std::fprintf(stderr, "iomark-history-fill: %s\n", written.error().describe().c_str());
      return 1;
    }
  }
  return 0;
}
