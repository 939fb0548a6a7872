#include "iomark/controller/quick_series.hpp"
#include "iomark/controller/target_scope.hpp"

#include "iomark/common/ascii.hpp"
#include "iomark/common/seed.hpp"

namespace iomark::controller {

namespace {

Result<std::size_t> link_named(const std::vector<ManagerLink*>& links, const std::string& name) {
  for (std::size_t l = 0; l < links.size(); ++l) {
    if (ascii::iequals(links[l]->name(), name)) return l;
  }
  std::string connected;
  for (const auto* link : links) connected += (connected.empty() ? "" : ", ") + link->name();
  return fail(Error(ErrorCode::not_found, "no connected manager '" + name + "' (connected: " + connected + ")")
                  .in_field("--network-pair"));
}

// A pair named on the command line, as add_network_pair wants it (secret and seed per run).
Result<PairRequest> pair_request(const PairNames& names, const QuickSeriesOptions& options,
                                 const std::vector<ManagerLink*>& links, std::uint64_t& salt) {
  PairRequest pair;
  auto server = link_named(links, names.server);
  if (!server) return fail(server.error());
  auto client = link_named(links, names.client);
  if (!client) return fail(client.error());
  pair.server_manager = *server;
  pair.client_manager = *client;
  pair.server_manager_name = links[*server]->name();
  pair.client_manager_name = links[*client]->name();
  if (auto same = check_pair_ends(links[*server]->inventory(), pair.server_manager_name, links[*client]->inventory(),
                                  pair.client_manager_name);
      !same) {
    return fail(Error(same.error()).in_field("--network-pair"));
  }
  if (names.server_address && names.client_address) {
    pair.addresses = {*names.server_address, *names.client_address};
  } else {
    auto chosen = choose_pair_addresses(links[*server]->inventory(), pair.server_manager_name,
                                        links[*client]->inventory(), pair.client_manager_name);
    if (!chosen) return fail(Error(chosen.error()).in_field("--network-pair"));
    pair.addresses = {names.server_address.value_or(chosen->server), names.client_address.value_or(chosen->client)};
  }
  pair.worker_name = "Network " + pair.server_manager_name + " >> " + pair.client_manager_name;
  pair.spec = options.spec;
  pair.seed = options.seed.value_or(fresh_seed(++salt));
  auto secret = make_pair_secret();
  if (!secret) return fail(secret.error());
  pair.secret = *secret;
  return pair;
}

}  // namespace

Result<SeriesPlan> quick_series(const QuickSeriesOptions& options, const std::vector<ManagerLink*>& links) {
  if (options.targets.empty() && options.network_pairs.empty()) {
    return fail(Error(ErrorCode::invalid_argument, "no target").in_field("--target"));
  }
  if (options.queue_depths.empty()) {
    return fail(Error(ErrorCode::invalid_argument, "no outstanding-I/O count").in_field("--qd"));
  }
  if (links.empty()) return fail(ErrorCode::invalid_argument, "no manager to run on");
  // A target an agent reports outside its write scope: refused before anything is sent.
  for (const auto* link : links) {
    for (const auto& path : options.targets) {
      if (auto in_scope = check_target_scope(link->name(), link->inventory(), path); !in_scope) return fail(in_scope.error());
    }
  }
  SeriesPlan series;
  const auto test_type = options.queue_depths.size() > 1 ? access_specs::TestType::cycle_outstanding_ios
                                                         : access_specs::TestType::normal;
  series.info = {test_type, options.description, results::wall_clock_now(), access_specs::RecordResults::all,
                 IOMARK_VERSION};
  series.ramp_up_s = options.ramp_up_s;
  series.run_time_s = options.run_time_s;
  std::uint64_t salt = 0;
  for (std::size_t step = 0; step < options.queue_depths.size(); ++step) {
    const auto depth = options.queue_depths[step];
    RunPlan run;
    run.info.cycling_step = static_cast<std::uint32_t>(step);
    run.info.queue_depth = depth;
    run.info.test_type = test_type;
    run.info.description = options.description;
    run.info.specs = {options.spec};
    run.label = "'" + options.spec.name + "' QD " + std::to_string(depth);
    for (std::size_t m = 0; m < links.size() && !options.targets.empty(); ++m) {
      ManagerRun manager;
      manager.manager = m;
      manager.assignment.engine = options.engine;
      manager.assignment.buffered = options.buffered;
      for (std::uint32_t w = 0; w < options.workers; ++w) {
        protocol::WorkerAssignment worker;
        worker.name = "Worker " + std::to_string(w + 1);
        worker.cpu = w % std::max<std::uint32_t>(links[m]->inventory().cpu_count, 1);
        worker.spec = options.spec;
        for (const auto& path : options.targets) {
          protocol::TargetAssignment target;
          target.path = path;
          target.outstanding_ios = depth;
          target.data_pattern = options.data_pattern;
          target.data_reduction = options.data_reduction;
          target.verify = options.verify;
          target.verify_journal = options.verify_journal;
          target.seed = options.seed.value_or(fresh_seed(++salt));
          worker.targets.push_back(std::move(target));
        }
        manager.assignment.workers.push_back(std::move(worker));
      }
      // Only the first run prepares: later runs reuse the files.
      if (step == 0 && options.test_file_bytes != 0) {
        for (const auto& path : options.targets) {
          manager.prepare.push_back({path, options.test_file_bytes, options.data_pattern, options.data_reduction,
                                     options.seed.value_or(fresh_seed(++salt))});
        }
      }
      run.managers.push_back(std::move(manager));
    }
    for (const auto& names : options.network_pairs) {
      auto pair = pair_request(names, options, links, salt);
      if (!pair) return fail(pair.error());
      add_network_pair(run, *pair);
    }
    series.runs.push_back(std::move(run));
  }
  return series;
}

}  // namespace iomark::controller
