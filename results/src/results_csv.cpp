#include "iomark/results/results_csv.hpp"

#include "csv_rows.hpp"

namespace iomark::results {
namespace {

using access_specs::RecordResults;

void append_line(std::string& out, std::string_view line) {
  out += line;
  out += '\n';
}

}  // namespace

std::string_view results_csv_header() noexcept {
  static const std::string header = [] {
    std::string line;
    for (const std::string_view caption : detail::results_captions()) {
      if (!line.empty()) line += ',';
      line += caption;
    }
    return line;
  }();
  return header;
}

std::string format_series_header(const SeriesInfo& series, std::string_view version) {
  std::string out;
  append_line(out, "'Test Type,Test Description");
  append_line(out, std::to_string(static_cast<unsigned>(series.test_type)) + "," + detail::csv_safe(series.description));
  append_line(out, "'Version");
  append_line(out, version);
  append_line(out, "'Time Stamp");
  append_line(out, format_iometer_time(series.start_time));
  return out;
}

std::string format_spec_block(std::span<const access_specs::AccessSpec> specs) {
  std::string out;
  append_line(out, "'Access specifications");
  for (const access_specs::AccessSpec& spec : specs) {
    append_line(out, "'Access specification name,default assignment");
    append_line(out, detail::csv_safe(spec.name) + "," +
                         std::to_string(static_cast<unsigned>(spec.default_assignment)));
    append_line(out, "'size,% of size,% reads,% random,delay,burst,align,reply");
    for (const access_specs::AccessSpecLine& line : spec.lines) {
      const std::uint32_t values[] = {line.size_bytes, line.percent_of_size,    line.percent_reads,
                                      line.percent_random, line.delay_ms,       line.burst_transactions,
                                      line.align_bytes,  line.reply_bytes};
      std::string text;
      for (const std::uint32_t value : values) text += std::to_string(value) + ",";  // 1.1.0's trailing comma
      append_line(out, text);
    }
  }
  append_line(out, "'End access specifications");
  return out;
}

std::string format_results_block(const RunResults& run, RecordResults record, TargetRowValues target_rows) {
  if (record == RecordResults::none) return {};
  return format_results_block(run, summarize_run(run), record, target_rows);
}

std::string format_results_block(const RunResults& run, const RunSummary& summary, RecordResults record,
                                 TargetRowValues target_rows) {
  if (record == RecordResults::none) return {};
  const bool managers = record == RecordResults::all || record == RecordResults::no_targets ||
                        record == RecordResults::no_workers;
  const bool workers = record == RecordResults::all || record == RecordResults::no_targets;
  const bool targets = record == RecordResults::all;

  std::string out;
  append_line(out, "'Results");
  append_line(out, results_csv_header());
  append_line(out, detail::join(detail::all_row(summary.all)));
  for (std::size_t m = 0; managers && m < run.managers.size(); ++m) {
    const ManagerResult& manager = run.managers[m];
    const ManagerSummary& manager_summary = summary.managers[m];
    append_line(out, detail::join(detail::manager_row(manager, manager_summary.total)));
    for (std::size_t cpu = 0; cpu < manager.cpus.size(); ++cpu) {
      append_line(out, detail::join(detail::processor_row(cpu, manager.cpus[cpu], manager.timer_resolution_hz)));
    }
    for (std::size_t w = 0; workers && w < manager.workers.size(); ++w) {
      const WorkerResult& worker = manager.workers[w];
      const WorkerSummary& worker_summary = manager_summary.workers[w];
      append_line(out,
                  detail::join(detail::worker_row(worker, worker_summary.total, manager.timer_resolution_hz)));
      for (std::size_t t = 0; targets && t < worker.targets.size(); ++t) {
        append_line(out, detail::join(detail::target_row(worker.targets[t], worker_summary.targets[t],
                                                         worker_summary.total, manager.timer_resolution_hz,
                                                         target_rows)));
      }
    }
  }
  append_line(out, "'Time Stamp");
  append_line(out, format_iometer_time(run.info.end_time));
  return out;
}

ResultsCsvAppender::ResultsCsvAppender(CsvOptions options) : options_(std::move(options)) {}

std::string ResultsCsvAppender::begin_series(const SeriesInfo& series) {
  record_ = series.record_results;
  last_access_index_.reset();
  if (record_ == RecordResults::none) return {};
  return format_series_header(series, options_.version);
}

std::string ResultsCsvAppender::append_run(const RunResults& run) { return append_run(run, summarize_run(run)); }

std::string ResultsCsvAppender::append_run(const RunResults& run, const RunSummary& summary) {
  if (record_ == RecordResults::none) return {};
  std::string out = detail::spec_block_if_new(run.info, last_access_index_);
  out += format_results_block(run, summary, record_, options_.target_rows);
  return out;
}

std::string ResultsCsvAppender::append_error(std::string_view message) const {
  if (record_ == RecordResults::none) return {};
  return detail::error_line(message);
}

std::string ResultsCsvAppender::end_series(SeriesOutcome outcome) {
  if (record_ == RecordResults::none) return {};
  return detail::series_end(outcome);
}

}  // namespace iomark::results
