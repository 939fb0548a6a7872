// `auto`'s choices, remembered: the calibration (engine_trial.hpp) costs a fraction of a
// second per target and depth, so a series of runs measures each combination once.
//
// Keyed by what the choice depends on: the target (device and inode of the open descriptor,
// and the device it is, for block devices), the kernel release, the queue depth and the
// read size. A target reopened under another path is the same target; a file replaced under
// the same path is a new inode and is measured again.
//
// Thread-safety: every member may be called from any thread; a measurement runs under the
// cache's lock, so two workers choosing at once measure one after the other (and a second
// worker on the same target and depth gets the first one's answer).
#pragma once

#include <cstdint>
#include <map>
#include <mutex>
#include <span>
#include <string>
#include <string_view>
#include <tuple>
#include <vector>

#include "iomark/engine/engine_choice.hpp"
#include "iomark/engine/engine_trial.hpp"

namespace iomark::engine {

// Not keyed by CPU: the first worker's calibration (on its CPU) serves every worker on the
// target, so that a run of many workers calibrates once, not once per worker.
struct EngineChoiceKey {
  std::uint64_t device{};          // st_dev of the descriptor
  std::uint64_t inode{};           // st_ino
  std::uint64_t special_device{};  // st_rdev (block devices), else 0
  std::string kernel_release;
  std::uint32_t queue_depth{};
  std::uint32_t block_bytes{};
  friend auto operator<=>(const EngineChoiceKey&, const EngineChoiceKey&) = default;
};

// The key for `target` (fstat of its descriptor) at `options`; an error if fstat fails.
[[nodiscard]] Result<EngineChoiceKey> engine_choice_key(const TrialTarget& target, const TrialOptions& options);

// One remembered choice: for which target (named by the path it was first measured under),
// depth and read size, and what was decided there (the reason as first measured).
struct MeasuredChoice {
  EngineChoiceKey key;
  std::string target_path;
  EngineDecision decision;
  friend bool operator==(const MeasuredChoice&, const MeasuredChoice&) = default;
};

class EngineChoiceCache {
 public:
  // The remembered decision for this target and options, or a fresh measurement
  // (measure_engines + choose_measured_engine) that is then remembered under `target_path`
  // (how the agent names the target, for its inventory). A remembered decision's reason says
  // so. A target whose key cannot be read is measured, not cached.
  [[nodiscard]] EngineDecision choose(const TrialTarget& target, const TrialOptions& options,
                                      std::span<const EngineProbe> probes, std::string_view target_path);

  // Every decision made so far, in key order, for the agent's inventory and logs.
  [[nodiscard]] std::vector<MeasuredChoice> measured() const;

 private:
  mutable std::mutex mutex_;
  std::map<EngineChoiceKey, MeasuredChoice> choices_;
};

}  // namespace iomark::engine
