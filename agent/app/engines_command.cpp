#include "engines_command.hpp"

#include <algorithm>
#include <cstdio>
#include <string>

#include "iomark/engine/engines.hpp"

namespace iomark::agent_app {

int list_engines() {
  const auto probes = engine::probe_engines();
  std::printf("%-11s %-11s %s\n", "ENGINE", "STATUS", "NOTE");
  for (const auto& probe : probes) {
    const auto name = std::string(engine::to_string(probe.kind));
    if (probe.available) {
      std::printf("%-11s works\n", name.c_str());
    } else {
      std::printf("%-11s unavailable %s\n", name.c_str(), probe.reason.c_str());
    }
  }
  // The probe never tries null: it does no I/O, so it cannot fail.
  std::printf("%-11s works       no I/O: for tests and measuring iomark's own overhead\n",
              std::string(engine::to_string(engine::EngineKind::null)).c_str());
  const bool any = std::any_of(probes.begin(), probes.end(), [](const auto& probe) { return probe.available; });
  std::printf("\nWith --engine auto the engines that work are measured on each target, at the run's queue depth\n"
              "and read size, and the one with the highest IOPS at the lowest CPU per I/O is used; where none\n"
              "completes a read there, the first that works, in this order.\n");
  return any ? 0 : 1;
}

}  // namespace iomark::agent_app
