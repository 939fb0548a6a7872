#include "iomark/agent/run_session.hpp"

#include <sys/utsname.h>
#include <unistd.h>

#include <algorithm>
#include <filesystem>
#include <map>

#include "iomark/common/host_name.hpp"
#include "iomark/common/seed.hpp"
#include "iomark/engine/engine_choice_cache.hpp"
#include "iomark/engine/engines.hpp"
#include "iomark/workload/data_pattern.hpp"
#include "iomark/workload/verify_block.hpp"

namespace iomark::agent {

namespace {

constexpr std::uint32_t kTestFileSizingSector = 512;

Error in_worker(const WorkerAssignment& worker, const Error& error) {
  // The field stays the field: a write-scope refusal is told apart by it (docs/write-scope.md).
  if (!error.field().empty()) {
    return Error(error.code(), "worker \"" + worker.name + "\": " + error.message()).in_field(error.field());
  }
  return Error(error.code(), "worker \"" + worker.name + "\": " + error.describe());
}

// The read size `auto` calibrates with: the spec's most frequent transfer size, so an
// 8 KiB workload is judged on 8 KiB reads; at most 1 MiB, so a calibration stays short.
std::uint32_t calibration_block_bytes(const access_specs::AccessSpec& spec) {
  constexpr std::uint32_t kMaxCalibrationBlockBytes = 1U << 20;
  const access_specs::AccessSpecLine* most = nullptr;
  for (const auto& line : spec.lines) {
    if (most == nullptr || line.percent_of_size > most->percent_of_size) most = &line;
  }
  return most == nullptr ? 4096U : std::min(most->size_bytes, kMaxCalibrationBlockBytes);
}

Result<std::unique_ptr<engine::IoEngine>> engine_for(const RunAssignment& assignment, const WorkerAssignment& worker,
                                                     const targets::OpenTarget& first, std::uint32_t queue_depth,
                                                     const std::vector<engine::EngineProbe>& probes,
                                                     engine::EngineChoiceCache& choices, EngineNote& note) {
  const engine::EngineOptions options{.queue_depth = queue_depth};
  if (assignment.engine) {
    note.engine = engine::to_string(*assignment.engine);
    note.reason = note.engine + (assignment.engine->faults ? " (as asked: a test tool that fails I/Os on purpose)" : " (as asked)");
    return engine::make_prepared_engine(*assignment.engine, options);
  }
  const auto& info = first.info();
  const engine::TrialTarget target{first.fd(), info.size_bytes, info.sector_size_bytes};
  engine::TrialOptions trial;
  trial.queue_depth = queue_depth;
  trial.block_bytes = calibration_block_bytes(worker.spec);
  trial.cpu = worker.cpu;
  const auto choice = choices.choose(target, trial, probes, first.info().path);
  note.engine = std::string(engine::to_string(choice.engine));
  note.reason = choice.reason;
  // The worker thread submits first, so a single-issuer ring becomes its own (io_engine.hpp).
  auto chosen = engine::make_prepared_engine(choice.engine, engine::candidate_options(choice.engine, choice.setup, queue_depth));
  if (chosen) return chosen;
  auto best = engine::make_best_engine(options);
  if (!best) return fail(best.error());
  note.engine = std::string(best->engine->name());
  note.reason = "the first engine that runs here: " + std::string(engine::to_string(choice.engine)) +
                " was chosen but failed (" + chosen.error().message() + ")";
  return std::move(best->engine);
}

// The shared --verify state of an opened target, made by the first worker that drives it.
Result<std::shared_ptr<VerifiedTarget>> verified_target(
    const targets::SafetyPolicy& policy, const WorkerAssignment& worker, const TargetAssignment& target,
    const targets::OpenTarget& opened, std::map<std::string, std::shared_ptr<VerifiedTarget>>& verified, std::vector<std::string>& notes) {
  const auto& info = opened.info();
  auto block_bytes = workload::verify_block_bytes(worker.spec, info.sector_size_bytes);
  if (!block_bytes) return fail(block_bytes.error());
  if (auto known = verified.find(info.path); known != verified.end()) {
    if (known->second->block_bytes != *block_bytes) {
      return fail(ErrorCode::invalid_argument, info.path + ": workers sharing a --verify target need specs with the same "
                                               "verify block (" + std::to_string(known->second->block_bytes) + " vs " +
                                               std::to_string(*block_bytes) + " bytes)");
    }
    return known->second;
  }
  auto path = journal_path(info, target.verify_journal);
  if (!path) return fail(path.error());
  auto opened_journal = open_verified_target(policy, *path, info.size_bytes, *block_bytes);
  if (!opened_journal) return fail(opened_journal.error());
  const auto& journal = *(*opened_journal)->journal;
  std::string note = info.path + ": journal " + journal.path() + " (" + std::to_string(*block_bytes) + "-byte blocks, " +
                     (journal.created() ? "new" : "continued");
  if (!journal.was_clean()) note += ", not closed cleanly last time";
  if ((*opened_journal)->recovered_blocks != 0) {
    note += ", " + std::to_string((*opened_journal)->recovered_blocks) + " blocks were in flight: not judged until rewritten";
  }
  notes.push_back(note + ")");
  verified.emplace(info.path, *opened_journal);
  return *opened_journal;
}

}  // namespace

std::uint64_t target_content_key(std::string_view path) {
  return workload::content_key_of(local_host_name() + ":" + std::string(path));
}

Result<std::unique_ptr<RunSession>> RunSession::prepare(const RunAssignment& assignment,
                                                        const targets::SafetyPolicy& policy,
                                                        const PrepareNotice& notice,
                                                        const targets::PrepareProgress& progress,
                                                        engine::EngineChoiceCache* engine_choices) {
  if (assignment.workers.empty()) return fail(ErrorCode::invalid_argument, "nothing to run: no worker assigned");
  std::unique_ptr<RunSession> session(new RunSession());
  const auto probes = assignment.engine ? std::vector<engine::EngineProbe>{} : engine::probe_engines();
  engine::EngineChoiceCache this_run_only;
  engine::EngineChoiceCache& choices = engine_choices != nullptr ? *engine_choices : this_run_only;
  std::map<std::string, std::string> prepared_test_files;  // directory -> iobw.tst
  std::map<std::string, std::shared_ptr<VerifiedTarget>> verified;  // opened path -> journal state
  std::size_t seed_index = 0;
  for (const auto& worker : assignment.workers) {
    if (worker.network) {
      const auto& target = *worker.network;
      auto created = network::NetworkWorker::create({worker.name, worker.spec, target.endpoint, target.seed,
                                                     target.test_connection_rate,
                                                     target.transactions_per_connection});
      if (!created) return fail(created.error());
      session->workers_.push_back({worker, {}, nullptr, std::move(*created), {"tcp", "a network worker"}});
      continue;
    }
    WorkerSlot slot{worker, {}, nullptr, nullptr, {}};
    WorkerOptions options{worker.name,           worker.cpu, worker.spec, worker.data_pattern,
                          worker.data_reduction, {},         worker.rate_iops};
    std::uint32_t queue_depth = 0;
    for (const auto& target : worker.targets) {
      const auto authorized = targets::authorize_target(target.path, targets::AccessMode::read_write, policy);
      if (!authorized) return fail(in_worker(worker, authorized.error()));
      std::string path = authorized->path;
      const bool new_file = authorized->kind == targets::TargetKind::new_file;
      if (new_file && target.test_file_bytes == 0 && target.maximum_size_sectors == 0) {
        // With no size a test file grows to fill its file system (IOmeter's rule for a disk);
        // a named file that is gone (removed during a series, say) is not made again that way.
        return fail(in_worker(worker, Error(ErrorCode::not_found, authorized->path + ": no such file, and no size to "
                                                                  "create it at (--size)")));
      }
      if (authorized->kind == targets::TargetKind::directory || new_file) {
        auto known = prepared_test_files.find(authorized->path);
        if (known == prepared_test_files.end()) {
          targets::TestFileOptions file_options;
          file_options.caching = assignment.caching;
          if (target.test_file_bytes != 0) {
            file_options.sector_size_bytes = kTestFileSizingSector;
            file_options.maximum_size_sectors =
                (target.test_file_bytes + kTestFileSizingSector - 1) / kTestFileSizingSector;
          } else {
            file_options.starting_sector = target.starting_sector;
            file_options.maximum_size_sectors = target.maximum_size_sectors;
          }
          if (new_file) {
            // A --target file that does not exist yet: made at the size asked, as a test file is.
            const auto slash = path.rfind('/');
            file_options.file_name = path.substr(slash + 1);
            path = slash == 0 ? "/" : path.substr(0, slash);
          }
          if (notice) notice(new_file ? "creating " + authorized->path : "preparing the test file in " + path);
          const auto seed = target.seed.value_or(worker.fixed_seed.value_or(fresh_seed(seed_index)));
          auto filler = workload::make_prepare_filler(worker.data_pattern, worker.data_reduction, seed,
                                                      target_content_key(target.path), target.test_file_bytes);
          if (!filler) return fail(in_worker(worker, filler.error()));
          auto prepared = targets::prepare_test_file(path, file_options, policy, std::move(*filler), progress);
          if (!prepared) return fail(in_worker(worker, prepared.error()));
          known = prepared_test_files.emplace(authorized->path, prepared->path).first;
        }
        path = known->second;
      }
      auto opened = targets::open_target(path, {targets::AccessMode::read_write, assignment.caching, {}}, policy);
      if (!opened) return fail(in_worker(worker, opened.error()));
      // A file truncated to nothing, a detached loop device: say which target it is.
      if (opened->info().size_bytes == 0) {
        return fail(in_worker(worker, Error(ErrorCode::invalid_argument, path + ": the target is empty (size 0)")));
      }
      workload::TargetSetup setup;
      setup.geometry = {opened->info().size_bytes, opened->info().sector_size_bytes};
      setup.queue_depth = target.queue_depth;
      setup.seed = target.seed.value_or(worker.fixed_seed.value_or(fresh_seed(seed_index++)));
      setup.starting_sector = target.starting_sector;
      setup.maximum_size_sectors = target.maximum_size_sectors;
      options.targets.push_back({target.path, opened->fd(), setup, target_content_key(target.path)});
      if (assignment.verify) {
        auto verify = verified_target(policy, worker, target, *opened, verified, session->verify_notes_);
        if (!verify) return fail(in_worker(worker, verify.error()));
        options.targets.back().verify = std::move(*verify);
      } else if (access_specs::writes(worker.spec)) {
        // Writing without headers makes a journal beside the target wrong: drop it, say so.
        // Outside the write scope there is nothing of ours to remove.
        const auto stale_journal = opened->info().path + std::string(targets::kJournalSuffix);
        const auto removed = targets::VerifyJournal::remove(policy, stale_journal);
        if (removed && *removed && notice) notice("removed " + stale_journal + ": this run writes without --verify headers");
      }
      queue_depth += target.queue_depth;
      slot.open_targets.push_back(std::move(*opened));
    }
    EngineNote note;
    auto engine = engine_for(assignment, worker, slot.open_targets.front(), queue_depth, probes, choices, note);
    if (!engine) return fail(in_worker(worker, engine.error()));
    slot.engine = std::move(note);
    auto created = Worker::create(std::move(options), std::move(*engine));
    if (!created) return fail(in_worker(worker, created.error()));
    slot.worker = std::move(*created);
    session->workers_.push_back(std::move(slot));
  }
  return session;
}

std::vector<std::string> RunSession::engine_notes() const {
  std::vector<std::string> notes;
  for (const auto& slot : workers_) notes.push_back(slot.assignment.name + ": " + slot.engine.reason);
  return notes;
}

Result<void> RunSession::start() {
  for (auto& slot : workers_) {
    if (auto started = slot.worker ? slot.worker->start() : slot.network_worker->start(); !started) {
      stop();
      return started;
    }
  }
  return {};
}

void RunSession::record_on() {
  if (auto snapshot = read_cpu_snapshot()) cpu_at_record_on_ = std::move(*snapshot);
  record_on_ns_ = monotonic_now_ns();
  for (auto& slot : workers_) slot.worker ? slot.worker->record_on() : slot.network_worker->record_on();
}

void RunSession::record_off() {
  for (auto& slot : workers_) slot.worker ? slot.worker->record_off() : slot.network_worker->record_off();
  record_off_ns_ = monotonic_now_ns();
  if (auto snapshot = read_cpu_snapshot()) cpu_at_record_off_ = std::move(*snapshot);
}

void RunSession::stop() {
  for (auto& slot : workers_) slot.worker ? slot.worker->stop() : slot.network_worker->stop();
}

std::optional<Error> RunSession::failure() const {
  for (const auto& slot : workers_) {
    if (auto failed = slot.worker ? slot.worker->failure() : slot.network_worker->failure()) return failed;
  }
  return std::nullopt;
}

std::optional<Error> RunSession::network_failure() const {
  for (const auto& slot : workers_) {
    if (slot.network_worker && slot.network_worker->failed()) return slot.network_worker->failure();
  }
  return std::nullopt;
}

std::vector<protocol::NetworkPort> RunSession::listening_ports() const {
  std::vector<protocol::NetworkPort> ports;
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    if (!workers_[w].network_worker) continue;
    if (const auto port = workers_[w].network_worker->listening_port()) {
      ports.push_back({static_cast<std::uint32_t>(w), 0, *port});
    }
  }
  return ports;
}

Result<void> RunSession::set_peer_ports(const std::vector<protocol::NetworkPort>& ports) {
  for (const auto& port : ports) {
    const bool client = port.worker_index < workers_.size() && port.target_index == 0 &&
                        workers_[port.worker_index].network_worker &&
                        workers_[port.worker_index].network_worker->endpoint().role == protocol::NetworkRole::client;
    if (!client) {
      return fail(ErrorCode::invalid_argument, "worker " + std::to_string(port.worker_index) + ", target " +
                                                   std::to_string(port.target_index) + " is not a network client");
    }
    workers_[port.worker_index].network_worker->set_peer_port(static_cast<std::uint16_t>(port.port));
  }
  return {};
}

namespace {

WorkerResults worker_results_of(const std::string& name, const network::NetworkWorkerResults& results) {
  return {name, results.window, {results.counters}};
}

}  // namespace

results::ManagerResult RunSession::snapshot(const std::string& manager_name) {
  std::vector<WorkerResults> live;
  for (auto& slot : workers_) {
    live.push_back(slot.worker ? slot.worker->snapshot()
                               : worker_results_of(slot.assignment.name, slot.network_worker->snapshot()));
  }
  const auto now = read_cpu_snapshot();
  return manager_result(manager_name, live, now ? *now : CpuSnapshot{});
}

results::ManagerResult RunSession::results(const std::string& manager_name) const {
  std::vector<WorkerResults> final_results;
  for (const auto& slot : workers_) {
    final_results.push_back(slot.worker ? slot.worker->results()
                                        : worker_results_of(slot.assignment.name, slot.network_worker->results()));
  }
  return manager_result(manager_name, final_results, cpu_at_record_off_.value_or(CpuSnapshot{}));
}

double RunSession::busy_cpu_seconds() const {
  if (!cpu_at_record_on_ || !cpu_at_record_off_) return 0.0;
  return agent::busy_cpu_seconds(*cpu_at_record_on_, *cpu_at_record_off_);
}

results::ManagerResult RunSession::manager_result(const std::string& manager_name,
                                                  const std::vector<WorkerResults>& workers,
                                                  const CpuSnapshot& cpu_end) const {
  results::ManagerResult manager;
  manager.name = manager_name;
  manager.host = host_facts(IOMARK_VERSION);
  if (cpu_at_record_on_ && !cpu_end.cpus.empty()) {
    const auto end_ns = record_off_ns_ != 0 ? record_off_ns_ : monotonic_now_ns();
    const double window_s = static_cast<double>(end_ns - record_on_ns_) / 1e9;
    for (const auto& cpu : cpu_utilisation(*cpu_at_record_on_, cpu_end, window_s)) {
      manager.cpus.push_back({cpu.total, cpu.user, cpu.privileged, 0.0, 0.0, cpu.interrupts_per_second});
    }
  }
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    const auto& assignment = workers_[w].assignment;
    if (assignment.network) {
      results::WorkerResult worker;
      worker.name = assignment.name;
      worker.kind = results::WorkerKind::network;
      worker.spec_name = assignment.spec.name;
      worker.recording_window = workers[w].window;
      worker.test_connection_rate = assignment.network->test_connection_rate;
      worker.transactions_per_connection = assignment.network->transactions_per_connection;
      worker.targets.push_back({assignment.network->endpoint.label, results::TargetKind::network,
                              compact_counters(workers[w].targets[0])});
      manager.workers.push_back(std::move(worker));
      continue;
    }
    results::WorkerResult worker;
    worker.name = assignment.name;
    worker.spec_name = assignment.spec.name;
    worker.recording_window = workers[w].window;
    worker.starting_sector = assignment.targets.front().starting_sector;
    worker.maximum_size_sectors = assignment.targets.front().maximum_size_sectors;
    worker.queue_depth = assignment.targets.front().queue_depth;
    worker.data_pattern = access_specs::to_string(access_specs::WriteData{assignment.data_pattern, assignment.data_reduction});
    worker.engine = workers_[w].engine.engine;
    worker.engine_reason = workers_[w].engine.reason;
    for (std::size_t t = 0; t < assignment.targets.size(); ++t) {
      // The file actually driven (a directory's iobw.tst), so results say what was measured.
      const auto verify = t < workers[w].verify.size() ? std::optional(workers[w].verify[t]) : std::nullopt;
      worker.targets.push_back(
          {workers_[w].open_targets[t].info().path, results::TargetKind::disk,
                                compact_counters(workers[w].targets[t]), verify});
    }
    manager.workers.push_back(std::move(worker));
  }
  return manager;
}

results::HostFacts host_facts(std::string iomark_version) {
  results::HostFacts facts;
  facts.cpu_count = static_cast<std::uint32_t>(std::max(1L, ::sysconf(_SC_NPROCESSORS_ONLN)));
  utsname names{};
  if (::uname(&names) == 0) {
    facts.os_name = names.sysname;
    facts.kernel_release = names.release;
  }
  facts.iomark_version = std::move(iomark_version);
  return facts;
}

Result<RunAssignment> run_assignment_of(const protocol::Assignment& assignment) {
  RunAssignment run;
  if (!assignment.engine.empty()) {
    auto spec = engine::parse_engine_spec(assignment.engine);
    if (!spec) return fail(Error(spec.error()).in_field("assignment.engine"));
    run.engine = *spec;
  }
  run.caching = assignment.buffered ? targets::Caching::direct_or_buffered : targets::Caching::direct;
  for (const auto& worker : assignment.workers) {
    for (const auto& target : worker.targets) run.verify = run.verify || target.verify;
    WorkerAssignment mapped;
    mapped.name = worker.name;
    mapped.cpu = worker.cpu;
    mapped.spec = worker.spec;
    // The data pattern is per worker in the engine (one write buffer); IOmeter sets it per
    // worker too, so every target of a worker carries the same value.
    mapped.data_pattern = worker.targets.front().data_pattern;
    mapped.data_reduction = worker.targets.front().data_reduction;
    mapped.rate_iops = worker.rate_iops;
    if (const auto& first = worker.targets.front(); first.network) {
      if (worker.rate_iops != 0) {
        return fail(Error(ErrorCode::unsupported, "worker \"" + worker.name +
                                                      "\": rate control (--rate-iops) drives disk workers only")
                        .in_field("assignment.workers.rate_iops"));
      }
      if (worker.targets.size() != 1) {
        return fail(Error(ErrorCode::unsupported, "worker \"" + worker.name +
                                                      "\": a network worker has exactly one target in this version")
                        .in_field("assignment.workers.targets"));
      }
      mapped.network = NetworkTarget{*first.network, first.seed, first.test_connection_rate,
                                     first.transactions_per_connection};
      run.workers.push_back(std::move(mapped));
      continue;
    }
    for (const auto& target : worker.targets) {
      mapped.targets.push_back({target.path, target.outstanding_ios, target.starting_sector,
                                target.maximum_size_sectors, 0, target.seed, target.verify_journal});
    }
    run.workers.push_back(std::move(mapped));
  }
  return run;
}

}  // namespace iomark::agent
