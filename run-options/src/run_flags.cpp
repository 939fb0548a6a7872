#include "iomark/run_options/run_flags.hpp"

#include <algorithm>
#include <charconv>
#include <filesystem>
#include <system_error>
#include <limits>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/access_specs/field_descriptors.hpp"
#include "iomark/common/units.hpp"
#include "iomark/access_specs/test_plan.hpp"

namespace iomark::run_options {

namespace {

using access_specs::FieldId;

// More workers than this is a typo, not a test: each is a pinned thread with its own buffers.
constexpr std::uint64_t kMaxWorkers = 1024;

std::string group(std::string_view name) { return std::string(name); }

// "N is out of range: must be MIN..MAX" for a number the flag takes, or "" when it fits.
std::string range_problem(const std::string& text, std::uint64_t min_value, std::uint64_t max_value) {
  std::uint64_t value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return "\"" + text + "\" is not a whole number";
  if (value < min_value || value > max_value) {
    return std::to_string(value) + " is out of range (" + std::to_string(min_value) + ".." + std::to_string(max_value) +
           ")";
  }
  return {};
}

// A validator holding a flag to the limits of a field descriptor; `min_value` raises the
// descriptor's minimum where the command line cannot express its 0 (run time 0 = "until
// stopped" exists only in plans).
CLI::Validator descriptor_limits(FieldId id, std::uint64_t min_value = 0) {
  const auto& field = access_specs::field_descriptor(id);
  const auto low = std::max(min_value, field.min_value);
  const auto high = std::min<std::uint64_t>(field.max_value, std::numeric_limits<std::uint32_t>::max());
  return CLI::Validator([low, high](std::string& text) { return range_problem(text, low, high); },
                        "in " + std::to_string(low) + ".." + std::to_string(high));
}

CLI::Validator fixed_limits(std::uint64_t low, std::uint64_t high) {
  return CLI::Validator([low, high](std::string& text) { return range_problem(text, low, high); },
                        "in " + std::to_string(low) + ".." + std::to_string(high));
}

// A validator running one of the parsers below, so CLI11 refuses what they refuse (exit 2).
template <typename Parse>
CLI::Validator parsed_by(Parse parse, std::string description = "") {
  return CLI::Validator(
      [parse](std::string& text) {
        auto parsed = parse(text);
        return parsed ? std::string() : parsed.error().message();
      },
      std::move(description));
}


// --block-sizes and --mixes: the part of PTS-E's matrix `iomark pts iops` (or the GUI's PTS
// IOPS test) runs.
// CLI11's needs() asks for every option named; this asks for any one of them. A check runs
// once every argument is parsed, so the others' counts are known whatever the order.
void needs_one_of(CLI::App& command, CLI::Option& option, std::vector<std::string> names) {
  std::string wanted;
  for (const auto& name : names) wanted += (wanted.empty() ? "" : " or ") + name;
  option.check(CLI::Validator(
      [&command, names = std::move(names), wanted](std::string&) -> std::string {
        for (const auto& name : names) {
          const auto* other = command.get_option_no_throw(name);
          if (other != nullptr && other->count() > 0) return {};
        }
        return "needs " + wanted;
      },
      ""));
}

CLI::Option* add_max_rounds(CLI::App& command, RunFlags& flags, std::string help) {
  return command.add_option("--max-rounds", flags.max_rounds, std::move(help))
      ->type_name("N")
      ->capture_default_str()
      ->check(fixed_limits(kMinSteadyRounds, kMaxSteadyRounds))
      ->group(group(kTimingGroup));
}

CLI::Option* add_precondition_passes(CLI::App& command, RunFlags& flags, std::string help) {
  return command.add_option("--precondition-passes", flags.precondition_passes, std::move(help))
      ->type_name("N")
      ->capture_default_str()
      ->check(fixed_limits(1, access_specs::kMaxPreconditionPasses))
      ->group(group(kTimingGroup));
}

void add_pts_matrix_flags(CLI::App& command, RunFlags& flags) {
  command
      .add_option("--block-sizes", flags.pts_block_sizes, "The block sizes of each PTS round, in order (must hold 4K)")
      ->type_name("SIZE[,SIZE...]")
      ->default_str("1M,128K,64K,32K,16K,8K,4K,512")
      ->check(parsed_by(access_specs::parse_pts_block_sizes))
      ->group(group(kWorkloadGroup));
  command
      .add_option("--mixes", flags.pts_mixes, "The read/write mixes of each PTS round, in order (must hold 0/100)")
      ->type_name("R/W[,R/W...]")
      ->default_str("100/0,95/5,65/35,50/50,35/65,5/95,0/100")
      ->check(parsed_by(access_specs::parse_pts_mixes))
      ->group(group(kWorkloadGroup));
}

// The flags that make a workload from the command line: everything but the GUI's, which edits
// its workload in the window.
void add_workload_flags(CLI::App& command, RunFlags& flags, FrontEnd front_end) {
  const bool series = front_end == FrontEnd::controller_run;
  const bool pts = front_end == FrontEnd::controller_pts;
  const auto& outstanding_ios = access_specs::field_descriptor(FieldId::outstanding_ios);
  auto* target = command.add_option("--target", flags.targets,
                                    "Block device, file, or directory (iobw.tst is made there); repeatable")
                     ->type_name("PATH")
                     ->group(group(kWorkloadGroup));
  if (!series) target->required();
  if (pts) add_pts_matrix_flags(command, flags);
  if (series) {
    command
        .add_option("--network-pair", flags.network_pairs,
                    "A TCP pair without a plan: SERVER manager listens, CLIENT connects (addresses optional); "
                    "repeatable")
        ->type_name("SERVER[@IPV4]:CLIENT[@IPV4]")
        ->group(group(kWorkloadGroup));
  }
  if (!pts) {
    auto* spec = command.add_option("--spec", flags.spec_name, "Built-in access spec (see `iomark specs list`)")
                     ->type_name("NAME")
                     ->default_str(std::string(kDefaultSpec))
                     ->check(parsed_by(
                         [](std::string_view name) { return access_specs::spec_from_name_or_line(name, ""); }))
                     ->group(group(kWorkloadGroup));
    auto* line = command.add_option("--spec-line", flags.spec_line,
                                    "One spec line: size,%size,%read,%random,delay,burst,align,reply")
                     ->check(parsed_by(
                         [](std::string_view text) { return access_specs::spec_from_name_or_line("", text); }))
                     ->type_name("LINE")
                     ->group(group(kWorkloadGroup));
    spec->excludes(line);
    line->excludes(spec);
  }
  command
      .add_option("--qd", flags.queue_depths,
                  series ? "Outstanding I/Os per target per worker; a list cycles: 1,2,4,8"
                         : "Outstanding I/Os per target per worker (one value)")
      ->type_name(series ? "N[,N...]" : "N")
      ->capture_default_str()
      ->check(parsed_by(parse_queue_depths, "each in " + std::to_string(outstanding_ios.min_value) + ".." +
                                                std::to_string(outstanding_ios.max_value)))
      ->group(group(kWorkloadGroup));
  command.add_option("--workers", flags.workers, "Workers (threads) per manager, each driving every target")
      ->type_name("N")
      ->capture_default_str()
      ->check(fixed_limits(1, kMaxWorkers))
      ->group(group(kWorkloadGroup));
  command
      .add_option("--data-pattern", flags.data_pattern,
                  "Data written: repeating, pseudo-random, full-random (IOmeter's), or compress:R, dedupe:D[/UNIT] "
                  "or both (compress:2,dedupe:3/8k)")
      ->type_name("PATTERN")
      ->capture_default_str()
      ->check(parsed_by(access_specs::parse_write_data))
      ->group(group(kWorkloadGroup));
  command.add_option("--seed", flags.seed, "Fixed seed: the same offsets every run")
      ->type_name("N")
      ->group(group(kWorkloadGroup));
  {
    command.add_flag("--verify", flags.verify,
                     "Stamp every written block (offset, generation, crc32c) and check every read against the journal")
        ->group(group(kWorkloadGroup));
    command
        .add_option("--verify-journal", flags.verify_journal,
                    series ? "The generation journal on the agents (default: TARGET.iomark-journal; required for "
                             "block devices)"
                           : "The generation journal (default: TARGET.iomark-journal; required for block devices)")
        ->type_name("FILE")
        ->group(group(kWorkloadGroup));
  }
}

}  // namespace

void add_run_flags(CLI::App& command, RunFlags& flags, FrontEnd front_end) {
  const bool pts = front_end == FrontEnd::controller_pts;
  const bool series = front_end == FrontEnd::controller_run;
  const bool local = front_end == FrontEnd::agent_run_local;
  if ((series || pts) && flags.results_csv.empty()) flags.results_csv = "results.csv";
  if (pts) {
    flags.pts_iops = true;
    flags.queue_depths = std::string(kPtsQueueDepth);
    flags.time_s = kPtsRunTimeS;
    flags.precondition = true;
    flags.steady_state = "iops";
  }

  if (front_end != FrontEnd::gui) add_workload_flags(command, flags, front_end);
  command
      .add_option("--size", flags.size,
                  local ? "Size of iobw.tst made in a directory target"
                        : "Size of iobw.tst made in a directory target (plans: where Maximum Disk Size is 0)")
      ->type_name("SIZE")
      ->capture_default_str()
      ->check(parsed_by(parse_test_file_size))
      ->group(group(kWorkloadGroup));

  command.add_option("--ramp", flags.ramp_s, "Ramp-up seconds per run (I/O runs, nothing is recorded)")
      ->type_name("SECONDS")
      ->default_str(local || pts ? "0" : "the plan's, or 0")
      ->check(descriptor_limits(FieldId::ramp_up))
      ->group(group(kTimingGroup));
  command.add_option("--time", flags.time_s, pts ? "Recorded seconds per cell of a round" : "Recorded seconds per run")
      ->type_name("SECONDS")
      ->default_str(local ? std::to_string(kDefaultRunTimeS)
                    : pts ? std::to_string(kPtsRunTimeS)
                          : "the plan's, or " + std::to_string(kDefaultRunTimeS))
      ->check(descriptor_limits(FieldId::run_time, 1))
      ->group(group(kTimingGroup));
  command
      .add_option("--engine", flags.engine,
                  "auto (measured per target), io_uring, libaio, threadpool, sync or null (`iomark-agent engines` lists them)")
      ->type_name("ENGINE")
      ->capture_default_str()
      ->check(parsed_by(parse_engine_choice))
      ->group(group(kTimingGroup));
  if (local) {
    command.add_option("--cpus", flags.cpus, "CPUs to pin workers to, in order (default: worker i on CPU i)")
        ->type_name("CPU[,CPU...]")
        ->delimiter(',')
        ->check(parsed_by(parse_cpu))
        ->group(group(kTimingGroup));
  }
  command.add_flag("--buffered-io", flags.buffered, "Use the page cache where O_DIRECT is refused")
      ->group(group(kTimingGroup));
  if (series || front_end == FrontEnd::gui) {
    auto* steady = command
                       .add_option("--steady-state", flags.steady_state,
                                   "Repeat the series in rounds until this figure of its last run is steady "
                                   "(SNIA's rule over 5 rounds): iops, mbps, avg or p99")
                       ->type_name("FIGURE")
                       ->check(parsed_by(access_specs::parse_steady_figure))
                       ->group(group(kTimingGroup));
    // The GUI's PTS IOPS test runs in rounds of its own: there --pts-iops does as well.
    if (front_end == FrontEnd::gui) {
      needs_one_of(command, *add_max_rounds(command, flags, "Rounds --steady-state or --pts-iops runs at most"),
                   {"--steady-state", "--pts-iops"});
    } else {
      add_max_rounds(command, flags, "Rounds --steady-state runs at most")->needs(steady);
    }
    command
        .add_option("--find-max-iops", flags.find_max_iops,
                    series ? "Search for the most IOPS whose latency stays within BOUND (avg, p99 or p99.9, e.g. "
                             "p99<=2ms): --qd doubled, then the rate bisected to within 2%"
                           : "Search from the plan's one run for the most IOPS whose latency stays within BOUND "
                             "(avg, p99 or p99.9, e.g. p99<=2ms; Test Setup's Find max IOPS)")
        ->type_name("BOUND")
        ->check(parsed_by(access_specs::parse_latency_bound))
        ->group(group(kTimingGroup));
  }
  if (pts) {
    add_max_rounds(command, flags, "Rounds run at most while 4 KiB random writes are not steady");
    add_precondition_passes(command, flags,
                            "Times each target is written whole with 128 KiB sequential writes before the first round");
  }
  if (front_end == FrontEnd::gui) {
    command.add_flag("--pts-iops", flags.pts_iops,
                     "Run the plan's one run over PTS-E's block-size by read/write-mix matrix in rounds until 4 KiB "
                     "random writes are steady, preconditioned (Test Setup's PTS IOPS test)")
        ->group(group(kTimingGroup));
    add_pts_matrix_flags(command, flags);
  }
  if (series) {
    command
        .add_option("--rate-iops", flags.rate_iops,
                    "Issue this many I/Os per second, every manager together, on a schedule; latencies "
                    "count from each I/O's scheduled time")
        ->type_name("IOPS")
        ->check(CLI::PositiveNumber)
        ->group(group(kTimingGroup));
  }
  if (series || front_end == FrontEnd::gui) {
    auto* precondition = command
                             .add_flag("--precondition", flags.precondition,
                                       "Write every target whole with 128 KiB sequential writes before its first "
                                       "run (SNIA's preconditioning), on every manager at once")
                             ->group(group(kTimingGroup));
    if (front_end == FrontEnd::gui) {
      needs_one_of(command, *add_precondition_passes(command, flags, "Times --precondition (or --pts-iops) writes each target"),
                   {"--precondition", "--pts-iops"});
    } else {
      add_precondition_passes(command, flags, "Times --precondition writes each target")->needs(precondition);
    }
    command
        .add_option("--precondition-spec", flags.precondition_spec,
                    "Make --precondition's passes of this access spec's writes (the plan's or a built-in, e.g. "
                    "\"4K random write\"), from 16 streams at once, instead of 128 KiB sequential ones")
        ->type_name("NAME")
        ->needs(precondition)
        ->group(group(kTimingGroup));
  }

  const char* results_help = series || pts ? "IOmeter results.csv to append to (\"\" for none)"
                              : local ? "Append an IOmeter 1.1.0 results block to this CSV"
                                      : "IOmeter results.csv each run is appended to (Test Setup)";
  command.add_option("--results", flags.results_csv, results_help)
      ->type_name("FILE")
      ->capture_default_str()
      ->group(group(kResultsGroup));
  command
      .add_option("--json", flags.results_json,
                  front_end == FrontEnd::gui ? "Write each series' iomark JSON results to FILE"
                                             : "Write iomark JSON results to FILE (- for standard output)")
      ->type_name("FILE")
      ->group(group(kResultsGroup));
  if (series || pts) {
    command
        .add_option("--timeseries", flags.results_timeseries,
                    "Append IOmeter's time-series side file here (one row per worker and update)")
        ->type_name("FILE")
        ->group(group(kResultsGroup));
  }
  command.add_option("--description", flags.description, "Test description recorded in the results")
      ->type_name("TEXT")
      ->group(group(kResultsGroup));
}

void add_connection_flags(CLI::App& command, ConnectionFlags& flags, Peer peer) {
  const std::string self = peer == Peer::agents ? "this controller's" : "this agent's";
  const std::string other = peer == Peer::agents ? "the agents' certificates" : "the controller's certificate";
  const std::string insecure_peer = peer == Peer::agents ? "the agents" : "the controller";
  command.add_option("--key-file", flags.key_file, "Pre-shared key file (or IOMARK_KEY)")
      ->type_name("FILE")
      ->group(group(kConnectionGroup));
  command.add_flag("--insecure", flags.insecure, "No authentication (" + insecure_peer + " must say so too)")
      ->group(group(kConnectionGroup));
  command.add_option("--tls-cert", flags.tls_cert, "TLS: " + self + " certificate (PEM; with --tls-key and --tls-ca)")
      ->type_name("FILE")
      ->group(group(kConnectionGroup));
  command.add_option("--tls-key", flags.tls_key, "TLS: the private key of --tls-cert (PEM, chmod 600)")
      ->type_name("FILE")
      ->group(group(kConnectionGroup));
  command.add_option("--tls-ca", flags.tls_ca, "TLS: the CA certificate " + other + " must be signed by")
      ->type_name("FILE")
      ->group(group(kConnectionGroup));
}

Result<std::vector<std::uint32_t>> parse_queue_depths(std::string_view text) {
  const auto& field = access_specs::field_descriptor(FieldId::outstanding_ios);
  if (text.empty()) return fail(Error(ErrorCode::invalid_argument, "no outstanding-I/O count").in_field("--qd"));
  std::vector<std::uint32_t> depths;
  for (;;) {  // every item, the empty one after a trailing comma included
    const auto comma = text.find(',');
    const auto item = text.substr(0, comma);
    std::uint64_t value = 0;
    const auto [end, error] = std::from_chars(item.data(), item.data() + item.size(), value);
    if (error != std::errc() || end != item.data() + item.size() || !field.accepts(value)) {
      return fail(Error(ErrorCode::invalid_argument, "\"" + std::string(item) +
                                                         "\" is not an outstanding-I/O count (" +
                                                         std::to_string(field.min_value) + ".." +
                                                         std::to_string(field.max_value) + ")")
                      .in_field("--qd"));
    }
    depths.push_back(static_cast<std::uint32_t>(value));
    if (comma == std::string_view::npos) break;
    text.remove_prefix(comma + 1);
  }
  return depths;
}

Result<std::uint64_t> parse_test_file_size(std::string_view text) {
  const auto size = parse_size(text);
  if (!size || size->count() == 0) {
    return fail(Error(ErrorCode::invalid_argument, "\"" + std::string(text) + "\" is not a size (4096, 64M, 1G)")
                    .in_field("--size"));
  }
  return size->count();
}

Result<std::uint32_t> parse_cpu(std::string_view text) {
  std::uint32_t cpu = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), cpu);
  if (error != std::errc() || end != text.data() + text.size() || cpu > kMaxCpu) {
    return fail(Error(ErrorCode::invalid_argument, "\"" + std::string(text) + "\" is not a CPU number (0.." +
                                                       std::to_string(kMaxCpu) + ")")
                    .in_field("--cpus"));
  }
  return cpu;
}

Result<std::optional<engine::EngineSpec>> parse_engine_choice(std::string_view text) {
  if (text == "auto") return std::optional<engine::EngineSpec>();
  auto spec = engine::parse_engine_spec(text);
  if (!spec) return fail(Error(ErrorCode::invalid_argument, spec.error().message()).in_field("--engine"));
  return std::optional<engine::EngineSpec>(*spec);
}

Result<void> check_engine_available(std::string_view engine_flag, std::span<const std::string> available,
                                    std::string_view manager_name) {
  if (engine_flag.empty()) return {};  // RunRequest::engine's "auto"
  auto choice = parse_engine_choice(engine_flag);
  if (!choice) return fail(choice.error());
  if (!*choice) return {};
  const std::string needed(engine::to_string((*choice)->kind));
  if (std::find(available.begin(), available.end(), needed) != available.end()) return {};
  std::string listed;
  for (const auto& name : available) listed += (listed.empty() ? "" : ", ") + name;
  return fail(Error(ErrorCode::invalid_argument, "manager '" + std::string(manager_name) + "' cannot run " + needed +
                                                     " (it has: " + (listed.empty() ? "none" : listed) + ")")
                  .in_field("--engine"));
}

std::vector<std::string> write_scope_paths(const access_specs::RunRequest& request) {
  std::vector<std::string> paths = request.targets;
  if (request.verify && !request.verify_journal.empty()) {
    paths.push_back(request.verify_journal);
    return paths;
  }
  for (const auto& target : request.targets) {
    std::error_code ignored;
    if (!std::filesystem::is_directory(target, ignored)) paths.push_back(target + ".iomark-journal");
  }
  return paths;
}

}  // namespace iomark::run_options
