#include <algorithm>
#include <limits>
#include <type_traits>

#include <nlohmann/json.hpp>

#include "iomark/results/results_json.hpp"
#include "iomark/results/csv_reader.hpp"
#include "json_names.hpp"

namespace iomark::results {
namespace {

using Json = nlohmann::json;
using detail::value_of;

// Reads typed values out of the document, remembering only the first problem (like an
// istream's failbit): every getter returns a default once an error is recorded, and the
// caller checks error() at the end. This keeps the walk over ~100 keys readable without
// exceptions.
class Decoder {
 public:
  explicit Decoder(std::string_view file_name) : file_name_(file_name) {}

  [[nodiscard]] const std::optional<Error>& error() const { return error_; }

  void fail_at(const std::string& path, std::string message) {
    if (error_) return;
    Error e(ErrorCode::parse_error, std::move(message));
    e.at({std::string(file_name_), 0}).in_field(path);
    error_ = std::move(e);
  }

  // object[key], or nullptr (and an error) if `object` is not an object or lacks the key.
  const Json* member(const Json& object, std::string_view key, const std::string& path) {
    if (error_) return nullptr;
    if (!object.is_object()) {
      fail_at(path, "expected an object");
      return nullptr;
    }
    const auto found = object.find(key);
    if (found == object.end()) {
      fail_at(join(path, key), "missing");
      return nullptr;
    }
    return &*found;
  }

  std::uint64_t u64(const Json& object, std::string_view key, const std::string& path) {
    const Json* value = member(object, key, path);
    if (value == nullptr) return 0;
    if (!value->is_number_unsigned()) {
      fail_at(join(path, key), "expected an unsigned integer");
      return 0;
    }
    return value->get<std::uint64_t>();
  }

  std::uint32_t u32(const Json& object, std::string_view key, const std::string& path) {
    const std::uint64_t value = u64(object, key, path);
    if (value > std::numeric_limits<std::uint32_t>::max()) {
      fail_at(join(path, key), "out of range (at most 4294967295)");
      return 0;
    }
    return static_cast<std::uint32_t>(value);
  }

  std::int64_t i64(const Json& object, std::string_view key, const std::string& path) {
    const Json* value = member(object, key, path);
    if (value == nullptr) return 0;
    if (value->is_number_unsigned() && value->get<std::uint64_t>() > std::uint64_t(INT64_MAX)) {
      fail_at(join(path, key), "out of range");
      return 0;
    }
    if (!value->is_number_integer()) {
      fail_at(join(path, key), "expected an integer");
      return 0;
    }
    return value->get<std::int64_t>();
  }

  double number(const Json& object, std::string_view key, const std::string& path) {
    const Json* value = member(object, key, path);
    if (value == nullptr) return 0;
    if (!value->is_number()) {
      fail_at(join(path, key), "expected a number");
      return 0;
    }
    const auto number = value->get<double>();
    if (!is_figure(number)) {
      fail_at(join(path, key), "not a figure (finite, below 1e15 in magnitude)");
      return 0;
    }
    return number;
  }

  bool boolean(const Json& object, std::string_view key, const std::string& path) {
    const Json* value = member(object, key, path);
    if (value == nullptr) return false;
    if (!value->is_boolean()) {
      fail_at(join(path, key), "expected true or false");
      return false;
    }
    return value->get<bool>();
  }

  std::string string(const Json& object, std::string_view key, const std::string& path) {
    const Json* value = member(object, key, path);
    if (value == nullptr) return {};
    if (!value->is_string()) {
      fail_at(join(path, key), "expected a string");
      return {};
    }
    return value->get<std::string>();
  }

  // An optional unsigned value: JSON null (or a missing key) is nullopt.
  std::optional<std::uint32_t> optional_u32(const Json& object, std::string_view key, const std::string& path) {
    if (error_ || !object.is_object()) return std::nullopt;
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) return std::nullopt;
    return u32(object, key, path);
  }

  // An optional figure: JSON null (or a missing key) is nullopt.
  std::optional<double> optional_number(const Json& object, std::string_view key, const std::string& path) {
    if (error_ || !object.is_object()) return std::nullopt;
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) return std::nullopt;
    return number(object, key, path);
  }

  // object[key] if it is a non-null value, nullptr for null or a missing key.
  const Json* nullable(const Json& object, std::string_view key) {
    if (error_ || !object.is_object()) return nullptr;
    const auto found = object.find(key);
    if (found == object.end() || found->is_null()) return nullptr;
    return &*found;
  }

  // The elements of the array object[key]; empty (and an error) if it is not an array.
  const Json::array_t* array(const Json& object, std::string_view key, const std::string& path) {
    const Json* value = member(object, key, path);
    if (value == nullptr) return nullptr;
    if (!value->is_array()) {
      fail_at(join(path, key), "expected an array");
      return nullptr;
    }
    return value->get_ptr<const Json::array_t*>();
  }

  template <typename Enum, std::size_t N>
  Enum enumeration(const Json& object, std::string_view key, const std::string& path,
                   const detail::EnumName<Enum> (&names)[N]) {
    return parsed_enum(object, key, path, [&](std::string_view text) { return value_of(names, text); });
  }

  // An enumeration spelled as text, read with `parse` (nullopt = unknown spelling).
  template <typename Parse>
  auto parsed_enum(const Json& object, std::string_view key, const std::string& path, Parse parse) {
    const std::string text = string(object, key, path);
    const auto value = parse(text);
    if (!error_ && !value) fail_at(join(path, key), "unknown value `" + text + "`");
    return value.value_or(typename std::remove_cvref_t<decltype(value)>::value_type{});
  }

  WallClockTime time(const Json& object, std::string_view key, const std::string& path) {
    const std::string text = string(object, key, path);
    const auto value = parse_rfc3339(text);
    if (!error_ && !value) fail_at(join(path, key), "not an RFC 3339 time: `" + text + "`");
    return value.value_or(WallClockTime{});
  }

  static std::string join(const std::string& path, std::string_view key) {
    return path.empty() ? std::string(key) : path + "." + std::string(key);
  }
  static std::string index(const std::string& path, std::string_view key, std::size_t i) {
    return join(path, key) + "[" + std::to_string(i) + "]";
  }

 private:
  std::string_view file_name_;
  std::optional<Error> error_;
};

LatencyTotals read_totals(Decoder& d, const Json& json, const std::string& path) {
  LatencyTotals totals;
  totals.count = d.u64(json, "count", path);
  totals.sum_ns = d.u64(json, "sum_ns", path);
  totals.max_ns = d.u64(json, "max_ns", path);
  return totals;
}

LatencyHistogram read_histogram(Decoder& d, const Json& json, const std::string& path) {
  LatencyHistogram histogram;
  std::array<std::uint64_t, LatencyHistogram::kBucketCount> buckets{};
  std::array<std::uint64_t, kLegacyLatencyBinCount> bins{};
  const std::uint64_t count = d.u64(json, "count", path);
  const std::uint64_t sum_ns = d.u64(json, "sum_ns", path);
  const std::uint64_t min_ns = d.u64(json, "min_ns", path);
  const std::uint64_t max_ns = d.u64(json, "max_ns", path);
  if (const auto* legacy = d.array(json, "legacy_bins", path)) {
    if (legacy->size() != bins.size()) d.fail_at(Decoder::join(path, "legacy_bins"), "expected 21 bins");
    for (std::size_t i = 0; i < legacy->size() && i < bins.size(); ++i) {
      if (!(*legacy)[i].is_number_unsigned()) {
        d.fail_at(Decoder::index(path, "legacy_bins", i), "expected an unsigned integer");
        break;
      }
      bins[i] = (*legacy)[i].get<std::uint64_t>();
    }
  }
  if (const auto* pairs = d.array(json, "buckets", path)) {
    for (std::size_t i = 0; i < pairs->size(); ++i) {
      const Json& pair = (*pairs)[i];
      if (!pair.is_array() || pair.size() != 2 || !pair[0].is_number_unsigned() || !pair[1].is_number_unsigned() ||
          pair[0].get<std::uint64_t>() >= buckets.size()) {
        d.fail_at(Decoder::index(path, "buckets", i), "expected [bucket index, count]");
        break;
      }
      buckets[pair[0].get<std::size_t>()] = pair[1].get<std::uint64_t>();
    }
  }
  if (d.error()) return histogram;
  if (!LatencyHistogram::restore(buckets, bins, sum_ns, min_ns, max_ns, histogram)) {
    d.fail_at(path, "inconsistent histogram (buckets, bins, count, sum, min and max disagree)");
  } else if (histogram.count() != count) {
    d.fail_at(Decoder::join(path, "count"), "does not match the buckets");
  }
  return histogram;
}

IoCounters read_counters(Decoder& d, const Json& json, const std::string& path) {
  IoCounters counters;
  counters.bytes_read = d.u64(json, "bytes_read", path);
  counters.bytes_written = d.u64(json, "bytes_written", path);
  if (const Json* reads = d.member(json, "reads", path)) counters.reads = read_totals(d, *reads, path + ".reads");
  if (const Json* writes = d.member(json, "writes", path)) counters.writes = read_totals(d, *writes, path + ".writes");
  if (const Json* transactions = d.member(json, "transactions", path)) {
    counters.transactions = read_totals(d, *transactions, path + ".transactions");
  }
  if (const Json* connections = d.member(json, "connections", path)) {
    counters.connections = read_totals(d, *connections, path + ".connections");
  }
  // Rate-controlled runs only.
  if (const Json* service = d.nullable(json, "service")) {
    counters.service = read_totals(d, *service, path + ".service");
  }
  if (const Json* issue_lag = d.nullable(json, "issue_lag")) {
    counters.issue_lag = read_totals(d, *issue_lag, path + ".issue_lag");
  }
  counters.read_errors = d.u64(json, "read_errors", path);
  counters.write_errors = d.u64(json, "write_errors", path);
  if (const Json* latency = d.member(json, "latency", path)) {
    counters.latency = CompactLatencyHistogram(read_histogram(d, *latency, path + ".latency"));
  }
  return counters;
}

VerifyReport read_verify(Decoder& d, const Json& json, const std::string& path) {
  VerifyReport report;
  report.blocks_checked = d.u64(json, "blocks_checked", path);
  report.blocks_not_judged = d.u64(json, "blocks_not_judged", path);
  report.corrupted = d.u64(json, "corrupted", path);
  report.misdirected = d.u64(json, "misdirected", path);
  report.stale = d.u64(json, "stale", path);
  report.busy_redraws = d.u64(json, "busy_redraws", path);
  if (const auto* findings = d.array(json, "first_findings", path)) {
    for (std::size_t i = 0; i < findings->size(); ++i) {
      const Json& item = (*findings)[i];
      const std::string at = Decoder::index(path, "first_findings", i);
      VerifyFinding finding;
      finding.failure = d.enumeration(item, "failure", at, detail::kVerifyFailureNames);
      finding.offset_bytes = d.u64(item, "offset_bytes", at);
      finding.expected_generation = d.u32(item, "expected_generation", at);
      finding.found_generation = d.u32(item, "found_generation", at);
      finding.found_offset_bytes = d.u64(item, "found_offset_bytes", at);
      finding.expected_checksum = d.u32(item, "expected_checksum", at);
      finding.found_checksum = d.u32(item, "found_checksum", at);
      report.first_findings.push_back(finding);
    }
  }
  return report;
}

CpuUtilization read_cpu(Decoder& d, const Json& json, const std::string& path) {
  CpuUtilization cpu;
  cpu.total_percent = d.number(json, "total_percent", path);
  cpu.user_percent = d.number(json, "user_percent", path);
  cpu.privileged_percent = d.number(json, "privileged_percent", path);
  cpu.dpc_percent = d.number(json, "dpc_percent", path);
  cpu.interrupt_percent = d.number(json, "interrupt_percent", path);
  cpu.interrupts_per_second = d.number(json, "interrupts_per_second", path);
  return cpu;
}

access_specs::AccessSpec read_spec(Decoder& d, const Json& json, const std::string& path) {
  access_specs::AccessSpec spec;
  spec.name = d.string(json, "name", path);
  spec.default_assignment = d.enumeration(json, "default_assignment", path, detail::kAssignmentNames);
  if (const auto* lines = d.array(json, "lines", path)) {
    for (std::size_t i = 0; i < lines->size(); ++i) {
      const Json& line = (*lines)[i];
      const std::string at = Decoder::index(path, "lines", i);
      access_specs::AccessSpecLine out;
      out.size_bytes = d.u32(line, "size_bytes", at);
      out.percent_of_size = d.u32(line, "percent_of_size", at);
      out.percent_reads = d.u32(line, "percent_reads", at);
      out.percent_random = d.u32(line, "percent_random", at);
      out.delay_ms = d.u32(line, "delay_ms", at);
      out.burst_transactions = d.u32(line, "burst_transactions", at);
      out.align_bytes = d.u32(line, "align_bytes", at);
      out.reply_bytes = d.u32(line, "reply_bytes", at);
      spec.lines.push_back(out);
    }
  }
  return spec;
}

std::vector<access_specs::AccessSpec> read_specs(Decoder& d, const Json& json, std::string_view key,
                                                 const std::string& path) {
  std::vector<access_specs::AccessSpec> specs;
  if (const auto* items = d.array(json, key, path)) {
    for (std::size_t i = 0; i < items->size(); ++i) {
      specs.push_back(read_spec(d, (*items)[i], Decoder::index(path, key, i)));
    }
  }
  return specs;
}

access_specs::WorkersToSpawn read_spawn(Decoder& d, const Json& json, std::string_view key, const std::string& path) {
  const Json* value = d.member(json, key, path);
  if (value == nullptr) return {};
  if (value->is_string() && value->get<std::string>() == "NUMBER_OF_CPUS") return {std::nullopt};
  return {d.u32(json, key, path)};
}

access_specs::TestSetup read_setup(Decoder& d, const Json& json, const std::string& path) {
  access_specs::TestSetup setup;
  const auto step_type = [&](const Json& object, const std::string& at) {
    return d.parsed_enum(object, "step_type", at, access_specs::parse_step_type);
  };
  const auto cycling = [&](std::string_view key) {
    access_specs::Cycling c;
    const std::string at = Decoder::join(path, key);
    if (const Json* json_cycling = d.member(json, key, path)) {
      c.start = d.u32(*json_cycling, "start", at);
      c.step = d.u32(*json_cycling, "step", at);
      c.step_type = step_type(*json_cycling, at);
    }
    return c;
  };
  setup.description = d.string(json, "description", path);
  setup.run_time_s = d.u32(json, "run_time_s", path);
  setup.ramp_up_s = d.u32(json, "ramp_up_s", path);
  setup.default_disk_workers = read_spawn(d, json, "default_disk_workers", path);
  setup.default_network_workers = read_spawn(d, json, "default_network_workers", path);
  setup.record_results = d.parsed_enum(json, "record_results", path, access_specs::parse_record_results);
  setup.worker_cycling = cycling("worker_cycling");
  setup.target_cycling = cycling("target_cycling");
  if (const Json* q = d.member(json, "queue_depth_cycling", path)) {
    const std::string at = path + ".queue_depth_cycling";
    setup.queue_depth_cycling.start = d.u32(*q, "start", at);
    setup.queue_depth_cycling.end = d.u32(*q, "end", at);
    setup.queue_depth_cycling.step = d.u32(*q, "step", at);
    setup.queue_depth_cycling.step_type = step_type(*q, at);
  }
  setup.test_type = d.parsed_enum(json, "test_type", path, access_specs::parse_test_type);
  return setup;
}

access_specs::ResultsDisplay read_display(Decoder& d, const Json& json, const std::string& path) {
  access_specs::ResultsDisplay display;
  display.record_last_update = d.boolean(json, "record_last_update", path);
  display.update_frequency_s = d.u32(json, "update_frequency_s", path);
  display.update_type = d.enumeration(json, "update_type", path, detail::kUpdateTypeNames);
  if (const auto* charts = d.array(json, "bar_charts", path)) {
    for (std::size_t i = 0; i < charts->size(); ++i) {
      const Json& chart = (*charts)[i];
      const std::string at = Decoder::index(path, "bar_charts", i);
      access_specs::BarChart out;
      out.number = d.u32(chart, "number", at);
      out.statistic = d.string(chart, "statistic", at);
      out.manager_id = d.optional_u32(chart, "manager_id", at);
      out.manager_name = d.string(chart, "manager_name", at);
      out.worker_id = d.optional_u32(chart, "worker_id", at);
      out.worker_name = d.string(chart, "worker_name", at);
      display.bar_charts.push_back(std::move(out));
    }
  }
  return display;
}

access_specs::Worker read_plan_worker(Decoder& d, const Json& json, const std::string& path) {
  access_specs::Worker worker;
  worker.name = d.string(json, "name", path);
  worker.type = d.enumeration(json, "type", path, detail::kWorkerTypeNames);
  worker.outstanding_ios = d.u32(json, "outstanding_ios", path);
  worker.test_connection_rate = d.boolean(json, "test_connection_rate", path);
  worker.transactions_per_connection = d.u32(json, "transactions_per_connection", path);
  worker.use_fixed_seed = d.boolean(json, "use_fixed_seed", path);
  worker.fixed_seed = d.u64(json, "fixed_seed", path);
  worker.maximum_disk_size_sectors = d.u64(json, "maximum_disk_size_sectors", path);
  worker.starting_sector = d.u64(json, "starting_sector", path);
  worker.data_pattern = d.enumeration(json, "data_pattern", path, detail::kDataPatternNames);
  // Absent in files written before the reduction patterns.
  if (const Json* reduction = d.nullable(json, "data_reduction"); reduction != nullptr) {
    const auto parsed = reduction->is_string() ? access_specs::parse_data_reduction(reduction->get<std::string>())
                                               : Result<access_specs::DataReduction>(fail(ErrorCode::parse_error,
                                                                                          "expected a string"));
    if (parsed) {
      worker.data_reduction = *parsed;
    } else {
      d.fail_at(path + ".data_reduction", parsed.error().message());
    }
  }
  worker.local_network_interface = d.string(json, "local_network_interface", path);
  worker.vi_outstanding_ios = d.optional_u32(json, "vi_outstanding_ios", path);
  if (d.nullable(json, "assigned_specs") != nullptr) {
    std::vector<std::string> names;
    if (const auto* items = d.array(json, "assigned_specs", path)) {
      for (std::size_t i = 0; i < items->size(); ++i) {
        if (!(*items)[i].is_string()) {
          d.fail_at(Decoder::index(path, "assigned_specs", i), "expected a string");
          break;
        }
        names.push_back((*items)[i].get<std::string>());
      }
    }
    worker.assigned_specs = std::move(names);
  }
  if (d.nullable(json, "targets") != nullptr) {
    std::vector<access_specs::Target> targets;
    if (const auto* items = d.array(json, "targets", path)) {
      for (std::size_t i = 0; i < items->size(); ++i) {
        const Json& target = (*items)[i];
        const std::string at = Decoder::index(path, "targets", i);
        access_specs::Target out;
        out.name = d.string(target, "name", at);
        out.type = d.enumeration(target, "type", at, detail::kWorkerTypeNames);
        out.remote_manager_id = d.optional_u32(target, "remote_manager_id", at);
        out.remote_manager_name = d.string(target, "remote_manager_name", at);
        targets.push_back(std::move(out));
      }
    }
    worker.targets = std::move(targets);
  }
  return worker;
}

access_specs::TestPlan read_plan(Decoder& d, const Json& json, const std::string& path) {
  access_specs::TestPlan plan;
  if (const Json* setup = d.nullable(json, "setup")) plan.setup = read_setup(d, *setup, path + ".setup");
  if (const Json* display = d.nullable(json, "display")) plan.display = read_display(d, *display, path + ".display");
  if (d.nullable(json, "access_specs") != nullptr) plan.access_specs = read_specs(d, json, "access_specs", path);
  if (d.nullable(json, "managers") != nullptr) {
    std::vector<access_specs::Manager> managers;
    if (const auto* items = d.array(json, "managers", path)) {
      for (std::size_t m = 0; m < items->size(); ++m) {
        const Json& manager = (*items)[m];
        const std::string at = Decoder::index(path, "managers", m);
        access_specs::Manager out;
        out.id = d.u32(manager, "id", at);
        out.name = d.string(manager, "name", at);
        out.network_address = d.string(manager, "network_address", at);
        if (const auto* workers = d.array(manager, "workers", at)) {
          for (std::size_t w = 0; w < workers->size(); ++w) {
            out.workers.push_back(read_plan_worker(d, (*workers)[w], Decoder::index(at, "workers", w)));
          }
        }
        managers.push_back(std::move(out));
      }
    }
    plan.managers = std::move(managers);
  }
  return plan;
}

WorkerResult read_worker(Decoder& d, const Json& json, const std::string& path) {
  WorkerResult worker;
  worker.name = d.string(json, "name", path);
  worker.kind = d.enumeration(json, "kind", path, detail::kWorkerKindNames);
  worker.spec_name = d.string(json, "spec_name", path);
  worker.recording_window = Nanoseconds(d.i64(json, "recording_window_ns", path));
  worker.starting_sector = d.u64(json, "starting_sector", path);
  worker.maximum_size_sectors = d.u64(json, "maximum_size_sectors", path);
  worker.queue_depth = d.u32(json, "queue_depth", path);
  // Absent in files written before iomark recorded the engine.
  if (const Json* engine = d.nullable(json, "engine")) {
    worker.engine = d.string(*engine, "name", path + ".engine");
    worker.engine_reason = d.string(*engine, "reason", path + ".engine");
  }
  worker.test_connection_rate = d.boolean(json, "test_connection_rate", path);
  worker.transactions_per_connection = d.u32(json, "transactions_per_connection", path);
  if (d.nullable(json, "data_pattern") != nullptr) worker.data_pattern = d.string(json, "data_pattern", path);
  if (const auto* targets = d.array(json, "targets", path)) {
    for (std::size_t t = 0; t < targets->size(); ++t) {
      const Json& target = (*targets)[t];
      const std::string at = Decoder::index(path, "targets", t);
      TargetResult out;
      out.name = d.string(target, "name", at);
      out.kind = d.enumeration(target, "kind", at, detail::kTargetKindNames);
      if (const Json* counters = d.member(target, "counters", at)) {
        out.counters = read_counters(d, *counters, at + ".counters");
      }
      // Absent unless the run verified its data (--verify).
      if (const Json* verify = d.nullable(target, "verify")) out.verify = read_verify(d, *verify, at + ".verify");
      worker.targets.push_back(std::move(out));
    }
  }
  return worker;
}

ManagerResult read_manager(Decoder& d, const Json& json, const std::string& path) {
  ManagerResult manager;
  manager.name = d.string(json, "name", path);
  if (const Json* host = d.member(json, "host", path)) {
    const std::string at = path + ".host";
    manager.host.cpu_count = d.u32(*host, "cpu_count", at);
    manager.host.os_name = d.string(*host, "os_name", at);
    manager.host.kernel_release = d.string(*host, "kernel_release", at);
    manager.host.iomark_version = d.string(*host, "iomark_version", at);
  }
  manager.timer_resolution_hz = d.u64(json, "timer_resolution_hz", path);
  if (manager.timer_resolution_hz == 0 && !d.error()) d.fail_at(path + ".timer_resolution_hz", "must not be 0");
  if (const auto* cpus = d.array(json, "cpus", path)) {
    for (std::size_t i = 0; i < cpus->size(); ++i) {
      manager.cpus.push_back(read_cpu(d, (*cpus)[i], Decoder::index(path, "cpus", i)));
    }
  }
  if (const Json* network = d.member(json, "network", path)) {
    const std::string at = path + ".network";
    manager.network.packets_per_second = d.number(*network, "packets_per_second", at);
    manager.network.packet_errors_per_second = d.number(*network, "packet_errors_per_second", at);
    manager.network.segments_retransmitted_per_second = d.number(*network, "segments_retransmitted_per_second", at);
  }
  if (const auto* workers = d.array(json, "workers", path)) {
    for (std::size_t w = 0; w < workers->size(); ++w) {
      manager.workers.push_back(read_worker(d, (*workers)[w], Decoder::index(path, "workers", w)));
    }
  }
  return manager;
}

RunInfo read_run_info(Decoder& d, const Json& json, const std::string& path) {
  RunInfo info;
  info.access_index = d.u32(json, "access_index", path);
  info.cycling_step = d.u32(json, "cycling_step", path);
  info.queue_depth = d.optional_u32(json, "queue_depth", path);
  info.test_type = d.parsed_enum(json, "test_type", path, access_specs::parse_test_type);
  info.description = d.string(json, "description", path);
  info.start_time = d.time(json, "start_time", path);
  info.end_time = d.time(json, "end_time", path);
  info.specs = read_specs(d, json, "specs", path);
  return info;
}

FailedRun read_failed_run(Decoder& d, const Json& json, const std::string& path) {
  FailedRun failed;
  failed.info = read_run_info(d, json, path);
  failed.position = d.u32(json, "position", path);
  failed.error = d.string(json, "error", path);
  return failed;
}

SteadyStateRecord read_steady_state(Decoder& d, const Json& json, const std::string& path) {
  SteadyStateRecord record;
  record.figure = d.string(json, "figure", path);
  record.max_rounds = d.u32(json, "max_rounds", path);
  record.window = d.u32(json, "window", path);
  if (const auto* rounds = d.array(json, "rounds", path)) {
    for (std::size_t r = 0; r < rounds->size(); ++r) {
      const auto& value = (*rounds)[r];
      if (!value.is_number() || !is_figure(value.get<double>())) {
        d.fail_at(Decoder::index(path, "rounds", r), "not a figure (finite, below 1e15 in magnitude)");
        break;
      }
      record.rounds.push_back(value.get<double>());
    }
  }
  record.steady = d.boolean(json, "steady", path);
  record.window_first = d.u32(json, "window_first", path);
  record.average = d.number(json, "average", path);
  record.data_excursion = d.number(json, "data_excursion", path);
  record.slope_excursion = d.number(json, "slope_excursion", path);
  record.slope = d.number(json, "slope", path);
  record.reason = d.string(json, "reason", path);
  return record;
}

// Rates and latencies: a negative one is a corrupt or hand-made file, and would draw below the axis.
double non_negative(Decoder& d, double value, const std::string& path) {
  if (value < 0) d.fail_at(path, "must not be negative");
  return value;
}

MaxIopsStep read_max_iops_step(Decoder& d, const Json& json, const std::string& path) {
  MaxIopsStep step;
  step.run = d.u32(json, "run", path);
  step.outstanding_ios = d.u32(json, "outstanding_ios", path);
  if (step.outstanding_ios == 0) d.fail_at(path + ".outstanding_ios", "must not be 0");
  step.rate_iops = d.optional_number(json, "rate_iops", path);
  if (step.rate_iops) non_negative(d, *step.rate_iops, path + ".rate_iops");
  step.iops = non_negative(d, d.number(json, "iops", path), path + ".iops");
  step.latency_ms = non_negative(d, d.number(json, "latency_ms", path), path + ".latency_ms");
  step.within = d.boolean(json, "within", path);
  return step;
}

MaxIopsRecord read_max_iops_search(Decoder& d, const Json& json, const std::string& path) {
  MaxIopsRecord record;
  record.figure = d.string(json, "figure", path);
  record.limit_ms = non_negative(d, d.number(json, "limit_ms", path), path + ".limit_ms");
  if (const auto* steps = d.array(json, "steps", path)) {
    for (std::size_t s = 0; s < steps->size(); ++s) {
      record.steps.push_back(read_max_iops_step(d, (*steps)[s], Decoder::index(path, "steps", s)));
    }
  }
  record.chosen = d.optional_u32(json, "chosen", path);
  if (record.chosen && *record.chosen >= record.steps.size()) {
    d.fail_at(path + ".chosen", "no such step (" + std::to_string(record.steps.size()) + " steps)");
  }
  record.finished = d.boolean(json, "finished", path);
  record.conclusion = d.string(json, "conclusion", path);
  return record;
}

// An array of unsigned integers from `least` to `most`, each checked where it stands.
std::vector<std::uint64_t> read_counts(Decoder& d, const Json& json, std::string_view key, const std::string& path,
                                       std::uint64_t least, std::uint64_t most) {
  std::vector<std::uint64_t> counts;
  const auto* values = d.array(json, key, path);
  if (values == nullptr) return counts;
  for (std::size_t i = 0; i < values->size(); ++i) {
    const auto& value = (*values)[i];
    if (!value.is_number_unsigned() || value.get<std::uint64_t>() < least || value.get<std::uint64_t>() > most) {
      d.fail_at(Decoder::index(path, key, i),
                "expected a whole number from " + std::to_string(least) + " to " + std::to_string(most));
      break;
    }
    counts.push_back(value.get<std::uint64_t>());
  }
  if (counts.empty() && values->empty()) d.fail_at(Decoder::join(path, key), "must not be empty");
  return counts;
}

PreconditionRecord read_precondition(Decoder& d, const Json& json, const std::string& path) {
  PreconditionRecord record;
  record.passes = d.u32(json, "passes", path);
  if (record.passes == 0) d.fail_at(path + ".passes", "must not be 0");
  record.block_bytes = d.u64(json, "block_bytes", path);
  // A spec's writes or 128 KiB sequential ones, never both nor neither.
  if (const Json* spec = d.nullable(json, "spec")) {
    record.spec = read_spec(d, *spec, path + ".spec");
    if (record.block_bytes != 0) d.fail_at(path + ".block_bytes", "must be 0 with a spec");
  } else if (record.block_bytes == 0) {
    d.fail_at(path + ".block_bytes", "must not be 0");
  }
  if (const auto* targets = d.array(json, "targets", path)) {
    for (std::size_t t = 0; t < targets->size(); ++t) {
      if (!(*targets)[t].is_string()) {
        d.fail_at(Decoder::index(path, "targets", t), "expected a string");
        break;
      }
      record.targets.push_back((*targets)[t].get<std::string>());
    }
  }
  return record;
}

// A matrix larger than this is not a PTS round: it bounds what a report lays out.
constexpr std::uint64_t kMaxPtsAxis = 64;

PtsIopsRecord read_pts_iops(Decoder& d, const Json& json, const std::string& path) {
  PtsIopsRecord record;
  for (const auto percent : read_counts(d, json, "read_percents", path, 0, 100)) {
    record.read_percents.push_back(static_cast<std::uint32_t>(percent));
  }
  record.block_bytes = read_counts(d, json, "block_bytes", path, 1, std::uint64_t{1} << 30);
  if (record.read_percents.size() > kMaxPtsAxis || record.block_bytes.size() > kMaxPtsAxis) {
    d.fail_at(path, "more than " + std::to_string(kMaxPtsAxis) + " mixes or block sizes");
  }
  return record;
}

RunResults read_run(Decoder& d, const Json& json, const std::string& path) {
  RunResults run;
  run.info = read_run_info(d, json, path);
  // Absent from files written before interrupted runs were recorded: completed then.
  if (d.nullable(json, "outcome") != nullptr) run.end = d.enumeration(json, "outcome", path, detail::kRunEndNames);
  if (const auto* managers = d.array(json, "managers", path)) {
    for (std::size_t m = 0; m < managers->size(); ++m) {
      run.managers.push_back(read_manager(d, (*managers)[m], Decoder::index(path, "managers", m)));
    }
  }
  return run;
}

SeriesResults read_document(Decoder& d, const Json& json) {
  SeriesResults series;
  if (const Json* info = d.member(json, "series", "")) {
    series.info.test_type = d.parsed_enum(*info, "test_type", "series", access_specs::parse_test_type);
    series.info.description = d.string(*info, "description", "series");
    series.info.start_time = d.time(*info, "start_time", "series");
    series.info.record_results = d.parsed_enum(*info, "record_results", "series", access_specs::parse_record_results);
    series.info.iomark_version = d.string(*info, "iomark_version", "series");
  }
  series.outcome = d.enumeration(json, "outcome", "", detail::kOutcomeNames);
  if (const Json* plan = d.nullable(json, "plan")) series.plan = read_plan(d, *plan, "plan");
  if (const auto* runs = d.array(json, "runs", "")) {
    for (std::size_t r = 0; r < runs->size(); ++r) series.runs.push_back(read_run(d, (*runs)[r], Decoder::index("", "runs", r)));
  }
  // Absent from files written before failed runs were recorded: none then.
  if (d.nullable(json, "failed_runs") != nullptr) {
    if (const auto* failed = d.array(json, "failed_runs", "")) {
      for (std::size_t r = 0; r < failed->size(); ++r) {
        series.failed_runs.push_back(read_failed_run(d, (*failed)[r], Decoder::index("", "failed_runs", r)));
      }
    }
  }
  // Only a series run in rounds has it.
  if (const Json* steady = d.nullable(json, "steady_state")) series.steady_state = read_steady_state(d, *steady, "steady_state");
  // Only a --find-max-iops series has it.
  if (const Json* search = d.nullable(json, "max_iops_search")) {
    series.max_iops_search = read_max_iops_search(d, *search, "max_iops_search");
  }
  // Only a series that preconditioned, and only `iomark pts iops`, have these.
  if (const Json* precondition = d.nullable(json, "precondition")) {
    series.precondition = read_precondition(d, *precondition, "precondition");
  }
  if (const Json* pts = d.nullable(json, "pts_iops")) series.pts_iops = read_pts_iops(d, *pts, "pts_iops");
  return series;
}

std::uint64_t line_of_byte(std::string_view text, std::size_t byte) {
  const std::size_t end = std::min(byte, text.size());
  return 1 + static_cast<std::uint64_t>(std::count(text.begin(), text.begin() + static_cast<std::ptrdiff_t>(end), '\n'));
}

// The line of the first number token spelled `token` (nlohmann's out_of_range names the token
// of a number too large for a double, -1e400, but not where it is).
std::uint64_t line_of_number(std::string_view text, std::string_view token) {
  for (std::size_t at = text.find(token); at != std::string_view::npos; at = text.find(token, at + 1)) {
    const auto delimits = [](char c) { return c == ',' || c == ':' || c == '[' || c == ' ' || c == '\n' || c == '\t' || c == '\r'; };
    if (at == 0 || delimits(text[at - 1])) return line_of_byte(text, at);
  }
  return 0;
}

}  // namespace

Result<SeriesResults> read_results_json(std::string_view text, std::string_view file_name) {
  if (text.size() > kMaxJsonBytes) {
    return fail(Error(ErrorCode::parse_error, "larger than " + std::to_string(kMaxJsonBytes >> 20) +
                                                  " MiB: not a results file this reader takes")
                    .at({std::string(file_name), 0}));
  }
  Json document;
  try {
    document = Json::parse(text);
  } catch (const Json::parse_error& e) {
    return fail(Error(ErrorCode::parse_error, std::string("invalid JSON: ") + e.what())
                    .at({std::string(file_name), line_of_byte(text, e.byte)}));
  } catch (const Json::exception& e) {
    // out_of_range 406, "number overflow parsing '-1e400'": a number no double holds.
    const std::string what = e.what();
    const auto open = what.find('\'');
    const auto close = open == std::string::npos ? std::string::npos : what.find('\'', open + 1);
    const auto line = close == std::string::npos ? 0 : line_of_number(text, std::string_view(what).substr(open + 1, close - open - 1));
    return fail(Error(ErrorCode::parse_error, "invalid JSON: " + what).at({std::string(file_name), line}));
  }
  Decoder d(file_name);
  const std::string format = d.string(document, "format", "");
  if (!d.error() && format != kJsonFormatName) {
    d.fail_at("format", "not an iomark results file (format `" + format + "`)");
  }
  const std::uint64_t version = d.u64(document, "format_version", "");
  if (!d.error() && (version == 0 || version > static_cast<std::uint64_t>(kJsonFormatVersion))) {
    d.fail_at("format_version", "version " + std::to_string(version) + " is not supported (this build reads 1 to " +
                                    std::to_string(kJsonFormatVersion) + ")");
  }
  SeriesResults series = read_document(d, document);
  if (d.error()) return fail(*d.error());
  return series;
}

}  // namespace iomark::results
