#include "iomark/run_options/run_flags.hpp"

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/common/units.hpp"

namespace iomark::run_options {

namespace {

// --block-sizes and --mixes over PTS-E's own, holding the cell whose steady state is judged.
Result<access_specs::PtsIopsMatrix> pts_matrix(const RunFlags& flags) {
  access_specs::PtsIopsMatrix matrix;
  if (!flags.pts_block_sizes.empty()) {
    auto sizes = access_specs::parse_pts_block_sizes(flags.pts_block_sizes);
    if (!sizes) return fail(sizes.error());
    matrix.block_bytes = std::move(*sizes);
  }
  if (!flags.pts_mixes.empty()) {
    auto mixes = access_specs::parse_pts_mixes(flags.pts_mixes);
    if (!mixes) return fail(mixes.error());
    matrix.read_percents = std::move(*mixes);
  }
  if (auto held = access_specs::check_pts_matrix(matrix); !held) return fail(held.error());
  return matrix;
}

}  // namespace

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
  std::optional<access_specs::PtsIopsMatrix> pts_iops;
  if (flags.pts_iops) {
    if (flags.find_max_iops) {
      return fail(Error(ErrorCode::invalid_argument, "a PTS IOPS test runs its matrix in rounds, not a search")
                      .in_field("--find-max-iops"));
    }
    if (flags.steady_state && *flags.steady_state != "iops") {
      return fail(Error(ErrorCode::invalid_argument, "a PTS IOPS test judges the IOPS of 4 KiB random writes")
                      .in_field("--steady-state"));
    }
    auto matrix = pts_matrix(flags);
    if (!matrix) return fail(matrix.error());
    if (depths->size() != 1) {
      return fail(Error(ErrorCode::invalid_argument, "takes one value: every cell of a round runs at the same depth")
                      .in_field("--qd"));
    }
    pts_iops = std::move(*matrix);
    steady_state = access_specs::SteadyStateRequest{
        .figure = access_specs::SteadyFigure::iops,
        .max_rounds = flags.max_rounds,
        .tracked_spec =
            access_specs::pts_iops_spec(access_specs::kPtsTrackedBlockBytes, access_specs::kPtsTrackedReadPercent).name};
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
      .description = flags.description.empty() && flags.pts_iops ? std::string("iomark pts iops") : flags.description,
      .results_csv = flags.results_csv,
      .results_json = flags.results_json,
      .results_timeseries = flags.results_timeseries,
      .steady_state = steady_state,
      .rate_iops = flags.rate_iops,
      .find_max_iops = find_max_iops,
      .precondition_passes = flags.precondition || flags.pts_iops ? flags.precondition_passes : 0,
      .precondition_spec = flags.precondition ? flags.precondition_spec : std::string(),
      .pts_iops = std::move(pts_iops),
  };
}

}  // namespace iomark::run_options
