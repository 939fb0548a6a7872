#include "fixtures.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <fstream>
#include <sstream>
#include <utility>

#include "test_paths.hpp"

namespace iomark::results::test_support {
namespace {

using namespace std::chrono_literals;

void record_many(CompactLatencyHistogram& histogram, std::uint64_t count, Nanoseconds latency) {
  for (std::uint64_t i = 0; i < count; ++i) histogram.record(latency);
}

access_specs::AccessSpec spec(std::string name, std::uint32_t size, std::uint32_t reads, std::uint32_t random) {
  access_specs::AccessSpec result;
  result.name = std::move(name);
  result.lines.push_back(access_specs::AccessSpecLine{size, 100, reads, random, 0, 1, 0, 0});
  return result;
}

}  // namespace

WallClockTime example_end_time() {
  // `date -u -d '2024-05-06 12:03:27' +%s` = 1714997007.
  return WallClockTime{1'714'997'007'512, 120};
}

RunResults example_run(std::uint64_t timer_resolution_hz) {
  TargetResult sdb;
  sdb.name = "sdb";
  IoCounters& c = sdb.counters;
  c.bytes_read = 402'000ULL * 4096;
  c.bytes_written = 198'000ULL * 4096;
  c.reads = LatencyTotals{402'000, 402'000ULL * 1'600'000, 25'000'000};   // 1.6 ms average
  c.writes = LatencyTotals{198'000, 198'000ULL * 1'700'000, 31'000'000};  // 1.7 ms average
  c.transactions = LatencyTotals{600'000, 402'000ULL * 1'600'000 + 198'000ULL * 1'700'000, 31'000'000};
  // The example's bins (200 us .. 500 ms); the synthetic example's bins do not agree with
  // its 31 ms maximum, so the histogram is filled independently of the totals above.
  record_many(c.latency, 41'000, 300us);
  record_many(c.latency, 120'000, 700us);
  record_many(c.latency, 201'000, 1500us);
  record_many(c.latency, 160'000, 3ms);
  record_many(c.latency, 52'000, 7ms);
  record_many(c.latency, 17'000, 12ms);
  record_many(c.latency, 6'000, 17ms);
  record_many(c.latency, 2'200, 25ms);
  record_many(c.latency, 600, 40ms);
  record_many(c.latency, 150, 70ms);
  record_many(c.latency, 40, 150ms);
  record_many(c.latency, 10, 300ms);

  WorkerResult worker;
  worker.name = "Worker 1";
  worker.spec_name = std::string(kExampleSpecName);
  worker.recording_window = 60s;
  worker.queue_depth = 16;
  worker.targets.push_back(std::move(sdb));

  ManagerResult manager;
  manager.name = "hostA";
  manager.host = HostFacts{2, "Linux", "6.1.0-18-amd64", "0.1.0"};
  manager.timer_resolution_hz = timer_resolution_hz;
  manager.cpus = {CpuUtilization{12.5, 4.5, 8.0, 0.0, 0.0, 21000.0}, CpuUtilization{9.5, 3.5, 6.0, 0.0, 0.0, 0.0}};
  manager.network = NetworkStats{12.5, 0.0, 0.0};
  manager.workers.push_back(std::move(worker));

  RunResults run;
  run.info.description = "example";
  run.info.specs.push_back(spec(std::string(kExampleSpecName), 4096, 50, 100));
  run.info.specs.back().lines.front().align_bytes = 4096;
  run.info.start_time = WallClockTime{example_end_time().unix_ms - 60'000, 120};
  run.info.end_time = example_end_time();
  run.managers.push_back(std::move(manager));
  return run;
}

TargetResult uniform_target(std::string name, std::uint64_t reads, std::uint64_t writes, std::uint64_t size,
                            std::uint64_t latency_ns) {
  TargetResult target;
  target.name = std::move(name);
  for (std::uint64_t i = 0; i < reads; ++i) target.counters.record_read(size, latency_ns);
  for (std::uint64_t i = 0; i < writes; ++i) target.counters.record_write(size, latency_ns);
  for (std::uint64_t i = 0; i < reads + writes; ++i) target.counters.transactions.add(latency_ns);
  return target;
}

WorkerResult disk_worker(std::string name, Nanoseconds window, std::vector<TargetResult> targets) {
  WorkerResult worker;
  worker.name = std::move(name);
  worker.spec_name = "Spec A";
  worker.recording_window = window;
  worker.targets = std::move(targets);
  return worker;
}

RunResults mixed_run(std::uint32_t access_index, std::uint32_t cycling_step) {
  RunResults run;
  run.info.access_index = access_index;
  run.info.cycling_step = cycling_step;
  run.info.queue_depth = 4 + cycling_step;
  run.info.test_type = access_specs::TestType::cycle_outstanding_ios;
  run.info.description = "mixed";
  run.info.specs = {spec("Spec A", 4096, 100, 100), spec("Spec B", 65536, 0, 0)};
  run.info.start_time = WallClockTime{1'679'922'886'000 + cycling_step * 70'000LL, -300};
  run.info.end_time = WallClockTime{run.info.start_time.unix_ms + 61'234, -300};

  WorkerResult w1 = disk_worker("Worker 1", 10s,
                                {uniform_target("sdb", 900, 100, 4096, 200'000),
                                 uniform_target("/data [xfs]", 50, 0, 4096, 9'000'000)});
  w1.targets[0].counters.read_errors = 3;
  w1.queue_depth = 8;
  w1.starting_sector = 2048;
  w1.engine = "linux-aio";
  w1.engine_reason = "linux-aio at depth 8: 168 K IOPS, 2.70 \xC2\xB5s CPU/IO";
  w1.data_pattern = "compress:2,dedupe:3";
  WorkerResult w2 = disk_worker("Worker 2", 20s, {uniform_target("sdc", 0, 4000, 65536, 1'500'000)});
  w2.spec_name = "Spec B";
  w2.targets[0].counters.write_errors = 1;
  w2.targets[0].counters.latency.record(12s);  // lands in the ` >= 10 s` bin
  w2.targets[0].counters.writes.add(12'000'000'000);
  w2.queue_depth = 8;
  w2.starting_sector = 2048;
  w2.maximum_size_sectors = 1'000'000;

  ManagerResult m1;
  m1.name = "hostA";
  m1.host = HostFacts{2, "Linux", "6.1.0", "0.1.0"};
  m1.cpus = {CpuUtilization{10, 4, 6, 0, 0, 1000}, CpuUtilization{30, 10, 20, 0, 0, 0}};
  m1.network = NetworkStats{100, 1, 0.5};
  m1.workers = {std::move(w1), std::move(w2)};

  WorkerResult w3;
  w3.name = "Worker 1";
  w3.kind = WorkerKind::network;
  w3.spec_name = "Spec A";
  w3.recording_window = 15s;
  w3.queue_depth = 1;
  w3.test_connection_rate = true;
  w3.transactions_per_connection = 5;
  TargetResult nic = uniform_target("hostB:10.0.0.2 >> hostA:10.0.0.1", 300, 300, 1024, 50'000);
  nic.kind = TargetKind::network;
  for (int i = 0; i < 120; ++i) nic.counters.connections.add(400'000);
  w3.targets.push_back(std::move(nic));

  ManagerResult m2;
  m2.name = "hostB";
  m2.host = HostFacts{1, "Linux", "5.10.0", "0.1.0"};
  m2.cpus = {CpuUtilization{50, 20, 30, 0, 0, 500}};
  m2.network = NetworkStats{200, 0, 0};
  m2.workers = {std::move(w3)};

  run.managers = {std::move(m1), std::move(m2)};
  return run;
}

std::vector<std::string> split_csv(std::string_view line) {
  std::vector<std::string> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    fields.emplace_back(line.substr(start, comma == std::string_view::npos ? std::string_view::npos : comma - start));
    if (comma == std::string_view::npos) return fields;
    start = comma + 1;
  }
}

std::vector<std::string> split_lines(std::string_view text) {
  std::vector<std::string> lines;
  std::size_t start = 0;
  while (start < text.size()) {
    std::size_t end = text.find('\n', start);
    if (end == std::string_view::npos) end = text.size();
    std::string_view line = text.substr(start, end - start);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    lines.emplace_back(line);
    start = end + 1;
  }
  return lines;
}

std::string corpus_file(std::string_view name) {
  const std::string path = (::iomark::test_support::icf_corpus_dir() / std::string(name)).string();
  std::ifstream in(path, std::ios::binary);
  EXPECT_TRUE(in) << "corpus file missing: " << path;
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace iomark::results::test_support
