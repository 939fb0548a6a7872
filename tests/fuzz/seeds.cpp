#include <cstring>
#include <limits>
#include <utility>

#include "fuzz_support.hpp"
#include "sample_messages.hpp"

namespace iomark::fuzz {

namespace {

using namespace protocol;

Envelope request(std::uint64_t id, Message message) { return Envelope{id, 0, std::move(message)}; }
Envelope reply(std::uint64_t to, Message message) { return Envelope{0, to, std::move(message)}; }

Seed seed(std::string name, const std::vector<Envelope>& envelopes) { return {std::move(name), frames_of(envelopes)}; }

std::vector<Seed> frame_decoder_seeds() {
  std::vector<Seed> seeds;
  const auto every = test::every_message();
  for (const auto& envelope : every) seeds.push_back(seed(std::string(message_name(envelope.message)), {envelope}));
  seeds.push_back(seed("every_message", every));
  return seeds;
}

// What a controller sends an agent (agent_session_fuzz.cpp puts every path in its sandbox).
Assignment null_engine_assignment(std::uint64_t run_id, std::string path) {
  Assignment assignment = test::sample_assignment();
  assignment.run_id = run_id;
  assignment.engine = "null";
  assignment.buffered = true;
  assignment.workers.resize(1);
  auto& worker = assignment.workers.front();
  worker.cpu.reset();
  worker.targets = {TargetAssignment{std::move(path), 4, 64, 0, access_specs::DataPattern::pseudo_random, std::nullopt, 7, false, 1}};
  return assignment;
}

std::vector<Seed> agent_session_seeds() {
  const PrepareTargets prepare{{{"/", 64 * 1024, access_specs::DataPattern::repeating_bytes, std::nullopt, 1}}};
  std::vector<Seed> seeds;
  seeds.push_back(seed("whole_run", {request(1, prepare), request(2, null_engine_assignment(1, "/iobw.tst")),
                                     request(3, PhaseCommand{1, Phase::start}),
                                     request(4, PhaseCommand{1, Phase::begin_io}),
                                     request(5, PhaseCommand{1, Phase::record_on}), Envelope{0, 0, Heartbeat{1}},
                                     request(6, PhaseCommand{1, Phase::record_off}),
                                     request(7, PhaseCommand{1, Phase::stop})}));
  seeds.push_back(seed("directory_target_aborted",
                       {request(1, null_engine_assignment(2, "/")), request(2, PhaseCommand{2, Phase::start}),
                        request(3, PhaseCommand{2, Phase::begin_io}), request(4, PhaseCommand{2, Phase::abort})}));
  seeds.push_back(seed("out_of_turn", {request(1, PhaseCommand{3, Phase::begin_io}),
                                       request(2, null_engine_assignment(3, "/missing")),
                                       request(3, PhaseCommand{3, Phase::record_on}),
                                       request(4, PhaseCommand{4, Phase::stop}), request(5, PhaseCommand{3, Phase::start}),
                                       request(6, PhaseCommand{3, Phase::stop})}));
  seeds.push_back(seed("every_message", test::every_message()));
  return seeds;
}

// What an agent sends the controller in manager_link_fuzz.cpp's series: two runs of two
// workers with two targets each, test files prepared before the first; request ids count
// from 1 (prepare, assignment, start, begin I/O, record on, record off, stop, then the
// second run from assignment on).
FinalResults final_results(std::uint64_t run_id) {
  FinalResults results;
  results.run_id = run_id;
  for (std::uint32_t w = 0; w < 2; ++w) {
    WorkerCounters worker{w, Nanoseconds(1'000'000'000), {}, "sync", "as asked"};
    for (std::uint32_t t = 0; t < 2; ++t) worker.targets.push_back({t, test::sample_counters(40, w * 2 + t)});
    results.workers.push_back(std::move(worker));
  }
  results.cpus = {{0, 12.5, 10.0, 2.5, 0.5, 0.25, 100.0}, {1, 50.0, 40.0, 10.0, 0.0, 0.0, 10.0}};
  results.network = {10.0, 0.0, 0.5};
  return results;
}

Sample sample(std::uint64_t run_id, std::uint64_t sequence, SamplePhase phase) {
  Sample sample;
  sample.run_id = run_id;
  sample.sequence = sequence;
  sample.run_time = Nanoseconds(sequence * 1'000'000'000);
  sample.interval = Nanoseconds(1'000'000'000);
  sample.phase = phase;
  sample.workers = {{0, Nanoseconds(1'000'000'000), {{0, test::sample_counters(10, sequence)}}, {}, {}}};
  sample.cpus = {{0, 42.5, 30.25, 12.25, 1.5, 3.75, 12345.5}};
  return sample;
}

std::vector<Envelope> one_run(std::uint64_t first_id, std::uint64_t run_id) {
  auto id = first_id;
  std::vector<Envelope> agent{reply(id++, Ack{}), reply(id++, Ack{})};
  agent.push_back(Envelope{0, 0, sample(run_id, 1, SamplePhase::ramp_up)});
  agent.push_back(reply(id++, Ack{}));
  agent.push_back(Envelope{0, 0, sample(run_id, 2, SamplePhase::recording)});
  agent.push_back(reply(id++, Ack{}));
  agent.push_back(reply(id++, Ack{}));
  agent.push_back(reply(id++, final_results(run_id)));
  return agent;
}

std::vector<Seed> manager_link_seeds() {
  std::vector<Envelope> series{Envelope{0, 0, test::sample_inventory()}};
  series.push_back(reply(1, PrepareProgress{"/data/iobw.tst", 512, 1024}));
  series.push_back(reply(1, Ack{}));
  for (const auto& envelope : one_run(2, 1)) series.push_back(envelope);
  for (const auto& envelope : one_run(8, 2)) series.push_back(envelope);
  std::vector<Seed> seeds{seed("two_runs", series)};
  seeds.push_back(seed("inventory_only", {Envelope{0, 0, test::sample_inventory()}}));
  seeds.push_back(seed("refused_assignment",
                       {Envelope{0, 0, test::sample_inventory()}, reply(1, Ack{}),
                        reply(2, ErrorReport{ErrorKind::request_failed,
                                             Error(ErrorCode::not_found, "no such target").in_field("path")})}));
  seeds.push_back(seed("every_message", test::every_message()));
  return seeds;
}

}  // namespace

// report_chart's doubles mode: a mode byte, then pairs of doubles (ranges for the ticks, then
// points), among them every value that once crashed or hung the report.
std::vector<Seed> report_chart_seeds() {
  const double inf = std::numeric_limits<double>::infinity();
  const double nan = std::numeric_limits<double>::quiet_NaN();
  const std::vector<std::pair<std::string, std::vector<double>>> cases = {
      {"minus_inf", {-inf, 0, 1, -inf, 2, 3}},
      {"constant_minus_1e17", {-1e17, -1e17, 1, -1e17, 2, -1e17, 4, -1e17}},
      {"nan", {nan, nan, 1, nan}},
      {"huge_range", {-std::numeric_limits<double>::max(), std::numeric_limits<double>::max(), 1, 1e308, 2, -1e308}},
      {"ordinary", {0, 19600, 1, 1200, 2, 2300, 4, 4100, 8, 7000, 16, 9100}},
  };
  std::vector<Seed> seeds;
  for (const auto& [name, values] : cases) {
    std::vector<std::byte> bytes(1 + values.size() * sizeof(double));
    bytes[0] = std::byte{0};  // even: the doubles mode
    std::memcpy(bytes.data() + 1, values.data(), values.size() * sizeof(double));
    seeds.push_back({name, std::move(bytes)});
  }
  return seeds;
}

// Text seeds the reader of each text target must refuse with a named error.
std::vector<Seed> text_seeds(const std::vector<std::pair<std::string, std::string>>& texts) {
  std::vector<Seed> seeds;
  for (const auto& [name, text] : texts) {
    std::vector<std::byte> bytes(text.size());
    std::memcpy(bytes.data(), text.data(), text.size());
    seeds.push_back({name, std::move(bytes)});
  }
  return seeds;
}

constexpr std::string_view kCsvHead =
    "'Test Type,Test Description\n0,x\n'Version\n1.1.0\n'Results\n"
    "'Target Type,Target Name,Access Specification Name,IOps,MBps (Decimal),Average Response Time,"
    "Maximum Response Time,Queue Depth,% CPU Utilization\n";

std::vector<Seed> generated_seeds(std::string_view target) {
  if (target == "frame_decoder") return frame_decoder_seeds();
  if (target == "agent_session") return agent_session_seeds();
  if (target == "manager_link") return manager_link_seeds();
  if (target == "legacy_codec") return legacy_codec_seeds();
  if (target == "report_chart") {
    auto seeds = report_chart_seeds();
    for (auto& seed : text_seeds({{"csv_minus_inf", std::string(kCsvHead) + "ALL,All,s,-inf,1,1,1,1,1\n'Time Stamp\nx\n"},
                                  {"csv_constant", std::string(kCsvHead) + "ALL,All,s,-1e17,1,1,1,1,1\nALL,All,s,-1e17,1,1,1,2,1\n"}})) {
      seeds.push_back(std::move(seed));
    }
    return seeds;
  }
  if (target == "timeseries_reader") {
    return text_seeds({{"inst_nan", "'Test Type,Test Description\n0,x\n'Version\n1.1.0\n'Results\n"
                                    "TimeStamp,'Target Type,Target Name,IOps,Queue Depth\n"
                                    "2026-11-25 13:09:53:361,ALL,All,nan,1\n"},
                       {"csv_huge", std::string(kCsvHead) + "ALL,All,s,1e300,1,1,1,1,1\n"}});
  }
  if (target == "results_json") {
    return text_seeds({{"number_overflow", "{\"format\": \"iomark-results\", \"format_version\": 1,\n \"x\": -1e400}"},
                       {"huge_figure", "{\"format\": \"iomark-results\", \"format_version\": 1, \"x\": 1e300}"}});
  }
  return {};
}

}  // namespace iomark::fuzz
