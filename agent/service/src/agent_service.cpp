#include "iomark/common/host_name.hpp"
#include "iomark/agent/agent_service.hpp"

#include <unistd.h>

#include <algorithm>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "iomark/agent/host_stats.hpp"
#include "iomark/agent/inventory.hpp"
#include "iomark/agent/run_session.hpp"
#include "iomark/agent/sample_counters.hpp"
#include "iomark/engine/engines.hpp"
#include "iomark/targets/precondition.hpp"
#include "iomark/targets/test_file.hpp"
#include "iomark/workload/data_pattern.hpp"
#include "iomark/workload/reduced_data.hpp"

namespace iomark::agent {

namespace {

using protocol::Envelope;

constexpr std::chrono::milliseconds kIdlePoll{200};
constexpr std::chrono::milliseconds kProgressEvery{500};
constexpr std::uint32_t kPrepareSector = 512;

// The preconditioning a PrepareTarget asks for: 128 KiB sequential writes from one stream, or
// its spec's writes (each line weighted by its share of the writes: % of size x % writes;
// delays, bursts and replies have no place in filling a device) from several.
targets::PreconditionOptions precondition_options(const protocol::PrepareTarget& target) {
  targets::PreconditionOptions options{.passes = target.precondition_passes,
                                       .seed = target.seed,
                                       .caching = targets::Caching::direct_or_buffered};
  if (!target.precondition_spec) return options;
  options.writes.clear();
  for (const auto& line : target.precondition_spec->lines) {
    const std::uint32_t weight = line.percent_of_size * (100 - line.percent_reads);
    if (weight == 0) continue;
    options.writes.push_back({.block_bytes = line.size_bytes,
                              .weight = weight,
                              .percent_random = line.percent_random,
                              .align_bytes = line.align_bytes});
  }
  options.streams = kPreconditionSpecStreams;
  return options;
}

Error sendable(const Error& error) {
  return Error(error.code(), sendable_text(error.message(), protocol::kMaxTextBytes))
      .in_field(sendable_text(error.field(), protocol::kMaxPathBytes))
      .at({sendable_text(error.location().file, protocol::kMaxPathBytes), error.location().line});
}

// One connection's state: the assignment and the run it drives.
class Session {
 public:
  Session(const AgentServiceOptions& options, engine::EngineChoiceCache& engine_choices,
          protocol::Connection& connection)
      : options_(options),
        engine_choices_(engine_choices),
        connection_(connection),
        observer_(options.observer ? *options.observer : silent_) {}

  ~Session() { abandon_run(); }

  // Answers one request (errors go back to the controller as ErrorReports).
  void handle(const Envelope& request) {
    std::visit([&](const auto& message) { on(request, message); }, request.message);
  }

  void sample_if_due() {
    if (!run_ || !io_started_) return;
    report_network_failure();
    const auto now = std::chrono::steady_clock::now();
    if (now < next_sample_) return;
    next_sample_ = now + options_.sample_interval;
    send_sample();
  }

  [[nodiscard]] std::chrono::steady_clock::time_point next_sample() const { return next_sample_; }
  [[nodiscard]] bool sampling() const { return run_ && io_started_; }

  // Stops the run, if any, and tells the observer `how` it ended.
  void abandon_run(std::string_view how = "abandoned, results discarded") {
    if (run_) {
      run_->stop();
      observer_.run_stopped(assignment_ ? assignment_->run_id : 0, how);
    }
    run_.reset();
    io_started_ = false;
    recording_ = false;
  }

 private:
  void reply(const Envelope& request, protocol::Message message) {
    (void)connection_.send(Envelope{0, request.request_id, std::move(message)});
  }
  void refuse(const Envelope& request, const Error& error) {
    observer_.refused(protocol::message_name(request.message), error);
    reply(request, protocol::ErrorReport{protocol::ErrorKind::request_failed, sendable(error)});
  }
  void ack(const Envelope& request) { reply(request, protocol::Ack{}); }

  void on(const Envelope& request, const protocol::InventoryRequest& /*asked*/) {
    reply(request, collect_inventory(options_.policy, engine::probe_engines(), engine_choices_.measured()));
  }

  void on(const Envelope& request, const protocol::Assignment& assignment) {
    if (run_) return refuse(request, Error(ErrorCode::invalid_argument, "a run is in progress: stop it first"));
    auto mapped = run_assignment_of(assignment);
    if (!mapped) return refuse(request, mapped.error());
    assignment_ = assignment;
    run_assignment_ = std::move(*mapped);
    std::size_t targets = 0;
    for (const auto& worker : assignment.workers) targets += worker.targets.size();
    observer_.assigned(assignment.run_id, assignment.workers.size(), targets,
                       assignment.engine.empty() ? "auto" : assignment.engine);
    ack(request);
  }

  void on(const Envelope& request, const protocol::PrepareTargets& prepare) {
    for (const auto& target : prepare.targets) {
      // A directory gets a test file and a file that does not exist yet is made; a device or
      // an existing file needs no preparing, only preconditioning when asked.
      const auto authorized = targets::authorize_target(target.path, targets::AccessMode::read_write, options_.policy);
      if (!authorized) return refuse(request, authorized.error());
      std::stop_source cancel;
      auto last_report = std::chrono::steady_clock::time_point{};
      const auto progress = [&](Bytes done, Bytes total) {
        if (!connection_.is_open()) cancel.request_stop();
        const auto now = std::chrono::steady_clock::now();
        if (now - last_report < kProgressEvery && done != total) return;
        last_report = now;
        reply(request, protocol::PrepareProgress{target.path, done.count(), total.count()});
      };
      std::string written_path = authorized->path;
      const bool new_file = authorized->kind == targets::TargetKind::new_file;
      if (authorized->kind == targets::TargetKind::directory || new_file) {
        targets::TestFileOptions file_options;
        std::string directory = authorized->path;
        if (new_file) {
          const auto slash = directory.rfind('/');
          file_options.file_name = directory.substr(slash + 1);
          directory = slash == 0 ? "/" : directory.substr(0, slash);
        }
        file_options.sector_size_bytes = kPrepareSector;
        file_options.maximum_size_sectors = (target.size_bytes + kPrepareSector - 1) / kPrepareSector;
        observer_.preparing(target.path, Bytes(target.size_bytes));
        auto filler = workload::make_prepare_filler(target.data_pattern, target.data_reduction, target.seed,
                                                    target_content_key(target.path), target.size_bytes);
        if (!filler) return refuse(request, filler.error());
        const auto prepared = targets::prepare_test_file(directory, file_options, options_.policy, std::move(*filler),
                                                         progress, cancel.get_token());
        if (!prepared) return refuse(request, prepared.error());
        if (prepared->outcome == targets::PrepareOutcome::cancelled) return;
        observer_.prepared(target.path);
        written_path = prepared->path;
      }
      if (target.precondition_passes == 0) continue;
      // The run's own data (compressible, deduplicable or random as it asks), so that an array
      // that reduces data is preconditioned with what it will be measured on.
      auto filler = workload::make_prepare_filler(target.data_pattern, target.data_reduction, target.seed,
                                                  target_content_key(target.path), 0);
      if (!filler) return refuse(request, filler.error());
      observer_.preparing(target.path, Bytes(0));
      const auto preconditioned = targets::precondition_target(written_path, precondition_options(target), options_.policy,
                                                               *filler, progress, cancel.get_token());
      if (!preconditioned) return refuse(request, preconditioned.error());
      if (preconditioned->cancelled) return;
      observer_.prepared(target.path);
    }
    ack(request);
  }

  void on(const Envelope& request, const protocol::PhaseCommand& command) {
    if (!assignment_ || command.run_id != assignment_->run_id) {
      return refuse(request, Error(ErrorCode::invalid_argument,
                                   "no assignment for run " + std::to_string(command.run_id)));
    }
    switch (command.phase) {
      case protocol::Phase::start: {
        abandon_run();
        auto session = RunSession::prepare(*run_assignment_, options_.policy, {}, {}, &engine_choices_);
        if (!session) return refuse(request, session.error());
        run_ = std::move(*session);
        network_failure_reported_ = false;
        // Network servers listen from here on: their ports go to the controller, which
        // passes them to the clients before BeginIo.
        if (auto ports = run_->listening_ports(); !ports.empty()) {
          return reply(request, protocol::NetworkPorts{command.run_id, std::move(ports)});
        }
        return ack(request);
      }
      case protocol::Phase::begin_io: {
        if (!run_) return refuse(request, Error(ErrorCode::invalid_argument, "begin I/O before start"));
        if (auto started = run_->start(); !started) return refuse(request, started.error());
        io_started_ = true;
        observer_.run_started(command.run_id);
        sequence_ = 0;
        run_started_ = std::chrono::steady_clock::now();
        last_sample_ = run_started_;
        next_sample_ = run_started_ + options_.sample_interval;
        previous_ = run_->snapshot(manager_name());
        if (auto cpu = read_cpu_snapshot()) previous_cpu_ = std::move(*cpu);
        return ack(request);
      }
      case protocol::Phase::record_on:
        if (!run_) return refuse(request, Error(ErrorCode::invalid_argument, "record on before start"));
        run_->record_on();
        recording_ = true;
        return ack(request);
      case protocol::Phase::record_off:
        if (!run_) return refuse(request, Error(ErrorCode::invalid_argument, "record off before start"));
        run_->record_off();
        return ack(request);
      case protocol::Phase::stop:
        return finish(request);
      case protocol::Phase::abort:
        abandon_run("aborted by the controller");
        return ack(request);
    }
  }

  void on(const Envelope& request, const protocol::NetworkPorts& ports) {
    if (!run_ || !assignment_ || ports.run_id != assignment_->run_id || io_started_) {
      return refuse(request, Error(ErrorCode::invalid_argument, "network ports come between start and begin I/O"));
    }
    if (auto given = run_->set_peer_ports(ports.ports); !given) return refuse(request, given.error());
    ack(request);
  }

  template <typename Other>
  void on(const Envelope& request, const Other&) {
    reply(request, protocol::ErrorReport{
                       protocol::ErrorKind::protocol_violation,
                       Error(ErrorCode::invalid_argument, "an agent does not accept " +
                                                              std::string(protocol::message_name(request.message)))});
  }

  void finish(const Envelope& request) {
    if (!run_) return refuse(request, Error(ErrorCode::invalid_argument, "stop before start"));
    run_->stop();
    if (auto failed = run_->failure()) {
      abandon_run("failed");
      return refuse(request, *failed);
    }
    const auto manager = run_->results(manager_name());
    protocol::FinalResults results;
    results.run_id = assignment_->run_id;
    results.workers = final_counters(manager);
    results.cpus = cpu_usage_of(manager.cpus);
    abandon_run("completed");
    reply(request, std::move(results));
  }

  // A network worker whose peer vanished mid-run: the controller hears it at once (naming the
  // peer and the target), not only when it stops the run.
  void report_network_failure() {
    if (network_failure_reported_) return;
    if (auto failed = run_->network_failure()) {
      network_failure_reported_ = true;
      observer_.refused("network transfer", *failed);
      (void)connection_.send(
          Envelope{0, 0, protocol::ErrorReport{protocol::ErrorKind::request_failed, sendable(*failed)}});
    }
  }

  void send_sample() {
    const auto now = std::chrono::steady_clock::now();
    auto current = run_->snapshot(manager_name());
    protocol::Sample sample;
    sample.run_id = assignment_->run_id;
    sample.sequence = ++sequence_;
    sample.run_time = std::chrono::duration_cast<Nanoseconds>(now - run_started_);
    sample.interval = std::chrono::duration_cast<Nanoseconds>(now - last_sample_);
    sample.phase = recording_ ? protocol::SamplePhase::recording : protocol::SamplePhase::ramp_up;
    sample.workers = interval_counters(current, previous_, sample.interval);
    if (auto cpu = read_cpu_snapshot()) {
      if (previous_cpu_) {
        sample.cpus = cpu_usage_of(cpu_utilisation(*previous_cpu_, *cpu,
                                                   std::chrono::duration<double>(now - last_sample_).count()));
      }
      previous_cpu_ = std::move(*cpu);
    }
    previous_ = std::move(current);
    last_sample_ = now;
    (void)connection_.send(Envelope{0, 0, std::move(sample)});
  }

  [[nodiscard]] std::string manager_name() const {
    return options_.manager_name.empty() ? local_host_name() : options_.manager_name;
  }

  const AgentServiceOptions& options_;
  engine::EngineChoiceCache& engine_choices_;
  protocol::Connection& connection_;
  ServiceObserver silent_;
  ServiceObserver& observer_;
  std::optional<protocol::Assignment> assignment_;
  std::optional<RunAssignment> run_assignment_;
  std::unique_ptr<RunSession> run_;
  bool io_started_{false};
  bool recording_{false};
  bool network_failure_reported_{false};
  std::uint64_t sequence_{};
  std::chrono::steady_clock::time_point run_started_{};
  std::chrono::steady_clock::time_point last_sample_{};
  std::chrono::steady_clock::time_point next_sample_{};
  results::ManagerResult previous_;
  std::optional<CpuSnapshot> previous_cpu_;
};

}  // namespace

AgentService::AgentService(AgentServiceOptions options)
    : options_(std::move(options)),
      engines_(engine::probe_engines()),
      engine_choices_(std::make_unique<engine::EngineChoiceCache>()) {}

Error AgentService::serve(protocol::Connection& connection, std::stop_token stop) {
  if (auto sent = connection.send(Envelope{0, 0, collect_inventory(options_.policy, engines_, engine_choices_->measured())});
      !sent) {
    return sent.error();
  }
  Session session(options_, *engine_choices_, connection);
  while (!stop.stop_requested()) {
    auto wait = std::chrono::duration_cast<Nanoseconds>(kIdlePoll);
    if (session.sampling()) {
      const auto until_sample = session.next_sample() - std::chrono::steady_clock::now();
      wait = std::clamp(std::chrono::duration_cast<Nanoseconds>(until_sample), Nanoseconds(0), wait);
    }
    auto request = connection.receive(wait);
    if (request) {
      session.handle(*request);
    } else if (request.error().code() != ErrorCode::timed_out) {
      return request.error();  // closed: ~Session stops any run
    }
    session.sample_if_due();
  }
  connection.close("the agent is shutting down");
  return Error(ErrorCode::io_error, "the agent is shutting down");
}

}  // namespace iomark::agent
