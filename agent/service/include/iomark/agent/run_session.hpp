// One run on this host: targets prepared and opened, one engine and one pinned worker per
// assignment, driven through the phases of docs/iometer-reference.md#one-run and reported as a
// results manager row. `iomark-agent run-local` drives it directly; the agent service
// drives it on the controller's commands. Not thread-safe: one owner calls its members,
// except snapshot(), which any thread may call.
#pragma once

#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/agent/host_stats.hpp"
#include "iomark/agent/worker.hpp"
#include "iomark/common/result.hpp"
#include "iomark/engine/engine_choice_cache.hpp"
#include "iomark/engine/engines.hpp"
#include "iomark/network/network_worker.hpp"
#include "iomark/protocol/messages.hpp"
#include "iomark/results/run_results.hpp"
#include "iomark/targets/safety_policy.hpp"
#include "iomark/targets/target.hpp"
#include "iomark/targets/test_file.hpp"

namespace iomark::agent {

struct TargetAssignment {
  // A block device, an existing file, or a directory in which `iobw.tst` is prepared.
  std::string path;
  std::uint32_t queue_depth{1};
  std::uint64_t starting_sector{};
  std::uint64_t maximum_size_sectors{};  // 0 = the whole target
  // Directories only: the size of iobw.tst when it has to be created or grown; 0 = derived
  // from starting sector + maximum size (IOmeter), which must then be non-zero.
  std::uint64_t test_file_bytes{};
  // This target's random seed; nullopt = the worker's fixed seed, or a fresh one per run.
  std::optional<std::uint64_t> seed;
  // --verify: the journal file; empty = next to the target (verified_target.hpp).
  std::string verify_journal{};
};

// The one target of a network worker: an end of a TCP pair (agent/network/network_worker.hpp).
struct NetworkTarget {
  protocol::NetworkEndpoint endpoint;
  std::uint64_t seed{};  // the same at both ends
  bool test_connection_rate{false};
  std::uint32_t transactions_per_connection{1};
};

struct WorkerAssignment {
  std::string name;
  std::optional<std::uint32_t> cpu;
  access_specs::AccessSpec spec;
  access_specs::DataPattern data_pattern{access_specs::DataPattern::repeating_bytes};
  std::optional<access_specs::DataReduction> data_reduction;  // set: writes carry it instead
  std::optional<std::uint64_t> fixed_seed;  // nullopt = a fresh seed per run, as IOmeter
  std::vector<TargetAssignment> targets;  // disk workers
  std::optional<NetworkTarget> network{};  // network workers (then `targets` is empty)
  double rate_iops{};  // disk workers: WorkerOptions::rate_iops
};

// The reduction patterns' content family of a target on this host: of the host name and the
// path as the assignment names it, so every worker and run writes a unit the same way and
// another host's /dev/sdb (another LUN of the same array) never shares its content.
[[nodiscard]] std::uint64_t target_content_key(std::string_view path);

// nullopt = choose per worker: probe, then calibrate on the worker's first target.
using EngineChoice = std::optional<engine::EngineSpec>;

struct RunAssignment {
  std::vector<WorkerAssignment> workers;
  EngineChoice engine;
  targets::Caching caching{targets::Caching::direct};
  // --verify: stamp every write, check every read against the targets' journals. Without it,
  // a run that writes removes a journal left next to its target (its data no longer matches).
  bool verify{false};
};

// What an agent runs for a controller's assignment (or run-local's, made by the same
// builder): the engine parsed, caching, each worker's data pattern (the first target's: one
// write buffer per worker, as IOmeter has) and its disk targets or its one network end.
// Errors: an engine the agent cannot parse, a network worker with more than one target.
[[nodiscard]] Result<RunAssignment> run_assignment_of(const protocol::Assignment& assignment);

// Human-readable progress of the preparation (test files, engine choice).
using PrepareNotice = std::function<void(const std::string&)>;

// Which engine a worker uses, and why (the calibration's numbers, or "as asked").
struct EngineNote {
  std::string engine;  // canonical name (engine::to_string)
  std::string reason;
};

class RunSession {
 public:
  // Prepares test files (reporting progress), opens every target behind `policy`, picks and
  // prepares engines and creates the workers. Errors name the worker and target.
  // `auto` (assignment.engine unset) measures the engines on each worker's first target at the
  // worker's queue depth, or reuses the decision `engine_choices` remembers from an earlier
  // run (nullptr: measure, remember for this session only); the choice goes to `notice`.
  [[nodiscard]] static Result<std::unique_ptr<RunSession>> prepare(const RunAssignment& assignment,
                                                                   const targets::SafetyPolicy& policy,
                                                                   const PrepareNotice& notice = {},
                                                                   const targets::PrepareProgress& progress = {},
                                                                   engine::EngineChoiceCache* engine_choices = nullptr);

  [[nodiscard]] Result<void> start();  // I/O starts: ramp-up
  void record_on();
  void record_off();
  void stop();  // idempotent

  // The first engine failure of any worker, if one stopped early.
  [[nodiscard]] std::optional<Error> failure() const;
  // The first failure of a network worker (its peer gone mid-run), as soon as it happens.
  [[nodiscard]] std::optional<Error> network_failure() const;

  // The ports the run's network servers listen on (from prepare() on), by worker position
  // (target 0: a network worker has one target).
  [[nodiscard]] std::vector<protocol::NetworkPort> listening_ports() const;
  // Gives network clients their servers' ports; before start(). Errors: invalid_argument
  // naming a position that is not a network client.
  [[nodiscard]] Result<void> set_peer_ports(const std::vector<protocol::NetworkPort>& ports);

  // Live or final results as one manager's row set (counters, windows, CPU utilisation).
  [[nodiscard]] results::ManagerResult snapshot(const std::string& manager_name);
  [[nodiscard]] results::ManagerResult results(const std::string& manager_name) const;
  // Whole-system busy CPU seconds over the recording window (every CPU, kernel included).
  [[nodiscard]] double busy_cpu_seconds() const;

  // Which engine each worker uses, and why, in assignment order ("worker: engine: why").
  [[nodiscard]] std::vector<std::string> engine_notes() const;
  // --verify: which journal each target uses, and what it held ("TARGET: journal FILE ...").
  [[nodiscard]] const std::vector<std::string>& verify_notes() const noexcept { return verify_notes_; }

 private:
  struct WorkerSlot {
    WorkerAssignment assignment;
    std::vector<targets::OpenTarget> open_targets;
    std::unique_ptr<Worker> worker;                           // disk workers
    std::unique_ptr<network::NetworkWorker> network_worker;  // network workers
    EngineNote engine;
  };

  RunSession() = default;
  [[nodiscard]] results::ManagerResult manager_result(const std::string& manager_name,
                                                      const std::vector<WorkerResults>& workers,
                                                      const CpuSnapshot& cpu_end) const;

  std::vector<WorkerSlot> workers_;
  std::optional<CpuSnapshot> cpu_at_record_on_;
  std::optional<CpuSnapshot> cpu_at_record_off_;
  std::vector<std::string> verify_notes_;
  std::uint64_t record_on_ns_{};
  std::uint64_t record_off_ns_{};
};

// Host facts for results: CPU count, kernel, version.
[[nodiscard]] results::HostFacts host_facts(std::string iomark_version);

}  // namespace iomark::agent
