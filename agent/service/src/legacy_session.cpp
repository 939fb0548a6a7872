#include "iomark/agent/legacy_session.hpp"

#include <sys/socket.h>

#include <algorithm>
#include <stop_token>
#include <thread>
#include <utility>

#include "iomark/legacy/manager_info.hpp"
#include "iomark/legacy/target_spec.hpp"
#include "iomark/legacy/test_spec.hpp"
#include "iomark/results/run_results.hpp"
#include "iomark/targets/test_file.hpp"

namespace iomark::agent {

namespace {

using legacy::Purpose;
using std::chrono::steady_clock;
using transport::LegacySocket;

constexpr double kNanosecondTicksPerSecond = 1e9;
constexpr auto kPreparePoll = std::chrono::milliseconds(200);
// How often the wait for the GUI's next command looks at the stop token.
constexpr auto kStopPoll = std::chrono::milliseconds(500);

Result<void> send_message(LegacySocket& channel, legacy::Message message, std::chrono::milliseconds within) {
  const auto bytes = legacy::encode_message(message);
  return channel.send_all(bytes, steady_clock::now() + within);
}

// Without `by`, waits for the message's first byte as long as it takes (the GUI may idle
// for hours between commands), then gives the rest `within`.
Result<legacy::Message> receive_message(LegacySocket& channel, std::optional<steady_clock::time_point> by,
                                        std::chrono::milliseconds within) {
  if (!by) {
    while (!channel.readable(std::chrono::seconds(1))) {
    }
  }
  std::array<std::byte, legacy::kMessageBytes> bytes{};
  if (auto got = channel.receive_exact(bytes, by.value_or(steady_clock::now() + within)); !got) {
    return tl::unexpected(got.error());
  }
  return legacy::decode_message(bytes);
}

Error in_command(Error error, Purpose purpose) {
  return Error(error.code(), std::string(legacy::to_string(purpose)) + ": " + error.describe());
}

std::string who_text(std::int32_t who) {
  if (who == legacy::kAllWorkers) return "ALL_WORKERS";
  if (who == legacy::kManager) return "MANAGER";
  return std::to_string(who);
}

std::string describe(const legacy::Message& message) {
  const auto name = legacy::to_string(message.purpose);
  std::string text = name.empty() ? "purpose " + std::to_string(static_cast<std::int32_t>(message.purpose))
                                  : std::string(name);
  return text + " " + who_text(message.data);
}

std::string block_text(std::string_view what) {
  return "block (" + std::to_string(legacy::kDataMessageBytes) + " bytes): " + std::string(what);
}

std::string hex32(std::uint32_t value) {
  char text[16];
  std::snprintf(text, sizeof text, "0x%08X", value);
  return text;
}

// "count 1: 'sdb' type 0x4C000000, queue depth 4, maximum size 0 sectors, starting sector 0, seed 42"
std::string describe_targets(std::int32_t count, const std::vector<legacy::TargetSpec>* targets) {
  std::string text = "Target_Spec count " + std::to_string(count);
  if (targets == nullptr) return text;
  constexpr std::size_t kShown = 4;
  for (std::size_t i = 0; i < targets->size() && i < kShown; ++i) {
    const auto& t = (*targets)[i];
    text += (i == 0 ? ": '" : "; '") + t.name + "' type " + hex32(t.type) + ", queue depth " +
            std::to_string(t.queue_depth) + ", data pattern " + std::to_string(static_cast<int>(t.data_pattern)) +
            ", seed " + std::to_string(t.random_seed);
    if (const auto* d = std::get_if<legacy::DiskDetails>(&t.details)) {
      text += ", maximum size " + std::to_string(d->maximum_size_sectors) + " sectors, starting sector " +
              std::to_string(d->starting_sector);
    }
  }
  if (targets->size() > kShown) text += "; ...";
  return text;
}

std::string describe_spec(const access_specs::AccessSpec& spec) {
  if (spec.lines.empty()) return "Test_Spec '" + spec.name + "': idle";
  std::string text = "Test_Spec '" + spec.name + "', " + std::to_string(spec.lines.size()) + " line(s) read:";
  for (const auto& line : spec.lines) text += " [" + access_specs::format_spec_line(line) + "]";
  return text;
}

legacy::RawResult to_raw_result(const IoCounters& counters) {
  legacy::RawResult raw;
  raw.bytes_read = counters.bytes_read;
  raw.bytes_written = counters.bytes_written;
  raw.read_count = counters.reads.count;
  raw.write_count = counters.writes.count;
  raw.transaction_count = counters.transactions.count;
  raw.connection_count = counters.connections.count;
  raw.read_errors = static_cast<std::uint32_t>(std::min<std::uint64_t>(counters.read_errors, UINT32_MAX));
  raw.write_errors = static_cast<std::uint32_t>(std::min<std::uint64_t>(counters.write_errors, UINT32_MAX));
  // One tick is one nanosecond (Manager_Info's timer resolution is 1e9).
  raw.max_raw_read_latency = counters.reads.max_ns;
  raw.read_latency_sum = counters.reads.sum_ns;
  raw.max_raw_write_latency = counters.writes.max_ns;
  raw.write_latency_sum = counters.writes.sum_ns;
  raw.max_raw_transaction_latency = counters.transactions.max_ns;
  raw.transaction_latency_sum = counters.transactions.sum_ns;
  raw.max_raw_connection_latency = counters.connections.max_ns;
  raw.connection_latency_sum = counters.connections.sum_ns;
  const auto& bins = counters.latency.legacy_bins();
  std::copy(bins.begin(), bins.end(), raw.latency_bins.begin());
  return raw;
}

legacy::ManagerResults to_manager_results(const std::vector<results::CpuUtilization>& cpus, std::uint32_t cpu_count) {
  legacy::ManagerResults manager;
  for (const auto& cpu : cpus) {
    if (manager.cpus.size() == legacy::kMaxCpus) break;
    manager.cpus.push_back({cpu.total_percent, cpu.user_percent, cpu.privileged_percent, cpu.dpc_percent,
                            cpu.interrupt_percent, cpu.interrupts_per_second});
  }
  // Before a run there are no figures yet, but the GUI still expects one entry per CPU.
  if (manager.cpus.empty()) manager.cpus.resize(std::min<std::size_t>(cpu_count, legacy::kMaxCpus));
  return manager;
}

}  // namespace

Result<LegacySocket> legacy_login(const LegacyAgentOptions& options, const std::string& gui_host,
                                  std::uint16_t gui_port, std::stop_token stop) {
  const auto stopped = [&stop](Error error) -> Result<LegacySocket> {
    if (stop.stop_requested()) return fail(ErrorCode::cancelled, "login: stopped");
    return tl::unexpected(std::move(error));
  };
  // Dynamo opens its command port before logging in, so the login can announce it.
  auto command_port = transport::LegacyListener::open_any_port();
  if (!command_port) return tl::unexpected(command_port.error());
  const auto login_by = steady_clock::now() + options.login_deadline;
  auto login = LegacySocket::connect(gui_host, gui_port, login_by);
  if (!login) return stopped(login.error());
  // A GUI that takes the connection but not the login would hold a stop for the whole login
  // deadline: a stop shuts the socket, which ends every wait on it at once.
  const int login_fd = login->fd();
  const std::stop_callback wake(stop, [login_fd] { ::shutdown(login_fd, SHUT_RDWR); });

  legacy::ManagerInfo info;
  info.manager_name = options.manager_name;
  info.network_address = options.own_address;
  info.command_port = command_port->port();
  info.processors = std::max<std::uint32_t>(1, host_facts("").cpu_count);
  info.timer_resolution_hz = kNanosecondTicksPerSecond;
  auto info_block = legacy::encode_manager_info(info);
  if (!info_block) return tl::unexpected(info_block.error());
  if (auto sent = send_message(*login, {Purpose::login, legacy::kVersionCode_1_1_0}, options.login_deadline); !sent) {
    return stopped(sent.error());
  }
  if (auto sent = login->send_all(*info_block, steady_clock::now() + options.login_deadline); !sent) {
    return stopped(sent.error());
  }

  auto answer = receive_message(*login, login_by, options.login_deadline);
  if (!answer) return stopped(Error(ErrorCode::io_error, "login: no answer from the GUI: " + answer.error().describe()));
  if (answer->data == static_cast<std::int32_t>(Purpose::wrong_version)) {
    return fail(ErrorCode::unsupported, "login: the GUI answered WRONG_VERSION: it is not IOmeter 1.1.x");
  }
  if (answer->purpose != Purpose::login || answer->data != legacy::kLoginOkData) {
    return fail(ErrorCode::parse_error, "login: unexpected answer (purpose " +
                                            std::to_string(static_cast<std::int32_t>(answer->purpose)) + ", data " +
                                            std::to_string(answer->data) + ")");
  }
  // The GUI keeps the login connection open until it has connected back and asked its
  // first questions; Dynamo never uses it again.
  const auto accept_by = steady_clock::now() + options.login_deadline;
  for (;;) {
    auto accepted = command_port->accept(std::min(accept_by, steady_clock::now() + kStopPoll));
    if (accepted || accepted.error().code() != ErrorCode::timed_out || steady_clock::now() >= accept_by) {
      return accepted;
    }
    if (stop.stop_requested()) return fail(ErrorCode::cancelled, "login: stopped");
  }
}

LegacySession::LegacySession(LegacyAgentOptions options) : options_(std::move(options)) {}

LegacySession::~LegacySession() {
  if (run_) run_->stop();
}

void LegacySession::tell(const std::string& text) const {
  if (options_.notice) options_.notice(text);
}

void LegacySession::refuse(const std::string& text) const {
  if (options_.refusal) options_.refusal(text);
}

void LegacySession::trace(const std::string& text) const {
  if (options_.trace) options_.trace(text);
}

void LegacySession::refuse_no_such_worker(std::string_view command, std::int32_t who) const {
  refuse(std::string(command) + ": worker " + who_text(who) + " does not exist (" + std::to_string(workers_.size()) +
         " workers): answered 0");
}

Result<LegacyEnd> LegacySession::serve(LegacySocket& channel, std::stop_token stop) {
  channel_ = &channel;
  stop_ = std::move(stop);
  struct DropEverything {
    LegacySession& session;
    ~DropEverything() {
      session.remove_workers(legacy::kAllWorkers);
      session.channel_ = nullptr;
      session.stop_ = {};
    }
  } drop{*this};
  for (;;) {
    // The GUI may idle for hours between commands: no deadline for the first byte.
    while (!channel.readable(kStopPoll)) {
      if (stop_.stop_requested()) return LegacyEnd::stopped;
    }
    if (stop_.stop_requested()) return LegacyEnd::stopped;
    std::array<std::byte, legacy::kMessageBytes> bytes{};
    if (auto first = channel.receive_exact(std::span(bytes).first(1), steady_clock::now() + options_.block_deadline);
        !first) {
      // Readable, yet no byte: the GUI went away between two commands. After the results (or
      // before any test) that is how a GUI ends, as Dynamo takes it; during a test it is not.
      if (test_running()) {
        return fail(ErrorCode::io_error, "the GUI " + first.error().describe() +
                                             " in the middle of a test (after START, before STOP)");
      }
      trace("in: the GUI " + first.error().describe() + " between commands, no test running");
      return LegacyEnd::closed;
    }
    if (auto rest = channel.receive_exact(std::span(bytes).subspan(1), steady_clock::now() + options_.block_deadline);
        !rest) {
      return tl::unexpected(rest.error());
    }
    auto message = legacy::decode_message(bytes);
    if (!message) return tl::unexpected(message.error());
    if (tracing()) trace("in: " + describe(*message));
    auto handled = handle(*message);
    if (!handled) return tl::unexpected(in_command(handled.error(), message->purpose));
    if (*handled) return **handled;
  }
}

Result<std::optional<LegacyEnd>> LegacySession::handle(const legacy::Message& message) {
  using Handled = Result<std::optional<LegacyEnd>>;
  const auto done = [](Result<void> sent) -> Handled {
    if (!sent) return tl::unexpected(sent.error());
    return std::nullopt;
  };
  switch (message.purpose) {
    case Purpose::add_workers: {
      // Dynamo answers a count it could not make in full with 0 and keeps none of them; its
      // table of workers has no bound check, so too many is such a count here.
      const auto room = static_cast<std::int32_t>(legacy::kMaxWorkers - workers_.size());
      const auto made = message.data >= 0 && message.data <= room ? message.data : 0;
      if (made != message.data) {
        refuse("ADD_WORKERS: data " + std::to_string(message.data) + " is outside 0.." + std::to_string(room) +
               " (at most " + std::to_string(legacy::kMaxWorkers) + " workers): answered 0");
      }
      workers_.resize(workers_.size() + static_cast<std::size_t>(made));
      return done(reply(message.purpose, made));
    }
    case Purpose::report_targets:
      return done(report_targets());
    case Purpose::set_targets:
      return done(set_targets(message.data));
    case Purpose::set_access:
      return done(set_access(message.data));
    case Purpose::prep_disks:
      return done(prepare_disks());
    case Purpose::stop_prepare:
      return std::nullopt;  // nothing is being prepared: as Dynamo, nothing to answer
    case Purpose::start:
      return done(reply(message.purpose, start_test()));
    case Purpose::begin_io: {
      std::int32_t ok = 0;
      if (run_) {
        auto started = run_->start();
        if (!started) refuse("BEGIN_IO: " + started.error().describe() + ": answered 0");
        ok = started ? 1 : 0;
      }
      return done(reply(message.purpose, ok));
    }
    case Purpose::record_on:
      if (run_) run_->record_on();
      record_on_ns_ = monotonic_now_ns();
      reported_until_ns_.assign(reported_until_ns_.size(), record_on_ns_);
      return std::nullopt;
    case Purpose::record_off:
      if (run_) run_->record_off();
      return done(reply(message.purpose, message.data));
    case Purpose::stop:
      if (run_) run_->stop();
      run_stopped_ = true;
      return done(reply(message.purpose, message.data));
    case Purpose::report_results:
      return done(report_results(false));
    case Purpose::report_update:
      return done(report_results(true));
    case Purpose::reset:
      remove_workers(legacy::kAllWorkers);
      return LegacyEnd::reset;
    case Purpose::exit:
      if (message.data == legacy::kManager) {
        remove_workers(legacy::kAllWorkers);
        return LegacyEnd::exit_manager;
      }
      remove_workers(message.data);
      return std::nullopt;
    default:
      // Dynamo stops on an unknown purpose too: after it, nothing on the wire can be trusted.
      return fail(ErrorCode::parse_error, "unknown message purpose 0x" + [&] {
        char hex[16];
        std::snprintf(hex, sizeof hex, "%08X", static_cast<std::uint32_t>(message.purpose));
        return std::string(hex);
      }() + " (data " + std::to_string(message.data) + "): closing the session");
  }
}

Result<void> LegacySession::report_targets() {
  listed_ = list_legacy_targets(options_.policy);
  std::vector<legacy::TargetSpec> disks;
  disks.reserve(listed_.size());
  for (const auto& target : listed_) disks.push_back(target.spec);
  // Disks, then TCP interfaces, then VI NICs: network targets over the legacy protocol are
  // left to the network-workers issue, so the last two lists are empty.
  const std::span<const legacy::TargetSpec> none;
  constexpr std::array<std::string_view, 3> kLists{"disks", "TCP interfaces", "VI NICs"};
  std::size_t list_index = 0;
  for (const auto list : {std::span<const legacy::TargetSpec>(disks), none, none}) {
    auto block = legacy::encode_target_list(list);
    if (!block) return tl::unexpected(block.error());
    const std::string what = tracing() ? "REPORT_TARGETS " + std::string(kLists[list_index]) + ", " +
                                             std::to_string(list.size()) + " target(s)"
                                       : std::string();
    if (auto sent = send_block(*block, what); !sent) return sent;
    ++list_index;
  }
  return {};
}

Result<void> LegacySession::set_targets(std::int32_t who) {
  auto block = receive_block();
  if (!block) return tl::unexpected(block.error());
  std::int32_t ok = 0;
  const auto slots = addressed(who);
  auto assigned = legacy::decode_target_list(*block, legacy::TargetListUse::assignment);
  if (tracing()) {
    trace("in: SET_TARGETS " +
          block_text(describe_targets(legacy::data_block_count_field(*block), assigned ? &*assigned : nullptr)));
  }
  if (slots.empty()) {
    refuse_no_such_worker("SET_TARGETS", who);
  } else if (!assigned) {
    refuse("SET_TARGETS: " + assigned.error().describe() + ": answered 0");
  } else {
    std::vector<std::string> paths;
    for (std::size_t i = 0; i < assigned->size(); ++i) {
      const auto& target = (*assigned)[i];
      const auto* listed = find_legacy_target(listed_, target.name);
      if (listed == nullptr || !legacy::is_type(target.type, legacy::target_type::kGenericDisk)) {
        refuse("SET_TARGETS: Target_Spec[" + std::to_string(i) + "].name: '" + target.name +
               "' is not a target this agent listed: answered 0");
        break;
      }
      paths.push_back(listed->path);
    }
    if (paths.size() == assigned->size()) {
      for (auto* slot : slots) {
        slot->targets = *assigned;
        slot->paths = paths;
      }
      ok = 1;
    }
  }
  if (auto sent = reply(Purpose::set_targets, ok); !sent) return sent;
  // Dynamo echoes the block it received (filling in TCP ports, which disks do not have).
  return send_block(*block, "SET_TARGETS echo");
}

Result<void> LegacySession::set_access(std::int32_t who) {
  auto block = receive_block();
  if (!block) return tl::unexpected(block.error());
  std::int32_t ok = 0;
  const auto slots = addressed(who);
  auto spec = legacy::decode_test_spec(*block);
  if (tracing()) trace("in: SET_ACCESS " + block_text(spec ? describe_spec(*spec) : "Test_Spec, refused"));
  if (slots.empty()) {
    refuse_no_such_worker("SET_ACCESS", who);
  } else if (!spec) {
    refuse("SET_ACCESS: " + spec.error().describe() + ": answered 0");
  } else {
    for (auto* slot : slots) slot->spec = *spec;
    ok = 1;
  }
  return reply(Purpose::set_access, ok);
}

Result<void> LegacySession::prepare_disks() {
  // Test files are written on a thread of their own, so that STOP_PREPARE can be read
  // meanwhile (Dynamo peeks at its socket between waits the same way).
  std::optional<Error> failure;
  std::atomic<bool> finished{false};
  std::jthread writer([&](std::stop_token stop) {
    for (const auto& slot : workers_) {
      for (std::size_t i = 0; i < slot.targets.size() && !stop.stop_requested(); ++i) {
        const auto* disk = std::get_if<legacy::DiskDetails>(&slot.targets[i].details);
        if (disk == nullptr || !legacy::is_type(slot.targets[i].type, legacy::target_type::kLogicalDisk)) continue;
        targets::TestFileOptions file;
        file.starting_sector = disk->starting_sector;
        file.maximum_size_sectors = disk->maximum_size_sectors;
        auto prepared = targets::prepare_test_file(slot.paths[i], file, options_.policy, {}, {}, stop);
        if (!prepared) {
          failure = prepared.error();
          finished = true;
          return;
        }
      }
    }
    finished = true;
  });
  std::optional<Error> channel_failure;
  while (!finished) {
    if (stop_.stop_requested()) writer.request_stop();  // serve() ends on it once answered
    if (!channel_->readable(kPreparePoll)) continue;
    auto message = receive_message(*channel_, steady_clock::now() + options_.block_deadline, options_.block_deadline);
    if (message && tracing()) trace("in: " + describe(*message));
    if (message && message->purpose == Purpose::stop_prepare) {
      writer.request_stop();
      continue;
    }
    channel_failure = message ? Error(ErrorCode::parse_error, "unexpected " +
                                                                  std::string(legacy::to_string(message->purpose)) +
                                                                  " while preparing disks")
                              : message.error();
    writer.request_stop();
    break;
  }
  writer.join();
  if (channel_failure) return tl::unexpected(*channel_failure);
  if (failure) refuse("PREP_DISKS: " + failure->describe() + ": answered 0");
  return reply(Purpose::prep_disks, failure ? 0 : 1);
}

std::int32_t LegacySession::start_test() {
  if (run_) run_->stop();
  run_.reset();
  RunAssignment assignment;
  assignment.engine = options_.engine;
  for (std::size_t w = 0; w < workers_.size(); ++w) {
    const auto& slot = workers_[w];
    if (!slot.active()) continue;
    WorkerAssignment worker;
    worker.name = "Worker " + std::to_string(w + 1);
    worker.spec = slot.spec;
    const auto& first = slot.targets.front();
    worker.data_pattern = static_cast<access_specs::DataPattern>(first.data_pattern);
    for (std::size_t i = 0; i < slot.targets.size(); ++i) {
      TargetAssignment target;
      target.path = slot.paths[i];
      target.queue_depth = slot.targets[i].queue_depth;
      // Dynamo seeds each target's generator with its Target_Spec.random, where the GUI put
      // the worker's fixed seed (or a timestamp); fixed_seed_value is a leftover it never reads.
      target.seed = slot.targets[i].random_seed;
      if (const auto* disk = std::get_if<legacy::DiskDetails>(&slot.targets[i].details)) {
        target.starting_sector = disk->starting_sector;
        target.maximum_size_sectors = disk->maximum_size_sectors;
      }
      worker.targets.push_back(std::move(target));
    }
    assignment.workers.push_back(std::move(worker));
  }
  reported_counters_.assign(assignment.workers.size(), {});
  reported_until_ns_.assign(assignment.workers.size(), 0);
  if (assignment.workers.empty()) return 1;  // nothing to run here: Dynamo starts nobody and says yes
  auto prepared = RunSession::prepare(assignment, options_.policy);
  if (!prepared) {
    refuse("START: " + prepared.error().describe() + ": answered 0");
    return 0;
  }
  run_ = std::move(*prepared);
  run_stopped_ = false;
  for (const auto& note : run_->engine_notes()) tell(note);
  return 1;
}

Result<void> LegacySession::report_results(bool since_last_update) {
  const auto cpu_count = host_facts("").cpu_count;
  std::optional<results::ManagerResult> measured;
  // Final counters exist only once the workers stopped; before STOP (the GUI may ask for
  // results mid-run) they are live ones, as Dynamo's are.
  if (run_) {
    measured = since_last_update || !run_stopped_ ? run_->snapshot(options_.manager_name)
                                                  : run_->results(options_.manager_name);
  }
  auto manager = legacy::encode_manager_results(
      to_manager_results(measured ? measured->cpus : std::vector<results::CpuUtilization>{}, cpu_count));
  if (!manager) return tl::unexpected(manager.error());
  const std::string command = since_last_update ? "REPORT_UPDATE" : "REPORT_RESULTS";
  const std::string manager_what =
      tracing() ? command + " Manager_Results, " + std::to_string(measured ? measured->cpus.size() : 0) + " CPU(s)"
                : std::string();
  if (auto sent = send_block(*manager, manager_what); !sent) return sent;

  // One block per active worker, in worker order: exactly the workers the GUI counts.
  std::size_t active = 0;
  for (const auto& slot : workers_) {
    if (!slot.active()) continue;
    legacy::WorkerResults worker;
    const results::WorkerResult* ran =
        measured && active < measured->workers.size() ? &measured->workers[active] : nullptr;
    const std::uint64_t window_end = record_on_ns_ + (ran ? static_cast<std::uint64_t>(ran->recording_window.count()) : 0);
    worker.time_start = record_on_ns_;
    worker.time_end = window_end;
    for (std::size_t i = 0; i < slot.targets.size(); ++i) {
      IoCounters counters = ran && i < ran->targets.size() ? ran->targets[i].counters : IoCounters{};
      if (since_last_update && active < reported_counters_.size()) {
        auto& previous = reported_counters_[active];
        if (previous.size() < slot.targets.size()) previous.resize(slot.targets.size());
        const IoCounters interval = counters.since(previous[i]);
        previous[i] = counters;
        counters = interval;
      }
      worker.targets.push_back(to_raw_result(counters));
    }
    if (since_last_update && active < reported_until_ns_.size()) {
      worker.time_start = std::max(reported_until_ns_[active], record_on_ns_);
      worker.time_end = std::max(window_end, worker.time_start);
      reported_until_ns_[active] = worker.time_end;
    }
    auto block = legacy::encode_worker_results(worker);
    if (!block) return tl::unexpected(block.error());
    std::string what;
    if (tracing()) {
      std::uint64_t reads = 0;
      std::uint64_t writes = 0;
      for (const auto& t : worker.targets) {
        reads += t.read_count;
        writes += t.write_count;
      }
      what = command + " Worker_Results of worker " + std::to_string(active) + ", " +
             std::to_string(worker.targets.size()) + " target(s), " + std::to_string(reads) + " reads, " +
             std::to_string(writes) + " writes in " + std::to_string(worker.time_end - worker.time_start) + " ns";
    }
    if (auto sent = send_block(*block, what); !sent) return sent;
    ++active;
  }
  return {};
}

void LegacySession::remove_workers(std::int32_t who) {
  if (run_) run_->stop();
  run_.reset();
  if (who == legacy::kAllWorkers) {
    workers_.clear();
  } else if (who >= 0 && !workers_.empty()) {
    // Dynamo removes its last slot whichever index is named; the GUI shifts its own list.
    workers_.pop_back();
  }
}

std::vector<LegacySession::WorkerSlot*> LegacySession::addressed(std::int32_t who) {
  std::vector<WorkerSlot*> slots;
  if (who == legacy::kAllWorkers) {
    for (auto& slot : workers_) slots.push_back(&slot);
  } else if (who >= 0 && static_cast<std::size_t>(who) < workers_.size()) {
    slots.push_back(&workers_[static_cast<std::size_t>(who)]);
  }
  return slots;
}

Result<legacy::DataBlock> LegacySession::receive_block() {
  legacy::DataBlock block = legacy::make_data_block();
  auto got = channel_->receive_exact(block, steady_clock::now() + options_.block_deadline);
  if (!got) return tl::unexpected(got.error());
  return block;
}

Result<void> LegacySession::reply(Purpose purpose, std::int32_t data) {
  if (tracing()) trace("out: " + describe({purpose, data}));
  return send_message(*channel_, {purpose, data}, options_.block_deadline);
}

Result<void> LegacySession::send_block(const legacy::DataBlock& block, std::string_view what) {
  if (tracing()) trace("out: " + block_text(what));
  return channel_->send_all(block, steady_clock::now() + options_.block_deadline);
}

}  // namespace iomark::agent
