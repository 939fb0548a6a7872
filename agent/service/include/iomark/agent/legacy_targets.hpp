// The targets an IOmeter GUI sees from this agent (REPORT_TARGETS,
// docs/iometer-reference.md#discovery), and the way back from a name in SET_TARGETS to a path.
// Unlike Dynamo, which lists every mount and every raw device it can open, only what the operator's
// --allow permits is listed:
// - mounted file systems at or below an allowed path, and allowed directories themselves,
//   as logical disks named "<directory> [<fstype>]" (I/O goes to <directory>/iobw.tst;
//   ready when that file exists and is not empty);
// - allowed block devices the policy lets us write, as physical disks named by their
//   kernel name ("sdb", "zram1"), ready.
// Listing creates nothing (Dynamo created and deleted iobw.tst on every file system).
#pragma once

#include <string>
#include <string_view>
#include <vector>

#include "iomark/legacy/target_spec.hpp"
#include "iomark/targets/safety_policy.hpp"

namespace iomark::agent {

struct LegacyTarget {
  legacy::TargetSpec spec;  // as reported: name, type, disk details
  std::string path;         // a directory (logical disk) or a block device node
};

// Sorted by name (strcmp, as Dynamo), at most legacy::kMaxTargets. Reads /proc/self/mountinfo.
[[nodiscard]] std::vector<LegacyTarget> list_legacy_targets(const targets::SafetyPolicy& policy);

// The listed target a SET_TARGETS entry names; nullptr when the GUI names something we
// did not list (it may have come from another manager, or be hostile).
[[nodiscard]] const LegacyTarget* find_legacy_target(const std::vector<LegacyTarget>& listed, std::string_view name);

}  // namespace iomark::agent
