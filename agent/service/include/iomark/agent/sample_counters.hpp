// What an agent's Sample and FinalResults carry, built from its results rows: counters per
// worker and target, and the host's CPU utilisation. The agent service sends them; the
// simulated fleet (tests/tools/sim_fleet) builds its samples with the same functions, so the
// controller under test sees what a real agent sends.
#pragma once

#include <string_view>
#include <vector>

#include "iomark/agent/host_stats.hpp"
#include "iomark/common/units.hpp"
#include "iomark/protocol/messages.hpp"
#include "iomark/results/run_results.hpp"

namespace iomark::agent {

// A Sample's counters: per worker and target, what `now` counted since `earlier` (an earlier
// snapshot of the same run, with the same workers and targets), each over `interval`.
[[nodiscard]] std::vector<protocol::WorkerCounters> interval_counters(const results::ManagerResult& now,
                                                                      const results::ManagerResult& earlier,
                                                                      Nanoseconds interval);

// The same for counters that already cover one interval (`counted`), as they are.
[[nodiscard]] std::vector<protocol::WorkerCounters> interval_counters(const results::ManagerResult& counted,
                                                                      Nanoseconds interval);

// FinalResults' counters: per worker and target the whole recording window, with the engine
// each worker ran and why (texts cut to what the protocol accepts).
[[nodiscard]] std::vector<protocol::WorkerCounters> final_counters(const results::ManagerResult& manager);

[[nodiscard]] std::vector<protocol::CpuUsage> cpu_usage_of(const std::vector<CpuUtilisation>& cpus);
[[nodiscard]] std::vector<protocol::CpuUsage> cpu_usage_of(const std::vector<results::CpuUtilization>& cpus);

// Text the controller accepts: UTF-8 of at most `max_bytes`. Paths may hold any bytes but
// NUL and errors quote them, so a byte that is not UTF-8 becomes '?' and overlong text is
// cut, rather than the controller refusing the whole message.
[[nodiscard]] std::string sendable_text(std::string_view text, std::size_t max_bytes);

}  // namespace iomark::agent
