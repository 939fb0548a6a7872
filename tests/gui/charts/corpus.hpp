// Shared inputs of the chart tests: the project's results files (tests/data/results), corpus
// files (skipped where ../shared/icf-corpus is absent, see icf_corpus.hpp) and small runs.
#pragma once

#include <chrono>
#include <cstdint>
#include <string>
#include <string_view>

#include <QString>

#include "icf_corpus.hpp"
#include "iomark/results/run_results.hpp"

namespace iomark::gui::test_support {

inline constexpr std::string_view kSqlServerIo = "SQLServerIO__IometerParser__iometeroutput.csv";
inline constexpr std::string_view kQuarchResults =
    "QuarchTechnologyLtd__AN-016-QPS-performance-test-with-Iometer__testfile.csv";

inline QString corpus_path(std::string_view name) {
  return QString::fromStdString((::iomark::test_support::icf_corpus_dir() / std::string(name)).string());
}

// The same series (4K random read at QD 1 and 4, manager `vm`) as iomark's 1.1.0 results.csv
// and in IOmeter's 2008 56-column layout.
inline constexpr std::string_view kOwn110Results = "iomark_110_results.csv";
inline constexpr std::string_view kOwn2008Results = "iometer_2008_results.csv";

inline QString data_path(std::string_view name) {
  return QString::fromStdString((::iomark::test_support::test_data_dir() / "results" / std::string(name)).string());
}

// One manager `host`, one worker at queue depth `qd` running spec `spec` for 1 s: `ios`
// reads of 4 KiB, each taking `latency`.
inline results::RunResults run_at(std::uint32_t qd, std::uint64_t ios, std::chrono::nanoseconds latency,
                                  std::string spec = "4K read", std::string host = "hostA") {
  results::TargetResult target;
  target.name = "sdb";
  for (std::uint64_t i = 0; i < ios; ++i) {
    target.counters.record_read(4096, static_cast<std::uint64_t>(latency.count()));
  }
  results::WorkerResult worker;
  worker.name = "Worker 1";
  worker.spec_name = spec;
  worker.recording_window = std::chrono::seconds(1);
  worker.queue_depth = qd;
  worker.targets.push_back(std::move(target));
  results::ManagerResult manager;
  manager.name = std::move(host);
  manager.workers.push_back(std::move(worker));
  results::RunResults run;
  run.info.queue_depth = qd;
  run.info.description = "test";
  run.managers.push_back(std::move(manager));
  return run;
}

}  // namespace iomark::gui::test_support
