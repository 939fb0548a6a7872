#include "iomark/results/timeseries_csv.hpp"

#include "csv_rows.hpp"
#include "iomark/results/results_csv.hpp"

namespace iomark::results {
namespace {

void append_stamped(std::string& out, WallClockTime at, const detail::Fields& fields) {
  out += format_iometer_time(at);
  out += ',';
  out += detail::join(fields);
  out += '\n';
}

void append_worker_rows(std::string& out, const RunResults& run, WallClockTime at) {
  for (const ManagerResult& manager : run.managers) {
    for (const WorkerResult& worker : manager.workers) {
      append_stamped(out, at, detail::worker_row(worker, summarize_worker(worker).total, manager.timer_resolution_hz));
    }
  }
}

}  // namespace

std::string_view timeseries_csv_header() noexcept {
  static const std::string header = [] {
    // 1.1.0 still says "MBps (Binary)" here where results.csv says "MiBps (Binary)".
    std::string line = "TimeStamp";
    for (const std::string_view caption : detail::results_captions()) {
      line += ',';
      const std::size_t mib = caption.find("MiBps");
      if (mib == std::string_view::npos) {
        line += caption;
      } else {
        line += caption.substr(0, mib);
        line += "MBps";
        line += caption.substr(mib + 5);
      }
    }
    return line;
  }();
  return header;
}

TimeSeriesCsvAppender::TimeSeriesCsvAppender(std::string version) : version_(std::move(version)) {}

std::string TimeSeriesCsvAppender::begin_series(const SeriesInfo& series) {
  last_access_index_.reset();
  return format_series_header(series, version_);
}

std::string TimeSeriesCsvAppender::begin_run(const RunInfo& run) {
  std::string out = detail::spec_block_if_new(run, last_access_index_);
  out += "'Results\n";
  out += timeseries_csv_header();
  out += '\n';
  return out;
}

std::string TimeSeriesCsvAppender::append_sample(const RunResults& interval, WallClockTime at) const {
  std::string out;
  append_worker_rows(out, interval, at);
  return out;
}

std::string TimeSeriesCsvAppender::end_run(const RunResults& run) const {
  std::string out;
  append_worker_rows(out, run, run.info.end_time);
  append_stamped(out, run.info.end_time, detail::all_row(summarize_run(run).all));
  out += "'Time Stamp\n";
  out += format_iometer_time(run.info.end_time);
  out += '\n';
  return out;
}

std::string TimeSeriesCsvAppender::append_error(std::string_view message) const {
  return detail::error_line(message);
}

std::string TimeSeriesCsvAppender::end_series(SeriesOutcome outcome) const { return detail::series_end(outcome); }

}  // namespace iomark::results
