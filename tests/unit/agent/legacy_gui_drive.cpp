// legacy_gui_drive: the fake IOmeter GUI of the tests as a command, for bench/: it starts an
// agent (iomark-agent --protocol iometer or Dynamo), drives one run of one worker on one
// target and prints the figures IOmeter would compute from the counters.
//   legacy_gui_drive TARGET QD SECONDS SPEC_LINE LOG -- COMMAND ARGS...
// "{port}" in COMMAND ARGS becomes the fake GUI's login port; the agent's output goes to LOG.
#include <chrono>
#include <cstdio>
#include <iostream>
#include <string>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "legacy_fake_gui.hpp"

int main(int argc, char** argv) {
  using namespace iomark;
  std::vector<std::string> args(argv + 1, argv + argc);
  if (args.size() < 7 || args[5] != "--") {
    std::cerr << "usage: legacy_gui_drive TARGET QD SECONDS SPEC_LINE LOG -- COMMAND ARGS...\n";
    return 2;
  }
  auto line = access_specs::parse_spec_line(args[3]);
  if (!line) {
    std::cerr << "legacy_gui_drive: " << line.error().describe() << '\n';
    return 2;
  }
  auto gui = test::FakeGui::listen();
  if (!gui) {
    std::cerr << "legacy_gui_drive: " << gui.error().describe() << '\n';
    return 1;
  }
  std::vector<std::string> command(args.begin() + 6, args.end());
  for (auto& arg : command) {
    if (const auto at = arg.find("{port}"); at != std::string::npos) arg.replace(at, 6, std::to_string(gui->port()));
  }
  auto agent = test::ChildProcess::spawn(command, args[4]);
  if (!agent) {
    std::cerr << "legacy_gui_drive: " << agent.error().describe() << '\n';
    return 1;
  }
  test::Plan plan;
  plan.target = args[0];
  plan.queue_depth = static_cast<std::uint32_t>(std::stoul(args[1]));
  plan.line = *line;
  plan.ramp = std::chrono::seconds(1);
  plan.record = std::chrono::seconds(std::stoul(args[2]));
  auto outcome = test::run_plan(*gui, plan);
  if (!outcome) {
    std::cerr << "legacy_gui_drive: " << outcome.error().describe() << '\n';
    return 1;
  }
  (void)agent->wait_exit(std::chrono::seconds(10));
  if (outcome->results.targets.size() != 1) return 1;
  const auto& target = outcome->results.targets[0];
  const double seconds =
      static_cast<double>(outcome->results.time_end - outcome->results.time_start) / outcome->timer_resolution_hz;
  const auto ios = target.read_count + target.write_count;
  const double mean_ms = ios == 0 ? 0.0
                                  : static_cast<double>(target.read_latency_sum + target.write_latency_sum) * 1000.0 /
                                        outcome->timer_resolution_hz / static_cast<double>(ios);
  std::printf("ios=%llu seconds=%.3f iops=%.1f mean_latency_ms=%.4f errors=%u\n",
              static_cast<unsigned long long>(ios), seconds, static_cast<double>(ios) / seconds, mean_ms,
              target.read_errors + target.write_errors);
  return 0;
}
