#include "dynamo_connection.hpp"

#include <algorithm>
#include <thread>

#include "dynamo_network.hpp"
#include "iomark/controller/network_pairing.hpp"
#include "iomark/legacy/raw_results.hpp"
#include "iomark/legacy/test_spec.hpp"

namespace iomark::controller::dynamo {

namespace {

using legacy::Purpose;

Nanoseconds ticks_to_ns(std::uint64_t ticks, double timer_hz) {
  return Nanoseconds(static_cast<std::int64_t>(static_cast<long double>(ticks) * 1e9L / timer_hz));
}

std::uint64_t ns_count(std::uint64_t ticks, double timer_hz) {
  return static_cast<std::uint64_t>(ticks_to_ns(ticks, timer_hz).count());
}

// Dynamo's counters in iomark's units. A Dynamo gives only sums, maxima and its 21 coarse
// bins (counted against the same edges as iomark's, in its own ticks), so the histogram
// holds the bins alone and its percentiles stay unknown.
IoCounters to_io_counters(const legacy::RawResult& raw, double timer_hz) {
  IoCounters counters;
  counters.bytes_read = raw.bytes_read;
  counters.bytes_written = raw.bytes_written;
  counters.reads = {raw.read_count, ns_count(raw.read_latency_sum, timer_hz), ns_count(raw.max_raw_read_latency, timer_hz)};
  counters.writes = {raw.write_count, ns_count(raw.write_latency_sum, timer_hz),
                     ns_count(raw.max_raw_write_latency, timer_hz)};
  counters.transactions = {raw.transaction_count, ns_count(raw.transaction_latency_sum, timer_hz),
                           ns_count(raw.max_raw_transaction_latency, timer_hz)};
  counters.connections = {raw.connection_count, ns_count(raw.connection_latency_sum, timer_hz),
                          ns_count(raw.max_raw_connection_latency, timer_hz)};
  counters.read_errors = raw.read_errors;
  counters.write_errors = raw.write_errors;
  counters.latency = CompactLatencyHistogram::from_legacy_bins(raw.latency_bins);
  return counters;
}

// Dynamo computes CPU and network figures from deltas of counters read a moment apart;
// they can stray below zero or past 100%, which iomark's model does not allow.
double percent(double value) { return std::clamp(value, 0.0, 100.0); }
double rate(double value) { return std::max(value, 0.0); }

legacy::DataPattern to_legacy(access_specs::DataPattern pattern) {
  switch (pattern) {
    case access_specs::DataPattern::repeating_bytes: return legacy::DataPattern::repeating_bytes;
    case access_specs::DataPattern::pseudo_random: return legacy::DataPattern::pseudo_random;
    case access_specs::DataPattern::full_random: return legacy::DataPattern::full_random;
  }
  return legacy::DataPattern::repeating_bytes;
}

// "/data [xfs]" -> {"/data", "xfs"}; nullopt for a name without a file-system suffix.
std::optional<std::pair<std::string, std::string>> split_logical_name(const std::string& name) {
  const auto bracket = name.rfind(" [");
  if (bracket == std::string::npos || name.back() != ']') return std::nullopt;
  return std::pair{name.substr(0, bracket), name.substr(bracket + 2, name.size() - bracket - 3)};
}

protocol::Envelope reply_to(std::uint64_t request_id, protocol::Message message) {
  return protocol::Envelope{0, request_id, std::move(message)};
}

}  // namespace

DynamoConnection::DynamoConnection(LegacySocket socket, legacy::ManagerInfo info)
    : socket_(std::move(socket)), info_(std::move(info)) {
  peer_.role = protocol::Role::agent;
  peer_.name = info_.manager_name;
  peer_.address = info_.network_address;
  peer_.endpoint = socket_.peer_endpoint();
  peer_.build = "Dynamo " + info_.version;
  peer_.auth_mode = protocol::AuthMode::none;
  peer_.timer_resolution_hz = info_.timer_resolution_hz;
}

Result<std::unique_ptr<DynamoConnection>> DynamoConnection::open(LegacySocket command_channel,
                                                                 legacy::ManagerInfo info) {
  std::unique_ptr<DynamoConnection> connection(new DynamoConnection(std::move(command_channel), std::move(info)));
  std::lock_guard lock(connection->mutex_);
  auto inventory = connection->report_targets();
  if (!inventory) return fail(inventory.error());
  connection->inbox_.push_back(protocol::Envelope{0, 0, std::move(*inventory)});
  return connection;
}

Error DynamoConnection::failure(const Error& error, std::string_view during) {
  Error named(error.code(), "Dynamo '" + peer_.name + "' (" + peer_.endpoint + "): " + std::string(during) + ": " +
                                error.message());
  if (!error.field().empty()) named.in_field(error.field());
  if (!closed_) {
    closed_ = named;
    socket_.close();
    io_run_id_.reset();
  }
  return named;
}

Error DynamoConnection::failure(std::string_view during, std::string message) {
  return failure(Error(ErrorCode::io_error, std::move(message)), during);
}

Result<void> DynamoConnection::send_message(Purpose purpose, std::int32_t data) {
  const auto bytes = legacy::encode_message({purpose, data});
  if (auto sent = socket_.send_all(bytes, Clock::now() + kLegacyReplyDeadline); !sent) {
    return fail(failure(sent.error(), legacy::to_string(purpose)));
  }
  return {};
}

Result<void> DynamoConnection::send_block(const legacy::DataBlock& block) {
  if (auto sent = socket_.send_all(block, Clock::now() + kLegacyReplyDeadline); !sent) {
    return fail(failure(sent.error(), "sending a data block"));
  }
  return {};
}

Result<legacy::Message> DynamoConnection::receive_reply(Purpose expected) {
  const auto deadline =
      expected == Purpose::stop || expected == Purpose::prep_disks ? kStopReplyDeadline : kLegacyReplyDeadline;
  std::array<std::byte, legacy::kMessageBytes> bytes{};
  if (auto got = socket_.receive_exact(bytes, Clock::now() + deadline); !got) {
    return fail(failure(got.error(), legacy::to_string(expected)));
  }
  auto message = legacy::decode_message(bytes);
  if (!message) return fail(failure(message.error(), legacy::to_string(expected)));
  if (message->purpose != expected) {
    return fail(failure(legacy::to_string(expected),
                        "desynchronised: the reply has purpose 0x" + [](std::uint32_t v) {
                          char text[9]{};
                          std::snprintf(text, sizeof text, "%08X", v);
                          return std::string(text);
                        }(static_cast<std::uint32_t>(message->purpose))));
  }
  return *message;
}

Result<legacy::DataBlock> DynamoConnection::receive_block(Purpose during) {
  auto block = legacy::make_data_block();
  if (auto got = socket_.receive_exact(block, Clock::now() + kLegacyReplyDeadline); !got) {
    return fail(failure(got.error(), legacy::to_string(during)));
  }
  return block;
}

Result<void> DynamoConnection::command(Purpose purpose, std::int32_t data, std::int32_t expected_data) {
  if (auto sent = send_message(purpose, data); !sent) return sent;
  auto reply = receive_reply(purpose);
  if (!reply) return fail(reply.error());
  if (reply->data != expected_data) {
    return fail(failure(legacy::to_string(purpose),
                        "failed (reply data " + std::to_string(reply->data) + ", expected " +
                            std::to_string(expected_data) + ")"));
  }
  return {};
}

Result<protocol::Inventory> DynamoConnection::report_targets() {
  if (auto sent = send_message(Purpose::report_targets, legacy::kManager); !sent) return fail(sent.error());
  // Three lists: disks, TCP NICs, VI NICs. VI is not run (Linux Dynamo reports none).
  std::vector<legacy::TargetSpec> disks;
  std::vector<legacy::TargetSpec> tcp_nics;
  for (int list = 0; list < 3; ++list) {
    auto block = receive_block(Purpose::report_targets);
    if (!block) return fail(block.error());
    auto targets = legacy::decode_target_list(*block, legacy::TargetListUse::discovery);
    if (!targets) return fail(failure(targets.error(), "REPORT_TARGETS"));
    if (list == 0) disks = std::move(*targets);
    if (list == 1) tcp_nics = std::move(*targets);
  }
  disks_ = std::move(disks);
  tcp_nics_ = std::move(tcp_nics);
  protocol::Inventory inventory;
  inventory.host_name = peer_.name;
  inventory.cpu_count = info_.processors;
  inventory.os_name = "Dynamo";
  inventory.kernel_release = info_.version;
  inventory.engines = {std::string(kDynamoEngine)};
  inventory.interfaces = interfaces_of(tcp_nics_);
  for (const auto& target : disks_) {
    const auto& disk = std::get<legacy::DiskDetails>(target.details);
    if (const auto logical = split_logical_name(target.name);
        logical && legacy::is_type(target.type, legacy::target_type::kLogicalDisk)) {
      protocol::FileSystem fs;
      fs.mount_point = logical->first;
      fs.type = logical->second.empty() ? "unknown" : logical->second;
      fs.block_bytes = disk.sector_size;
      // Dynamo does not say how large iobw.tst is, only whether it is ready.
      fs.test_file_bytes = disk.ready ? disk.sector_size : 0;
      inventory.file_systems.push_back(std::move(fs));
    } else {
      protocol::BlockDevice device;
      device.path = target.name.starts_with('/') ? target.name : "/dev/" + target.name;
      device.logical_sector_bytes = disk.sector_size;
      device.model = "reported by Dynamo";
      inventory.block_devices.push_back(std::move(device));
    }
  }
  return inventory;
}

const legacy::TargetSpec* DynamoConnection::target_for(const std::string& path) const {
  for (const auto& target : disks_) {
    if (const auto logical = split_logical_name(target.name)) {
      if (logical->first == path || logical->first + "/iobw.tst" == path) return &target;
    } else if (target.name == path || "/dev/" + target.name == path) {
      return &target;
    }
  }
  return nullptr;
}

Result<bool> DynamoConnection::start_preparing(std::uint64_t request_id, const protocol::PrepareTargets& prepare) {
  std::vector<legacy::TargetSpec> unready;
  Preparing preparing{request_id, {}, 0};
  for (const auto& wanted : prepare.targets) {
    const auto* target = target_for(wanted.path);
    if (target == nullptr) {
      return fail(Error(ErrorCode::not_found, "Dynamo '" + peer_.name + "' does not report a target '" + wanted.path + "'")
                      .in_field("path"));
    }
    // Raw devices are used as they are; only a logical disk's iobw.tst is ever filled.
    if (std::get<legacy::DiskDetails>(target->details).ready ||
        !legacy::is_type(target->type, legacy::target_type::kLogicalDisk)) {
      continue;
    }
    auto spec = *target;
    spec.type |= legacy::target_type::kActive;
    spec.data_pattern = to_legacy(wanted.data_pattern);
    spec.random_seed = wanted.seed;
    auto& disk = std::get<legacy::DiskDetails>(spec.details);
    disk.starting_sector = 0;
    // Dynamo stops at (starting sector + maximum size) sectors; 0 fills the file system.
    disk.maximum_size_sectors = disk.sector_size == 0 ? 0 : wanted.size_bytes / disk.sector_size;
    unready.push_back(std::move(spec));
    preparing.paths.push_back(wanted.path);
    preparing.bytes_total += wanted.size_bytes;
  }
  if (unready.empty()) return false;
  if (dynamo_workers_ == 0) {
    if (auto added = command(Purpose::add_workers, 1, 1); !added) return fail(added.error());
    dynamo_workers_ = 1;
  }
  auto targets = legacy::encode_target_list(unready);
  if (!targets) return fail(targets.error());
  if (auto sent = send_message(Purpose::set_targets, 0); !sent) return fail(sent.error());
  if (auto sent = send_block(*targets); !sent) return fail(sent.error());
  auto reply = receive_reply(Purpose::set_targets);
  if (!reply) return fail(reply.error());
  if (auto echo = receive_block(Purpose::set_targets); !echo) return fail(echo.error());
  if (reply->data != 1) return fail(failure("SET_TARGETS", "refused the targets to prepare"));
  if (auto sent = send_message(Purpose::prep_disks, legacy::kAllWorkers); !sent) return fail(sent.error());
  // Dynamo says nothing until the files are full, so the progress is its start and its end.
  inbox_.push_back(reply_to(request_id, protocol::PrepareProgress{preparing.paths.front(), 0, preparing.bytes_total}));
  preparing_ = std::move(preparing);
  return true;
}

Result<protocol::Message> DynamoConnection::stop_preparing() {
  preparing_.reset();
  if (auto sent = send_message(Purpose::stop_prepare, 0); !sent) return fail(sent.error());
  // Dynamo writes what is in flight and the remainder sector by sector before it answers the
  // pending PREP_DISKS; the real Dynamo 1.1.0 sends that answer with purpose STOP_PREPARE.
  std::array<std::byte, legacy::kMessageBytes> bytes{};
  if (auto got = socket_.receive_exact(bytes, Clock::now() + kStopReplyDeadline); !got) {
    return fail(failure(got.error(), "STOP_PREPARE"));
  }
  const auto reply = legacy::decode_message(bytes);
  if (!reply || (reply->purpose != Purpose::prep_disks && reply->purpose != Purpose::stop_prepare)) {
    return fail(failure("STOP_PREPARE", "desynchronised: the answer is neither PREP_DISKS nor STOP_PREPARE"));
  }
  return protocol::Ack{};
}

Result<std::optional<protocol::Envelope>> DynamoConnection::poll_prepared() {
  if (!preparing_ || !socket_.readable(std::chrono::milliseconds(0))) return std::optional<protocol::Envelope>{};
  auto reply = receive_reply(Purpose::prep_disks);
  if (!reply) return fail(reply.error());
  const auto preparing = std::exchange(preparing_, std::nullopt);
  if (reply->data != 1) {
    return std::optional<protocol::Envelope>{reply_to(
        preparing->request_id,
        protocol::ErrorReport{protocol::ErrorKind::request_failed,
                              Error(ErrorCode::io_error, "Dynamo '" + peer_.name + "' could not fill the test file in " +
                                                             preparing->paths.front() + " (PREP_DISKS answered 0)")})};
  }
  for (const auto& path : preparing->paths) {
    const auto* target = target_for(path);
    for (auto& disk : disks_) {
      if (&disk == target) std::get<legacy::DiskDetails>(disk.details).ready = true;
    }
  }
  inbox_.push_back(reply_to(preparing->request_id, protocol::PrepareProgress{preparing->paths.back(),
                                                                             preparing->bytes_total,
                                                                             preparing->bytes_total}));
  return std::optional<protocol::Envelope>{reply_to(preparing->request_id, protocol::Ack{})};
}

Result<legacy::TargetSpec> DynamoConnection::target_spec(const protocol::TargetAssignment& assigned) const {
  legacy::TargetSpec target;
  if (assigned.network) {
    if (!reports_nic(assigned.network->local_address)) {
      return fail(Error(ErrorCode::not_found, "Dynamo '" + peer_.name + "' does not report a TCP interface '" +
                                                  assigned.network->local_address + "'")
                      .in_field("local_address"));
    }
    target = network_target(*assigned.network, 0);
  } else {
    const auto* reported = target_for(assigned.path);
    if (reported == nullptr) {
      return fail(Error(ErrorCode::not_found, "Dynamo '" + peer_.name + "' does not report a target '" + assigned.path + "'")
                      .in_field("path"));
    }
    target = *reported;
    target.type |= legacy::target_type::kActive;
    auto& disk = std::get<legacy::DiskDetails>(target.details);
    disk.maximum_size_sectors = assigned.maximum_size_sectors;
    disk.starting_sector = assigned.starting_sector;
  }
  // Dynamo 1.1.0 writes only IOmeter's three patterns: refuse rather than write another.
  if (assigned.data_reduction) {
    return fail(Error(ErrorCode::unsupported, "Dynamo '" + peer_.name + "' cannot write the data pattern " +
                                                  access_specs::to_string(*assigned.data_reduction) +
                                                  " (IOmeter 1.1.0 knows repeating, pseudo-random and full-random)")
                    .in_field("data_pattern"));
  }
  target.queue_depth = assigned.outstanding_ios;
  target.data_pattern = to_legacy(assigned.data_pattern);
  target.test_connection_rate = assigned.test_connection_rate;
  target.transactions_per_connection = assigned.transactions_per_connection;
  // The two ends of a pair get the same seed: Dynamo's grunts draw their transfer sizes from
  // it, and must draw the same.
  target.random_seed = assigned.seed;
  return target;
}

bool DynamoConnection::reports_nic(const std::string& address) const {
  return std::any_of(tcp_nics_.begin(), tcp_nics_.end(), [&address](const auto& nic) { return nic.name == address; });
}

Result<legacy::DataBlock> DynamoConnection::set_targets(std::size_t worker, std::span<const legacy::TargetSpec> targets) {
  auto block = legacy::encode_target_list(targets);
  if (!block) return fail(block.error());
  if (auto sent = send_message(Purpose::set_targets, static_cast<std::int32_t>(worker)); !sent) return fail(sent.error());
  if (auto sent = send_block(*block); !sent) return fail(sent.error());
  auto reply = receive_reply(Purpose::set_targets);
  if (!reply) return fail(reply.error());
  auto echo = receive_block(Purpose::set_targets);
  if (!echo) return fail(echo.error());
  if (reply->data != 1) {
    std::string names;
    for (const auto& target : targets) names += (names.empty() ? "" : ", ") + target.name;
    return fail(failure("SET_TARGETS", "refused the targets of worker " + std::to_string(worker) + " (" + names + ")"));
  }
  return echo;
}

Result<void> DynamoConnection::assign(const protocol::Assignment& assignment) {
  const auto wanted = assignment.workers.size();
  if (wanted > legacy::kMaxWorkers) {
    return fail(ErrorCode::invalid_argument, "a Dynamo runs at most " + std::to_string(legacy::kMaxWorkers) + " workers");
  }
  // Resolve every target before sending anything, so a refusal leaves Dynamo as it was.
  std::vector<std::vector<legacy::TargetSpec>> lists;
  std::vector<std::optional<protocol::NetworkRole>> network_roles;
  for (const auto& worker : assignment.workers) {
    const bool network = std::any_of(worker.targets.begin(), worker.targets.end(),
                                     [](const auto& target) { return target.network.has_value(); });
    // As in IOmeter, a network worker has one partner and no disks (a Dynamo grunt opens one
    // kind of target).
    if (network && worker.targets.size() != 1) {
      return fail(ErrorCode::unsupported, "Dynamo '" + peer_.name + "': worker '" + worker.name +
                                              "' mixes a network target with others (a Dynamo worker runs one network "
                                              "target or disks)");
    }
    network_roles.push_back(network ? std::optional(worker.targets.front().network->role) : std::nullopt);
    std::vector<legacy::TargetSpec> list;
    for (const auto& assigned : worker.targets) {
      auto target = target_spec(assigned);
      if (!target) return fail(target.error());
      list.push_back(std::move(*target));
    }
    lists.push_back(std::move(list));
  }
  // Dynamo keeps its worker slots between runs: add what is missing, drop what is extra
  // (EXIT removes the last slot, whatever index it names).
  if (wanted > dynamo_workers_) {
    const auto add = static_cast<std::int32_t>(wanted - dynamo_workers_);
    if (auto added = command(Purpose::add_workers, add, add); !added) return added;
  }
  for (auto extra = dynamo_workers_; extra > wanted; --extra) {
    if (auto sent = send_message(Purpose::exit, static_cast<std::int32_t>(extra - 1)); !sent) return sent;
  }
  dynamo_workers_ = wanted;
  network_ = NetworkEnds{assignment.run_id, {}, {}, false};
  for (std::size_t w = 0; w < wanted; ++w) {
    const auto index = static_cast<std::int32_t>(w);
    auto spec = legacy::encode_test_spec(assignment.workers[w].spec);
    if (!spec) return fail(spec.error());
    if (auto sent = send_message(Purpose::set_access, index); !sent) return sent;
    if (auto sent = send_block(*spec); !sent) return sent;
    if (auto reply = receive_reply(Purpose::set_access); !reply) return fail(reply.error());
    else if (reply->data != 1) return fail(failure("SET_ACCESS", "refused the access spec of worker " + std::to_string(w)));
    // As IOmeter's GUI: a client's targets go out once its server's port is known.
    if (network_roles[w] == protocol::NetworkRole::client) {
      network_.waiting_clients.push_back({w, std::move(lists[w].front())});
      continue;
    }
    auto echo = set_targets(w, lists[w]);
    if (!echo) return fail(echo.error());
    if (network_roles[w] == protocol::NetworkRole::server) {
      auto port = listening_port(*echo);
      if (!port) return fail(failure(port.error(), "SET_TARGETS of worker " + std::to_string(w)));
      network_.listening.push_back({static_cast<std::uint32_t>(w), 0, *port});
    }
  }
  active_workers_ = wanted;
  return {};
}

Result<void> DynamoConnection::connect_clients(const protocol::NetworkPorts& ports) {
  if (ports.run_id != network_.run_id) {
    return fail(ErrorCode::invalid_argument, "Dynamo '" + peer_.name + "' was given ports for run " +
                                                 std::to_string(ports.run_id) + ", its run is " +
                                                 std::to_string(network_.run_id));
  }
  // Every client's port is checked before any SET_TARGETS, so a missing partner changes nothing.
  for (auto& client : network_.waiting_clients) {
    const auto entry = std::find_if(ports.ports.begin(), ports.ports.end(), [&client](const auto& port) {
      return port.worker_index == client.worker && port.target_index == 0;
    });
    if (entry == ports.ports.end()) {
      return fail(ErrorCode::not_found, "Dynamo '" + peer_.name + "': no server port came for the network client of worker " +
                                            std::to_string(client.worker) + " (its server end is missing)");
    }
    if (entry->port == 0 || entry->port > 0xFFFF) {
      return fail(ErrorCode::invalid_argument, "Dynamo '" + peer_.name + "': port " + std::to_string(entry->port) +
                                                   " for the network client of worker " + std::to_string(client.worker) +
                                                   " is not a TCP port");
    }
    std::get<legacy::TcpDetails>(client.target.details).remote_port = static_cast<std::uint16_t>(entry->port);
  }
  for (const auto& client : network_.waiting_clients) {
    if (auto echo = set_targets(client.worker, std::span(&client.target, 1)); !echo) return fail(echo.error());
  }
  network_.waiting_clients.clear();
  if (std::exchange(network_.start_deferred, false)) return command(Purpose::start, legacy::kAllWorkers, 1);
  return {};
}

Result<DynamoConnection::Counters> DynamoConnection::report(Purpose purpose) {
  if (auto sent = send_message(purpose, legacy::kManager); !sent) return fail(sent.error());
  auto manager_block = receive_block(purpose);
  if (!manager_block) return fail(manager_block.error());
  auto manager = legacy::decode_manager_results(*manager_block);
  if (!manager) return fail(failure(manager.error(), legacy::to_string(purpose)));
  Counters counters;
  for (std::size_t cpu = 0; cpu < manager->cpus.size(); ++cpu) {
    const auto& c = manager->cpus[cpu];
    counters.cpus.push_back({static_cast<std::uint32_t>(cpu), percent(c.total_percent), percent(c.user_percent),
                             percent(c.privileged_percent), percent(c.interrupt_percent), 0.0,
                             rate(c.interrupts_per_second)});
  }
  counters.network.segments_retransmitted_per_second = rate(manager->tcp_retransmissions_per_second);
  for (const auto& nic : manager->nics) {
    counters.network.packets_per_second += rate(nic.packets_per_second);
    counters.network.packet_errors_per_second += rate(nic.out_errors_per_second) + rate(nic.in_errors_per_second);
  }
  // Every assigned worker has targets and a spec, so each sends one Worker_Results.
  for (std::size_t w = 0; w < active_workers_; ++w) {
    auto block = receive_block(purpose);
    if (!block) return fail(block.error());
    auto results = legacy::decode_worker_results(*block);
    if (!results) return fail(failure(results.error(), legacy::to_string(purpose)));
    protocol::WorkerCounters worker;
    worker.worker_index = static_cast<std::uint32_t>(w);
    worker.window = ticks_to_ns(results->time_end - results->time_start, info_.timer_resolution_hz);
    for (std::size_t t = 0; t < results->targets.size(); ++t) {
      worker.targets.push_back(
          {static_cast<std::uint32_t>(t), to_io_counters(results->targets[t], info_.timer_resolution_hz)});
    }
    counters.workers.push_back(std::move(worker));
  }
  return counters;
}

Result<protocol::Message> DynamoConnection::phase(const protocol::PhaseCommand& command) {
  using protocol::Phase;
  switch (command.phase) {
    case Phase::start:
      // Dynamo starts only the workers that have targets: with clients still waiting for their
      // server's port, START follows their SET_TARGETS (connect_clients).
      if (!network_.waiting_clients.empty()) {
        network_.start_deferred = true;
      } else if (auto done = this->command(Purpose::start, legacy::kAllWorkers, 1); !done) {
        return fail(done.error());
      }
      if (!network_.listening.empty()) return protocol::NetworkPorts{command.run_id, network_.listening};
      break;
    case Phase::begin_io:
      if (!network_.waiting_clients.empty()) {
        return fail(ErrorCode::not_found, "Dynamo '" + peer_.name + "': the network client of worker " +
                                              std::to_string(network_.waiting_clients.front().worker) +
                                              " never got its server's port");
      }
      if (auto done = this->command(Purpose::begin_io, legacy::kAllWorkers, 1); !done) return fail(done.error());
      io_run_id_ = command.run_id;
      sample_phase_ = protocol::SamplePhase::ramp_up;
      sample_sequence_ = 0;
      io_started_ = last_update_ = Clock::now();
      break;
    case Phase::record_on:
      if (auto sent = send_message(Purpose::record_on, legacy::kAllWorkers); !sent) return fail(sent.error());
      sample_phase_ = protocol::SamplePhase::recording;
      last_update_ = Clock::now();
      break;
    case Phase::record_off:
      io_run_id_.reset();
      if (auto done = this->command(Purpose::record_off, legacy::kAllWorkers, legacy::kAllWorkers); !done) {
        return fail(done.error());
      }
      break;
    case Phase::stop: {
      io_run_id_.reset();
      if (auto done = this->command(Purpose::stop, legacy::kAllWorkers, legacy::kAllWorkers); !done) {
        return fail(done.error());
      }
      auto counters = report(Purpose::report_results);
      if (!counters) return fail(counters.error());
      return protocol::FinalResults{command.run_id, std::move(counters->workers), std::move(counters->cpus),
                                    counters->network};
    }
    case Phase::abort:
      if (preparing_) return stop_preparing();
      io_run_id_.reset();
      network_ = {};
      if (auto done = this->command(Purpose::stop, legacy::kAllWorkers, legacy::kAllWorkers); !done) {
        return fail(done.error());
      }
      break;
  }
  return protocol::Ack{};
}

Result<void> DynamoConnection::send(protocol::Envelope envelope) {
  std::lock_guard lock(mutex_);
  if (closed_) return fail(*closed_);
  if (std::holds_alternative<protocol::Heartbeat>(envelope.message) || envelope.request_id == 0) return {};
  Result<protocol::Message> reply = fail(ErrorCode::unsupported, "");
  if (const auto* assignment = std::get_if<protocol::Assignment>(&envelope.message)) {
    auto done = assign(*assignment);
    reply = done ? Result<protocol::Message>(protocol::Ack{}) : fail(done.error());
  } else if (const auto* prepare = std::get_if<protocol::PrepareTargets>(&envelope.message)) {
    auto waiting = start_preparing(envelope.request_id, *prepare);
    if (waiting && *waiting) return {};  // answered by receive() once Dynamo is done
    reply = waiting ? Result<protocol::Message>(protocol::Ack{}) : fail(waiting.error());
  } else if (const auto* command = std::get_if<protocol::PhaseCommand>(&envelope.message)) {
    reply = phase(*command);
  } else if (const auto* ports = std::get_if<protocol::NetworkPorts>(&envelope.message)) {
    auto connected = connect_clients(*ports);
    reply = connected ? Result<protocol::Message>(protocol::Ack{}) : fail(connected.error());
  } else if (std::holds_alternative<protocol::InventoryRequest>(envelope.message)) {
    auto inventory = report_targets();
    reply = inventory ? Result<protocol::Message>(std::move(*inventory)) : fail(inventory.error());
  } else {
    reply = fail(ErrorCode::unsupported, "a Dynamo cannot carry out '" +
                                             std::string(protocol::message_name(envelope.message)) + "'");
  }
  if (closed_) return fail(*closed_);
  if (!reply) {
    inbox_.push_back(reply_to(envelope.request_id, protocol::ErrorReport{protocol::ErrorKind::request_failed, reply.error()}));
  } else {
    inbox_.push_back(reply_to(envelope.request_id, std::move(*reply)));
  }
  return {};
}

Result<std::optional<protocol::Envelope>> DynamoConnection::poll_update() {
  // Only while recording, as IOmeter's GUI: before RECORD_ON Dynamo has no CPU snapshot to
  // subtract and reports NaN utilisation.
  if (!io_run_id_ || sample_phase_ != protocol::SamplePhase::recording || Clock::now() - last_update_ < kUpdateInterval) {
    return std::optional<protocol::Envelope>{};
  }
  const auto now = Clock::now();
  auto counters = report(Purpose::report_update);
  if (!counters) return fail(counters.error());
  protocol::Sample sample;
  sample.run_id = *io_run_id_;
  sample.sequence = ++sample_sequence_;
  sample.run_time = std::chrono::duration_cast<Nanoseconds>(now - io_started_);
  sample.interval = std::chrono::duration_cast<Nanoseconds>(now - last_update_);
  sample.phase = sample_phase_;
  sample.workers = std::move(counters->workers);
  sample.cpus = std::move(counters->cpus);
  sample.network = counters->network;
  last_update_ = now;
  return std::optional<protocol::Envelope>{protocol::Envelope{0, 0, std::move(sample)}};
}

Result<protocol::Envelope> DynamoConnection::receive(Nanoseconds timeout) {
  const auto deadline = Clock::now() + timeout;
  for (;;) {
    {
      std::lock_guard lock(mutex_);
      if (!inbox_.empty()) {
        auto envelope = std::move(inbox_.front());
        inbox_.pop_front();
        return envelope;
      }
      if (closed_) return fail(*closed_);
      auto prepared = poll_prepared();
      if (!prepared) return fail(prepared.error());
      if (*prepared) {
        inbox_.push_back(std::move(**prepared));
        continue;
      }
      // While it fills test files Dynamo answers nothing else; poll_prepared() reads its end.
      if (!preparing_) {
        auto update = poll_update();
        if (!update) return fail(update.error());
        if (*update) return std::move(**update);
        // Dynamo never speaks unasked: anything readable now is the end of the stream or garbage.
        if (socket_.readable(std::chrono::milliseconds(0))) {
          std::array<std::byte, 1> byte{};
          auto got = socket_.receive_exact(byte, Clock::now());
          return fail(got ? failure("idle", "desynchronised: sent bytes nobody asked for")
                          : failure(got.error(), "idle"));
        }
      }
    }
    if (Clock::now() >= deadline) return fail(ErrorCode::timed_out, "nothing arrived");
    std::this_thread::sleep_for(std::min<Clock::duration>(std::chrono::milliseconds(20), deadline - Clock::now()));
  }
}

void DynamoConnection::close(std::string reason) {
  std::lock_guard lock(mutex_);
  if (closed_) return;
  // As IOmeter's GUI does when it lets a manager go: EXIT MANAGER ends the Dynamo process
  // (a Dynamo that merely loses its channel may crash instead). Best effort, no reply; a
  // preparation under way is told to stop first (STOP_PREPARE), as IOmeter's Stop does.
  if (preparing_) {
    (void)socket_.send_all(legacy::encode_message({Purpose::stop_prepare, 0}),
                           Clock::now() + std::chrono::milliseconds(200));
  }
  (void)socket_.send_all(legacy::encode_message({Purpose::exit, legacy::kManager}),
                         Clock::now() + std::chrono::milliseconds(200));
  closed_ = Error(ErrorCode::io_error, "Dynamo '" + peer_.name + "' (" + peer_.endpoint + "): " + reason);
  socket_.close();
}

bool DynamoConnection::is_open() const noexcept {
  std::lock_guard lock(mutex_);
  return !closed_.has_value();
}

}  // namespace iomark::controller::dynamo
