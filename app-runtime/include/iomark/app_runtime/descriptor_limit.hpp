// The open-file limit (RLIMIT_NOFILE) of a process holding one connection per manager: a
// controller listening for or dialling a fleet, or the simulated fleet. Debian's default soft
// limit (1,024) stops short of 1,024 agents, while the hard limit is usually far higher.
#pragma once

#include <cstdint>
#include <optional>
#include <string>

#include "iomark/common/result.hpp"

namespace iomark::app_runtime {

struct DescriptorLimit {
  std::uint64_t soft{};
  std::uint64_t hard{};
  friend bool operator==(const DescriptorLimit&, const DescriptorLimit&) = default;
};

// Descriptors a process needs besides its connections: standard streams, the listener, the
// I/O thread's epoll and wake-up, results, JSON, time-series, log and history files.
inline constexpr std::uint64_t kDescriptorsBesidesConnections = 64;

// Raises the soft limit to the hard one (an unprivileged process may); the limit afterwards.
[[nodiscard]] Result<DescriptorLimit> raise_descriptor_limit();

// What to tell the user when `limit` leaves too few descriptors for `connections` at once (one
// each, plus kDescriptorsBesidesConnections); nullopt when there are enough.
[[nodiscard]] std::optional<std::string> descriptor_shortfall(DescriptorLimit limit, std::uint64_t connections);

}  // namespace iomark::app_runtime
