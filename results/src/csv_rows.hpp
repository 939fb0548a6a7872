// Private: the row builders results.csv and the instantaneous side file share.
#pragma once

#include <array>
#include <cstdint>
#include <span>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/results/results_csv.hpp"
#include "iomark/results/run_results.hpp"
#include "iomark/results/summary.hpp"

namespace iomark::results::detail {

// The 80 captions of results.csv, column 1 first (`'Target Type`).
[[nodiscard]] const std::array<std::string_view, kResultsCsvColumnCount>& results_captions();

// `value` in fixed notation with 6 decimals, as IOmeter's ostream writes doubles.
[[nodiscard]] std::string format_fixed(double value);

// `,` `\r` `\n` -> ' ', so a name cannot add or split fields.
[[nodiscard]] std::string csv_safe(std::string_view text);

// The fields of one row (without line end); join() makes the line.
using Fields = std::vector<std::string>;
[[nodiscard]] std::string join(const Fields& fields);

[[nodiscard]] Fields all_row(const Summary& all);
[[nodiscard]] Fields manager_row(const ManagerResult& manager, const Summary& summary);
[[nodiscard]] Fields processor_row(std::size_t index, const CpuUtilization& cpu, std::uint64_t timer_resolution_hz);
[[nodiscard]] Fields worker_row(const WorkerResult& worker, const Summary& summary, std::uint64_t timer_resolution_hz);
[[nodiscard]] Fields target_row(const TargetResult& target, const Summary& summary, const Summary& worker_summary,
                                std::uint64_t timer_resolution_hz, TargetRowValues values);

// The spec block, or "" when the access index was already announced; updates `last`.
[[nodiscard]] std::string spec_block_if_new(const RunInfo& run, std::optional<std::uint32_t>& last);

[[nodiscard]] std::string series_end(SeriesOutcome outcome);
// "\nERROR: message\n" with the message's line breaks made spaces (commas may stay: the
// reader takes the whole line).
[[nodiscard]] std::string error_line(std::string_view message);

}  // namespace iomark::results::detail
