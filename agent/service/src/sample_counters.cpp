#include "iomark/agent/sample_counters.hpp"

#include <algorithm>

#include "iomark/common/utf8.hpp"

namespace iomark::agent {

namespace {

enum class Kind : std::uint8_t { interval, final };

// Counters per worker and target; with `earlier`, only what was counted since then. Final
// results also say which engine each worker ran and why.
std::vector<protocol::WorkerCounters> worker_counters(const results::ManagerResult& now,
                                                      const results::ManagerResult* earlier,
                                                      std::optional<Nanoseconds> interval, Kind kind) {
  std::vector<protocol::WorkerCounters> workers;
  workers.reserve(now.workers.size());
  for (std::size_t w = 0; w < now.workers.size(); ++w) {
    protocol::WorkerCounters counters;
    counters.worker_index = static_cast<std::uint32_t>(w);
    counters.window = interval.value_or(now.workers[w].recording_window);
    if (kind == Kind::final) {
      counters.engine = sendable_text(now.workers[w].engine, protocol::kMaxEngineNameBytes);
      counters.engine_reason = sendable_text(now.workers[w].engine_reason, protocol::kMaxTextBytes);
    }
    for (std::size_t t = 0; t < now.workers[w].targets.size(); ++t) {
      const auto& current = now.workers[w].targets[t].counters;
      counters.targets.push_back(
          {static_cast<std::uint32_t>(t), earlier ? current.since(earlier->workers[w].targets[t].counters) : current,
           kind == Kind::final ? now.workers[w].targets[t].verify : std::nullopt});
    }
    workers.push_back(std::move(counters));
  }
  return workers;
}

}  // namespace

std::vector<protocol::WorkerCounters> interval_counters(const results::ManagerResult& now,
                                                        const results::ManagerResult& earlier, Nanoseconds interval) {
  return worker_counters(now, &earlier, interval, Kind::interval);
}

std::vector<protocol::WorkerCounters> interval_counters(const results::ManagerResult& counted, Nanoseconds interval) {
  return worker_counters(counted, nullptr, interval, Kind::interval);
}

std::vector<protocol::WorkerCounters> final_counters(const results::ManagerResult& manager) {
  return worker_counters(manager, nullptr, std::nullopt, Kind::final);
}

std::vector<protocol::CpuUsage> cpu_usage_of(const std::vector<CpuUtilisation>& cpus) {
  std::vector<protocol::CpuUsage> usage;
  for (const auto& cpu : cpus) {
    usage.push_back({cpu.cpu, cpu.total, cpu.user, cpu.privileged, cpu.irq, cpu.iowait, cpu.interrupts_per_second});
  }
  return usage;
}

std::vector<protocol::CpuUsage> cpu_usage_of(const std::vector<results::CpuUtilization>& cpus) {
  std::vector<protocol::CpuUsage> usage;
  for (std::size_t i = 0; i < cpus.size(); ++i) {
    const auto& cpu = cpus[i];
    usage.push_back({static_cast<std::uint32_t>(i), cpu.total_percent, cpu.user_percent, cpu.privileged_percent, 0.0,
                     0.0, cpu.interrupts_per_second});
  }
  return usage;
}

std::string sendable_text(std::string_view text, std::size_t max_bytes) {
  std::string sendable;
  for (std::size_t i = 0; i < text.size();) {
    const auto length = utf8_sequence_length(text, i);
    const auto piece = length == 0 ? std::string_view("?") : text.substr(i, length);
    if (sendable.size() + piece.size() > max_bytes) break;
    sendable += piece;
    i += std::max<std::size_t>(length, 1);
  }
  return sendable;
}

}  // namespace iomark::agent
