// A TEST TOOL, not a benchmark back end: an engine that fails chosen I/Os with EIO, so the
// paths above the engine (error counting, the results' error columns, the controller's
// notices) can be exercised without failing hardware; or, a lying device, that acknowledges
// chosen writes in full and persists them wrong (a flipped bit, the wrong offset, or not at
// all), so that `--verify` can be shown to find and name each.
//
// It is chosen only by its explicit name (`--engine fault-eio...`, see parse_engine_spec in
// engines.hpp); the probe and calibration never pick it and it is not in kAllEngineKinds.
// I/Os it lets through are done as the sync engine does them (pread/pwrite inline; it
// reports kind() sync); a failed I/O is not performed at all and completes with -EIO at
// once, as a device that refuses a command. The counting is per engine, that is per worker.
#pragma once

#include <cstdint>
#include <memory>
#include <string>
#include <string_view>

#include "iomark/common/result.hpp"
#include "iomark/engine/io_engine.hpp"

namespace iomark::engine {

// What happens to an I/O the plan picks.
enum class FaultKind : std::uint8_t {
  eio,        // any I/O: not performed, completes with -EIO
  // Writes only (reads go through); each completes with its full length, as if written:
  flip,       // written with the last byte's lowest bit flipped
  misdirect,  // written at offset - length (offset + length when that is below 0)
  drop,       // not written at all: a lost write
};

// Which I/Os fail: the first `succeed_first` go through; after them every `fail_every`-th
// fails (1: every one, 10: one in ten). The lying kinds count writes only.
struct FaultPlan {
  std::uint64_t succeed_first{};
  std::uint64_t fail_every{1};
  FaultKind kind{FaultKind::eio};
  friend bool operator==(const FaultPlan&, const FaultPlan&) = default;
};

// Whether the I/O numbered `ordinal` (1 for the first an engine takes) fails under `plan`.
[[nodiscard]] constexpr bool fails(const FaultPlan& plan, std::uint64_t ordinal) noexcept {
  return ordinal > plan.succeed_first && (ordinal - plan.succeed_first) % plan.fail_every == 0;
}

// The name grammar, short enough for the wire's engine names ([a-z0-9_-], 32 characters):
//   fault-eio[-after-N][-every-K]       e.g. "fault-eio", "fault-eio-after-1000-every-10"
//   fault-flip..., fault-shift..., fault-drop...   the same counts, lying about writes
// N >= 0, K >= 1. Errors: invalid_argument naming the grammar.
[[nodiscard]] Result<FaultPlan> parse_fault_plan(std::string_view text);
// The canonical name: parse_fault_plan(fault_plan_name(x)) == x.
[[nodiscard]] std::string fault_plan_name(const FaultPlan& plan);

// A new, unprepared fault-injecting engine. Never null.
[[nodiscard]] std::unique_ptr<IoEngine> make_fault_injecting_engine(const FaultPlan& plan);

}  // namespace iomark::engine
