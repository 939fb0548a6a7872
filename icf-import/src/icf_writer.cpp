// write_icf(): the file IOmeter 1.1.0's "Save" writes (docs/iometer-reference.md#icf-sections),
// with LF line ends.
#include <array>
#include <charconv>
#include <string>

#include "iomark/icf/icf.hpp"
#include "icf_format.hpp"

namespace iomark::icf {

namespace {

using access_specs::AccessSpec;
using access_specs::BarChart;
using access_specs::Manager;
using access_specs::ResultsDisplay;
using access_specs::Target;
using access_specs::TestSetup;
using access_specs::Worker;
using access_specs::WorkerType;
using access_specs::WorkersToSpawn;

constexpr std::size_t kColumnWidth = 11;

class Writer {
 public:
  std::string release() { return std::move(out_); }

  void line(std::string_view text) {
    out_ += text;
    out_ += '\n';
  }

  // A value line: one TAB, then the text. A line break inside a value would end the line
  // and corrupt the structure, so it becomes a space.
  void value(std::string_view text) {
    out_ += '\t';
    for (const char c : text) out_ += (c == '\n' || c == '\r') ? ' ' : c;
    out_ += '\n';
  }

  void pair(std::string_view key, std::string_view text) {
    line(key);
    value(text);
  }

  // IOmeter's `setw(11) << left` columns: every value but the last padded to 11 characters.
  void columns(std::initializer_list<std::string> cells) {
    std::string text;
    std::size_t index = 0;
    for (const auto& cell : cells) {
      text += cell;
      if (++index < cells.size()) text.append(cell.size() < kColumnWidth ? kColumnWidth - cell.size() : 0, ' ');
    }
    value(text);
  }

 private:
  std::string out_;
};

std::string_view switch_literal(bool enabled) { return enabled ? format::kEnabled : format::kDisabled; }

std::string spawn_literal(const WorkersToSpawn& spawn) {
  return spawn.count ? std::to_string(*spawn.count) : std::string(format::kNumberOfCpus);
}

std::string id_and_name(std::uint32_t id, std::string_view name) { return std::to_string(id) + "," + std::string(name); }

void write_setup(Writer& w, const TestSetup& setup) {
  w.line(format::kTestSetupHeader);
  w.pair(format::kTestDescription, setup.description);
  w.line(format::kRunTime);
  w.line(format::kRunTimeCaption);
  w.columns({std::to_string(setup.run_time_s / 3600), std::to_string(setup.run_time_s % 3600 / 60),
             std::to_string(setup.run_time_s % 60)});
  w.pair(format::kRampUpTime, std::to_string(setup.ramp_up_s));
  w.pair(format::kDefaultDiskWorkers, spawn_literal(setup.default_disk_workers));
  w.pair(format::kDefaultNetworkWorkers, spawn_literal(setup.default_network_workers));
  w.pair(format::kRecordResults, to_string(setup.record_results));
  for (const auto& [key, cycling] : {std::pair{format::kWorkerCycling, &setup.worker_cycling},
                                     std::pair{format::kDiskCycling, &setup.target_cycling}}) {
    w.line(key);
    w.line(format::kCyclingCaption);
    w.columns({std::to_string(cycling->start), std::to_string(cycling->step), std::string(to_string(cycling->step_type))});
  }
  const auto& queue = setup.queue_depth_cycling;
  w.line(format::kQueueDepthCycling);
  w.line(format::kQueueDepthCaption);
  w.columns({std::to_string(queue.start), std::to_string(queue.end), std::to_string(queue.step),
             std::string(to_string(queue.step_type))});
  w.pair(format::kTestType, to_string(setup.test_type));
  w.line(format::kEndTestSetup);
}

void write_bar_chart(Writer& w, const BarChart& bar) {
  const std::string prefix = std::string(format::kBarChartPrefix) + " " + std::to_string(bar.number) + " ";
  w.pair(prefix + std::string(format::kBarStatistic), bar.statistic);
  if (bar.manager_id) w.pair(prefix + std::string(format::kBarManager), id_and_name(*bar.manager_id, bar.manager_name));
  if (bar.worker_id) w.pair(prefix + std::string(format::kBarWorker), id_and_name(*bar.worker_id, bar.worker_name));
}

void write_display(Writer& w, const ResultsDisplay& display) {
  w.line(format::kResultsDisplayHeader);
  const std::string_view type =
      display.update_type == access_specs::UpdateType::last_update ? format::kLastUpdate : format::kWholeTest;
  w.pair(format::kDisplayFirstKey, std::string(switch_literal(display.record_last_update)) + "," +
                                       std::to_string(display.update_frequency_s) + "," + std::string(type));
  for (const auto& bar : display.bar_charts) write_bar_chart(w, bar);
  w.line(format::kEndResultsDisplay);
}

void write_specs(Writer& w, const std::vector<AccessSpec>& specs) {
  w.line(format::kAccessSpecsHeader);
  for (const auto& spec : specs) {
    w.pair(format::kSpecNameKey, spec.name + "," + std::string(format::assignment_literal(spec.default_assignment)));
    w.line(format::kSpecLinesCaption);
    for (const auto& spec_line : spec.lines) w.value(access_specs::format_spec_line(spec_line));
  }
  w.line(format::kEndAccessSpecs);
}

// IOmeter writes the disk line only for disk workers, the interface only for network workers
// and the VI count only for VI workers. Settings a plan holds for another type are written
// too, so that nothing is lost; the reader accepts them with a warning.
void write_default_settings(Writer& w, const Worker& worker) {
  w.line(format::kDefaultSettings);
  w.pair(format::kOutstandingIos, std::to_string(worker.outstanding_ios) + "," +
                                      std::string(switch_literal(worker.test_connection_rate)) + "," +
                                      std::to_string(worker.transactions_per_connection) + "," +
                                      std::string(switch_literal(worker.use_fixed_seed)) + "," +
                                      std::to_string(worker.fixed_seed));
  const bool disk_settings = worker.maximum_disk_size_sectors != 0 || worker.starting_sector != 0 ||
                             worker.data_pattern != access_specs::DataPattern::repeating_bytes;
  if (worker.type == WorkerType::disk || disk_settings) {
    w.pair(format::kDiskSettings, std::to_string(worker.maximum_disk_size_sectors) + "," +
                                      std::to_string(worker.starting_sector) + "," +
                                      std::to_string(static_cast<unsigned>(worker.data_pattern)));
  }
  if (worker.type != WorkerType::disk || !worker.local_network_interface.empty()) {
    w.pair(format::kLocalInterface, worker.local_network_interface);
  }
  if (worker.vi_outstanding_ios) w.pair(format::kViOutstandingIos, std::to_string(*worker.vi_outstanding_ios));
  w.line(format::kEndDefaultSettings);
}

void write_target(Writer& w, const Target& target) {
  w.pair(format::kTargetKey, target.name);
  w.pair(format::kTargetType, format::worker_type_literal(target.type));
  if (target.remote_manager_id) {
    w.pair(format::kTargetManager, id_and_name(*target.remote_manager_id, target.remote_manager_name));
  }
  w.line(format::kEndTarget);
}

void write_worker(Writer& w, const Worker& worker) {
  w.pair(format::kWorkerKey, worker.name);
  w.pair(format::kWorkerType, format::worker_type_literal(worker.type));
  write_default_settings(w, worker);
  if (worker.assigned_specs) {
    w.line(format::kAssignedSpecs);
    for (const auto& name : *worker.assigned_specs) w.value(name);
    w.line(format::kEndAssignedSpecs);
  }
  if (worker.targets) {
    w.line(format::kTargetAssignments);
    for (const auto& target : *worker.targets) write_target(w, target);
    w.line(format::kEndTargetAssignments);
  }
  w.line(format::kEndWorker);
}

void write_managers(Writer& w, const std::vector<Manager>& managers) {
  w.line(format::kManagerListHeader);
  for (const auto& manager : managers) {
    w.pair(format::kManagerKey, id_and_name(manager.id, manager.name));
    w.pair(format::kManagerAddress, manager.network_address);
    for (const auto& worker : manager.workers) write_worker(w, worker);
    w.line(format::kEndManager);
  }
  w.line(format::kEndManagerList);
}

// The shortest text that reads back as the same double.
std::string rate_text(double rate) {
  std::array<char, 32> buffer{};
  const auto [end, error] = std::to_chars(buffer.data(), buffer.data() + buffer.size(), rate);
  return error == std::errc{} ? std::string(buffer.data(), end) : std::to_string(rate);
}

// Only when a worker has something IOmeter cannot hold, so other plans stay byte for byte
// what IOmeter writes.
void write_iomark_extensions(Writer& w, const access_specs::TestPlan& plan) {
  if (!plan.managers) return;
  bool header_written = false;
  for (std::size_t m = 0; m < plan.managers->size(); ++m) {
    const auto& workers = (*plan.managers)[m].workers;
    for (std::size_t i = 0; i < workers.size(); ++i) {
      if (!workers[i].data_reduction && !workers[i].rate_iops) continue;
      if (!header_written) w.line(format::kIomarkExtensionsHeader);
      header_written = true;
      const std::string position = std::to_string(m + 1) + "," + std::to_string(i + 1) + ",";
      if (workers[i].data_reduction) {
        w.pair(format::kDataReductionKey, position + access_specs::to_string(*workers[i].data_reduction));
      }
      if (workers[i].rate_iops) w.pair(format::kRateKey, position + rate_text(*workers[i].rate_iops));
    }
  }
  if (header_written) w.line(format::kEndIomarkExtensions);
}

}  // namespace

std::string write_icf(const access_specs::TestPlan& plan) {
  Writer w;
  const std::string version_line = std::string(format::kVersionPrefix) + " " + std::string(format::kWrittenVersion) + " ";
  w.line(version_line);
  if (plan.setup) write_setup(w, *plan.setup);
  if (plan.display) write_display(w, *plan.display);
  if (plan.access_specs) write_specs(w, *plan.access_specs);
  if (plan.managers) write_managers(w, *plan.managers);
  write_iomark_extensions(w, plan);
  w.line(version_line);
  return w.release();
}

}  // namespace iomark::icf
