#include "iomark/results/pts_iops_table.hpp"

#include <algorithm>
#include <set>

#include "iomark/results/run_points.hpp"

namespace iomark::results {

namespace {

constexpr std::uint32_t kDefaultWindow = 5;

}  // namespace

PtsIopsTable pts_iops_table(const PtsIopsRecord& matrix, std::span<const PtsRunFigure> runs,
                            const std::optional<SteadyStateRecord>& steady_state) {
  PtsIopsTable table{.read_percents = matrix.read_percents, .block_bytes = matrix.block_bytes};
  const std::size_t blocks = matrix.block_bytes.size();
  const std::size_t cells = matrix.read_percents.size() * blocks;
  table.iops.assign(matrix.read_percents.size(), std::vector<std::optional<double>>(blocks));
  if (cells == 0 || runs.empty()) return table;
  const auto round_of = [&](std::uint32_t position) { return static_cast<std::uint32_t>((position - 1) / cells + 1); };
  std::uint32_t rounds_reached = 0;
  for (const auto& run : runs) {
    if (run.position != 0) rounds_reached = std::max(rounds_reached, round_of(run.position));
  }
  if (rounds_reached == 0) return table;
  const std::uint32_t window = steady_state && steady_state->window != 0 ? steady_state->window : kDefaultWindow;
  if (steady_state && steady_state->steady) {
    table.steady = true;
    table.first_round = steady_state->window_first + 1;
    table.last_round = steady_state->window_first + window;
  } else {
    table.last_round = rounds_reached;
    table.first_round = rounds_reached > window ? rounds_reached - window + 1 : 1;
  }
  std::vector<std::vector<double>> sums(table.iops.size(), std::vector<double>(blocks));
  std::vector<std::vector<std::uint32_t>> counts(table.iops.size(), std::vector<std::uint32_t>(blocks));
  for (const auto& run : runs) {
    if (run.position == 0) continue;
    const auto round = round_of(run.position);
    if (round < table.first_round || round > table.last_round) continue;
    const std::size_t cell = (run.position - 1) % cells;
    sums[cell / blocks][cell % blocks] += run.iops;
    ++counts[cell / blocks][cell % blocks];
  }
  for (std::size_t m = 0; m < table.iops.size(); ++m) {
    for (std::size_t b = 0; b < blocks; ++b) {
      if (counts[m][b] != 0) table.iops[m][b] = sums[m][b] / counts[m][b];
    }
  }
  return table;
}

std::vector<PtsRunFigure> pts_run_figures(const SeriesResults& series) {
  // Completed runs fill the positions failed runs did not take, in order.
  std::set<std::uint32_t> failed;
  for (const auto& run : series.failed_runs) failed.insert(run.position);
  std::vector<PtsRunFigure> figures;
  std::uint32_t position = 0;
  for (const auto& point : run_points(series)) {
    if (!point.manager.empty()) continue;
    do {
      ++position;
    } while (failed.contains(position));
    figures.push_back({.position = position, .iops = point.iops});
  }
  return figures;
}

}  // namespace iomark::results
