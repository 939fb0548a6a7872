#include "iomark/engine/engine_choice.hpp"

#include <algorithm>
#include <cstdio>
#include <vector>

namespace iomark::engine {
namespace {

std::string format_iops(double iops) {
  char text[32];
  if (iops >= 1000.0) std::snprintf(text, sizeof text, "%.0f K IOPS", iops / 1000.0);
  else std::snprintf(text, sizeof text, "%.0f IOPS", iops);
  return text;
}

std::string others(std::span<const EngineTrial> trials, const EngineTrial* winner) {
  std::string text;
  for (const EngineTrial& trial : trials) {
    if (&trial == winner) continue;
    text += (text.empty() ? "" : "; ") + candidate_name(trial.kind, trial.setup) + " " + describe_trial(trial);
  }
  return text;
}

}  // namespace

std::string describe_trial(const EngineTrial& trial) {
  if (!trial.ran) return "did not run: " + trial.failure;
  char cpu[48];
  std::snprintf(cpu, sizeof cpu, ", %.2f \xC2\xB5s CPU/IO", trial.cpu_ns_per_io / 1000.0);
  std::string text = format_iops(trial.iops) + cpu;
  if (trial.punted()) {
    text += ", punted reads to " + std::to_string(trial.io_worker_threads) + " io-wq thread(s)";
  }
  return text;
}

EngineDecision choose_measured_engine(std::span<const EngineTrial> trials, std::uint32_t queue_depth,
                                      std::span<const EngineProbe> probes) {
  std::vector<const EngineTrial*> ran;
  for (const EngineTrial& trial : trials) {
    if (trial.ran && trial.reads > 0) ran.push_back(&trial);
  }
  const bool something_else_ran = std::any_of(ran.begin(), ran.end(), [](const EngineTrial* trial) {
    return !(trial->kind == EngineKind::io_uring && trial->punted());
  });
  if (something_else_ran) {
    std::erase_if(ran, [](const EngineTrial* trial) { return trial->kind == EngineKind::io_uring && trial->punted(); });
  }
  std::vector<EngineKind> usable;
  for (const EngineKind kind : kProbeOrder) {
    if (std::any_of(trials.begin(), trials.end(),
                    [kind](const EngineTrial& trial) { return trial.kind == kind && trial.ran && trial.reads > 0; })) {
      usable.push_back(kind);
    }
  }
  const std::string depth = " at depth " + std::to_string(queue_depth);
  if (ran.empty()) {
    const std::string why = trials.empty() ? std::string("nothing measured") : "no engine completed reads (" +
                                                                                    others(trials, nullptr) + ")";
    for (const EngineKind kind : kProbeOrder) {
      for (const EngineProbe& probe : probes) {
        if (probe.kind == kind && probe.available) {
          return {kind, RingSetup::standard,
                  std::string(to_string(kind)) + depth + ": " + why + "; first engine of the probe order that runs here",
                  usable};
        }
      }
    }
    return {EngineKind::sync, RingSetup::standard, "sync" + depth + ": " + why + " and no engine probed available", usable};
  }
  const double lowest_cpu = (*std::min_element(ran.begin(), ran.end(), [](const EngineTrial* a, const EngineTrial* b) {
                              return a->cpu_ns_per_io < b->cpu_ns_per_io;
                            }))->cpu_ns_per_io;
  std::erase_if(ran, [lowest_cpu](const EngineTrial* trial) { return trial->cpu_ns_per_io > kCpuAllowance * lowest_cpu; });
  const double best_iops = (*std::max_element(ran.begin(), ran.end(), [](const EngineTrial* a, const EngineTrial* b) {
                             return a->iops < b->iops;
                           }))->iops;
  const EngineTrial* winner = nullptr;
  for (const EngineTrial* trial : ran) {
    if (trial->iops < (1.0 - kIopsTolerance) * best_iops) continue;
    if (winner == nullptr || trial->cpu_ns_per_io < winner->cpu_ns_per_io ||
        (trial->cpu_ns_per_io == winner->cpu_ns_per_io && trial->iops > winner->iops)) {
      winner = trial;
    }
  }
  if (queue_depth == 1 && winner->kind != EngineKind::sync) {
    const auto sync = std::find_if(trials.begin(), trials.end(), [](const EngineTrial& trial) {
      return trial.kind == EngineKind::sync && trial.ran && trial.reads > 0;
    });
    if (sync != trials.end() && winner->cpu_ns_per_io > sync->cpu_ns_per_io) {
      std::string reason = "sync" + depth + ": " + describe_trial(*sync) +
                           " (one syscall per I/O; at depth 1 an engine that spends more CPU per I/O does not "
                           "displace it, and " + candidate_name(winner->kind, winner->setup) + " does)";
      if (const auto rest = others(trials, &*sync); !rest.empty()) reason += "; " + rest;
      return {EngineKind::sync, RingSetup::standard, reason, usable};
    }
  }
  std::string reason = candidate_name(winner->kind, winner->setup) + depth + ": " + describe_trial(*winner);
  const std::string tolerance = std::to_string(static_cast<int>(kIopsTolerance * 100 + 0.5)) + "%";
  char allowance[16];
  std::snprintf(allowance, sizeof allowance, "%.3gx", kCpuAllowance);
  reason += winner->iops < best_iops
                ? " (within " + tolerance + " of the best IOPS, at less CPU per I/O)"
                : " (the best IOPS at no more than " + std::string(allowance) + " the lowest CPU per I/O; nothing within " +
                      tolerance + " of it uses less)";
  if (const auto rest = others(trials, winner); !rest.empty()) reason += "; " + rest;
  return {winner->kind, winner->setup, reason, usable};
}

}  // namespace iomark::engine
