// The messages of protocol iomark.v1 as plain C++ values: what the agent and the controller
// say to each other (architecture.md, "The wire"). codec.hpp turns them into bytes and back;
// the protobuf types that carry them never leave this library.
//
// A session, in order:
//   1. Hello both ways (version range, build, role, name, auth mode); see handshake.hpp.
//   2. Unless both sides said AuthMode::none: AuthChallenge both ways, AuthResponse both
//      ways, AuthResult both ways (auth.hpp).
//   3. The agent sends its Inventory. The controller sends requests (Assignment,
//      PrepareTargets, PhaseCommand) with a non-zero request_id; the agent answers each
//      with an Ack or an ErrorReport whose correlation_id is that request_id
//      (PrepareProgress messages carry it too while preparing; Stop is answered with
//      FinalResults). While I/O runs the agent pushes one Sample per update interval.
//   4. Heartbeats both ways whenever nothing else was sent for a while.
//
// Limits: decode() (codec.hpp) rejects any message that breaks a limit documented here,
// naming the field; encode() does not check, so a local bug surfaces as the peer's named
// error rather than as a silently clipped value. Every string must be UTF-8 except the
// paths (`path`, `mount_point`, `allowed_paths`: any bytes but NUL, as Linux allows) and
// a file system's `source` (any bytes).
//
// Units: durations are std::chrono nanoseconds, sizes are in the field name (_bytes,
// _sectors), percentages are 0..100.
#pragma once

#include <array>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <variant>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/verify_report.hpp"
#include "iomark/common/io_counters.hpp"
#include "iomark/common/outstanding_ios.hpp"
#include "iomark/common/result.hpp"
#include "iomark/common/units.hpp"

namespace iomark::protocol {

// ---- Limits every decoded message is checked against ----------------------------------

inline constexpr std::size_t kMaxNameBytes = 127;        // agent, controller and worker names
inline constexpr std::size_t kMaxLabelBytes = 255;       // build, host, OS, model, address, fs type
inline constexpr std::size_t kMaxPathBytes = 4096;       // Linux PATH_MAX
inline constexpr std::size_t kMaxTextBytes = 64 * 1024;  // error messages and reasons
inline constexpr std::size_t kMaxEngineNameBytes = 32;   // [a-z0-9_-]
inline constexpr std::size_t kMaxEngines = 32;
inline constexpr std::size_t kMaxCpus = 8192;
inline constexpr std::size_t kMaxBlockDevices = 8192;
inline constexpr std::size_t kMaxFileSystems = 8192;
inline constexpr std::size_t kMaxAllowedPaths = 1024;
inline constexpr std::size_t kMaxTargetEngines = 256;   // targets with measured engine choices
inline constexpr std::size_t kMaxEngineChoices = 64;    // depth/size choices per target
inline constexpr std::size_t kMaxEngineReasonBytes = 4096;
inline constexpr std::size_t kMaxWorkers = 1024;           // per agent and run
inline constexpr std::size_t kMaxTargetsPerWorker = 2048;  // IOmeter's limit
inline constexpr std::size_t kMaxPrepareTargets = 8192;
// TargetCounters per Sample or FinalResults, all workers together: each costs at most ~17 KiB
// once decoded (a histogram spanning every bucket), so this caps what one frame can make the
// controller allocate.
inline constexpr std::size_t kMaxTargetCounters = 4096;
inline constexpr std::uint32_t kMaxSectorBytes = 1U << 20;  // sector and block sizes: powers of 2
inline constexpr std::size_t kMaxNetworkInterfaces = 256;
inline constexpr std::size_t kPairSecretBytes = 32;
// A worker's rate: access_specs' limits, one home for the plan, the flags and the wire.
inline constexpr double kMinWorkerRateIops = access_specs::kMinWorkerRateIops;
// A host's interrupts, packets, errors or retransmissions per second: far beyond any machine,
// and low enough that their sums over any fleet stay figures a results file can hold (below
// 1e15, results::kMaxFigure).
inline constexpr double kMaxHostRatePerSecond = 1e11;
inline constexpr double kMaxWorkerRateIops = access_specs::kMaxWorkerRateIops;

// ---- Session ------------------------------------------------------------------------

enum class Role : std::uint8_t { agent = 1, controller = 2 };

// How a side wants to authenticate. Both sides must say the same (handshake.hpp).
enum class AuthMode : std::uint8_t {
  pre_shared_key = 1,  // the default: HMAC-SHA256 challenge-response both ways
  none = 2,            // --insecure, explicit on both sides
};

// The first message both ways.
struct Hello {
  std::uint32_t min_version{1};  // protocol versions this side speaks: 1 <= min <= max
  std::uint32_t max_version{1};
  std::string build;    // 1..kMaxLabelBytes, e.g. "iomark 0.1.0"; shown in mismatch errors
  Role role{Role::agent};
  // Agent: the manager name (-n), controller: its host name; 1..kMaxNameBytes, no control
  // characters.
  std::string name;
  // Agent: the address the controller may show and use for this manager (-m); empty for the
  // controller. 0..kMaxLabelBytes, no control characters.
  std::string address;
  AuthMode auth_mode{AuthMode::pre_shared_key};
  friend bool operator==(const Hello&, const Hello&) = default;
};

inline constexpr std::size_t kNonceBytes = 32;
inline constexpr std::size_t kProofBytes = 32;  // HMAC-SHA256
using Nonce = std::array<std::byte, kNonceBytes>;
using Proof = std::array<std::byte, kProofBytes>;

// "Prove that you know the key by answering this": a fresh random nonce per session.
struct AuthChallenge {
  Nonce nonce{};
  friend bool operator==(const AuthChallenge&, const AuthChallenge&) = default;
};

// The answer to the peer's challenge (auth.hpp says what the proof covers).
struct AuthResponse {
  Proof proof{};
  friend bool operator==(const AuthResponse&, const AuthResponse&) = default;
};

// The verifier's verdict on the peer's AuthResponse; a rejecting side closes afterwards.
struct AuthResult {
  bool accepted{false};
  std::string reason;  // 0..kMaxTextBytes; why it was rejected
  friend bool operator==(const AuthResult&, const AuthResult&) = default;
};

// Liveness, sent when nothing else was sent for a while.
struct Heartbeat {
  std::uint64_t sequence{};
  friend bool operator==(const Heartbeat&, const Heartbeat&) = default;
};

// The request named by the envelope's correlation_id was carried out.
struct Ack {
  friend bool operator==(const Ack&, const Ack&) = default;
};

enum class ErrorKind : std::uint8_t {
  request_failed = 1,         // a request could not be carried out; `error` says why
  version_mismatch = 2,       // no common protocol version; the connection closes
  authentication_failed = 3,  // wrong key or auth mode; the connection closes
  protocol_violation = 4,     // a broken frame or a message out of turn; it closes
  busy = 5,                   // the agent is already driven by another controller
};

// An error reported to the peer. `error` keeps its code, message, field and location.
// Text limits: message 0..kMaxTextBytes, field and file 0..kMaxPathBytes.
struct ErrorReport {
  ErrorKind kind{ErrorKind::request_failed};
  Error error{ErrorCode::internal, ""};
  friend bool operator==(const ErrorReport&, const ErrorReport&) = default;
};

// ---- Inventory (agent -> controller, after authentication) -----------------------------

enum class MountState : std::uint8_t {
  not_mounted = 1,
  mounted = 2,            // the device itself holds a mounted file system
  partition_mounted = 3,  // a partition or holder of it is mounted
  swap = 4,               // in use as swap
};

struct BlockDevice {
  std::string path;  // absolute, e.g. "/dev/sdb"
  std::uint64_t size_bytes{};
  std::uint32_t logical_sector_bytes{512};  // power of two, 1..kMaxSectorBytes
  std::string model;                       // 0..kMaxLabelBytes
  MountState mount_state{MountState::not_mounted};
  // blkid found a file system, partition table or RAID signature: writing destroys data.
  bool has_signature{false};
  friend bool operator==(const BlockDevice&, const BlockDevice&) = default;
};

// A mounted file system the agent may create test files on.
struct FileSystem {
  std::string mount_point;  // absolute
  std::string source;       // "/dev/sda1", "tmpfs"; 0..kMaxPathBytes of any bytes
  std::string type;         // "xfs"; 1..kMaxLabelBytes
  std::uint64_t total_bytes{};
  std::uint64_t free_bytes{};      // <= total_bytes
  std::uint32_t block_bytes{4096};  // power of two; the "sector" of test files on it
  std::uint64_t test_file_bytes{};  // size of an existing <mount_point>/iobw.tst; 0 = none
  friend bool operator==(const FileSystem&, const FileSystem&) = default;
};

// A network interface with an IPv4 address: what a network worker can listen on or connect
// from (docs/iometer-reference.md#discovery, plus what IOmeter never showed).
struct NetworkInterface {
  std::string name;     // "eth0"; 1..kMaxLabelBytes
  std::string address;  // dotted IPv4, "10.0.0.5"; 7..15 bytes
  std::uint32_t prefix_length{32};  // 0..32
  std::uint32_t mtu_bytes{};        // 0 = unknown
  // /sys/class/net/NAME/speed where the driver says; nullopt for loopback, veth, a link down.
  std::optional<std::uint32_t> speed_mbps;
  friend bool operator==(const NetworkInterface&, const NetworkInterface&) = default;
};

// How `auto` chose the engine for one target at one queue depth and read size:
// the agent's calibration, as it remembers it for later runs.
struct EngineChoice {
  std::uint32_t queue_depth{1};     // a worker's I/Os in flight, 1..kMaxOutstandingIosPerWorker
  std::uint32_t block_bytes{4096};  // the read size calibrated with, 1..kMaxSectorBytes
  std::string engine;               // an engine name (as in Inventory::engines)
  std::string reason;  // the winner's and every other candidate's numbers; UTF-8, 0..kMaxEngineReasonBytes
  friend bool operator==(const EngineChoice&, const EngineChoice&) = default;
};

// What the agent learnt about the engines on one target it has run `auto` on.
struct TargetEngines {
  std::string path;                         // absolute: the device or test file as opened
  std::vector<std::string> usable_engines;  // completed reads there, probe order; 0..kMaxEngines names
  std::vector<EngineChoice> choices;        // by depth, then read size; 1..kMaxEngineChoices
  friend bool operator==(const TargetEngines&, const TargetEngines&) = default;
};

struct Inventory {
  std::string host_name;  // 1..kMaxLabelBytes
  std::uint32_t cpu_count{1};  // 1..kMaxCpus
  std::string os_name;         // "Linux"; 0..kMaxLabelBytes
  std::string kernel_release;  // uname -r; 0..kMaxLabelBytes
  std::vector<BlockDevice> block_devices;  // 0..kMaxBlockDevices
  std::vector<FileSystem> file_systems;    // 0..kMaxFileSystems
  std::vector<std::string> allowed_paths;  // absolute; what --allow granted; 0..kMaxAllowedPaths
  // True from an agent that creates, writes and deletes only at or under allowed_paths
  // (docs/write-scope.md), so an empty list means it refuses every target. Added after
  // protocol version 1 shipped: older agents send false (they made iobw.tst anywhere).
  bool write_scope{};
  // I/O engines this host can run, best first ("io_uring", "linux-aio", "threadpool",
  // "sync", "null"); 1..kMaxEngines names of 1..kMaxEngineNameBytes of [a-z0-9_-].
  std::vector<std::string> engines;
  // IPv4 interfaces, 0..kMaxNetworkInterfaces; empty from agents that predate network workers.
  std::vector<NetworkInterface> interfaces{};
  // Targets the agent has measured engines on (since it started), 0..kMaxTargetEngines.
  // Added after protocol version 1 shipped: older agents send none, older controllers skip it.
  std::vector<TargetEngines> target_engines;
  friend bool operator==(const Inventory&, const Inventory&) = default;
};

// Asks for the agent's Inventory again; the reply is an Inventory.
struct InventoryRequest {
  friend bool operator==(const InventoryRequest&, const InventoryRequest&) = default;
};

// ---- Run control (controller -> agent) -------------------------------------------------

// Which end of a TCP pair a network target is (docs/iometer-reference.md#workers-and-pairs): the
// server listens, the client connects to it.
enum class NetworkRole : std::uint8_t { server = 1, client = 2 };

using PairSecret = std::array<std::byte, kPairSecretBytes>;

// A network target: one end of a TCP connection between two workers (usually on two agents).
// Both ends get the same seed and spec, so they make the same decisions (§2.4, §2.7).
struct NetworkEndpoint {
  NetworkRole role{NetworkRole::server};
  // The IPv4 address this end binds (server: listens on it; client: connects from it).
  std::string local_address;
  // The other end's IPv4 address: the only address a server accepts; where a client connects.
  std::string peer_address;
  // Client only: the server's port, sent by the controller in NetworkPorts before BeginIo
  // (0 in the Assignment). Server: 0 (the agent picks one when the run starts).
  std::uint32_t peer_port{};
  // A fresh random secret per run and pair, known to both ends and the controller: the
  // client proves it on every connection (agent/network/pair_proof.hpp).
  PairSecret pair_secret{};
  // results.csv's target name: `<this mgr>:<local addr> >> <partner mgr>:<remote addr>`.
  std::string label;
  friend bool operator==(const NetworkEndpoint&, const NetworkEndpoint&) = default;
};

// One target of a worker, with IOmeter's per-target settings
// (docs/iometer-reference.md#wire-structs).
struct TargetAssignment {
  // Absolute: a block device or a test file. Network targets: empty (`network` says all).
  std::string path;
  std::uint32_t outstanding_ios{1};  // the outstanding_ios field descriptor's range
  std::uint64_t maximum_size_sectors{0};  // 0 = the whole target
  std::uint64_t starting_sector{0};       // maximum + starting must not overflow
  access_specs::DataPattern data_pattern{access_specs::DataPattern::repeating_bytes};
  // Set: the writes carry this reduction pattern (data_pattern is then only IOmeter's number).
  // On the wire data_pattern becomes DATA_PATTERN_REDUCTION, which older agents refuse.
  std::optional<access_specs::DataReduction> data_reduction;
  std::uint64_t seed{};  // the target's random seed; the controller picks it, fixed or not
  bool test_connection_rate{false};
  std::uint32_t transactions_per_connection{1};  // the field descriptor's range
  std::optional<NetworkEndpoint> network{};  // set for network targets only
  bool verify{false};  // --verify (docs/verify.md)
  std::string verify_journal{};  // the journal on the agent (at most kMaxPathBytes); empty: next to the target
  friend bool operator==(const TargetAssignment&, const TargetAssignment&) = default;
};

struct WorkerAssignment {
  std::string name;  // 1..kMaxNameBytes, no control characters
  std::optional<std::uint32_t> cpu;  // pin the worker's thread to this CPU (< kMaxCpus)
  access_specs::AccessSpec spec;     // must pass access_specs::validate()
  std::vector<TargetAssignment> targets;  // 1..kMaxTargetsPerWorker
  // Open-loop rate control (docs/characterize.md#rate-control): I/Os per second this worker
  // issues on a schedule, kMinWorkerRateIops..kMaxWorkerRateIops; 0: as fast as its
  // outstanding I/Os allow.
  double rate_iops{};
  friend bool operator==(const WorkerAssignment&, const WorkerAssignment&) = default;
};

// Everything an agent runs in one run. Samples and results name workers and targets by
// their 0-based position here.
struct Assignment {
  std::uint64_t run_id{};
  // Empty: the agent picks by probing (io_uring -> linux-aio -> threadpool -> sync);
  // otherwise one of the Inventory's engines (same syntax).
  std::string engine;
  bool buffered{false};  // opt in to the page cache; O_DIRECT otherwise
  std::vector<WorkerAssignment> workers;  // 0..kMaxWorkers
  friend bool operator==(const Assignment&, const Assignment&) = default;
};

// A test file to create and fill before the run (docs/iometer-reference.md#prepare).
struct PrepareTarget {
  std::string path;  // absolute
  std::uint64_t size_bytes{};  // 0 = until the file system is full
  access_specs::DataPattern data_pattern{access_specs::DataPattern::repeating_bytes};
  std::optional<access_specs::DataReduction> data_reduction;  // as in TargetAssignment
  std::uint64_t seed{};
  // --precondition (docs/characterize.md#preconditioning): after any test file is made, the
  // target (a directory's test file) is written whole this many times with 128 KiB
  // sequential writes; 0: not at all; at most access_specs::kMaxPreconditionPasses.
  std::uint32_t precondition_passes{};
  // --precondition-spec: the passes are made of this spec's writes instead (its reads left
  // out); only with passes, and only a spec that writes.
  std::optional<access_specs::AccessSpec> precondition_spec{};
  friend bool operator==(const PrepareTarget&, const PrepareTarget&) = default;
};

struct PrepareTargets {
  std::vector<PrepareTarget> targets;  // 1..kMaxPrepareTargets
  friend bool operator==(const PrepareTargets&, const PrepareTargets&) = default;
};

// Progress of one PrepareTargets request, sent now and then while files are filled.
struct PrepareProgress {
  std::string path;  // the target being filled; absolute
  std::uint64_t bytes_done{};
  std::uint64_t bytes_total{};  // bytes_done <= bytes_total
  friend bool operator==(const PrepareProgress&, const PrepareProgress&) = default;
};

// IOmeter's per-run commands (docs/iometer-reference.md#one-run).
enum class Phase : std::uint8_t {
  start = 1,       // create workers, open targets
  begin_io = 2,    // start I/O (ramp-up: nothing is recorded yet)
  record_on = 3,   // open the recording window
  record_off = 4,  // close it
  stop = 5,        // drain and close targets; answered with FinalResults
  abort = 6,       // stop everything now (within 1 s), results discarded
};

struct PhaseCommand {
  std::uint64_t run_id{};
  Phase phase{Phase::start};
  friend bool operator==(const PhaseCommand&, const PhaseCommand&) = default;
};

// The ports of a run's TCP pairs, both ways: the agent answers PhaseCommand{start} with the
// ports its server targets listen on (instead of an Ack, when it has any), and the
// controller passes each to the client end with this message as a request (answered with an
// Ack) before BeginIo. Entries name targets by their position in the Assignment.
struct NetworkPort {
  std::uint32_t worker_index{};
  std::uint32_t target_index{};
  std::uint32_t port{};  // 1..65535
  friend bool operator==(const NetworkPort&, const NetworkPort&) = default;
};

struct NetworkPorts {
  std::uint64_t run_id{};
  std::vector<NetworkPort> ports;  // 0..kMaxWorkers * kMaxTargetsPerWorker
  friend bool operator==(const NetworkPorts&, const NetworkPorts&) = default;
};

// ---- Measurements (agent -> controller) ------------------------------------------------

// Counters of one target. `counters` must be consistent: its histogram passes
// CompactLatencyHistogram::restore_sparse(), holds exactly reads.count + writes.count I/Os, and
// every LatencyTotals with count 0 has sum and max 0 (and max <= sum otherwise).
struct TargetCounters {
  std::uint32_t target_index{};  // position in WorkerAssignment::targets
  IoCounters counters;
  // FinalResults of a --verify run only: what the check found (at most
  // VerifyReport::kFindingsKept findings in full).
  std::optional<VerifyReport> verify{};
  friend bool operator==(const TargetCounters&, const TargetCounters&) = default;
};

struct WorkerCounters {
  std::uint32_t worker_index{};  // position in Assignment::workers
  // Samples: the length of the interval for this worker. FinalResults: its recording window.
  Nanoseconds window{};
  std::vector<TargetCounters> targets;  // target_index strictly increasing
  // FinalResults only: the I/O engine the worker ran (at most kMaxEngineNameBytes) and why
  // (`auto`'s measurements or "as asked"; at most kMaxTextBytes). Empty in samples and from
  // agents that predate them.
  std::string engine;
  std::string engine_reason;
  friend bool operator==(const WorkerCounters&, const WorkerCounters&) = default;
};

// One CPU's utilisation over an interval (docs/iometer-reference.md#cpu-stats); percentages 0..100.
struct CpuUsage {
  std::uint32_t cpu{};  // the N of "cpuN"; strictly increasing within a message
  double total_percent{};  // user + privileged, as IOmeter defines "% CPU Utilization"
  double user_percent{};
  double privileged_percent{};
  double irq_percent{};
  double iowait_percent{};
  double interrupts_per_second{};  // finite, >= 0
  friend bool operator==(const CpuUsage&, const CpuUsage&) = default;
};

// Rates over an interval, summed over the host's NICs; finite, >= 0.
struct NetworkStats {
  double packets_per_second{};
  double packet_errors_per_second{};
  double segments_retransmitted_per_second{};
  friend bool operator==(const NetworkStats&, const NetworkStats&) = default;
};

enum class SamplePhase : std::uint8_t { ramp_up = 1, recording = 2 };

// Pushed once per update interval while I/O runs. Counters cover this interval only (what
// completed since the previous sample), so the controller sums samples for live totals;
// `sequence` counts 1, 2, 3... per run, so a gap shows that a sample was lost.
struct Sample {
  std::uint64_t run_id{};
  std::uint64_t sequence{};
  Nanoseconds run_time{};  // since BeginIo, on the agent's monotonic clock
  Nanoseconds interval{};  // length of the interval the counters cover
  SamplePhase phase{SamplePhase::ramp_up};
  std::vector<WorkerCounters> workers;  // worker_index strictly increasing; 0..kMaxWorkers
  std::vector<CpuUsage> cpus;           // 0..kMaxCpus
  NetworkStats network;
  friend bool operator==(const Sample&, const Sample&) = default;
};

// The whole recording window of a run: the reply to PhaseCommand{stop}.
struct FinalResults {
  std::uint64_t run_id{};
  std::vector<WorkerCounters> workers;  // active workers only; worker_index strictly increasing
  std::vector<CpuUsage> cpus;
  NetworkStats network;
  friend bool operator==(const FinalResults&, const FinalResults&) = default;
};

// ---- The envelope -------------------------------------------------------------------

using Message = std::variant<Hello, AuthChallenge, AuthResponse, AuthResult, Heartbeat, Ack, ErrorReport,
                             Inventory, Assignment, PrepareTargets, PrepareProgress, PhaseCommand, Sample,
                             FinalResults, InventoryRequest, NetworkPorts>;

// What one frame carries.
struct Envelope {
  std::uint64_t request_id{};      // non-zero when the sender expects a reply
  std::uint64_t correlation_id{};  // the request_id this message answers; 0 = none
  Message message{Hello{}};
  friend bool operator==(const Envelope&, const Envelope&) = default;
};

// "hello", "auth_challenge", ..., "final_results": the snake_case name used in logs and in
// the field() of decode errors.
[[nodiscard]] std::string_view message_name(const Message& message) noexcept;

[[nodiscard]] std::string_view to_string(Role role) noexcept;            // "agent", "controller"
[[nodiscard]] std::string_view to_string(AuthMode mode) noexcept;        // "pre-shared key", "none"
[[nodiscard]] std::string_view to_string(ErrorKind kind) noexcept;       // "version mismatch", ...
[[nodiscard]] std::string_view to_string(Phase phase) noexcept;          // "start", "begin I/O", ...
[[nodiscard]] std::string_view to_string(MountState state) noexcept;     // "not mounted", ...
[[nodiscard]] std::string_view to_string(SamplePhase phase) noexcept;    // "ramp-up", "recording"

}  // namespace iomark::protocol
