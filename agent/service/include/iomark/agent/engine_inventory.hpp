// The engines `auto` measured on this agent's targets, as its inventory reports them
//: per target, which engines completed reads there and which one was chosen at
// each queue depth and read size, with the calibration's reason.
//
// Pure: built from the agent's EngineChoiceCache (engine_choice_cache.hpp), no I/O.
#pragma once

#include <span>
#include <vector>

#include "iomark/engine/engine_choice_cache.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::agent {

// One entry per target path, in `measured`'s order of first appearance; its usable engines
// are every engine that completed reads there at any depth, in probe order; its choices
// are sorted by queue depth, then read size. A target measured under several paths (a
// device reached through a symlink) is reported under the path it was measured under first.
[[nodiscard]] std::vector<protocol::TargetEngines> target_engines(std::span<const engine::MeasuredChoice> measured);

// Makes the list acceptable to protocol::decode(): entries whose path is not absolute or
// too long are dropped, engine names that are not [a-z0-9_-] are dropped, reasons become
// valid single-line UTF-8 cut to protocol::kMaxEngineReasonBytes, and each list keeps its
// first kMaxEngines names, kMaxEngineChoices choices and kMaxTargetEngines targets. An entry
// left without a choice is dropped. Idempotent.
void fit_target_engines(std::vector<protocol::TargetEngines>& targets);

}  // namespace iomark::agent
