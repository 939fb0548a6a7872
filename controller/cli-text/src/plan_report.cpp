#include "iomark/cli_text/plan_report.hpp"

#include "iomark/common/units.hpp"
#include "iomark/controller/cycling.hpp"
#include "iomark/cli_text/text_table.hpp"

namespace iomark::cli_text {

namespace {

using namespace access_specs;
using controller::queue_depth_steps;

std::string percent(std::uint32_t value) { return std::to_string(value) + "%"; }

std::string run_time_text(std::uint32_t seconds) {
  if (seconds == 0) return "until stopped";
  const auto h = seconds / 3600;
  const auto m = seconds % 3600 / 60;
  const auto s = seconds % 60;
  std::string text;
  if (h) text += std::to_string(h) + " h ";
  if (h || m) text += std::to_string(m) + " min ";
  return text + std::to_string(s) + " s";
}

std::string workers_text(const WorkersToSpawn& workers) {
  return workers.count ? std::to_string(*workers.count) : std::string("one per CPU");
}

std::string cycling_text(const Cycling& cycling) {
  return "start " + std::to_string(cycling.start) + ", step " + std::to_string(cycling.step) + " " +
         std::string(to_string(cycling.step_type));
}

std::string join(const std::vector<std::uint32_t>& values) {
  std::string text;
  for (auto value : values) text += (text.empty() ? "" : ",") + std::to_string(value);
  return text;
}

std::string queue_depth_text(const QueueDepthCycling& cycling) {
  std::string text = std::to_string(cycling.start) + ".." + std::to_string(cycling.end) + " step " +
                     std::to_string(cycling.step) + " " + std::string(to_string(cycling.step_type));
  const auto steps = queue_depth_steps(cycling);
  return text + (steps ? " -> " + join(*steps) : " (" + steps.error().message() + ")");
}

void describe_setup(const TestSetup& setup, std::string& out) {
  out += "Test setup\n";
  auto field = [&](std::string_view name, const std::string& value) {
    out += "  " + std::string(name) + std::string(22 - name.size(), ' ') + value + '\n';
  };
  field("Description", setup.description.empty() ? "(none)" : setup.description);
  field("Test type", std::string(to_string(setup.test_type)));
  field("Run time", run_time_text(setup.run_time_s));
  field("Ramp-up", std::to_string(setup.ramp_up_s) + " s");
  field("Record results", std::string(to_string(setup.record_results)));
  field("Disk workers", workers_text(setup.default_disk_workers));
  field("Network workers", workers_text(setup.default_network_workers));
  const auto cycles = traits_of(setup.test_type);
  if (cycles.cycles_outstanding_ios) field("Outstanding I/Os", queue_depth_text(setup.queue_depth_cycling));
  if (cycles.cycles_workers) field("Worker cycling", cycling_text(setup.worker_cycling));
  if (cycles.cycles_targets) field("Target cycling", cycling_text(setup.target_cycling));
}

std::string worker_type_text(WorkerType type) {
  switch (type) {
    case WorkerType::disk: return "disk";
    case WorkerType::network_tcp: return "network (TCP)";
    case WorkerType::network_vi: return "network (VI)";
  }
  return "unknown";
}

std::string data_pattern_text(DataPattern pattern) {
  switch (pattern) {
    case DataPattern::repeating_bytes: return "repeating bytes";
    case DataPattern::pseudo_random: return "pseudo random";
    case DataPattern::full_random: return "full random";
  }
  return "unknown";
}

void describe_worker(const Worker& worker, std::string& out) {
  out += "    Worker \"" + worker.name + "\" (" + worker_type_text(worker.type) + ")\n";
  std::string settings = "      outstanding I/Os " + std::to_string(worker.outstanding_ios);
  if (worker.type == WorkerType::disk) {
    settings += ", maximum size " + (worker.maximum_disk_size_sectors == 0
                                         ? std::string("whole target")
                                         : std::to_string(worker.maximum_disk_size_sectors) + " sectors");
    settings += ", starting sector " + std::to_string(worker.starting_sector);
    settings += ", data " + (worker.data_reduction ? access_specs::to_string(*worker.data_reduction) + " (IOmeter: " +
                                                       data_pattern_text(worker.data_pattern) + ")"
                                                 : data_pattern_text(worker.data_pattern));
    if (worker.rate_iops) settings += ", rate " + cli_text::format_fixed(*worker.rate_iops, *worker.rate_iops < 10 ? 2 : 0) + " IOPS";
  } else if (!worker.local_network_interface.empty()) {
    settings += ", local interface " + worker.local_network_interface;
  }
  if (worker.test_connection_rate) {
    settings += ", reconnect every " + std::to_string(worker.transactions_per_connection) + " transactions";
  }
  if (worker.use_fixed_seed) settings += ", fixed seed " + std::to_string(worker.fixed_seed);
  out += settings + '\n';
  if (worker.assigned_specs) {
    out += "      specs:";
    if (worker.assigned_specs->empty()) out += " (none)";
    for (std::size_t i = 0; i < worker.assigned_specs->size(); ++i) {
      out += (i == 0 ? " " : ", ") + (*worker.assigned_specs)[i];
    }
    out += '\n';
  }
  if (worker.targets) {
    out += "      targets:";
    if (worker.targets->empty()) out += " (none)";
    for (std::size_t i = 0; i < worker.targets->size(); ++i) {
      const auto& target = (*worker.targets)[i];
      out += (i == 0 ? " " : ", ") + target.name;
      if (!target.remote_manager_name.empty()) out += " on manager " + target.remote_manager_name;
    }
    out += '\n';
  }
}

}  // namespace

std::string describe_spec(const AccessSpec& spec) {
  std::string out = "\"" + spec.name + "\" (default assignment " + std::string(to_string(spec.default_assignment)) +
                    ", " + std::to_string(spec.lines.size()) + (spec.lines.size() == 1 ? " line" : " lines") + ")\n";
  TextTable table({{"size", Align::right},
                   {"% of size", Align::right},
                   {"% reads", Align::right},
                   {"% random", Align::right},
                   {"delay", Align::right},
                   {"burst", Align::right},
                   {"align", Align::right},
                   {"reply", Align::right}});
  for (const auto& line : spec.lines) {
    table.add_row({format_size(Bytes(line.size_bytes)), percent(line.percent_of_size), percent(line.percent_reads),
                   percent(line.percent_random), std::to_string(line.delay_ms) + " ms",
                   std::to_string(line.burst_transactions),
                   line.align_bytes == 0 ? std::string("sector") : format_size(Bytes(line.align_bytes)),
                   line.reply_bytes == 0 ? std::string("none") : format_size(Bytes(line.reply_bytes))});
  }
  return out + table.render();
}

std::string describe_plan(const TestPlan& plan) {
  std::string out;
  if (plan.setup) describe_setup(*plan.setup, out);
  if (plan.access_specs) {
    out += (out.empty() ? "" : "\n") + std::string("Access specifications (") +
           std::to_string(plan.access_specs->size()) + ")\n";
    for (const auto& spec : *plan.access_specs) out += "\n" + describe_spec(spec);
  }
  if (plan.managers) {
    out += (out.empty() ? "" : "\n") + std::string("Managers (") + std::to_string(plan.managers->size()) + ")\n";
    for (const auto& manager : *plan.managers) {
      out += "  Manager \"" + manager.name + "\"" +
             (manager.network_address.empty() ? std::string() : " at " + manager.network_address) + "\n";
      for (const auto& worker : manager.workers) describe_worker(worker, out);
    }
  }
  if (out.empty()) out = "The plan is empty: no section was found.\n";
  return out;
}

}  // namespace iomark::cli_text
