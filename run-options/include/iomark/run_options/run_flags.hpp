// The one declaration of the run flags (what to run, for how long, where results go) and of
// the connection flags (key, TLS), shared by `iomark run`, `iomark-agent run-local`,
// `iomark-agent` (its command line and its config file, which CLI11 reads with the same
// options) and the GUI's command line. Limits come from access-specs' field descriptors, so
// every front end accepts the same values and refuses the others with the same message.
//
// Declaring adds CLI11 options bound to the caller's struct, which must outlive parsing.
// Everything here is cold-path and single-threaded.
#pragma once

#include <CLI/CLI.hpp>
#include <cstdint>
#include <optional>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/run_request.hpp"
#include "iomark/common/result.hpp"
#include "iomark/engine/engines.hpp"

namespace iomark::run_options {

// Which front end declares the run flags: each takes the whole table minus what it cannot do.
enum class FrontEnd : std::uint8_t {
  controller_run,   // `iomark run`: a series (QD lists cycle), optional plan file, time series
  // `iomark pts iops`: `iomark run`'s series with the PTS-E matrix as its specs (--block-sizes,
  // --mixes), always preconditioned and run in rounds until 4 KiB random writes are steady;
  // one --qd value, 60 s per cell by default.
  controller_pts,
  agent_run_local,  // `iomark-agent run-local`: one run on this host, --target required
  // `iomark-gui`: the initial settings of the plan being edited (times, description, result
  // files, engine, test file size); the workload itself is built in the window, so the
  // flags that make one (--target, --spec, --qd, --workers, ...) are left out.
  gui,
};

// The help groups, in the order --help shows them.
inline constexpr std::string_view kWorkloadGroup = "Workload";
inline constexpr std::string_view kTimingGroup = "Timing and engine";
inline constexpr std::string_view kResultsGroup = "Results";
inline constexpr std::string_view kConnectionGroup = "Connection and security";

// The value `--json` (and the other result paths) takes to mean standard output.
inline constexpr std::string_view kStandardOutput = "-";

struct RunFlags {
  std::vector<std::string> targets;
  std::vector<std::string> network_pairs;  // controller_run: "SERVER[@IPV4]:CLIENT[@IPV4]"
  std::string spec_name;  // empty: "Database", unless spec_line is given
  std::string spec_line;  // size,%size,%read,%random,delay,burst,align,reply
  std::string queue_depths{"1"};  // "1,2,4,8": checked by parse_queue_depths
  std::uint32_t workers{1};
  std::vector<std::uint32_t> cpus;      // agent_run_local: --cpus
  std::optional<std::uint32_t> ramp_s;  // unset: the plan's, or 0
  std::optional<std::uint32_t> time_s;  // unset: the plan's, or 10
  std::string engine{"auto"};           // "auto" or what engine::parse_engine_spec reads
  std::string size{"1G"};               // iobw.tst made in a directory target
  std::string data_pattern{"repeating"};
  std::optional<std::uint64_t> seed;
  bool verify{false};          // --verify
  std::string verify_journal;  // --verify-journal; empty: next to the target
  bool buffered{false};
  std::string results_csv;  // controller_run: "results.csv" unless given ("" for none); gui: "" unless given
  std::string results_json;  // "-": standard output
  std::string results_timeseries;  // controller_run only
  std::string description;
  std::optional<std::string> steady_state;  // controller_run, gui: --steady-state FIGURE
  std::uint32_t max_rounds{25};             // with --steady-state
  std::optional<double> rate_iops;          // controller_run: --rate-iops, every manager together
  std::optional<std::string> find_max_iops;  // controller_run, gui: --find-max-iops BOUND, e.g. p99<=2ms
  bool precondition{false};                  // controller_run, gui: --precondition
  std::uint32_t precondition_passes{2};      // with --precondition
  std::string precondition_spec;             // with --precondition; empty: 128 KiB sequential writes
  bool pts_iops{false};         // set by add_run_flags for controller_pts; gui: --pts-iops
  std::string pts_block_sizes;  // controller_pts, gui: --block-sizes; empty: PTS-E's eight
  std::string pts_mixes;        // controller_pts, gui: --mixes; empty: PTS-E's seven
};

// `iomark pts iops`' defaults where `iomark run`'s differ: PTS-E runs each cell for a minute.
inline constexpr std::string_view kPtsQueueDepth = "32";
inline constexpr std::uint32_t kPtsRunTimeS = 60;

// --max-rounds: a steady-state window needs at least 5 rounds (SNIA's rule); more than a
// thousand rounds is a typo, not a test.
inline constexpr std::uint32_t kMinSteadyRounds = 5;
inline constexpr std::uint32_t kMaxSteadyRounds = 1000;

// The request `flags` make, converted once (run_request.hpp). CLI11 has already refused what
// the validators refuse; the checks that span flags (a --verify-journal names the journal of
// one verified target) are made here. Errors: invalid_argument naming the flag: a usage error.
[[nodiscard]] Result<access_specs::RunRequest> make_run_request(const RunFlags& flags);

// The write scope of an agent that runs these flags itself (run-local, the embedded agent of
// `iomark run`): the --target paths and the --verify journal each has (the --verify-journal
// file, or `<target>.iomark-journal` beside a file or device target, which a run writing
// without --verify removes; a directory's journal lies inside it). docs/write-scope.md.
[[nodiscard]] std::vector<std::string> write_scope_paths(const access_specs::RunRequest& request);

inline constexpr std::uint32_t kDefaultRunTimeS = access_specs::kDefaultRunTimeS;
inline constexpr std::string_view kDefaultSpec = "Database";

// Adds the run flags of `front_end` to `command`, bound to `flags`, in the groups above,
// with value names, defaults and the limits of the field descriptors. Values out of range
// make CLI11 refuse the command line before anything starts (usage error).
void add_run_flags(CLI::App& command, RunFlags& flags, FrontEnd front_end);

// Whose certificate the CA of --tls-ca must have signed: the other end of the connection.
enum class Peer : std::uint8_t { agents, controller };

struct ConnectionFlags {
  std::string key_file{};  // empty: the IOMARK_KEY environment variable
  bool insecure{false};
  std::string tls_cert{};  // --tls-cert, --tls-key, --tls-ca: all three, or none (plain TCP)
  std::string tls_key{};
  std::string tls_ca{};
};

// Adds --key-file, --insecure and the three TLS flags to `command`, bound to `flags`.
void add_connection_flags(CLI::App& command, ConnectionFlags& flags, Peer peer);

// "1,2,4,8" -> {1, 2, 4, 8}; each a valid outstanding-I/O count of the field descriptors.
// Errors: invalid_argument, field "--qd", naming the item and the limits.
[[nodiscard]] Result<std::vector<std::uint32_t>> parse_queue_depths(std::string_view text);

// "1G", "64M", "4096" (parse_size's forms): the size of a test file, at least one byte.
// Errors: invalid_argument, field "--size".
[[nodiscard]] Result<std::uint64_t> parse_test_file_size(std::string_view text);

// "0,2,5" as given to run-local's --cpus: each a CPU number below kMaxCpu.
// Errors: invalid_argument, field "--cpus".
inline constexpr std::uint32_t kMaxCpu = 8191;
[[nodiscard]] Result<std::uint32_t> parse_cpu(std::string_view text);

// "auto" -> nullopt (probe on the agent), otherwise engine::parse_engine_spec's answer.
// Errors: invalid_argument, field "--engine", naming the accepted values.
[[nodiscard]] Result<std::optional<engine::EngineSpec>> parse_engine_choice(std::string_view text);

// Whether a manager whose inventory lists `available` engines (canonical names, as
// `iomark-agent engines` shows them) can run `engine_flag` ("auto" or empty always can; a
// fault-injection engine needs sync). Checked once the managers are known, before any test
// file is made. Errors: invalid_argument, field "--engine", naming the manager and what it has.
[[nodiscard]] Result<void> check_engine_available(std::string_view engine_flag, std::span<const std::string> available,
                                                  std::string_view manager_name);

}  // namespace iomark::run_options
