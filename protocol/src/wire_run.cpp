// Inventory, assignments, preparation and phase commands.

#include <arpa/inet.h>

#include <cstring>
#include <string>

#include "iomark/access_specs/field_descriptors.hpp"
#include "iomark/access_specs/run_request.hpp"
#include "wire.hpp"

namespace iomark::protocol::detail {

namespace {

using access_specs::DataPattern;
using access_specs::DefaultAssignment;
using access_specs::FieldId;

// The wire keeps 0 for "unspecified", so enums whose domain starts at 0 are shifted by one.
constexpr int kZeroBasedOffset = 1;
static_assert(pb::DATA_PATTERN_FULL_RANDOM == static_cast<int>(DataPattern::full_random) + kZeroBasedOffset);
static_assert(pb::DEFAULT_ASSIGNMENT_NETWORK == static_cast<int>(DefaultAssignment::network) + kZeroBasedOffset);
static_assert(pb::MOUNT_STATE_SWAP == static_cast<int>(MountState::swap));
static_assert(pb::PHASE_ABORT == static_cast<int>(Phase::abort));

pb::DataPattern data_pattern_to_wire(DataPattern pattern) {
  return static_cast<pb::DataPattern>(static_cast<int>(pattern) + kZeroBasedOffset);
}

DataPattern data_pattern_from_wire(pb::DataPattern wire, Checker& check, const FieldPath& where) {
  auto pattern = DataPattern::repeating_bytes;
  check.enumeration(wire, DataPattern::repeating_bytes, DataPattern::full_random, kZeroBasedOffset, pattern, where);
  return pattern;
}

// A reduction pattern travels as DATA_PATTERN_REDUCTION plus its DataReduction message, which
// also carries the IOmeter pattern, so the model survives the trip unchanged.
template <typename Wire>
void write_data_to_wire(DataPattern pattern, const std::optional<access_specs::DataReduction>& reduction, Wire& wire) {
  if (!reduction) {
    wire.set_data_pattern(data_pattern_to_wire(pattern));
    return;
  }
  wire.set_data_pattern(pb::DATA_PATTERN_REDUCTION);
  auto& message = *wire.mutable_data_reduction();
  message.set_compress_ratio(reduction->compress_ratio);
  message.set_dedupe_ratio(reduction->dedupe_ratio);
  message.set_dedupe_unit_bytes(reduction->dedupe_unit_bytes);
  message.set_iometer_pattern(data_pattern_to_wire(pattern));
}

template <typename Wire>
void write_data_from_wire(const Wire& wire, Checker& check, const FieldPath& path, DataPattern& pattern,
                          std::optional<access_specs::DataReduction>& reduction) {
  if (wire.data_pattern() != pb::DATA_PATTERN_REDUCTION) {
    pattern = data_pattern_from_wire(wire.data_pattern(), check, path / "data_pattern");
    check.consistent(!wire.has_data_reduction(), path / "data_reduction",
                     "is only allowed with data_pattern DATA_PATTERN_REDUCTION");
    return;
  }
  const FieldPath where = path / "data_reduction";
  if (!check.require(wire.has_data_reduction(), where, "is missing for data_pattern DATA_PATTERN_REDUCTION")) return;
  const auto& message = wire.data_reduction();
  pattern = data_pattern_from_wire(message.iometer_pattern(), check, where / "iometer_pattern");
  const access_specs::DataReduction decoded{message.compress_ratio(), message.dedupe_ratio(),
                                            message.dedupe_unit_bytes()};
  if (auto valid = access_specs::validate(decoded); !valid) {
    check.fail(ErrorCode::invalid_argument, where, valid.error().message());
    return;
  }
  reduction = decoded;
}

bool check_descriptor(Checker& check, FieldId id, std::uint64_t value, const FieldPath& where) {
  const auto& descriptor = access_specs::field_descriptor(id);
  return check.in_range(value, descriptor.min_value, descriptor.max_value, where);
}

// "io_uring", "linux-aio": lower-case letters, digits, '_' and '-'.
bool check_engine_name(Checker& check, std::string_view name, const FieldPath& where) {
  if (!check.ok()) return false;
  const bool valid_size = !name.empty() && name.size() <= kMaxEngineNameBytes;
  const bool valid_chars = name.find_first_not_of("abcdefghijklmnopqrstuvwxyz0123456789_-") == std::string_view::npos;
  if (valid_size && valid_chars) return true;
  return check.fail(ErrorCode::invalid_argument, where,
                    "must be 1 to " + std::to_string(kMaxEngineNameBytes) +
                        " characters of a-z, 0-9, '_' and '-' (an engine name)");
}

// A dotted IPv4 address ("10.0.0.5"), as network workers bind and connect with.
bool check_ipv4(Checker& check, const std::string& address, const FieldPath& where) {
  if (!check.ok()) return false;
  in_addr parsed{};
  if (address.size() <= 15 && ::inet_pton(AF_INET, address.c_str(), &parsed) == 1) return true;
  return check.fail(ErrorCode::invalid_argument, where, "is not a dotted IPv4 address");
}

// ---- Inventory --------------------------------------------------------------------

void to_wire(const NetworkInterface& nic, pb::NetworkInterface& wire) {
  wire.set_name(nic.name);
  wire.set_address(nic.address);
  wire.set_prefix_length(nic.prefix_length);
  wire.set_mtu_bytes(nic.mtu_bytes);
  if (nic.speed_mbps) wire.set_speed_mbps(*nic.speed_mbps);
}

NetworkInterface from_wire(const pb::NetworkInterface& wire, Checker& check, const FieldPath& path) {
  NetworkInterface nic;
  nic.name = wire.name();
  nic.address = wire.address();
  nic.prefix_length = wire.prefix_length();
  nic.mtu_bytes = wire.mtu_bytes();
  if (wire.has_speed_mbps()) nic.speed_mbps = wire.speed_mbps();
  check.label(nic.name, 1, path / "name");
  check_ipv4(check, nic.address, path / "address");
  check.in_range(nic.prefix_length, 0, 32, path / "prefix_length");
  return nic;
}

void to_wire(const BlockDevice& device, pb::BlockDevice& wire) {
  wire.set_path(device.path);
  wire.set_size_bytes(device.size_bytes);
  wire.set_logical_sector_bytes(device.logical_sector_bytes);
  wire.set_model(device.model);
  wire.set_mount_state(static_cast<pb::MountState>(device.mount_state));
  wire.set_has_signature(device.has_signature);
}

BlockDevice from_wire(const pb::BlockDevice& wire, Checker& check, const FieldPath& path) {
  BlockDevice device;
  device.path = wire.path();
  device.size_bytes = wire.size_bytes();
  device.logical_sector_bytes = wire.logical_sector_bytes();
  device.model = wire.model();
  device.has_signature = wire.has_signature();
  check.path(device.path, path / "path");
  check.power_of_two(device.logical_sector_bytes, kMaxSectorBytes, path / "logical_sector_bytes");
  check.label(device.model, 0, path / "model");
  check.enumeration(wire.mount_state(), MountState::not_mounted, MountState::swap, 0, device.mount_state,
                    path / "mount_state");
  return device;
}

void to_wire(const FileSystem& file_system, pb::FileSystem& wire) {
  wire.set_mount_point(file_system.mount_point);
  wire.set_source(file_system.source);
  wire.set_type(file_system.type);
  wire.set_total_bytes(file_system.total_bytes);
  wire.set_free_bytes(file_system.free_bytes);
  wire.set_block_bytes(file_system.block_bytes);
  wire.set_test_file_bytes(file_system.test_file_bytes);
}

FileSystem from_wire(const pb::FileSystem& wire, Checker& check, const FieldPath& path) {
  FileSystem file_system;
  file_system.mount_point = wire.mount_point();
  file_system.source = wire.source();
  file_system.type = wire.type();
  file_system.total_bytes = wire.total_bytes();
  file_system.free_bytes = wire.free_bytes();
  file_system.block_bytes = wire.block_bytes();
  file_system.test_file_bytes = wire.test_file_bytes();
  check.path(file_system.mount_point, path / "mount_point");
  check.raw(file_system.source, kMaxPathBytes, path / "source");
  check.label(file_system.type, 1, path / "type");
  check.consistent(file_system.free_bytes <= file_system.total_bytes, path / "free_bytes",
                   "is larger than total_bytes");
  check.power_of_two(file_system.block_bytes, kMaxSectorBytes, path / "block_bytes");
  return file_system;
}

// ---- Assignment -------------------------------------------------------------------

void to_wire(const access_specs::AccessSpec& spec, pb::AccessSpec& wire) {
  wire.set_name(spec.name);
  wire.set_default_assignment(
      static_cast<pb::DefaultAssignment>(static_cast<int>(spec.default_assignment) + kZeroBasedOffset));
  wire.mutable_lines()->Reserve(static_cast<int>(spec.lines.size()));
  for (const auto& line : spec.lines) {
    auto& out = *wire.add_lines();
    out.set_size_bytes(line.size_bytes);
    out.set_percent_of_size(line.percent_of_size);
    out.set_percent_reads(line.percent_reads);
    out.set_percent_random(line.percent_random);
    out.set_delay_ms(line.delay_ms);
    out.set_burst_transactions(line.burst_transactions);
    out.set_align_bytes(line.align_bytes);
    out.set_reply_bytes(line.reply_bytes);
  }
}

access_specs::AccessSpec from_wire(const pb::AccessSpec& wire, Checker& check, const FieldPath& path) {
  access_specs::AccessSpec spec;
  spec.name = wire.name();
  check.text(spec.name, access_specs::kMaxSpecNameLength, path / "name");
  check.enumeration(wire.default_assignment(), DefaultAssignment::none, DefaultAssignment::network,
                    kZeroBasedOffset, spec.default_assignment, path / "default_assignment");
  if (!check.count(wire.lines_size(), 1, access_specs::kMaxSpecLines, path / "lines")) return spec;
  spec.lines.reserve(static_cast<std::size_t>(wire.lines_size()));
  for (const auto& line : wire.lines()) {
    spec.lines.push_back({line.size_bytes(), line.percent_of_size(), line.percent_reads(), line.percent_random(),
                          line.delay_ms(), line.burst_transactions(), line.align_bytes(), line.reply_bytes()});
  }
  if (!check.ok()) return spec;
  // The access-specs library owns the rules of a spec; its message names the line and field.
  if (auto valid = access_specs::validate(spec); !valid) {
    const auto field = valid.error().field();
    check.fail(valid.error().code(), field.empty() ? path : path / field, valid.error().message());
  }
  return spec;
}

void to_wire(const TargetAssignment& target, pb::TargetAssignment& wire) {
  wire.set_path(target.path);
  wire.set_outstanding_ios(target.outstanding_ios);
  wire.set_maximum_size_sectors(target.maximum_size_sectors);
  wire.set_starting_sector(target.starting_sector);
  write_data_to_wire(target.data_pattern, target.data_reduction, wire);
  wire.set_seed(target.seed);
  wire.set_test_connection_rate(target.test_connection_rate);
  wire.set_transactions_per_connection(target.transactions_per_connection);
  if (target.network) {
    auto& network = *wire.mutable_network();
    network.set_role(static_cast<pb::NetworkRole>(target.network->role));
    network.set_local_address(target.network->local_address);
    network.set_peer_address(target.network->peer_address);
    network.set_peer_port(target.network->peer_port);
    network.set_pair_secret(target.network->pair_secret.data(), target.network->pair_secret.size());
    network.set_label(target.network->label);
  }
  wire.set_verify(target.verify);
  wire.set_verify_journal(target.verify_journal);
}

NetworkEndpoint from_wire(const pb::NetworkEndpoint& wire, Checker& check, const FieldPath& path) {
  NetworkEndpoint endpoint;
  check.enumeration(wire.role(), NetworkRole::server, NetworkRole::client, 0, endpoint.role, path / "role");
  endpoint.local_address = wire.local_address();
  endpoint.peer_address = wire.peer_address();
  endpoint.peer_port = wire.peer_port();
  endpoint.label = wire.label();
  check_ipv4(check, endpoint.local_address, path / "local_address");
  check_ipv4(check, endpoint.peer_address, path / "peer_address");
  check.in_range(endpoint.peer_port, 0, 65535, path / "peer_port");
  check.label(endpoint.label, 1, path / "label");
  if (check.require(wire.pair_secret().size() == kPairSecretBytes, path / "pair_secret",
                    "must be " + std::to_string(kPairSecretBytes) + " bytes")) {
    std::memcpy(endpoint.pair_secret.data(), wire.pair_secret().data(), kPairSecretBytes);
  }
  return endpoint;
}

TargetAssignment from_wire(const pb::TargetAssignment& wire, Checker& check, const FieldPath& path) {
  TargetAssignment target;
  target.path = wire.path();
  target.outstanding_ios = wire.outstanding_ios();
  target.maximum_size_sectors = wire.maximum_size_sectors();
  target.starting_sector = wire.starting_sector();
  target.seed = wire.seed();
  target.test_connection_rate = wire.test_connection_rate();
  target.transactions_per_connection = wire.transactions_per_connection();
  target.verify = wire.verify();
  target.verify_journal = wire.verify_journal();
  if (wire.has_network()) {
    target.network = from_wire(wire.network(), check, path / "network");
  } else {
    check.path(target.path, path / "path");
  }
  if (!target.verify_journal.empty()) check.path(target.verify_journal, path / "verify_journal");
  check_descriptor(check, FieldId::outstanding_ios, target.outstanding_ios, path / "outstanding_ios");
  check_descriptor(check, FieldId::max_disk_size_sectors, target.maximum_size_sectors, path / "maximum_size_sectors");
  check_descriptor(check, FieldId::starting_sector, target.starting_sector, path / "starting_sector");
  check.in_range(target.starting_sector, 0, UINT64_MAX - target.maximum_size_sectors, path / "starting_sector");
  write_data_from_wire(wire, check, path, target.data_pattern, target.data_reduction);
  check_descriptor(check, FieldId::transactions_per_connection, target.transactions_per_connection,
              path / "transactions_per_connection");
  return target;
}

void to_wire(const WorkerAssignment& worker, pb::WorkerAssignment& wire) {
  wire.set_name(worker.name);
  if (worker.cpu) wire.set_cpu(*worker.cpu);
  to_wire(worker.spec, *wire.mutable_spec());
  wire.mutable_targets()->Reserve(static_cast<int>(worker.targets.size()));
  for (const auto& target : worker.targets) to_wire(target, *wire.add_targets());
  wire.set_rate_iops(worker.rate_iops);
}

WorkerAssignment from_wire(const pb::WorkerAssignment& wire, Checker& check, const FieldPath& path) {
  WorkerAssignment worker;
  worker.name = wire.name();
  check.name(worker.name, path / "name");
  if (wire.has_cpu()) {
    worker.cpu = wire.cpu();
    check.in_range(*worker.cpu, 0, kMaxCpus - 1, path / "cpu");
  }
  worker.spec = from_wire(wire.spec(), check, path / "spec");
  worker.rate_iops = wire.rate_iops();
  check.worker_rate(worker.rate_iops, path / "rate_iops");
  if (!check.count(wire.targets_size(), 1, kMaxTargetsPerWorker, path / "targets")) return worker;
  worker.targets.reserve(static_cast<std::size_t>(wire.targets_size()));
  for (int i = 0; i < wire.targets_size() && check.ok(); ++i) {
    worker.targets.push_back(from_wire(wire.targets(i), check, path.item("targets", static_cast<std::size_t>(i))));
  }
  return worker;
}

void to_wire(const PrepareTarget& target, pb::PrepareTarget& wire) {
  wire.set_path(target.path);
  wire.set_size_bytes(target.size_bytes);
  write_data_to_wire(target.data_pattern, target.data_reduction, wire);
  wire.set_seed(target.seed);
  wire.set_precondition_passes(target.precondition_passes);
  if (target.precondition_spec) to_wire(*target.precondition_spec, *wire.mutable_precondition_spec());
}

PrepareTarget from_wire(const pb::PrepareTarget& wire, Checker& check, const FieldPath& path) {
  PrepareTarget target;
  target.path = wire.path();
  target.size_bytes = wire.size_bytes();
  target.seed = wire.seed();
  target.precondition_passes = wire.precondition_passes();
  check.path(target.path, path / "path");
  check.in_range(target.precondition_passes, 0, access_specs::kMaxPreconditionPasses, path / "precondition_passes");
  if (wire.has_precondition_spec()) {
    target.precondition_spec = from_wire(wire.precondition_spec(), check, path / "precondition_spec");
    if (check.ok() && target.precondition_passes == 0) {
      check.fail(ErrorCode::invalid_argument, path / "precondition_spec", "given without preconditioning passes");
    }
    if (check.ok() && !access_specs::writes(*target.precondition_spec)) {
      check.fail(ErrorCode::invalid_argument, path / "precondition_spec",
                 "spec '" + target.precondition_spec->name + "' only reads: it would write nothing");
    }
  }
  write_data_from_wire(wire, check, path, target.data_pattern, target.data_reduction);
  return target;
}

void to_wire(const EngineChoice& choice, pb::EngineChoice& wire) {
  wire.set_queue_depth(choice.queue_depth);
  wire.set_block_bytes(choice.block_bytes);
  wire.set_engine(choice.engine);
  wire.set_reason(choice.reason);
}

EngineChoice from_wire(const pb::EngineChoice& wire, Checker& check, const FieldPath& path) {
  EngineChoice choice;
  choice.queue_depth = wire.queue_depth();
  choice.block_bytes = wire.block_bytes();
  choice.engine = wire.engine();
  choice.reason = wire.reason();
  check.in_range(choice.queue_depth, 1, kMaxOutstandingIosPerWorker, path / "queue_depth");
  check.in_range(choice.block_bytes, 1, kMaxSectorBytes, path / "block_bytes");
  check_engine_name(check, choice.engine, path / "engine");
  check.text(choice.reason, kMaxEngineReasonBytes, path / "reason");
  return choice;
}

void to_wire(const TargetEngines& target, pb::TargetEngines& wire) {
  wire.set_path(target.path);
  for (const auto& engine : target.usable_engines) wire.add_usable_engines(engine);
  for (const auto& choice : target.choices) to_wire(choice, *wire.add_choices());
}

TargetEngines from_wire(const pb::TargetEngines& wire, Checker& check, const FieldPath& path) {
  TargetEngines target;
  target.path = wire.path();
  check.path(target.path, path / "path");
  if (check.count(wire.usable_engines_size(), 0, kMaxEngines, path / "usable_engines")) {
    for (int i = 0; i < wire.usable_engines_size() && check.ok(); ++i) {
      check_engine_name(check, wire.usable_engines(i), path.item("usable_engines", static_cast<std::size_t>(i)));
      target.usable_engines.push_back(wire.usable_engines(i));
    }
  }
  if (check.count(wire.choices_size(), 1, kMaxEngineChoices, path / "choices")) {
    for (int i = 0; i < wire.choices_size() && check.ok(); ++i) {
      target.choices.push_back(from_wire(wire.choices(i), check, path.item("choices", static_cast<std::size_t>(i))));
    }
  }
  return target;
}

}  // namespace

void to_wire(const Inventory& message, pb::Inventory& wire) {
  wire.set_host_name(message.host_name);
  wire.set_cpu_count(message.cpu_count);
  wire.set_os_name(message.os_name);
  wire.set_kernel_release(message.kernel_release);
  wire.mutable_block_devices()->Reserve(static_cast<int>(message.block_devices.size()));
  for (const auto& device : message.block_devices) to_wire(device, *wire.add_block_devices());
  wire.mutable_file_systems()->Reserve(static_cast<int>(message.file_systems.size()));
  for (const auto& file_system : message.file_systems) to_wire(file_system, *wire.add_file_systems());
  for (const auto& path : message.allowed_paths) wire.add_allowed_paths(path);
  wire.set_write_scope(message.write_scope);
  for (const auto& engine : message.engines) wire.add_engines(engine);
  for (const auto& nic : message.interfaces) to_wire(nic, *wire.add_interfaces());
  for (const auto& target : message.target_engines) to_wire(target, *wire.add_target_engines());
}

Inventory from_wire(const pb::Inventory& wire, Checker& check, const FieldPath& path) {
  Inventory message;
  message.host_name = wire.host_name();
  message.cpu_count = wire.cpu_count();
  message.os_name = wire.os_name();
  message.kernel_release = wire.kernel_release();
  check.label(message.host_name, 1, path / "host_name");
  check.in_range(message.cpu_count, 1, kMaxCpus, path / "cpu_count");
  check.label(message.os_name, 0, path / "os_name");
  check.label(message.kernel_release, 0, path / "kernel_release");

  if (check.count(wire.block_devices_size(), 0, kMaxBlockDevices, path / "block_devices")) {
    message.block_devices.reserve(static_cast<std::size_t>(wire.block_devices_size()));
    for (int i = 0; i < wire.block_devices_size() && check.ok(); ++i) {
      message.block_devices.push_back(
          from_wire(wire.block_devices(i), check, path.item("block_devices", static_cast<std::size_t>(i))));
    }
  }
  if (check.count(wire.file_systems_size(), 0, kMaxFileSystems, path / "file_systems")) {
    message.file_systems.reserve(static_cast<std::size_t>(wire.file_systems_size()));
    for (int i = 0; i < wire.file_systems_size() && check.ok(); ++i) {
      message.file_systems.push_back(
          from_wire(wire.file_systems(i), check, path.item("file_systems", static_cast<std::size_t>(i))));
    }
  }
  if (check.count(wire.allowed_paths_size(), 0, kMaxAllowedPaths, path / "allowed_paths")) {
    for (int i = 0; i < wire.allowed_paths_size() && check.ok(); ++i) {
      check.path(wire.allowed_paths(i), path.item("allowed_paths", static_cast<std::size_t>(i)));
      message.allowed_paths.push_back(wire.allowed_paths(i));
    }
  }
  message.write_scope = wire.write_scope();
  if (check.count(wire.engines_size(), 1, kMaxEngines, path / "engines")) {
    for (int i = 0; i < wire.engines_size() && check.ok(); ++i) {
      check_engine_name(check, wire.engines(i), path.item("engines", static_cast<std::size_t>(i)));
      message.engines.push_back(wire.engines(i));
    }
  }
  if (check.count(wire.interfaces_size(), 0, kMaxNetworkInterfaces, path / "interfaces")) {
    for (int i = 0; i < wire.interfaces_size() && check.ok(); ++i) {
      message.interfaces.push_back(
          from_wire(wire.interfaces(i), check, path.item("interfaces", static_cast<std::size_t>(i))));
    }
  }
  if (check.count(wire.target_engines_size(), 0, kMaxTargetEngines, path / "target_engines")) {
    for (int i = 0; i < wire.target_engines_size() && check.ok(); ++i) {
      message.target_engines.push_back(
          from_wire(wire.target_engines(i), check, path.item("target_engines", static_cast<std::size_t>(i))));
    }
  }
  return message;
}

void to_wire(const Assignment& message, pb::Assignment& wire) {
  wire.set_run_id(message.run_id);
  wire.set_engine(message.engine);
  wire.set_buffered(message.buffered);
  wire.mutable_workers()->Reserve(static_cast<int>(message.workers.size()));
  for (const auto& worker : message.workers) to_wire(worker, *wire.add_workers());
}

Assignment from_wire(const pb::Assignment& wire, Checker& check, const FieldPath& path) {
  Assignment message;
  message.run_id = wire.run_id();
  message.engine = wire.engine();
  message.buffered = wire.buffered();
  if (!message.engine.empty()) check_engine_name(check, message.engine, path / "engine");
  if (!check.count(wire.workers_size(), 0, kMaxWorkers, path / "workers")) return message;
  message.workers.reserve(static_cast<std::size_t>(wire.workers_size()));
  for (int i = 0; i < wire.workers_size() && check.ok(); ++i) {
    message.workers.push_back(from_wire(wire.workers(i), check, path.item("workers", static_cast<std::size_t>(i))));
  }
  return message;
}

void to_wire(const PrepareTargets& message, pb::PrepareTargets& wire) {
  wire.mutable_targets()->Reserve(static_cast<int>(message.targets.size()));
  for (const auto& target : message.targets) to_wire(target, *wire.add_targets());
}

PrepareTargets from_wire(const pb::PrepareTargets& wire, Checker& check, const FieldPath& path) {
  PrepareTargets message;
  if (!check.count(wire.targets_size(), 1, kMaxPrepareTargets, path / "targets")) return message;
  message.targets.reserve(static_cast<std::size_t>(wire.targets_size()));
  for (int i = 0; i < wire.targets_size() && check.ok(); ++i) {
    message.targets.push_back(from_wire(wire.targets(i), check, path.item("targets", static_cast<std::size_t>(i))));
  }
  return message;
}

void to_wire(const PrepareProgress& message, pb::PrepareProgress& wire) {
  wire.set_path(message.path);
  wire.set_bytes_done(message.bytes_done);
  wire.set_bytes_total(message.bytes_total);
}

PrepareProgress from_wire(const pb::PrepareProgress& wire, Checker& check, const FieldPath& path) {
  PrepareProgress message{wire.path(), wire.bytes_done(), wire.bytes_total()};
  check.path(message.path, path / "path");
  check.consistent(message.bytes_done <= message.bytes_total, path / "bytes_done", "is larger than bytes_total");
  return message;
}

void to_wire(const PhaseCommand& message, pb::PhaseCommand& wire) {
  wire.set_run_id(message.run_id);
  wire.set_phase(static_cast<pb::Phase>(message.phase));
}

PhaseCommand from_wire(const pb::PhaseCommand& wire, Checker& check, const FieldPath& path) {
  PhaseCommand message;
  message.run_id = wire.run_id();
  check.enumeration(wire.phase(), Phase::start, Phase::abort, 0, message.phase, path / "phase");
  return message;
}

void to_wire(const NetworkPorts& message, pb::NetworkPorts& wire) {
  wire.set_run_id(message.run_id);
  for (const auto& port : message.ports) {
    auto& out = *wire.add_ports();
    out.set_worker_index(port.worker_index);
    out.set_target_index(port.target_index);
    out.set_port(port.port);
  }
}

NetworkPorts from_wire(const pb::NetworkPorts& wire, Checker& check, const FieldPath& path) {
  NetworkPorts message;
  message.run_id = wire.run_id();
  if (!check.count(wire.ports_size(), 0, kMaxWorkers * kMaxTargetsPerWorker, path / "ports")) return message;
  for (int i = 0; i < wire.ports_size() && check.ok(); ++i) {
    const auto& port = wire.ports(i);
    const auto at = path.item("ports", static_cast<std::size_t>(i));
    check.in_range(port.worker_index(), 0, kMaxWorkers - 1, at / "worker_index");
    check.in_range(port.target_index(), 0, kMaxTargetsPerWorker - 1, at / "target_index");
    check.in_range(port.port(), 1, 65535, at / "port");
    message.ports.push_back({port.worker_index(), port.target_index(), port.port()});
  }
  return message;
}

}  // namespace iomark::protocol::detail
