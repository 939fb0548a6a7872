// The controller's handling of what an agent sends (ManagerLink and the series runner): the
// input is the frames of one agent session, played to the controller through a scripted
// connection while it runs a two-run series on that agent. The controller must finish the
// series or stop it with a named error, never crash or hang, and what it records from the
// agent's numbers must read back: results.csv through the CSV reader, the JSON document
// through the JSON reader, unchanged.
#include <chrono>

#include "fuzz_support.hpp"
#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/controller/manager_link.hpp"
#include "iomark/controller/quick_series.hpp"
#include "iomark/controller/series_runner.hpp"
#include "iomark/results/csv_reader.hpp"
#include "iomark/results/results_csv.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/results/summary.hpp"

namespace {

using namespace iomark;

protocol::PeerInfo agent_peer() {
  return protocol::PeerInfo{protocol::Role::agent, "fuzz-agent", "", "in-process", "iomark fuzz", 1,
                            protocol::AuthMode::none, std::nullopt};
}

// The series seeds.cpp's agent sessions answer: two runs (QD 1 and 4) of two workers with
// two targets each, a test file prepared first, no ramp-up and no recording time to wait.
access_specs::RunRequest series_options() {
  access_specs::RunRequest options;
  options.targets = {"/data/iobw.tst", "/dev/sdb"};
  const auto* spec = access_specs::find_builtin_spec("Database");
  fuzz::require(spec != nullptr, "the built-in Database spec");
  options.spec = *spec;
  options.outstanding_ios = {1, 4};
  options.workers = 2;
  options.ramp_up_s = 0;
  options.run_time_s = 0;
  options.test_file_bytes = 1024 * 1024;
  options.seed = 7;
  options.description = "fuzz";
  return options;
}

// Keeps every completed run whole, as the results files get it.
class Collecting final : public controller::SeriesObserver {
 public:
  void run_finished(std::size_t, const results::RunResults& run, const results::RunSummary&) override {
    runs.push_back(run);
  }
  std::vector<results::RunResults> runs;
};

void check_recorded(const controller::SeriesPlan& series, const controller::SeriesOutcome& outcome,
                    const std::vector<results::RunResults>& runs) {
  fuzz::require(runs.size() == outcome.runs.size(), "the observer saw every completed run");
  results::ResultsCsvAppender appender;
  auto csv = appender.begin_series(series.info);
  for (const auto& run : runs) csv += appender.append_run(run, results::summarize_run(run));
  csv += appender.end_series(outcome.outcome);
  const auto read = results::read_results_csv(csv, "results.csv");
  fuzz::require(read.has_value(), "results.csv of an agent's numbers reads back: " +
                                      (read ? std::string() : read.error().describe()));
  fuzz::require(read->size() == 1 && read->front().runs.size() == outcome.runs.size(),
                "results.csv holds every completed run");

  const results::SeriesResults recorded{series.info, std::nullopt, runs, outcome.outcome};
  const auto json = results::read_results_json(results::write_results_json(recorded), "results.json");
  fuzz::require(json.has_value(), "results.json of an agent's numbers reads back: " +
                                      (json ? std::string() : json.error().describe()));
  fuzz::require(*json == recorded, "results.json of an agent's numbers reads back unchanged");
}

}  // namespace

extern "C" int LLVMFuzzerTestOneInput(const std::uint8_t* data, std::size_t size) {
  auto connection = std::make_unique<fuzz::ScriptedConnection>(agent_peer(),
                                                               fuzz::envelopes_in(fuzz::bytes_of(data, size)));
  auto link = controller::ManagerLink::open(std::move(connection), Nanoseconds(0));
  if (!link) return 0;
  const std::vector<controller::ManagerLink*> links{link->get()};
  const auto series = controller::quick_series(series_options(), links);
  // An inventory may refuse the targets (a write scope that holds neither): a named error.
  if (!series) {
    fuzz::require(!series.error().message().empty(), "a series that cannot be planned says why");
    return 0;
  }
  Collecting observer;
  controller::ResultsRecorder recorder("", "");
  const auto outcome = controller::run_series(links, *series, observer, recorder);
  fuzz::require(outcome.error.has_value() == (outcome.outcome != results::SeriesOutcome::completed),
                "a series stops early only with a named error");
  check_recorded(*series, outcome, observer.runs);
  return 0;
}
