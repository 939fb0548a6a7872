// The series of `iomark run` without a plan file: the same workers and targets on every
// manager, one run per outstanding-I/O value asked for (--qd 1,2,4,8).
#pragma once

#include <vector>

#include "iomark/access_specs/run_request.hpp"
#include "iomark/controller/manager_link.hpp"
#include "iomark/controller/series_runner.hpp"

namespace iomark::controller {

// One RunPlan per outstanding-I/O value over every manager (run info: CYCLE_OUTSTANDING_IOS
// when more than one is given, NORMAL otherwise), for the request's spec or, for `iomark pts
// iops`, for each cell of its matrix in turn; each manager's work made by run-builder;
// test files are made before the first run. --network-pair's TCP pairs run beside the targets'
// workers in every run (the targets may then be left out). Errors: no target (and no network
// pair), no outstanding-I/O value; a target outside an agent's write scope; a pair that does
// not parse, names a manager that is not connected, or managers that share no subnet
// (network_pairing.hpp).
[[nodiscard]] Result<SeriesPlan> quick_series(const access_specs::RunRequest& request,
                                              const std::vector<ManagerLink*>& links);

}  // namespace iomark::controller
