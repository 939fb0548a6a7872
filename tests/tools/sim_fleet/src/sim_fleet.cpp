#include "iomark/sim_fleet/sim_fleet.hpp"

#include <sys/resource.h>

#include <atomic>
#include <condition_variable>
#include <cstdio>
#include <mutex>
#include <stop_token>
#include <thread>
#include <utility>

#include "iomark/agent/inventory.hpp"
#include "iomark/agent/sample_counters.hpp"
#include "iomark/engine/engines.hpp"
#include "iomark/protocol/connection.hpp"
#include "iomark/transport/session_config.hpp"
#include "iomark/transport/tcp.hpp"

namespace iomark::sim_fleet {

namespace {

using Clock = std::chrono::steady_clock;
using protocol::Envelope;

// How often the serving thread looks at every agent: well under the sample interval, so a
// sample leaves within a few milliseconds of its time and a request is answered as fast.
constexpr auto kServeEvery = std::chrono::milliseconds(5);
// Descriptors beyond one per agent: standard streams, the I/O thread's epoll and timers.
constexpr std::uint64_t kDescriptorMargin = 64;
constexpr std::uint32_t kMaxHistogramBuckets = 64;
// Latencies of the non-empty buckets: 100 us apart from 100 us up, each in a bucket of its
// own (the histogram's buckets are at most 1% wide).
constexpr std::uint64_t kFirstLatencyNs = 100'000;
constexpr std::uint64_t kLatencyStepNs = 100'000;
constexpr double kSimulatedCpuPercent = 1.0;

Nanoseconds ns(Clock::duration duration) { return std::chrono::duration_cast<Nanoseconds>(duration); }

// `ios` reads spread evenly over `buckets` latencies.
IoCounters synthetic_counters(std::uint64_t ios, std::uint32_t bytes_per_io, std::uint32_t buckets) {
  IoCounters counters;
  for (std::uint64_t i = 0; i < ios; ++i) counters.record_read(bytes_per_io, kFirstLatencyNs + (i % buckets) * kLatencyStepNs);
  return counters;
}

// What `seconds` of the synthetic load count on every worker and target of `assignment`.
results::ManagerResult synthetic_result(const protocol::Assignment& assignment, const FleetOptions& options,
                                        Nanoseconds window) {
  const auto seconds = std::chrono::duration<double>(window).count();
  const auto ios = static_cast<std::uint64_t>(static_cast<double>(options.ios_per_second) * seconds + 0.5);
  const auto counters = synthetic_counters(ios, options.bytes_per_io, options.histogram_buckets);
  results::ManagerResult manager;
  manager.workers.reserve(assignment.workers.size());
  for (const auto& assigned : assignment.workers) {
    results::WorkerResult worker;
    worker.name = assigned.name;
    worker.recording_window = window;
    worker.engine = "null";
    worker.engine_reason = "simulated agent (no I/O)";
    for (const auto& target : assigned.targets) worker.targets.push_back({target.path, results::TargetKind::disk, counters});
    manager.workers.push_back(std::move(worker));
  }
  return manager;
}

std::vector<protocol::CpuUsage> synthetic_cpus(std::uint32_t cpu_count) {
  std::vector<agent::CpuUtilisation> cpus;
  for (std::uint32_t cpu = 0; cpu < cpu_count; ++cpu) {
    cpus.push_back({cpu, kSimulatedCpuPercent, kSimulatedCpuPercent, 0.0, 0.0, 0.0,
                    100.0 - kSimulatedCpuPercent, cpu == 0 ? 1000.0 : 0.0});
  }
  return agent::cpu_usage_of(cpus);
}

std::string agent_name(const FleetOptions& options, std::size_t index) {
  char digits[16];
  std::snprintf(digits, sizeof digits, "%04zu", options.first_index + index);
  return options.name_prefix + digits;
}

// Raises the soft descriptor limit to the hard one; the soft limit afterwards.
std::uint64_t raise_descriptor_limit() {
  rlimit limit{};
  if (getrlimit(RLIMIT_NOFILE, &limit) != 0) return 0;
  if (limit.rlim_cur < limit.rlim_max) {
    rlimit raised = limit;
    raised.rlim_cur = limit.rlim_max;
    if (setrlimit(RLIMIT_NOFILE, &raised) == 0) limit = raised;
  }
  return limit.rlim_cur;
}

// One simulated agent: its connection and where its run is. Serving thread only.
struct Agent {
  std::size_t index{};
  std::unique_ptr<protocol::Connection> connection;
  bool gone{false};
  bool drops{false};  // one of the drop_agents
  std::optional<protocol::Assignment> assignment;
  std::uint64_t runs{};
  bool sampling{false};
  bool recording{false};
  std::uint64_t sequence{};
  std::uint64_t recording_samples{};
  Clock::time_point io_started{};
  Clock::time_point last_sample{};
  Clock::time_point record_on{};
  Nanoseconds recorded{};
};

}  // namespace

struct SimFleet::State {
  FleetOptions options;
  std::uint64_t descriptor_limit{};
  protocol::Inventory inventory;
  std::vector<protocol::CpuUsage> cpus;
  std::optional<transport::SharedIoThread> io;

  mutable std::mutex mutex;
  std::condition_variable changed;
  std::vector<std::pair<std::size_t, std::unique_ptr<protocol::Connection>>> established;  // not yet served
  std::vector<Error> refusals;
  std::size_t dialling{};

  std::atomic<std::size_t> connected{};
  std::atomic<std::size_t> dropped{};
  std::atomic<std::uint64_t> samples_sent{};
  std::atomic<std::uint64_t> final_results_sent{};
  std::atomic<std::uint64_t> runs_started{};

  std::vector<Agent> agents;  // serving thread only, while it runs
  std::jthread serving;       // declared last: stopped first

  void serve(const std::stop_token& stop);
  void adopt_established();
  void serve_agent(Agent& agent, Clock::time_point now);
  void handle(Agent& agent, const Envelope& request);
  void on_phase(Agent& agent, const Envelope& request, const protocol::PhaseCommand& command);
  void send_sample(Agent& agent, Clock::time_point now);
  void leave(Agent& agent, const std::string& why);
  void reply(Agent& agent, const Envelope& request, protocol::Message message) {
    (void)agent.connection->send(Envelope{0, request.request_id, std::move(message)});
  }
  void refuse(Agent& agent, const Envelope& request, std::string why) {
    reply(agent, request,
          protocol::ErrorReport{protocol::ErrorKind::request_failed, Error(ErrorCode::invalid_argument, std::move(why))});
  }
};

void SimFleet::State::serve(const std::stop_token& stop) {
  while (!stop.stop_requested()) {
    adopt_established();
    const auto now = Clock::now();
    for (auto& agent : agents) {
      if (!agent.gone) serve_agent(agent, now);
    }
    std::this_thread::sleep_for(kServeEvery);
  }
}

void SimFleet::State::adopt_established() {
  std::vector<std::pair<std::size_t, std::unique_ptr<protocol::Connection>>> arrived;
  {
    std::lock_guard lock(mutex);
    arrived.swap(established);
  }
  for (auto& [index, connection] : arrived) {
    auto& agent = agents[index];
    agent.connection = std::move(connection);
    // What a real agent sends first (agent_service.cpp), then it waits for requests.
    if (!agent.connection->send(Envelope{0, 0, inventory})) leave(agent, "the inventory could not be sent");
  }
}

void SimFleet::State::serve_agent(Agent& agent, Clock::time_point now) {
  if (!agent.connection) return;
  for (;;) {
    auto request = agent.connection->receive(Nanoseconds(0));
    if (!request) {
      if (request.error().code() != ErrorCode::timed_out) return leave(agent, request.error().message());
      break;
    }
    handle(agent, *request);
    if (agent.gone) return;
  }
  if (agent.sampling && now - agent.last_sample >= options.sample_interval) send_sample(agent, now);
}

void SimFleet::State::handle(Agent& agent, const Envelope& request) {
  if (const auto* assignment = std::get_if<protocol::Assignment>(&request.message)) {
    if (agent.sampling) return refuse(agent, request, "a run is in progress: stop it first");
    agent.assignment = *assignment;
    return reply(agent, request, protocol::Ack{});
  }
  if (const auto* command = std::get_if<protocol::PhaseCommand>(&request.message)) {
    return on_phase(agent, request, *command);
  }
  if (std::holds_alternative<protocol::PrepareTargets>(request.message)) {
    return reply(agent, request, protocol::Ack{});  // nothing to prepare: no I/O is done
  }
  if (std::holds_alternative<protocol::InventoryRequest>(request.message)) {
    return reply(agent, request, inventory);
  }
  reply(agent, request,
        protocol::ErrorReport{protocol::ErrorKind::protocol_violation,
                              Error(ErrorCode::invalid_argument, "an agent does not accept " +
                                                                     std::string(protocol::message_name(request.message)))});
}

void SimFleet::State::on_phase(Agent& agent, const Envelope& request, const protocol::PhaseCommand& command) {
  if (!agent.assignment || command.run_id != agent.assignment->run_id) {
    return refuse(agent, request, "no assignment for run " + std::to_string(command.run_id));
  }
  const auto now = Clock::now();
  switch (command.phase) {
    case protocol::Phase::start:
      agent.sampling = false;
      agent.recording = false;
      break;
    case protocol::Phase::begin_io:
      ++agent.runs;
      ++runs_started;
      agent.sampling = true;
      agent.sequence = 0;
      agent.recording_samples = 0;
      agent.recorded = Nanoseconds(0);
      agent.io_started = now;
      agent.last_sample = now;
      break;
    case protocol::Phase::record_on:
      agent.recording = true;
      agent.record_on = now;
      break;
    case protocol::Phase::record_off:
      if (agent.recording) agent.recorded += ns(now - agent.record_on);
      agent.recording = false;
      break;
    case protocol::Phase::stop: {
      if (agent.recording) agent.recorded += ns(now - agent.record_on);
      agent.sampling = false;
      agent.recording = false;
      protocol::FinalResults results;
      results.run_id = command.run_id;
      results.workers = agent::final_counters(synthetic_result(*agent.assignment, options, agent.recorded));
      results.cpus = cpus;
      ++final_results_sent;
      return reply(agent, request, std::move(results));
    }
    case protocol::Phase::abort:
      agent.sampling = false;
      agent.recording = false;
      break;
  }
  reply(agent, request, protocol::Ack{});
}

void SimFleet::State::send_sample(Agent& agent, Clock::time_point now) {
  protocol::Sample sample;
  sample.run_id = agent.assignment->run_id;
  sample.sequence = ++agent.sequence;
  sample.run_time = ns(now - agent.io_started);
  sample.interval = ns(now - agent.last_sample);
  sample.phase = agent.recording ? protocol::SamplePhase::recording : protocol::SamplePhase::ramp_up;
  sample.workers = agent::interval_counters(synthetic_result(*agent.assignment, options, sample.interval), sample.interval);
  sample.cpus = cpus;
  agent.last_sample = now;
  if (!agent.connection->send(Envelope{0, 0, std::move(sample)})) return leave(agent, "a sample could not be sent");
  ++samples_sent;
  if (agent.recording) ++agent.recording_samples;
  if (agent.drops && agent.runs == 1 && agent.recording_samples >= options.drop_after_samples) {
    agent.connection->close("simulated agent lost");
    leave(agent, "dropped on purpose");
  }
}

// The connection is kept (closed) until stop(): destroying it waits for its close, which
// would hold up every other agent.
void SimFleet::State::leave(Agent& agent, const std::string& /*why*/) {
  if (agent.gone) return;
  agent.gone = true;
  agent.connection->close("simulated agent left");
  --connected;
  ++dropped;
}

SimFleet::SimFleet(std::unique_ptr<State> state) noexcept : state_(std::move(state)) {}

SimFleet::~SimFleet() { stop(); }

Result<std::unique_ptr<SimFleet>> SimFleet::start(FleetOptions options) {
  if (options.agents == 0) return fail(Error(ErrorCode::invalid_argument, "at least one agent").in_field("agents"));
  if (options.histogram_buckets == 0 || options.histogram_buckets > kMaxHistogramBuckets) {
    return fail(Error(ErrorCode::invalid_argument, "1.." + std::to_string(kMaxHistogramBuckets) + " buckets")
                    .in_field("histogram_buckets"));
  }
  if (options.sample_interval <= Nanoseconds(0)) {
    return fail(Error(ErrorCode::invalid_argument, "must be positive").in_field("sample_interval"));
  }
  if (options.drop_agents > options.agents) {
    return fail(Error(ErrorCode::invalid_argument, "more than the agents").in_field("drop_agents"));
  }
  auto state = std::make_unique<State>();
  state->descriptor_limit = raise_descriptor_limit();
  if (state->descriptor_limit < options.agents + kDescriptorMargin) {
    return fail(ErrorCode::invalid_argument,
                std::to_string(options.agents) + " agents need " + std::to_string(options.agents + kDescriptorMargin) +
                    " file descriptors, but RLIMIT_NOFILE allows " + std::to_string(state->descriptor_limit) +
                    " (raise it with ulimit -n or LimitNOFILE=)");
  }
  auto io = transport::SharedIoThread::start();
  if (!io) return fail(std::move(io).error());
  state->io = std::move(*io);
  // One inventory for all: the same host, probed once (a real agent probes once too).
  state->inventory = agent::collect_inventory(targets::SafetyPolicy{}, engine::probe_engines(), {});
  // The simulated agents open nothing and take any target: they report the scope of --allow /.
  state->inventory.allowed_paths = {"/"};
  state->cpus = synthetic_cpus(state->inventory.cpu_count);
  state->agents.resize(options.agents);
  for (std::size_t i = 0; i < options.agents; ++i) {
    state->agents[i].index = i;
    state->agents[i].drops = i >= options.agents - options.drop_agents;
  }
  state->options = std::move(options);
  state->dialling = state->options.agents;
  auto* raw = state.get();
  for (std::size_t i = 0; i < raw->options.agents; ++i) {
    auto config = transport::make_session_config(protocol::Role::agent, "iomark-sim-fleet", agent_name(raw->options, i),
                                                 "", raw->options.key);
    config.tls = raw->options.tls;
    transport::dial_async(raw->options.controller, config, *raw->io,
                          [raw, i](Result<std::unique_ptr<protocol::Connection>> outcome) {
                            {
                              std::lock_guard lock(raw->mutex);
                              --raw->dialling;
                              if (outcome) {
                                raw->established.emplace_back(i, std::move(*outcome));
                                ++raw->connected;
                              } else {
                                raw->refusals.push_back(std::move(outcome).error());
                              }
                            }
                            raw->changed.notify_all();
                          });
  }
  raw->serving = std::jthread([raw](std::stop_token stop) { raw->serve(stop); });
  return std::unique_ptr<SimFleet>(new SimFleet(std::move(state)));
}

Result<void> SimFleet::wait_established(Nanoseconds timeout) {
  std::unique_lock lock(state_->mutex);
  state_->changed.wait_for(lock, timeout, [this] { return state_->dialling == 0; });
  if (state_->dialling > 0) {
    return fail(ErrorCode::io_error, std::to_string(state_->dialling) + " of " +
                                         std::to_string(state_->options.agents) + " agents still establishing");
  }
  if (!state_->refusals.empty()) return fail(state_->refusals.front());
  return {};
}

FleetCounts SimFleet::counts() const {
  FleetCounts counts;
  {
    std::lock_guard lock(state_->mutex);
    counts.dialling = state_->dialling;
    counts.refused = state_->refusals.size();
  }
  counts.connected = state_->connected;
  counts.dropped = state_->dropped;
  counts.samples_sent = state_->samples_sent;
  counts.final_results_sent = state_->final_results_sent;
  counts.runs_started = state_->runs_started;
  return counts;
}

std::vector<Error> SimFleet::refusals() const {
  std::lock_guard lock(state_->mutex);
  return state_->refusals;
}

std::uint64_t SimFleet::file_descriptor_limit() const noexcept { return state_->descriptor_limit; }

void SimFleet::stop() {
  if (!state_->serving.joinable()) return;
  state_->serving.request_stop();
  state_->serving.join();
  {
    // Dial handlers refer to the state: every one must have run before it can go. The
    // handshake timeout bounds the wait.
    std::unique_lock lock(state_->mutex);
    state_->changed.wait(lock, [this] { return state_->dialling == 0; });
  }
  state_->adopt_established();
  // Closed all first, so their lingers overlap when they are destroyed.
  for (auto& agent : state_->agents) {
    if (agent.connection) agent.connection->close("the simulated fleet stops");
  }
  state_->agents.clear();
}

}  // namespace iomark::sim_fleet
