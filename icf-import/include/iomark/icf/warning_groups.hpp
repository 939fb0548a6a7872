// Import warnings collapsed by kind: a legacy plan can carry the same leniency dozens of times
// (a placeholder line in each of 21 access specs), where one line with a count says enough.
//
// Pure functions; no I/O; thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <string>
#include <vector>

#include "iomark/icf/icf.hpp"

namespace iomark::icf {

struct WarningGroup {
  Warning first;               // the first warning of its kind, as the reader gave it
  std::size_t count{1};        // warnings of this kind, the first included
  std::uint64_t last_line{0};  // the line of the last one
  friend bool operator==(const WarningGroup&, const WarningGroup&) = default;
};

// Warnings grouped by kind, in the order each kind first appears. Two warnings are of one
// kind when their messages are equal once every name the reader quotes in them ('...') is
// set aside: "placeholder line ... in 'Default' dropped" and "... in 'Max Throughput'
// dropped" are one kind.
[[nodiscard]] std::vector<WarningGroup> group_warnings(const std::vector<Warning>& warnings);

// The first warning's message, followed for a group of several by " (21 alike, lines 48 to
// 148)"; front ends put "FILE:LINE: " (group.first.line) before it.
[[nodiscard]] std::string describe(const WarningGroup& group);

}  // namespace iomark::icf
