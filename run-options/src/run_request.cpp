#include "iomark/run_options/run_flags.hpp"

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/common/units.hpp"

namespace iomark::run_options {

Result<access_specs::RunRequest> make_run_request(const RunFlags& flags) {
  auto spec = access_specs::spec_from_name_or_line(flags.spec_name.empty() ? std::string(kDefaultSpec) : flags.spec_name,
                                                   flags.spec_line);
  if (!spec) return fail(spec.error());
  auto depths = parse_queue_depths(flags.queue_depths);
  if (!depths) return fail(depths.error());
  auto engine = parse_engine_choice(flags.engine);
  if (!engine) return fail(engine.error());
  auto bytes = parse_test_file_size(flags.size);
  if (!bytes) return fail(bytes.error());
  auto write_data = access_specs::parse_write_data(flags.data_pattern);
  if (!write_data) return fail(write_data.error());
  std::optional<access_specs::SteadyStateRequest> steady_state;
  if (flags.steady_state) {
    auto figure = access_specs::parse_steady_figure(*flags.steady_state);
    if (!figure) return fail(figure.error());
    steady_state = access_specs::SteadyStateRequest{.figure = *figure, .max_rounds = flags.max_rounds};
  }
  std::optional<access_specs::LatencyBound> find_max_iops;
  if (flags.find_max_iops) {
    auto bound = access_specs::parse_latency_bound(*flags.find_max_iops);
    if (!bound) return fail(bound.error());
    find_max_iops = *bound;
  }
  if (!flags.verify_journal.empty() && (!flags.verify || flags.targets.size() != 1)) {
    return fail(Error(ErrorCode::invalid_argument, "names the journal of one target verified with --verify")
                    .in_field("--verify-journal"));
  }
  return access_specs::RunRequest{
      .targets = flags.targets,
      .network_pairs = flags.network_pairs,
      .spec = std::move(*spec),
      .outstanding_ios = std::move(*depths),
      .workers = flags.workers,
      .cpus = flags.cpus,
      .ramp_up_s = flags.ramp_s,
      .run_time_s = flags.time_s,
      .engine = *engine ? engine::to_string(**engine) : std::string(),
      .buffered = flags.buffered,
      .test_file_bytes = *bytes,
      .write_data = *write_data,
      .seed = flags.seed,
      .verify = flags.verify,
      .verify_journal = flags.verify_journal,
      .description = flags.description,
      .results_csv = flags.results_csv,
      .results_json = flags.results_json,
      .results_timeseries = flags.results_timeseries,
      .steady_state = steady_state,
      .rate_iops = flags.rate_iops,
      .find_max_iops = find_max_iops,
      .precondition_passes = flags.precondition ? flags.precondition_passes : 0,
  };
}

}  // namespace iomark::run_options
