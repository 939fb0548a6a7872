#include "sample_messages.hpp"

#include <string>

namespace iomark::protocol::test {

namespace {

Nonce counting_nonce(std::uint8_t start) {
  Nonce nonce{};
  for (std::size_t i = 0; i < nonce.size(); ++i) nonce[i] = static_cast<std::byte>(start + i);
  return nonce;
}

access_specs::AccessSpec sample_spec() {
  return access_specs::AccessSpec{
      "Database 8K",
      access_specs::DefaultAssignment::disk,
      {{8192, 60, 67, 100, 0, 1, 4096, 0}, {65536, 40, 10, 0, 5, 4, 0, 512}},
  };
}

}  // namespace

IoCounters sample_counters(std::uint64_t ios, std::uint64_t salt) {
  IoCounters counters;
  for (std::uint64_t i = 0; i < ios; ++i) {
    // Geometric-ish spread: 40 ns .. ~270 s.
    const std::uint64_t latency_ns = 40 + ((i * 7919 + salt) % 1000) * (1ULL << (i % 29)) + (i % 5 == 0 ? i : 0);
    if ((i + salt) % 3 == 0) {
      counters.record_write(4096 * (1 + i % 4), latency_ns);
    } else {
      counters.record_read(8192, latency_ns);
    }
    counters.transactions.add(latency_ns + 10);
  }
  counters.connections.add(1'000'000 + salt);
  counters.service.add(70'000 + salt);
  counters.issue_lag.add(3'000 + salt);
  counters.read_errors = 3 + salt;
  counters.write_errors = 5 + salt;
  return counters;
}

Hello sample_hello() {
  return Hello{2, 7, "iomark 0.1.0 (test)", Role::controller, "controller-host", "10.0.0.1", AuthMode::none};
}

Inventory sample_inventory() {
  Inventory inventory;
  inventory.host_name = "db1.example.com";
  inventory.cpu_count = 48;
  inventory.os_name = "Linux";
  inventory.kernel_release = "6.1.0-18-amd64";
  inventory.block_devices = {
      {"/dev/nvme0n1", 1'600'321'314'816, 4096, "SAMSUNG MZQL21T9HCJR", MountState::partition_mounted, true},
      {"/dev/sdb", 8'001'563'222'016, 512, "ST8000NM", MountState::not_mounted, false},
      {"/dev/sdc", 1024, 512, "", MountState::swap, true},
  };
  inventory.file_systems = {
      {"/data", "/dev/nvme0n1p1", "xfs", 1'500'000'000'000, 1'200'000'000'000, 4096, 1'073'741'824},
      {"/tmp", "tmpfs", "tmpfs", 8'000'000'000, 7'000'000'000, 4096, 0},
  };
  inventory.allowed_paths = {"/data", "/dev/sdb"};
  inventory.write_scope = true;
  inventory.engines = {"io_uring", "linux-aio", "threadpool", "sync", "null"};
  inventory.interfaces = {{"lo", "127.0.0.1", 8, 65536, std::nullopt}, {"eth0", "10.0.0.5", 24, 9000, 25000}};
  inventory.target_engines = {
      {"/dev/sdb",
       {"io_uring", "linux-aio", "sync"},
       {{1, 4096, "sync", "sync at depth 1: 310 K IOPS, 3.10 \xC2\xB5s CPU/IO; linux-aio 250 K IOPS"},
        {32, 8192, "io_uring", "io_uring at depth 32: 400 K IOPS"}}},
      {"/data/iobw.tst", {"sync"}, {{4, 4096, "sync", ""}}},
  };
  return inventory;
}

Assignment sample_assignment() {
  Assignment assignment;
  assignment.run_id = 42;
  assignment.engine = "linux-aio";
  assignment.buffered = true;
  WorkerAssignment first;
  first.name = "Worker 1";
  first.cpu = 3;
  first.rate_iops = 1234.5;
  first.spec = sample_spec();
  first.targets = {
      {"/dev/sdb", 16, 2'000'000, 2048, access_specs::DataPattern::full_random, std::nullopt, 0xdeadbeefcafef00d,
       true, 7, std::nullopt, false, ""},
      {"/data/iobw.tst", 4, 0, 0, access_specs::DataPattern::pseudo_random, access_specs::DataReduction{2.5, 3.0, 8192},
       99, false, 1, std::nullopt, true, "/var/lib/j"},
  };
  WorkerAssignment second;
  second.name = "Worker 2";
  second.spec = sample_spec();
  second.spec.name = "Other";
  second.spec.default_assignment = access_specs::DefaultAssignment::none;
  second.targets = {{"/dev/nvme0n1", 1, 10, 20, access_specs::DataPattern::repeating_bytes, std::nullopt, 1, false, 1,
                     std::nullopt, false, ""}};
  WorkerAssignment network;
  network.name = "Worker 3";
  network.spec = sample_spec();
  NetworkEndpoint endpoint{NetworkRole::client, "10.0.0.5", "10.0.0.9", 40123, {}, "db2:10.0.0.5 >> db1:10.0.0.9"};
  endpoint.pair_secret[0] = std::byte{7};
  endpoint.pair_secret[31] = std::byte{0xFF};
  network.targets = {{"", 1, 0, 0, access_specs::DataPattern::repeating_bytes, std::nullopt, 77, true, 5, endpoint, false, ""}};
  assignment.workers = {first, second, network};
  return assignment;
}

Sample sample_sample() {
  Sample sample;
  sample.run_id = 42;
  sample.sequence = 17;
  sample.run_time = Nanoseconds(17'000'000'123);
  sample.interval = Nanoseconds(1'000'000'456);
  sample.phase = SamplePhase::recording;
  sample.workers = {
      {0, Nanoseconds(999'999'000), {{0, sample_counters(500, 1)}, {3, sample_counters(20, 2)}}, {}, {}},
      {2, Nanoseconds(1'000'000'000), {{1, sample_counters(0, 0)}}, {}, {}},
  };
  sample.cpus = {{0, 42.5, 30.25, 12.25, 1.5, 3.75, 12345.5}, {5, 100.0, 99.0, 1.0, 0.0, 0.0, 0.0}};
  sample.network = {1500.5, 0.25, 3.0};
  return sample;
}

FinalResults sample_final_results() {
  FinalResults results;
  results.run_id = 42;
  results.workers = {{1, Nanoseconds(60'000'000'789), {{0, sample_counters(2000, 3)}}, {}, {}}};
  results.workers[0].engine = "sync";
  results.workers[0].engine_reason = "sync at depth 1: 310 K IOPS, 3.00 \xC2\xB5s CPU/IO";
  VerifyReport verify;
  verify.blocks_checked = 123'456;
  verify.stale = 2;
  verify.first_findings = {{VerifyFailure::stale, 8192, 3, 2, 8192, 0, 0}, {VerifyFailure::stale, 0, 1, 0, 0, 0, 0}};
  results.workers[0].targets[0].verify = verify;
  results.cpus = {{0, 12.5, 10.0, 2.5, 0.5, 0.25, 100.0}};
  results.network = {10.0, 0.0, 0.5};
  return results;
}

std::vector<Envelope> every_message() {
  std::vector<Message> messages{
      sample_hello(),
      AuthChallenge{counting_nonce(1)},
      AuthResponse{counting_nonce(100)},
      AuthResult{false, "the peer's proof does not match"},
      Heartbeat{123456789},
      Ack{},
      ErrorReport{ErrorKind::busy,
                  Error(ErrorCode::not_found, "no such target").in_field("assignment.workers[0]").at({"plan.icf", 12})},
      sample_inventory(),
      sample_assignment(),
      PrepareTargets{{{"/data/iobw.tst", 1'073'741'824, access_specs::DataPattern::pseudo_random, std::nullopt, 7},
                      {"/scratch/iobw.tst", 0, access_specs::DataPattern::full_random, access_specs::DataReduction{2.0, 1.0, 4096}, 8},
                      {"/dev/sdb", 0, access_specs::DataPattern::pseudo_random, std::nullopt, 9, 2,
                       access_specs::AccessSpec{"4K random writes", access_specs::DefaultAssignment::none,
                                                {{4096, 100, 0, 100, 0, 1, 0, 0}}}}}},
      PrepareProgress{"/data/iobw.tst", 536'870'912, 1'073'741'824},
      PhaseCommand{42, Phase::record_off},
      sample_sample(),
      sample_final_results(),
      InventoryRequest{},
      NetworkPorts{42, {{0, 0, 40123}, {2, 0, 1}}},
  };
  std::vector<Envelope> envelopes;
  std::uint64_t id = 1;
  for (auto& message : messages) {
    envelopes.push_back(Envelope{id * 10, id * 10 + 1, std::move(message)});
    ++id;
  }
  return envelopes;
}

}  // namespace iomark::protocol::test
