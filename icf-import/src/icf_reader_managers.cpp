// MANAGER LIST (docs/iometer-reference.md#icf-manager-list): managers, their workers, each worker's
// default target settings, assigned access specs and targets.
#include <array>
#include <string>

#include "icf_format.hpp"
#include "icf_sections.hpp"

namespace iomark::icf::detail {

namespace {

using access_specs::DataPattern;
using access_specs::Manager;
using access_specs::Target;
using access_specs::Worker;
using access_specs::WorkerType;

// Nesting depth of the blocks; a key that opens a block at the same or an outer depth, or
// closes an outer one, means the current block's end marker is missing.
enum class Depth : std::uint8_t { list = 0, manager = 1, worker = 2, worker_block = 3, target = 4 };

struct BlockKey {
  std::string_view key;
  Depth depth;
  bool opens;
};

constexpr std::array<BlockKey, 12> kBlockKeys{{
    {format::kEndManagerList, Depth::list, false},
    {format::kManagerKey, Depth::manager, true},
    {format::kEndManager, Depth::manager, false},
    {format::kWorkerKey, Depth::worker, true},
    {format::kEndWorker, Depth::worker, false},
    {format::kDefaultSettings, Depth::worker_block, true},
    {format::kEndDefaultSettings, Depth::worker_block, false},
    {format::kAssignedSpecs, Depth::worker_block, true},
    {format::kEndAssignedSpecs, Depth::worker_block, false},
    {format::kTargetAssignments, Depth::worker_block, true},
    {format::kEndTargetAssignments, Depth::worker_block, false},
    {format::kTargetKey, Depth::target, true},
}};

constexpr std::array<std::string_view, 10> kValueKeys{
    format::kManagerAddress, format::kWorkerType,       format::kOutstandingIos, format::kLegacyOutstandingIos,
    format::kDiskSettings,   format::kLegacyDiskSettings, format::kLocalInterface, format::kViOutstandingIos,
    format::kTargetType,     format::kTargetManager};

bool is_manager_list_key(std::string_view key) {
  for (const auto& block : kBlockKeys) {
    if (iequals(key, block.key)) return true;
  }
  for (const auto known : kValueKeys) {
    if (iequals(key, known)) return true;
  }
  return iequals(key, format::kEndTarget);
}

bool breaks_block(std::string_view key, Depth depth) {
  for (const auto& block : kBlockKeys) {
    if (!iequals(key, block.key)) continue;
    return block.opens ? block.depth <= depth : block.depth < depth;
  }
  return false;
}

// What every block does with a key it does not handle: a missing end marker, a stray end
// marker (ignored), a known key in the wrong place (an error) or an unknown key (skipped).
Result<void> other_key(ReaderContext& cx, const Line& key, Depth depth, std::string_view end_key,
                       std::string_view block) {
  if (breaks_block(key.text, depth)) return fail(cx.missing_end(end_key, block, &key));
  if (ReaderContext::is_valueless_key(key.text)) {
    cx.warn(key, "stray '" + excerpt(format::field_name(key.text)) + "' ignored (IOmeter 1.1.0 rejects it)");
    return {};
  }
  if (is_manager_list_key(key.text)) {
    return fail(cx.error(key, format::field_name(key.text), "unexpected in " + std::string(block)));
  }
  cx.skip_unknown(key, &is_manager_list_key, block);
  return {};
}

// The next key of a block; a missing key (end of text or section) means a missing end marker.
Result<const Line*> block_key(ReaderContext& cx, std::string_view end_key, std::string_view block) {
  auto key = cx.next_key();
  if (!key) return key;
  if (*key == nullptr) return fail(cx.missing_end(end_key, block));
  return key;
}

struct IdAndName {
  std::uint32_t id{};
  std::string name;
};

// "<id>,<name>": the first integer, then everything after it and its comma.
Result<IdAndName> read_id_and_name(const ReaderContext& cx, const Line& value, std::string_view field) {
  std::string_view rest = value.text;
  auto id = cx.read_u32(rest, value, field);
  if (!id) return fail(id.error());
  return IdAndName{*id, std::string(rest)};
}

// DISK, NETWORK,TCP, NETWORK VI ...
Result<WorkerType> read_type(ReaderContext& cx, const Line& value, std::string_view field, bool lenient_subtype) {
  std::string_view rest = value.text;
  const std::string_view token = scan_token(rest);
  if (iequals(token, format::kDisk)) return WorkerType::disk;
  if (!iequals(token, format::kNetwork)) {
    return fail(cx.error(value, field, "expected DISK or NETWORK, found '" + excerpt(token) + "'",
                         ErrorCode::invalid_argument));
  }
  const std::string_view subtype = scan_token(rest);
  if (iequals(subtype, format::kTcp)) return WorkerType::network_tcp;
  if (iequals(subtype, format::kVi)) return WorkerType::network_vi;
  if (!lenient_subtype) {
    return fail(cx.error(value, field, "expected NETWORK,TCP or NETWORK,VI, found '" + excerpt(value.text) + "'",
                         ErrorCode::invalid_argument));
  }
  cx.warn(value, "unknown network worker subtype '" + excerpt(subtype) + "'; read as TCP (IOmeter only warns)");
  return WorkerType::network_tcp;
}

Result<bool> read_switch(const ReaderContext& cx, std::string_view& rest, const Line& value, std::string_view field) {
  const std::string_view token = scan_token(rest);
  if (iequals(token, format::kEnabled)) return true;
  if (iequals(token, format::kDisabled)) return false;
  return fail(cx.error(value, field, "expected ENABLED or DISABLED, found '" + excerpt(token) + "'",
                       ErrorCode::invalid_argument));
}

// What a worker's default-settings block held, to check it against the worker type at the end.
struct SettingsSeen {
  const Line* disk{};
  const Line* network{};
  const Line* vi{};
};

Result<void> read_outstanding_ios(const ReaderContext& cx, const Line& key, const Line& value, Worker& worker) {
  std::string_view rest = value.text;
  auto depth = cx.read_u32(rest, value, "Number of outstanding IOs");
  if (!depth) return fail(depth.error());
  auto rate = read_switch(cx, rest, value, "test connection rate");
  if (!rate) return fail(rate.error());
  auto transactions = cx.read_u32(rest, value, "transactions per connection");
  if (!transactions) return fail(transactions.error());
  worker.outstanding_ios = *depth;
  worker.test_connection_rate = *rate;
  worker.transactions_per_connection = *transactions;
  if (!iequals(key.text, format::kOutstandingIos)) return {};
  auto fixed = read_switch(cx, rest, value, "use fixed seed");
  if (!fixed) return fail(fixed.error());
  auto seed = cx.read_u64(rest, value, "fixed seed value");
  if (!seed) return fail(seed.error());
  worker.use_fixed_seed = *fixed;
  worker.fixed_seed = *seed;
  return {};
}

Result<void> read_disk_settings(const ReaderContext& cx, const Line& key, const Line& value, Worker& worker) {
  std::string_view rest = value.text;
  auto size = cx.read_u64(rest, value, "Disk maximum size");
  if (!size) return fail(size.error());
  auto start = cx.read_u64(rest, value, "starting sector");
  if (!start) return fail(start.error());
  worker.maximum_disk_size_sectors = *size;
  worker.starting_sector = *start;
  if (!iequals(key.text, format::kDiskSettings)) return {};
  auto pattern = cx.read_u32(rest, value, "Data pattern");
  if (!pattern) return fail(pattern.error());
  if (*pattern > static_cast<std::uint32_t>(DataPattern::full_random)) {
    return fail(cx.error(value, "Data pattern", "expected 0, 1 or 2, found " + std::to_string(*pattern),
                         ErrorCode::invalid_argument));
  }
  worker.data_pattern = static_cast<DataPattern>(*pattern);
  return {};
}

Result<void> read_default_settings(ReaderContext& cx, Worker& worker, SettingsSeen& seen) {
  constexpr std::string_view kBlock = "the worker's default target settings";
  while (true) {
    auto key = block_key(cx, format::kEndDefaultSettings, kBlock);
    if (!key) return fail(key.error());
    const Line& k = **key;
    if (iequals(k.text, format::kEndDefaultSettings)) return {};
    const bool outstanding = iequals(k.text, format::kOutstandingIos) || iequals(k.text, format::kLegacyOutstandingIos);
    const bool disk = iequals(k.text, format::kDiskSettings) || iequals(k.text, format::kLegacyDiskSettings);
    const bool network = iequals(k.text, format::kLocalInterface);
    const bool vi = iequals(k.text, format::kViOutstandingIos);
    if (!outstanding && !disk && !network && !vi) {
      if (auto handled = other_key(cx, k, Depth::worker_block, format::kEndDefaultSettings, kBlock); !handled) {
        return handled;
      }
      continue;
    }
    auto value = cx.value_of(k, &is_manager_list_key);
    if (!value) return fail(value.error());
    Result<void> applied;
    if (outstanding) {
      applied = read_outstanding_ios(cx, k, *value, worker);
    } else if (disk) {
      seen.disk = &k;
      applied = read_disk_settings(cx, k, *value, worker);
    } else if (network) {
      seen.network = &k;
      worker.local_network_interface = std::string(value->text);
    } else {
      seen.vi = &k;
      std::string_view rest = value->text;
      applied = cx.read_u32(rest, *value, format::field_name(format::kViOutstandingIos)).map([&](std::uint32_t ios) {
        worker.vi_outstanding_ios = ios;
      });
    }
    if (!applied) return applied;
  }
}

// Spec names, one a line; they are checked against the file's specs once all sections are read.
Result<void> read_assigned_specs(ReaderContext& cx, Worker& worker, std::vector<SpecReference>& references,
                                 SpecReference where) {
  constexpr std::string_view kBlock = "the worker's assigned access specs";
  auto& names = worker.assigned_specs ? *worker.assigned_specs : worker.assigned_specs.emplace();
  while (const Line* line = cx.peek()) {
    if (line->blank()) {
      cx.warn(*line, "blank line among the assigned access specs ignored");
      cx.take();
      continue;
    }
    if (!line->is_key()) {
      where.line = line->number;
      where.index = names.size();
      references.push_back(where);
      names.emplace_back(cx.take().text);
      continue;
    }
    if (iequals(line->text, format::kEndAssignedSpecs)) {
      cx.take();
      return {};
    }
    if (ReaderContext::is_boundary(*line) || breaks_block(line->text, Depth::worker_block)) break;
    cx.warn(*line, "'" + excerpt(format::field_name(line->text)) + "' among the assigned access specs ignored");
    cx.take();
  }
  return fail(cx.missing_end(format::kEndAssignedSpecs, kBlock));
}

Result<Target> read_target(ReaderContext& cx, const Line& key, WorkerType worker_type) {
  constexpr std::string_view kBlock = "the target";
  auto name = cx.value_of(key, &is_manager_list_key);
  if (!name) return fail(name.error());
  Target target;
  target.name = std::string(name->text);
  target.type = worker_type;
  bool typed = false;
  while (true) {
    auto next = block_key(cx, format::kEndTarget, kBlock);
    if (!next) return fail(next.error());
    const Line& k = **next;
    if (iequals(k.text, format::kEndTarget)) break;
    const bool type_key = iequals(k.text, format::kTargetType);
    if (!type_key && !iequals(k.text, format::kTargetManager)) {
      if (auto handled = other_key(cx, k, Depth::target, format::kEndTarget, kBlock); !handled) {
        return fail(handled.error());
      }
      continue;
    }
    auto value = cx.value_of(k, &is_manager_list_key);
    if (!value) return fail(value.error());
    if (type_key) {
      auto type = read_type(cx, *value, format::field_name(format::kTargetType), false);
      if (!type) return fail(type.error());
      target.type = *type;
      typed = true;
    } else {
      auto manager = read_id_and_name(cx, *value, "Target manager ID");
      if (!manager) return fail(manager.error());
      target.remote_manager_id = manager->id;
      target.remote_manager_name = std::move(manager->name);
    }
  }
  if (!typed) cx.warn(key, "target '" + excerpt(target.name) + "' has no 'Target type'; the worker's type assumed");
  if (target.type != worker_type) {
    cx.warn(key, "a " + std::string(format::worker_type_literal(target.type)) + " target on a " +
                     std::string(format::worker_type_literal(worker_type)) +
                     " worker kept (IOmeter 1.1.0 rejects it)");
  }
  return target;
}

Result<void> read_targets(ReaderContext& cx, Worker& worker) {
  constexpr std::string_view kBlock = "the worker's target assignments";
  auto& targets = worker.targets ? *worker.targets : worker.targets.emplace();
  while (true) {
    auto key = block_key(cx, format::kEndTargetAssignments, kBlock);
    if (!key) return fail(key.error());
    const Line& k = **key;
    if (iequals(k.text, format::kEndTargetAssignments)) return {};
    if (!iequals(k.text, format::kTargetKey)) {
      if (auto handled = other_key(cx, k, Depth::worker_block, format::kEndTargetAssignments, kBlock); !handled) {
        return handled;
      }
      continue;
    }
    auto target = read_target(cx, k, worker.type);
    if (!target) return fail(target.error());
    targets.push_back(std::move(*target));
  }
}

void check_settings_fit_type(ReaderContext& cx, const Worker& worker, const SettingsSeen& seen) {
  const auto mismatch = [&](const Line* line, std::string_view what) {
    if (line != nullptr) {
      cx.warn(*line, "'" + std::string(what) + "' on a " + std::string(format::worker_type_literal(worker.type)) +
                         " worker kept (IOmeter 1.1.0 rejects it)");
    }
  };
  if (worker.type != WorkerType::disk) mismatch(seen.disk, "Disk maximum size,starting sector");
  if (worker.type == WorkerType::disk) mismatch(seen.network, "Local network interface");
  if (worker.type != WorkerType::network_vi) mismatch(seen.vi, "VI outstanding IOs");
}

Result<Worker> read_worker(ReaderContext& cx, const Line& key, std::vector<SpecReference>& references,
                           SpecReference where) {
  constexpr std::string_view kBlock = "the worker";
  auto name = cx.value_of(key, &is_manager_list_key);
  if (!name) return fail(name.error());
  Worker worker;
  worker.name = std::string(name->text);
  bool typed = false;
  SettingsSeen seen;
  while (true) {
    auto next = block_key(cx, format::kEndWorker, kBlock);
    if (!next) return fail(next.error());
    const Line& k = **next;
    Result<void> done;
    if (iequals(k.text, format::kEndWorker)) {
      break;
    } else if (iequals(k.text, format::kWorkerType)) {
      auto value = cx.value_of(k, &is_manager_list_key);
      if (!value) return fail(value.error());
      auto type = read_type(cx, *value, format::field_name(format::kWorkerType), true);
      if (!type) return fail(type.error());
      worker.type = *type;
      typed = true;
    } else if (iequals(k.text, format::kDefaultSettings)) {
      done = read_default_settings(cx, worker, seen);
    } else if (iequals(k.text, format::kAssignedSpecs)) {
      done = read_assigned_specs(cx, worker, references, where);
    } else if (iequals(k.text, format::kTargetAssignments)) {
      done = read_targets(cx, worker);
    } else {
      done = other_key(cx, k, Depth::worker, format::kEndWorker, kBlock);
    }
    if (!done) return fail(done.error());
  }
  if (!typed) cx.warn(key, "worker '" + excerpt(worker.name) + "' has no 'Worker type'; DISK assumed");
  check_settings_fit_type(cx, worker, seen);
  return worker;
}

Result<Manager> read_manager(ReaderContext& cx, const Line& key, std::vector<SpecReference>& references,
                             std::size_t manager_index) {
  constexpr std::string_view kBlock = "the manager";
  auto value = cx.value_of(key, &is_manager_list_key);
  if (!value) return fail(value.error());
  auto identity = read_id_and_name(cx, *value, "Manager ID");
  if (!identity) return fail(identity.error());
  Manager manager;
  manager.id = identity->id;
  manager.name = std::move(identity->name);
  bool addressed = false;
  while (true) {
    auto next = block_key(cx, format::kEndManager, kBlock);
    if (!next) return fail(next.error());
    const Line& k = **next;
    if (iequals(k.text, format::kEndManager)) break;
    if (iequals(k.text, format::kManagerAddress)) {
      auto address = cx.value_of(k, &is_manager_list_key);
      if (!address) return fail(address.error());
      manager.network_address = std::string(address->text);
      addressed = true;
    } else if (iequals(k.text, format::kWorkerKey)) {
      auto worker = read_worker(cx, k, references, SpecReference{0, manager_index, manager.workers.size(), 0});
      if (!worker) return fail(worker.error());
      manager.workers.push_back(std::move(*worker));
    } else if (auto handled = other_key(cx, k, Depth::manager, format::kEndManager, kBlock); !handled) {
      return fail(handled.error());
    }
  }
  if (!addressed) {
    cx.warn(key, "manager '" + excerpt(manager.name) + "' has no 'Manager network address'; empty assumed");
  }
  return manager;
}

}  // namespace

Result<ManagerList> read_manager_list(ReaderContext& cx) {
  constexpr std::string_view kBlock = "the MANAGER LIST section";
  ManagerList list;
  while (true) {
    auto key = block_key(cx, format::kEndManagerList, kBlock);
    if (!key) return fail(key.error());
    const Line& k = **key;
    if (iequals(k.text, format::kEndManagerList)) return list;
    if (iequals(k.text, format::kManagerKey)) {
      auto manager = read_manager(cx, k, list.spec_references, list.managers.size());
      if (!manager) return fail(manager.error());
      list.managers.push_back(std::move(*manager));
    } else if (auto handled = other_key(cx, k, Depth::list, format::kEndManagerList, kBlock); !handled) {
      return fail(handled.error());
    }
  }
}

}  // namespace iomark::icf::detail
