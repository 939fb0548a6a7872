#include "iomark/controller/plan_series.hpp"
#include "iomark/controller/target_scope.hpp"

#include <algorithm>
#include <optional>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/common/ascii.hpp"
#include "iomark/controller/network_pairing.hpp"
#include "iomark/controller/plan_expansion.hpp"

namespace iomark::controller {

namespace {

using access_specs::Manager;
using access_specs::TestPlan;
using access_specs::Worker;

Result<std::vector<std::size_t>> map_managers(const std::vector<Manager>& planned,
                                              const std::vector<ManagerLink*>& links,
                                              const PlanSeriesOptions& options, std::vector<std::string>& notes) {
  std::vector<std::optional<std::size_t>> chosen(planned.size());
  std::vector<bool> used(links.size(), false);
  auto live_named = [&](std::string_view name) -> std::optional<std::size_t> {
    for (std::size_t l = 0; l < links.size(); ++l) {
      if (!used[l] && ascii::iequals(links[l]->name(), name)) return l;
    }
    return std::nullopt;
  };
  for (const auto& [from, to] : options.manager_map) {
    const auto plan_index = std::find_if(planned.begin(), planned.end(),
                                         [&wanted = from](const Manager& m) { return ascii::iequals(m.name, wanted); });
    if (plan_index == planned.end()) {
      return fail(Error(ErrorCode::not_found, "the plan has no manager '" + from + "'").in_field("--map"));
    }
    const auto live = live_named(to);
    if (!live) return fail(Error(ErrorCode::not_found, "no connected manager '" + to + "'").in_field("--map"));
    chosen[static_cast<std::size_t>(plan_index - planned.begin())] = *live;
    used[*live] = true;
  }
  for (std::size_t p = 0; p < planned.size(); ++p) {
    if (chosen[p]) continue;
    if (const auto live = live_named(planned[p].name)) {
      chosen[p] = *live;
      used[*live] = true;
    }
  }
  for (std::size_t p = 0; p < planned.size(); ++p) {
    if (chosen[p]) continue;
    const auto free = std::find(used.begin(), used.end(), false);
    if (free == used.end()) {
      return fail(ErrorCode::not_found, "the plan's manager '" + planned[p].name + "' has no connected manager to run on (" +
                                            std::to_string(links.size()) + " connected; pair them with --map OLD=NEW)");
    }
    const auto live = static_cast<std::size_t>(free - used.begin());
    chosen[p] = live;
    used[live] = true;
    notes.push_back("the plan's manager '" + planned[p].name + "' runs on '" + links[live]->name() +
                    "' (by order; --map " + planned[p].name + "=NAME chooses another)");
  }
  std::vector<std::size_t> mapping;
  for (const auto& live : chosen) mapping.push_back(*live);
  return mapping;
}

// The path a plan's target names on its manager (see the header).
Result<std::string> resolve_target(const access_specs::Target& target, const protocol::Inventory& inventory) {
  const auto& name = target.name;
  if (name.find("[*") != std::string::npos) {
    return fail(ErrorCode::invalid_argument, "'" + name + "' is a template placeholder: put a real target there");
  }
  const auto bracket = name.rfind(" [");
  if (bracket != std::string::npos && name.back() == ']') {
    const auto mount = name.substr(0, bracket);
    for (const auto& fs : inventory.file_systems) {
      if (fs.mount_point == mount) return mount;
    }
  }
  if (!name.empty() && name.front() == '/') return name;
  for (const auto& device : inventory.block_devices) {
    if (device.path == "/dev/" + name) return device.path;
  }
  return fail(ErrorCode::not_found, "'" + name + "' is neither a path nor a device or mount point this manager has" +
                                        " (--map-target 'OLD=NEW' runs it as another)");
}

// Bytes per "sector" of a test file under `path`: the block size of the file system whose
// mount point holds it, as the agent's targets use.
std::uint64_t block_bytes_for(const std::string& path, const protocol::Inventory& inventory) {
  std::size_t best_length = 0;
  std::uint64_t bytes = 4096;
  for (const auto& fs : inventory.file_systems) {
    const auto& mount = fs.mount_point;
    const bool holds = path == mount || (path.starts_with(mount) && (mount == "/" || path[mount.size()] == '/'));
    if (holds && mount.size() >= best_length) {
      best_length = mount.size();
      bytes = fs.block_bytes;
    }
  }
  return bytes;
}

std::optional<std::uint64_t> fixed_seed_of(const Worker& worker) {
  return worker.use_fixed_seed ? std::optional<std::uint64_t>(worker.fixed_seed) : std::nullopt;
}

const access_specs::AccessSpec* spec_named(const TestPlan& plan, std::string_view name) {
  if (plan.access_specs) {
    if (const auto* spec = access_specs::find_spec(*plan.access_specs, name)) return spec;
  }
  return access_specs::find_builtin_spec(name);
}

// The plan manager a network target names (its id is the occurrence of the name).
std::optional<std::size_t> plan_manager_named(const std::vector<Manager>& managers, const access_specs::Target& target) {
  for (std::size_t m = 0; m < managers.size(); ++m) {
    if (ascii::iequals(managers[m].name, target.remote_manager_name) &&
        managers[m].id == target.remote_manager_id.value_or(1)) {
      return m;
    }
  }
  return std::nullopt;
}

// The pair a network worker's target makes (docs/iometer-reference.md#icf-manager-list): the server
// on the worker's manager, the client on the manager owning the target interface.
Result<PairRequest> network_pair_of(const TestPlan& plan, std::size_t server_plan_manager, const Worker& worker,
                                    const access_specs::Target& target, const std::vector<std::size_t>& mapping,
                                    const std::vector<ManagerLink*>& links, run_builder::RunBuilder& builder,
                                    std::vector<std::string>& notes) {
  if (worker.type != access_specs::WorkerType::network_tcp || target.type != access_specs::WorkerType::network_tcp) {
    return fail(ErrorCode::unsupported, "VI network workers are not run (TCP only)");
  }
  const auto client_plan_manager = plan_manager_named(*plan.managers, target);
  if (!client_plan_manager) {
    return fail(ErrorCode::not_found, "the target's manager '" + target.remote_manager_name + "' is not in the plan");
  }
  PairRequest pair;
  pair.server_manager = mapping[server_plan_manager];
  pair.client_manager = mapping[*client_plan_manager];
  const auto& server = *links[pair.server_manager];
  const auto& client = *links[pair.client_manager];
  pair.server_manager_name = server.name();
  pair.client_manager_name = client.name();
  if (auto same = check_pair_ends(server.inventory(), server.name(), client.inventory(), client.name()); !same) {
    return fail(same.error());
  }
  const auto* client_nic = find_interface(client.inventory(), target.name);
  if (client_nic == nullptr) {
    return fail(ErrorCode::not_found, "'" + target.name + "' is not an interface of manager '" + client.name() +
                                          "' (--map-target '" + target.name + "=ADDRESS' runs it as another)");
  }
  pair.addresses.client = client_nic->address;
  const auto* own_nic = find_interface(server.inventory(), worker.local_network_interface);
  if (own_nic == nullptr) {
    if (!worker.local_network_interface.empty()) {
      notes.push_back("worker '" + worker.name + "': '" + worker.local_network_interface +
                      "' is not an interface of '" + server.name() + "': ignored, as IOmeter does");
    }
    auto chosen = server_address_for(server.inventory(), server.name(), pair.addresses.client);
    if (!chosen) return fail(chosen.error());
    pair.addresses.server = *chosen;
  } else {
    pair.addresses.server = own_nic->address;
  }
  pair.worker_name = worker.name;
  pair.seed = builder.seed(fixed_seed_of(worker));
  pair.test_connection_rate = worker.test_connection_rate;
  pair.transactions_per_connection = worker.transactions_per_connection;
  auto secret = make_pair_secret();
  if (!secret) return fail(secret.error());
  pair.secret = *secret;
  return pair;
}

}  // namespace

Result<std::pair<std::string, std::string>> parse_manager_map(std::string_view text) {
  const auto equals = text.find('=');
  if (equals == std::string_view::npos || equals == 0 || equals + 1 == text.size()) {
    return fail(Error(ErrorCode::invalid_argument, "\"" + std::string(text) + "\" is not OLD=NEW").in_field("--map"));
  }
  return std::pair{std::string(text.substr(0, equals)), std::string(text.substr(equals + 1))};
}

Result<PlanSeries> plan_series(const TestPlan& plan, const std::vector<ManagerLink*>& links,
                               const PlanSeriesOptions& options) {
  if (!plan.managers || plan.managers->empty()) {
    return fail(ErrorCode::invalid_argument, "the plan has no MANAGER LIST: nothing says which targets to drive");
  }
  if (auto valid = access_specs::validate(plan); !valid) return fail(valid.error());
  const auto setup = plan.setup.value_or(access_specs::TestSetup{});
  PlanSeries result;
  auto mapping = map_managers(*plan.managers, links, options, result.notes);
  if (!mapping) return fail(mapping.error());
  auto runs = expand_series(plan);
  if (!runs) return fail(runs.error());

  // Every target resolved, and its test file planned, before anything starts.
  std::vector<std::vector<std::vector<std::string>>> paths;  // [manager][worker][target]
  for (std::size_t m = 0; m < plan.managers->size(); ++m) {
    const auto& manager = (*plan.managers)[m];
    const auto& link = *links[(*mapping)[m]];
    auto& worker_paths = paths.emplace_back();
    for (const auto& worker : manager.workers) {
      auto& target_paths = worker_paths.emplace_back();
      for (const auto& target : worker.targets.value_or(std::vector<access_specs::Target>{})) {
        if (target.type != access_specs::WorkerType::disk) {
          // Checked per run instead (network_pair_of): a network target is an interface.
          target_paths.emplace_back();
          continue;
        }
        auto path = resolve_target(target, link.inventory());
        if (!path) {
          return fail(Error(path.error().code(), "manager '" + link.name() + "', worker '" + worker.name +
                                                     "', target '" + target.name + "': " + path.error().message()));
        }
        // A target the agent reports outside its write scope: refused before anything is sent.
        if (auto in_scope = check_target_scope(link.name(), link.inventory(), *path); !in_scope) {
          return fail(Error(in_scope.error()).in_field("--allow"));
        }
        target_paths.push_back(*path);
      }
    }
  }

  SeriesPlan& series = result.series;
  series.info = {setup.test_type, setup.description, results::wall_clock_now(), setup.record_results, IOMARK_VERSION};
  series.plan = plan;
  series.ramp_up_s = options.request.ramp_up_s.value_or(setup.ramp_up_s);
  series.run_time_s = options.request.run_time_s.value_or(setup.run_time_s);
  if (series.run_time_s == 0) {
    return fail(Error(ErrorCode::invalid_argument, "the plan's Run Time is 0 (run until stopped): give --time SECONDS")
                    .in_field("Run Time"));
  }
  run_builder::RunBuilder builder;
  for (const auto& expanded : *runs) {
    if (expanded.idle()) {
      result.notes.push_back("run " + std::to_string(expanded.index + 1) + " (k=" +
                             std::to_string(expanded.access_index) + ") is idle in IOmeter: skipped");
      continue;
    }
    RunPlan run;
    // The runner prints "run i/N" itself; keep what describe_run says after it.
    const auto described = describe_run(expanded, runs->size());
    run.label = described.substr(std::min(described.size(), described.find(": ") + 2));
    run.info.access_index = static_cast<std::uint32_t>(expanded.access_index);
    run.info.cycling_step = static_cast<std::uint32_t>(expanded.cycling_step);
    run.info.test_type = setup.test_type;
    run.info.description = setup.description;
    std::vector<PairRequest> pairs;  // added once every manager's own workers are in
    for (std::size_t m = 0; m < expanded.managers.size(); ++m) {
      const auto& in_run = expanded.managers[m];
      if (!in_run.active()) continue;
      const auto live = (*mapping)[m];
      const auto& link = *links[live];
      ManagerRun manager_run;
      manager_run.manager = live;
      manager_run.assignment.engine = options.request.engine;
      manager_run.assignment.buffered = options.request.buffered;
      for (std::size_t w = 0; w < in_run.workers.size(); ++w) {
        const auto& worker_in_run = in_run.workers[w];
        if (!worker_in_run.active()) continue;
        const Worker& worker = (*plan.managers)[m].workers[w];
        const auto* spec = spec_named(plan, worker_in_run.spec);
        if (spec == nullptr) return fail(ErrorCode::not_found, "no access spec '" + worker_in_run.spec + "'");
        if (std::none_of(run.info.specs.begin(), run.info.specs.end(),
                         [&](const access_specs::AccessSpec& s) { return s.name == spec->name; })) {
          run.info.specs.push_back(*spec);
        }
        if (worker.type != access_specs::WorkerType::disk) {
          for (const auto& active : worker_in_run.targets) {
            const auto& target = (*worker.targets)[active.target];
            auto pair = network_pair_of(plan, m, worker, target, *mapping, links, builder, result.notes);
            if (!pair) {
              return fail(Error(pair.error().code(), "manager '" + link.name() + "', worker '" + worker.name +
                                                         "', target '" + target.name + "': " + pair.error().message()));
            }
            pair->spec = *spec;
            pairs.push_back(std::move(*pair));
          }
          continue;
        }
        std::vector<run_builder::TargetPlan> targets;
        for (const auto& active : worker_in_run.targets) {
          const auto& path = paths[m][w][active.target];
          // A directory gets its iobw.tst before the first run that uses it; the agent leaves
          // devices and existing files alone.
          const auto bytes = worker.maximum_disk_size_sectors == 0
                                 ? options.request.test_file_bytes
                                 : (worker.starting_sector + worker.maximum_disk_size_sectors) *
                                       block_bytes_for(path, link.inventory());
          targets.push_back({.path = path, .outstanding_ios = active.outstanding_ios, .test_file_bytes = bytes});
          if (!run.info.queue_depth && access_specs::traits_of(setup.test_type).cycles_outstanding_ios) run.info.queue_depth = active.outstanding_ios;
        }
        const auto prepared = builder.add_worker(manager_run, link.inventory().cpu_count,
                                                 {
                                                     .name = worker.name,
                                                     .position = static_cast<std::uint32_t>(w),
                                                     .cpu = std::nullopt,
                                                     .spec = *spec,
                                                     .write_data = {worker.data_pattern, worker.data_reduction},
                                                     .fixed_seed = fixed_seed_of(worker),
                                                     .maximum_size_sectors = worker.maximum_disk_size_sectors,
                                                     .starting_sector = worker.starting_sector,
                                                     .rate_iops = worker.rate_iops.value_or(0),
                                                 },
                                                 targets);
        if (worker.maximum_disk_size_sectors == 0) {
          for (const auto& path : prepared) {
            result.notes.push_back("worker '" + worker.name + "' on '" + link.name() +
                                   "' has Maximum Disk Size 0: a test file made in " + path + " gets " +
                                   std::to_string(options.request.test_file_bytes >> 20) +
                                   " MiB (--size), not the whole file system");
          }
        }
      }
      if (!manager_run.assignment.workers.empty()) run.managers.push_back(std::move(manager_run));
    }
    for (const auto& pair : pairs) add_network_pair(run, pair);
    if (options.request.rate_iops) {
      if (auto shared = run_builder::share_rate_iops(run.managers, *options.request.rate_iops); !shared) {
        return fail(shared.error());
      }
    }
    series.runs.push_back(std::move(run));
  }
  if (auto matrix = plan_pts_iops(options.request, series); !matrix) return fail(matrix.error());
  series.steady_state = steady_state_rounds(options.request, series.runs);
  if (auto preconditioning = plan_preconditioning(options.request, links, series); !preconditioning) {
    return fail(preconditioning.error());
  }
  auto search = max_iops_search_plan(options.request, series.runs);
  if (!search) return fail(search.error());
  series.max_iops_search = *search;
  return result;
}

}  // namespace iomark::controller
