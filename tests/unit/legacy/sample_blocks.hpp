// Typical values of every legacy structure, for the round-trip and hostile-input tests.
#pragma once

#include "iomark/legacy/manager_info.hpp"
#include "iomark/legacy/raw_results.hpp"
#include "iomark/legacy/target_spec.hpp"
#include "iomark/legacy/test_spec.hpp"

namespace iomark::legacy::test {

inline ManagerInfo sample_manager_info() { return {"1.1.0", "lab-dynamo", "192.0.2.7", 33017, 8, 2.59e9}; }

inline access_specs::AccessSpec sample_spec() {
  return {"4K; 67% Read; 100% random", access_specs::DefaultAssignment::all,
          {{4096, 80, 67, 100, 0, 1, 4096, 0}, {1 << 20, 20, 100, 0, 10, 4, 0, 512}}};
}

inline std::vector<TargetSpec> sample_targets() {
  TargetSpec disk;
  disk.name = "/tmp/iomark-dyn [ext4]";
  disk.type = target_type::kLogicalDisk | target_type::kActive;
  disk.details = DiskDetails{false, false, true, 4096, 25600, 0};
  disk.queue_depth = 4;
  disk.data_pattern = DataPattern::pseudo_random;
  disk.random_seed = 42;
  TargetSpec raw;
  raw.name = "loop7";
  raw.type = target_type::kPhysicalDisk;
  raw.details = DiskDetails{false, true, true, 512, 0, 8};
  TargetSpec nic;
  nic.name = "127.0.0.1";
  nic.type = target_type::kTcpClient | target_type::kActive;
  nic.test_connection_rate = true;
  nic.transactions_per_connection = 3;
  nic.details = TcpDetails{0, "127.0.0.9", 40000};
  return {disk, raw, nic};
}

inline WorkerResults sample_worker_results() {
  RawResult r;
  r.bytes_read = 4096ULL * 1000;
  r.read_count = 1000;
  r.bytes_written = 4096ULL * 500;
  r.write_count = 500;
  r.transaction_count = 1500;
  r.read_errors = 1;
  r.max_raw_read_latency = 2'600'000;
  r.read_latency_sum = 260'000'000;
  r.max_raw_write_latency = 5'200'000;
  r.write_latency_sum = 130'000'000;
  r.max_raw_transaction_latency = 5'200'000;
  r.transaction_latency_sum = 390'000'000;
  r.latency_bins[3] = 1400;
  r.latency_bins[5] = 100;
  return {1'000'000, 27'000'000'000ULL, {r, RawResult{}}};
}

inline ManagerResults sample_manager_results() {
  return {{100, 1100}, {{55.5, 40, 15.5, 0, 0, 1234}, {12, 10, 2, 0, 0, 0}}, 0.25, {{1000, 0, 0}}};
}

}  // namespace iomark::legacy::test
