#include "iomark/controller/quick_series.hpp"
#include "iomark/controller/target_scope.hpp"

#include "iomark/common/ascii.hpp"
#include "iomark/controller/network_pairing.hpp"
#include "iomark/run_builder/run_builder.hpp"

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
Result<PairRequest> pair_request(const PairNames& names, const access_specs::RunRequest& request,
                                 const std::vector<ManagerLink*>& links, run_builder::RunBuilder& builder) {
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
  pair.spec = request.spec;
  pair.seed = builder.seed(request.seed);
  auto secret = make_pair_secret();
  if (!secret) return fail(secret.error());
  pair.secret = *secret;
  return pair;
}

}  // namespace

Result<SeriesPlan> quick_series(const access_specs::RunRequest& request, const std::vector<ManagerLink*>& links) {
  if (request.targets.empty() && request.network_pairs.empty()) {
    return fail(Error(ErrorCode::invalid_argument, "no target").in_field("--target"));
  }
  if (request.outstanding_ios.empty()) {
    return fail(Error(ErrorCode::invalid_argument, "no outstanding-I/O count").in_field("--qd"));
  }
  if (links.empty()) return fail(ErrorCode::invalid_argument, "no manager to run on");
  // A target an agent reports outside its write scope: refused before anything is sent.
  for (const auto* link : links) {
    for (const auto& path : request.targets) {
      if (auto in_scope = check_target_scope(link->name(), link->inventory(), path); !in_scope) return fail(in_scope.error());
    }
  }
  std::vector<PairNames> pairs;
  for (const auto& text : request.network_pairs) {
    auto names = parse_network_pair(text);
    if (!names) return fail(names.error());
    pairs.push_back(std::move(*names));
  }
  SeriesPlan series;
  // A search's runs step through depths as a cycle does.
  const auto test_type = request.outstanding_ios.size() > 1 || request.find_max_iops
                             ? access_specs::TestType::cycle_outstanding_ios
                             : access_specs::TestType::normal;
  series.info = {test_type, request.description, results::wall_clock_now(), access_specs::RecordResults::all,
                 IOMARK_VERSION};
  series.ramp_up_s = request.ramp_up_s.value_or(0);
  series.run_time_s = request.run_time_s.value_or(access_specs::kDefaultRunTimeS);
  run_builder::RunBuilder builder;
  for (std::size_t step = 0; step < request.outstanding_ios.size(); ++step) {
    const auto outstanding_ios = request.outstanding_ios[step];
    RunPlan run;
    run.info.cycling_step = static_cast<std::uint32_t>(step);
    run.info.queue_depth = outstanding_ios;
    run.info.test_type = test_type;
    run.info.description = request.description;
    run.info.specs = {request.spec};
    run.label = "'" + request.spec.name + "' QD " + std::to_string(outstanding_ios);
    for (std::size_t m = 0; m < links.size() && !request.targets.empty(); ++m) {
      run.managers.push_back(builder.requested_work(request, m, links[m]->inventory().cpu_count, outstanding_ios));
    }
    for (const auto& names : pairs) {
      auto pair = pair_request(names, request, links, builder);
      if (!pair) return fail(pair.error());
      add_network_pair(run, *pair);
    }
    if (request.rate_iops) {
      if (auto shared = run_builder::share_rate_iops(run.managers, *request.rate_iops); !shared) {
        return fail(shared.error());
      }
    }
    series.runs.push_back(std::move(run));
  }
  if (auto matrix = plan_pts_iops(request, series); !matrix) return fail(matrix.error());
  series.steady_state = steady_state_rounds(request, series.runs);
  if (auto preconditioning = plan_preconditioning(request, links, series); !preconditioning) {
    return fail(preconditioning.error());
  }
  auto search = max_iops_search_plan(request, series.runs);
  if (!search) return fail(search.error());
  series.max_iops_search = *search;
  return series;
}

}  // namespace iomark::controller
