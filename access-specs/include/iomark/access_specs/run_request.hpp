// What a command line asks a run to do, typed: run-options' make_run_request converts the
// flags once, with the parsers their validators use, and run-builder makes the managers'
// work from it; no front end reads the text again. A plan file asks in a TestPlan instead.
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/pts_iops.hpp"
#include "iomark/access_specs/test_plan.hpp"

namespace iomark::access_specs {

// Recorded seconds per run when neither the command line nor a plan says.
inline constexpr std::uint32_t kDefaultRunTimeS = 10;

// The figure of the ALL row a series repeated in rounds is judged steady on (--steady-state).
enum class SteadyFigure : std::uint8_t { iops, mb_per_s, average_ms, p99_ms };

// "iops", "mbps", "avg" or "p99", as --steady-state takes them. Errors: invalid_argument,
// field "--steady-state", listing the four.
[[nodiscard]] Result<SteadyFigure> parse_steady_figure(std::string_view text);
[[nodiscard]] std::string_view to_string(SteadyFigure figure);

// Repeat the series in rounds until `figure` is steady (docs/characterize.md), at most
// `max_rounds` rounds, judged on the last run of each round whose spec is `tracked_spec`
// (empty: the last run of each round).
struct SteadyStateRequest {
  SteadyFigure figure{SteadyFigure::iops};
  std::uint32_t max_rounds{25};
  std::string tracked_spec{};
  friend bool operator==(const SteadyStateRequest&, const SteadyStateRequest&) = default;
};

// The latency figure of the ALL row a --find-max-iops search holds within its bound.
enum class LatencyFigure : std::uint8_t { average_ms, p99_ms, p99_9_ms };

[[nodiscard]] std::string_view to_string(LatencyFigure figure);  // "avg", "p99", "p99.9"

// --find-max-iops: the highest IOPS at which `figure` stays at or below `limit_ms`
// (docs/characterize.md#find-max-iops).
struct LatencyBound {
  LatencyFigure figure{LatencyFigure::p99_ms};
  double limit_ms{};  // > 0
  friend bool operator==(const LatencyBound&, const LatencyBound&) = default;
};

// Bounds below this are under the histogram's resolution; above it, no storage run is meant.
inline constexpr double kMinLatencyBoundMs = 0.001;
inline constexpr double kMaxLatencyBoundMs = 60'000.0;

// "p99<=2ms", "avg<=500us", "p99.9<=1.5ms" (units us, ms or s; spaces allowed around the
// parts). Errors: invalid_argument, field "--find-max-iops", saying what was expected.
[[nodiscard]] Result<LatencyBound> parse_latency_bound(std::string_view text);

// --precondition-passes: more than this many writes of a whole array is not preconditioning.
inline constexpr std::uint32_t kMaxPreconditionPasses = 100;

struct RunRequest {
  std::vector<std::string> targets{};
  std::vector<std::string> network_pairs{};  // "SERVER[@IPV4]:CLIENT[@IPV4]": managers are named by the controller
  AccessSpec spec{};           // --spec or --spec-line; Database when neither is given
  std::vector<std::uint32_t> outstanding_ios{};  // --qd: one run each, in order
  std::uint32_t workers{1};
  std::vector<std::uint32_t> cpus{};  // run-local's --cpus: worker i on cpus[i % size]; empty: i % CPU count
  std::optional<std::uint32_t> ramp_up_s{};   // unset: the plan's, or 0
  std::optional<std::uint32_t> run_time_s{};  // unset: the plan's, or kDefaultRunTimeS
  std::string engine{};  // as the wire carries it: a name engine::parse_engine_spec reads; empty: auto
  bool buffered{false};
  std::uint64_t test_file_bytes{std::uint64_t{1} << 30};  // --size (1G): iobw.tst in a directory target, a new --target file
  WriteData write_data{};
  std::optional<std::uint64_t> seed{};
  bool verify{false};
  std::string verify_journal{};  // empty: next to each target
  std::string description{};     // empty: the front end names it
  std::string results_csv{};
  std::string results_json{};
  std::string results_timeseries{};
  std::optional<SteadyStateRequest> steady_state{};  // unset: each run once
  // --rate-iops: I/Os per second of every manager together, issued on a schedule
  // (docs/characterize.md#rate-control); unset: as fast as the outstanding I/Os allow.
  std::optional<double> rate_iops{};
  std::optional<LatencyBound> find_max_iops{};  // unset: the runs as asked
  // --precondition: each target written whole this many times before its first run
  // (docs/characterize.md#preconditioning); 0: not at all.
  std::uint32_t precondition_passes{0};
  // --precondition-spec: the name of the plan's or a built-in spec whose writes make the
  // passes; empty: 128 KiB sequential writes.
  std::string precondition_spec{};
  // `iomark pts iops`: one run per cell of the matrix (pts_iops_specs' order) in place of `spec`.
  std::optional<PtsIopsMatrix> pts_iops{};
};

}  // namespace iomark::access_specs
