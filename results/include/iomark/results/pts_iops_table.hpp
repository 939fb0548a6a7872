// The table of `iomark pts iops` (docs/characterize.md#pts-iops): each cell's IOPS (ALL row,
// every manager together) averaged over the rounds its steady state was judged on, as PTS-E
// reports it. The console, the report and the GUI print the same table from here.
#pragma once

#include <cstdint>
#include <optional>
#include <span>
#include <vector>

#include "iomark/results/run_results.hpp"

namespace iomark::results {

// One completed run of the series: its 1-based position (failed runs keep theirs) and IOPS.
struct PtsRunFigure {
  std::uint32_t position{};
  double iops{};
};

struct PtsIopsTable {
  std::vector<std::uint32_t> read_percents{};  // rows
  std::vector<std::uint64_t> block_bytes{};    // columns
  std::vector<std::vector<std::optional<double>>> iops{};  // [mix][block]; nullopt: no run of it in the rounds
  std::uint32_t first_round{};  // 1-based, the rounds averaged (0 and 0: none)
  std::uint32_t last_round{};
  bool steady{false};  // the rounds are the steady-state window
};

// The rounds averaged: the steady-state window when the record says steady, otherwise the last
// (up to) record.window rounds any run reached (a series cut short, or never steady).
[[nodiscard]] PtsIopsTable pts_iops_table(const PtsIopsRecord& matrix, std::span<const PtsRunFigure> runs,
                                          const std::optional<SteadyStateRecord>& steady_state);

// The figures of a whole series as pts_iops_table takes them.
[[nodiscard]] std::vector<PtsRunFigure> pts_run_figures(const SeriesResults& series);

}  // namespace iomark::results
