#include <nlohmann/json.hpp>

#include "iomark/results/results_json.hpp"
#include "iomark/results/summary.hpp"
#include "json_names.hpp"

namespace iomark::results {
namespace {

using Json = nlohmann::ordered_json;
using detail::name_of;

Json optional_number(const auto& value) { return value ? Json(*value) : Json(nullptr); }

Json totals_json(const LatencyTotals& totals) {
  return Json{{"count", totals.count}, {"sum_ns", totals.sum_ns}, {"max_ns", totals.max_ns}};
}

Json histogram_json(const CompactLatencyHistogram& histogram) {
  // Only non-empty buckets, as [index, count] pairs: a histogram is mostly zeros.
  Json buckets = Json::array();
  const auto counts = histogram.span();
  for (std::size_t i = 0; i < counts.size(); ++i) {
    if (counts[i] != 0) buckets.push_back(Json::array({histogram.first_bucket() + i, counts[i]}));
  }
  return Json{{"count", histogram.count()},
              {"sum_ns", histogram.sum_ns()},
              {"min_ns", histogram.min().count()},
              {"max_ns", histogram.max().count()},
              {"legacy_bins", histogram.legacy_bins()},
              {"buckets", std::move(buckets)}};
}

// Every counter except the histogram.
Json scalar_counters_json(const IoCounters& counters) {
  Json json{{"bytes_read", counters.bytes_read},
            {"bytes_written", counters.bytes_written},
            {"reads", totals_json(counters.reads)},
            {"writes", totals_json(counters.writes)},
            {"transactions", totals_json(counters.transactions)},
            {"connections", totals_json(counters.connections)},
            {"read_errors", counters.read_errors},
            {"write_errors", counters.write_errors}};
  // Rate-controlled runs only: other documents stay as they were.
  if (counters.service.count != 0) json["service"] = totals_json(counters.service);
  if (counters.issue_lag.count != 0) json["issue_lag"] = totals_json(counters.issue_lag);
  return json;
}

Json counters_json(const IoCounters& counters) {
  Json json = scalar_counters_json(counters);
  json["latency"] = histogram_json(counters.latency);
  return json;
}

// The exact latency figures of a summary. When some I/Os were not timed exactly (a Dynamo
// manager's), only their count is given: percentiles of the rest would be invented.
Json latency_summary_json(const CompactLatencyHistogram& histogram) {
  if (!histogram.percentiles_cover_every_io()) return Json{{"count", histogram.count()}};
  return Json{{"count", histogram.count()},
              {"min", histogram.min().count()},
              {"mean", histogram.mean().count()},
              {"max", histogram.max().count()},
              {"p50", histogram.percentile(50).count()},
              {"p90", histogram.percentile(90).count()},
              {"p99", histogram.percentile(99).count()},
              {"p99_9", histogram.percentile(99.9).count()},
              {"p99_99", histogram.percentile(99.99).count()}};
}

Json cpu_json(const CpuUtilization& cpu) {
  return Json{{"total_percent", cpu.total_percent},
              {"user_percent", cpu.user_percent},
              {"privileged_percent", cpu.privileged_percent},
              {"dpc_percent", cpu.dpc_percent},
              {"interrupt_percent", cpu.interrupt_percent},
              {"interrupts_per_second", cpu.interrupts_per_second}};
}

Json network_json(const NetworkStats& network) {
  return Json{{"packets_per_second", network.packets_per_second},
              {"packet_errors_per_second", network.packet_errors_per_second},
              {"segments_retransmitted_per_second", network.segments_retransmitted_per_second}};
}

Json summary_json(const Summary& s) {
  const Rates& r = s.rates;
  const CompactLatencyHistogram& histogram = s.counters.latency;
  Json json{{"iops", r.iops},
            {"read_iops", r.read_iops},
            {"write_iops", r.write_iops},
            {"mib_per_s", r.mib_per_s},
            {"read_mib_per_s", r.read_mib_per_s},
            {"write_mib_per_s", r.write_mib_per_s},
            {"mb_per_s", r.mb_per_s},
            {"read_mb_per_s", r.read_mb_per_s},
            {"write_mb_per_s", r.write_mb_per_s},
            {"transactions_per_s", r.transactions_per_s},
            {"connections_per_s", r.connections_per_s},
            {"average_response_ms", s.average_response_ms()},
            {"average_read_ms", s.average_read_ms()},
            {"average_write_ms", s.average_write_ms()},
            {"average_transaction_ms", s.average_transaction_ms()},
            {"average_connection_ms", s.average_connection_ms()},
            {"maximum_response_ms", s.maximum_response_ms()},
            {"maximum_read_ms", s.maximum_read_ms()},
            {"maximum_write_ms", s.maximum_write_ms()},
            {"maximum_transaction_ms", s.maximum_transaction_ms()},
            {"maximum_connection_ms", s.maximum_connection_ms()},
            {"errors", s.counters.error_count()},
            {"latency_ns", latency_summary_json(histogram)},
            {"legacy_bins", histogram.legacy_bins()},
            {"run_time_ns", s.run_time.count()},
            {"managers", s.manager_count},
            {"workers", s.worker_count},
            {"targets", s.target_count},
            {"spec_name", s.spec_name},
            {"transactions_per_connection", optional_number(s.transactions_per_connection)},
            {"starting_sector", optional_number(s.starting_sector)},
            {"maximum_size_sectors", optional_number(s.maximum_size_sectors)},
            {"queue_depth", optional_number(s.queue_depth)}};
  if (s.rate_controlled()) {
    json["average_service_ms"] = s.average_service_ms();
    json["maximum_service_ms"] = s.maximum_service_ms();
    json["average_issue_lag_ms"] = s.average_issue_lag_ms();
    json["maximum_issue_lag_ms"] = s.maximum_issue_lag_ms();
  }
  if (s.cpu) {
    json["cpu"] = cpu_json(*s.cpu);
    json["cpu_effectiveness"] = s.cpu_effectiveness();
  }
  if (s.network) json["network"] = network_json(*s.network);
  json["counters"] = scalar_counters_json(s.counters);
  return json;
}

Json spec_json(const access_specs::AccessSpec& spec) {
  Json lines = Json::array();
  for (const access_specs::AccessSpecLine& line : spec.lines) {
    lines.push_back(Json{{"size_bytes", line.size_bytes},
                         {"percent_of_size", line.percent_of_size},
                         {"percent_reads", line.percent_reads},
                         {"percent_random", line.percent_random},
                         {"delay_ms", line.delay_ms},
                         {"burst_transactions", line.burst_transactions},
                         {"align_bytes", line.align_bytes},
                         {"reply_bytes", line.reply_bytes}});
  }
  return Json{{"name", spec.name},
              {"default_assignment", name_of(detail::kAssignmentNames, spec.default_assignment)},
              {"lines", std::move(lines)}};
}

Json specs_json(const std::vector<access_specs::AccessSpec>& specs) {
  Json json = Json::array();
  for (const auto& spec : specs) json.push_back(spec_json(spec));
  return json;
}

Json workers_to_spawn_json(const access_specs::WorkersToSpawn& spawn) {
  return spawn.count ? Json(*spawn.count) : Json("NUMBER_OF_CPUS");
}

Json setup_json(const access_specs::TestSetup& setup) {
  const auto cycling = [](const access_specs::Cycling& c) {
    return Json{{"start", c.start}, {"step", c.step}, {"step_type", access_specs::to_string(c.step_type)}};
  };
  const access_specs::QueueDepthCycling& q = setup.queue_depth_cycling;
  return Json{{"description", setup.description},
              {"run_time_s", setup.run_time_s},
              {"ramp_up_s", setup.ramp_up_s},
              {"default_disk_workers", workers_to_spawn_json(setup.default_disk_workers)},
              {"default_network_workers", workers_to_spawn_json(setup.default_network_workers)},
              {"record_results", access_specs::to_string(setup.record_results)},
              {"worker_cycling", cycling(setup.worker_cycling)},
              {"target_cycling", cycling(setup.target_cycling)},
              {"queue_depth_cycling",
               {{"start", q.start}, {"end", q.end}, {"step", q.step}, {"step_type", access_specs::to_string(q.step_type)}}},
              {"test_type", access_specs::to_string(setup.test_type)}};
}

Json display_json(const access_specs::ResultsDisplay& display) {
  Json charts = Json::array();
  for (const access_specs::BarChart& chart : display.bar_charts) {
    charts.push_back(Json{{"number", chart.number},
                          {"statistic", chart.statistic},
                          {"manager_id", optional_number(chart.manager_id)},
                          {"manager_name", chart.manager_name},
                          {"worker_id", optional_number(chart.worker_id)},
                          {"worker_name", chart.worker_name}});
  }
  return Json{{"record_last_update", display.record_last_update},
              {"update_frequency_s", display.update_frequency_s},
              {"update_type", name_of(detail::kUpdateTypeNames, display.update_type)},
              {"bar_charts", std::move(charts)}};
}

Json plan_worker_json(const access_specs::Worker& worker) {
  Json json{{"name", worker.name},
            {"type", name_of(detail::kWorkerTypeNames, worker.type)},
            {"outstanding_ios", worker.outstanding_ios},
            {"test_connection_rate", worker.test_connection_rate},
            {"transactions_per_connection", worker.transactions_per_connection},
            {"use_fixed_seed", worker.use_fixed_seed},
            {"fixed_seed", worker.fixed_seed},
            {"maximum_disk_size_sectors", worker.maximum_disk_size_sectors},
            {"starting_sector", worker.starting_sector},
            {"data_pattern", name_of(detail::kDataPatternNames, worker.data_pattern)},
            {"data_reduction",
             worker.data_reduction ? Json(access_specs::to_string(*worker.data_reduction)) : Json(nullptr)},
            {"local_network_interface", worker.local_network_interface},
            {"vi_outstanding_ios", optional_number(worker.vi_outstanding_ios)},
            {"assigned_specs", worker.assigned_specs ? Json(*worker.assigned_specs) : Json(nullptr)}};
  if (worker.targets) {
    Json targets = Json::array();
    for (const access_specs::Target& target : *worker.targets) {
      targets.push_back(Json{{"name", target.name},
                             {"type", name_of(detail::kWorkerTypeNames, target.type)},
                             {"remote_manager_id", optional_number(target.remote_manager_id)},
                             {"remote_manager_name", target.remote_manager_name}});
    }
    json["targets"] = std::move(targets);
  } else {
    json["targets"] = nullptr;
  }
  return json;
}

Json plan_json(const access_specs::TestPlan& plan) {
  Json json{{"setup", plan.setup ? setup_json(*plan.setup) : Json(nullptr)},
            {"display", plan.display ? display_json(*plan.display) : Json(nullptr)},
            {"access_specs", plan.access_specs ? specs_json(*plan.access_specs) : Json(nullptr)}};
  if (plan.managers) {
    Json managers = Json::array();
    for (const access_specs::Manager& manager : *plan.managers) {
      Json workers = Json::array();
      for (const access_specs::Worker& worker : manager.workers) workers.push_back(plan_worker_json(worker));
      managers.push_back(Json{{"id", manager.id},
                              {"name", manager.name},
                              {"network_address", manager.network_address},
                              {"workers", std::move(workers)}});
    }
    json["managers"] = std::move(managers);
  } else {
    json["managers"] = nullptr;
  }
  return json;
}

// --verify's report; a bad block also counts as a read error in the counters.
Json verify_json(const VerifyReport& report) {
  Json findings = Json::array();
  for (const VerifyFinding& finding : report.first_findings) {
    findings.push_back(Json{{"failure", name_of(detail::kVerifyFailureNames, finding.failure)},
                            {"offset_bytes", finding.offset_bytes},
                            {"expected_generation", finding.expected_generation},
                            {"found_generation", finding.found_generation},
                            {"found_offset_bytes", finding.found_offset_bytes},
                            {"expected_checksum", finding.expected_checksum},
                            {"found_checksum", finding.found_checksum}});
  }
  return Json{{"blocks_checked", report.blocks_checked}, {"blocks_not_judged", report.blocks_not_judged},
              {"corrupted", report.corrupted},           {"misdirected", report.misdirected},
              {"stale", report.stale},                   {"busy_redraws", report.busy_redraws},
              {"first_findings", std::move(findings)}};
}

Json target_json(const TargetResult& target, const Summary& summary) {
  Json json{{"name", target.name},
            {"kind", name_of(detail::kTargetKindNames, target.kind)},
            {"counters", counters_json(target.counters)},
            {"summary", summary_json(summary)}};
  if (target.verify) json["verify"] = verify_json(*target.verify);
  return json;
}

Json worker_json(const WorkerResult& worker, const WorkerSummary& summary) {
  Json targets = Json::array();
  for (std::size_t t = 0; t < worker.targets.size(); ++t) {
    targets.push_back(target_json(worker.targets[t], summary.targets[t]));
  }
  Json json{{"name", worker.name},
            {"kind", name_of(detail::kWorkerKindNames, worker.kind)},
            {"spec_name", worker.spec_name},
            {"recording_window_ns", worker.recording_window.count()},
            {"starting_sector", worker.starting_sector},
            {"maximum_size_sectors", worker.maximum_size_sectors},
            {"queue_depth", worker.queue_depth}};
  if (!worker.engine.empty()) json["engine"] = Json{{"name", worker.engine}, {"reason", worker.engine_reason}};
  json["test_connection_rate"] = worker.test_connection_rate;
  json["transactions_per_connection"] = worker.transactions_per_connection;
  if (!worker.data_pattern.empty()) json["data_pattern"] = worker.data_pattern;
  json["summary"] = summary_json(summary.total);
  json["targets"] = std::move(targets);
  return json;
}

Json manager_json(const ManagerResult& manager, const ManagerSummary& summary) {
  Json cpus = Json::array();
  for (const CpuUtilization& cpu : manager.cpus) cpus.push_back(cpu_json(cpu));
  Json workers = Json::array();
  for (std::size_t w = 0; w < manager.workers.size(); ++w) {
    workers.push_back(worker_json(manager.workers[w], summary.workers[w]));
  }
  return Json{{"name", manager.name},
              {"host",
               {{"cpu_count", manager.host.cpu_count},
                {"os_name", manager.host.os_name},
                {"kernel_release", manager.host.kernel_release},
                {"iomark_version", manager.host.iomark_version}}},
              {"timer_resolution_hz", manager.timer_resolution_hz},
              {"cpus", std::move(cpus)},
              {"network", network_json(manager.network)},
              {"summary", summary_json(summary.total)},
              {"workers", std::move(workers)}};
}

Json run_info_json(const RunInfo& info) {
  return Json{{"access_index", info.access_index},
              {"cycling_step", info.cycling_step},
              {"queue_depth", optional_number(info.queue_depth)},
              {"test_type", access_specs::to_string(info.test_type)},
              {"description", info.description},
              {"start_time", format_rfc3339(info.start_time)},
              {"end_time", format_rfc3339(info.end_time)},
              {"specs", specs_json(info.specs)}};
}

Json run_json(const RunResults& run) {
  const RunSummary summary = summarize_run(run);
  const RunInfo& info = run.info;
  Json managers = Json::array();
  for (std::size_t m = 0; m < run.managers.size(); ++m) {
    managers.push_back(manager_json(run.managers[m], summary.managers[m]));
  }
  Json json = run_info_json(info);
  json["outcome"] = name_of(detail::kRunEndNames, run.end);
  json["summary"] = summary_json(summary.all);
  json["managers"] = std::move(managers);
  return json;
}

Json failed_run_json(const FailedRun& failed) {
  Json json{{"position", failed.position}, {"error", failed.error}};
  json.update(run_info_json(failed.info));
  return json;
}

Json steady_state_json(const SteadyStateRecord& record) {
  return Json{{"figure", record.figure},
              {"max_rounds", record.max_rounds},
              {"window", record.window},
              {"rounds", record.rounds},
              {"steady", record.steady},
              {"window_first", record.window_first},
              {"average", record.average},
              {"data_excursion", record.data_excursion},
              {"slope_excursion", record.slope_excursion},
              {"slope", record.slope},
              {"reason", record.reason}};
}

Json max_iops_search_json(const MaxIopsRecord& record) {
  Json steps = Json::array();
  for (const MaxIopsStep& step : record.steps) {
    steps.push_back(Json{{"run", step.run},
                         {"outstanding_ios", step.outstanding_ios},
                         {"rate_iops", optional_number(step.rate_iops)},
                         {"iops", step.iops},
                         {"latency_ms", step.latency_ms},
                         {"within", step.within}});
  }
  return Json{{"figure", record.figure},
              {"limit_ms", record.limit_ms},
              {"steps", std::move(steps)},
              {"chosen", optional_number(record.chosen)},
              {"finished", record.finished},
              {"conclusion", record.conclusion}};
}

Json precondition_json(const PreconditionRecord& record) {
  Json json{{"passes", record.passes}, {"block_bytes", record.block_bytes}, {"targets", record.targets}};
  if (record.spec) json["spec"] = spec_json(*record.spec);
  return json;
}

Json pts_iops_json(const PtsIopsRecord& record) {
  return Json{{"read_percents", record.read_percents}, {"block_bytes", record.block_bytes}};
}

constexpr int kIndent = 2;

// Replace, not throw, on invalid UTF-8 in names: a results file must always be written.
std::string dump(const Json& json) { return json.dump(kIndent, ' ', false, nlohmann::json::error_handler_t::replace); }

// `text` as it stands `depth` levels deep in the document.
std::string indented(const std::string& text, int depth) {
  const std::string margin(static_cast<std::size_t>(depth * kIndent), ' ');
  std::string out;
  out.reserve(text.size() + text.size() / 8);
  for (const char c : text) {
    out += c;
    if (c == '\n') out += margin;
  }
  return out;
}

}  // namespace

// The document is written in three pieces so that a running series can keep it on disk one
// run at a time (ResultsJsonFile): the head (everything before the runs), each run, and the
// tail (the end of "runs", then "failed_runs", the optional records and "outcome"). Together they are exactly
// what nlohmann's 2-space dump of the whole document would be.
std::string results_json_head(const SeriesInfo& info, const std::optional<access_specs::TestPlan>& plan) {
  const Json head{{"format", kJsonFormatName},
                  {"format_version", kJsonFormatVersion},
                  {"series",
                   {{"test_type", access_specs::to_string(info.test_type)},
                    {"description", info.description},
                    {"start_time", format_rfc3339(info.start_time)},
                    {"record_results", access_specs::to_string(info.record_results)},
                    {"iomark_version", info.iomark_version}}},
                  {"plan", plan ? plan_json(*plan) : Json(nullptr)}};
  std::string text = dump(head);
  text.resize(text.size() - 2);  // the closing "\n}": the runs follow
  return text + ",\n  \"runs\": [";
}

std::string results_json_run(const RunResults& run, bool first) {
  return (first ? "\n    " : ",\n    ") + indented(dump(run_json(run)), 2);
}

std::string results_json_tail(const std::vector<FailedRun>& failed_runs, const SeriesRecords& records,
                              SeriesOutcome outcome, bool any_run) {
  Json failed = Json::array();
  for (const FailedRun& run : failed_runs) failed.push_back(failed_run_json(run));
  std::string text = std::string(any_run ? "\n  ]" : "]") + ",\n  \"failed_runs\": " + indented(dump(failed), 1);
  // Only the series that made them have these, so every other document stays as it was.
  if (records.steady_state) text += ",\n  \"steady_state\": " + indented(dump(steady_state_json(*records.steady_state)), 1);
  if (records.max_iops_search) {
    text += ",\n  \"max_iops_search\": " + indented(dump(max_iops_search_json(*records.max_iops_search)), 1);
  }
  if (records.precondition) text += ",\n  \"precondition\": " + indented(dump(precondition_json(*records.precondition)), 1);
  if (records.pts_iops) text += ",\n  \"pts_iops\": " + indented(dump(pts_iops_json(*records.pts_iops)), 1);
  return text + ",\n  \"outcome\": " + dump(Json(name_of(detail::kOutcomeNames, outcome))) + "\n}\n";
}

std::string write_results_json(const SeriesResults& series) {
  std::string text = results_json_head(series.info, series.plan);
  for (std::size_t r = 0; r < series.runs.size(); ++r) text += results_json_run(series.runs[r], r == 0);
  return text + results_json_tail(series.failed_runs, {series.steady_state, series.max_iops_search, series.precondition, series.pts_iops},
                                  series.outcome,
                                  !series.runs.empty());
}

}  // namespace iomark::results
