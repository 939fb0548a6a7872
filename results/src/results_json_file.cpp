#include "iomark/results/results_json_file.hpp"

#include "iomark/results/durable_append.hpp"
#include "iomark/results/results_json.hpp"

namespace iomark::results {

Result<ResultsJsonFile> ResultsJsonFile::create(std::filesystem::path path, const SeriesInfo& info,
                                                const std::optional<access_specs::TestPlan>& plan,
                                                const SeriesRecords& records) {
  ResultsJsonFile file(std::move(path));
  file.records_ = records;
  const std::string head = results_json_head(info, plan);
  file.tail_offset_ = head.size();
  if (auto written = replace_durably(file.path_, head + results_json_tail({}, records, file.outcome_, false)); !written) {
    return fail(written.error());
  }
  return file;
}

Result<void> ResultsJsonFile::add_run(const RunResults& run) {
  const std::string text = results_json_run(run, !any_run_);
  if (auto written = write_at_tail(text); !written) return written;
  any_run_ = true;
  tail_offset_ += text.size();
  return {};
}

Result<void> ResultsJsonFile::add_failed_run(const FailedRun& failed) {
  failed_runs_.push_back(failed);
  return write_at_tail({});
}

Result<void> ResultsJsonFile::set_steady_state(const SteadyStateRecord& record) {
  records_.steady_state = record;
  return write_at_tail({});
}

Result<void> ResultsJsonFile::set_max_iops_search(const MaxIopsRecord& record) {
  records_.max_iops_search = record;
  return write_at_tail({});
}

Result<void> ResultsJsonFile::finish(SeriesOutcome outcome) {
  outcome_ = outcome;
  return write_at_tail({});
}

Result<void> ResultsJsonFile::write_at_tail(const std::string& runs_text) {
  return rewrite_from_durably(path_, tail_offset_,
                              runs_text + results_json_tail(failed_runs_, records_, outcome_, any_run_ || !runs_text.empty()));
}

}  // namespace iomark::results
