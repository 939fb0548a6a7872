// The series of `iomark run` without a plan file: the same workers and targets on every
// manager, one run per outstanding-I/O value given (--qd 1,2,4,8).
#pragma once

#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/controller/manager_link.hpp"
#include "iomark/controller/network_pairing.hpp"
#include "iomark/controller/series_runner.hpp"

namespace iomark::controller {

struct QuickSeriesOptions {
  std::vector<std::string> targets;  // paths on every manager: devices, files or directories
  access_specs::AccessSpec spec;
  std::vector<std::uint32_t> queue_depths;  // one run each, in order
  std::uint32_t workers{1};                 // per manager, each driving every target
  std::uint32_t ramp_up_s{0};
  std::uint32_t run_time_s{10};
  std::string engine;  // empty: each agent probes
  bool buffered{false};
  std::uint64_t test_file_bytes{};  // size of iobw.tst in a directory target
  access_specs::DataPattern data_pattern{access_specs::DataPattern::repeating_bytes};
  std::optional<access_specs::DataReduction> data_reduction;  // set: writes carry it instead
  std::optional<std::uint64_t> seed;  // fixed seed; nullopt = fresh per run
  std::string description;
  // --network-pair: TCP pairs run beside the targets' workers in every run (the targets may
  // then be left out).
  std::vector<PairNames> network_pairs{};
  bool verify{false};            // --verify on every target (docs/verify.md)
  std::string verify_journal{};  // on the agents; empty: next to each target
};

// One RunPlan per queue depth over every manager (run info: CYCLE_OUTSTANDING_IOS when more
// than one depth is given, NORMAL otherwise). Errors: no target (and no network pair), no
// queue depth, a depth of 0; a pair naming a manager that is not connected, or managers that
// share no subnet (network_pairing.hpp).
[[nodiscard]] Result<SeriesPlan> quick_series(const QuickSeriesOptions& options,
                                              const std::vector<ManagerLink*>& links);

}  // namespace iomark::controller
