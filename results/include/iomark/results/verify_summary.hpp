// `--verify` in words, for consoles: per verified target the counts, then its first bad
// blocks in full. The same text for `iomark-agent run-local` and any other front end.
#pragma once

#include <cstdint>
#include <string>
#include <vector>

#include "iomark/results/run_results.hpp"

namespace iomark::results {

// Bad blocks (corrupted + misdirected + stale) over every verified target of the run.
[[nodiscard]] std::uint64_t bad_blocks(const RunResults& run) noexcept;

// One line per verified target ("MANAGER/WORKER/TARGET: N blocks checked, ... 0 bad"), then
// one indented line per kept finding, e.g.
//   "  stale at byte 1052672: expected generation 3, found 2";
// empty when no target was verified.
[[nodiscard]] std::vector<std::string> verify_lines(const RunResults& run);

}  // namespace iomark::results
