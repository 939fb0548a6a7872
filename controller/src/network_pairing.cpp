#include "iomark/controller/network_pairing.hpp"

#include <arpa/inet.h>

#include <algorithm>

#include "iomark/protocol/auth.hpp"

namespace iomark::controller {

namespace {

std::optional<std::uint32_t> ipv4_value(std::string_view address) {
  const std::string text(address);
  in_addr parsed{};
  if (::inet_pton(AF_INET, text.c_str(), &parsed) != 1) return std::nullopt;
  return ntohl(parsed.s_addr);
}

bool same_subnet(const protocol::NetworkInterface& nic, std::string_view address) {
  const auto mine = ipv4_value(nic.address);
  const auto theirs = ipv4_value(address);
  if (!mine || !theirs) return false;
  const std::uint32_t mask = nic.prefix_length == 0 ? 0 : ~std::uint32_t{0} << (32 - std::min(nic.prefix_length, 32U));
  return (*mine & mask) == (*theirs & mask);
}

std::string interface_list(const protocol::Inventory& inventory) {
  std::string list;
  for (const auto& nic : inventory.interfaces) {
    list += (list.empty() ? "" : ", ") + nic.name + " " + nic.address + "/" + std::to_string(nic.prefix_length);
  }
  return list.empty() ? "none reported" : list;
}

ManagerRun& manager_run_for(RunPlan& run, std::size_t manager, const std::string& engine, bool buffered) {
  for (auto& planned : run.managers) {
    if (planned.manager == manager) return planned;
  }
  ManagerRun added;
  added.manager = manager;
  added.assignment.engine = engine;
  added.assignment.buffered = buffered;
  return run.managers.emplace_back(std::move(added));
}

protocol::WorkerAssignment end_of_pair(const PairRequest& pair, protocol::NetworkRole role) {
  const bool server = role == protocol::NetworkRole::server;
  protocol::NetworkEndpoint endpoint;
  endpoint.role = role;
  endpoint.local_address = server ? pair.addresses.server : pair.addresses.client;
  endpoint.peer_address = server ? pair.addresses.client : pair.addresses.server;
  endpoint.pair_secret = pair.secret;
  const auto& own_name = server ? pair.server_manager_name : pair.client_manager_name;
  const auto& peer_name = server ? pair.client_manager_name : pair.server_manager_name;
  endpoint.label = own_name + ":" + endpoint.local_address + " >> " + peer_name + ":" + endpoint.peer_address;
  protocol::TargetAssignment target;
  target.seed = pair.seed;
  target.test_connection_rate = pair.test_connection_rate;
  target.transactions_per_connection = pair.transactions_per_connection;
  target.network = std::move(endpoint);
  protocol::WorkerAssignment worker;
  worker.name = server ? pair.worker_name : pair.worker_name + " (client)";
  worker.spec = pair.spec;
  worker.targets.push_back(std::move(target));
  return worker;
}

}  // namespace

bool is_dynamo(const protocol::Inventory& inventory) {
  return inventory.engines.size() == 1 && inventory.engines.front() == kDynamoEngine;
}

bool is_loopback(std::string_view address) {
  const auto value = ipv4_value(address);
  return value && (*value >> 24) == 127;
}

Result<void> check_pair_ends(const protocol::Inventory& server, std::string_view server_name,
                             const protocol::Inventory& client, std::string_view client_name) {
  if (is_dynamo(server) == is_dynamo(client)) return {};
  const auto dynamo = is_dynamo(server) ? server_name : client_name;
  const auto agent = is_dynamo(server) ? client_name : server_name;
  return fail(ErrorCode::unsupported,
              "'" + std::string(dynamo) + "' is a Dynamo 1.1.0 and '" + std::string(agent) +
                  "' an iomark agent: a network pair needs two Dynamos or two iomark agents (their TCP "
                  "data exchanges differ)");
}

const protocol::NetworkInterface* find_interface(const protocol::Inventory& inventory, std::string_view wanted) {
  for (const auto& nic : inventory.interfaces) {
    if (nic.name == wanted || nic.address == wanted) return &nic;
  }
  return nullptr;
}

Result<std::string> server_address_for(const protocol::Inventory& server, std::string_view server_name,
                                       std::string_view client_address) {
  for (const auto& nic : server.interfaces) {
    if (same_subnet(nic, client_address) && is_loopback(nic.address) == is_loopback(client_address)) return nic.address;
  }
  return fail(ErrorCode::not_found, "manager '" + std::string(server_name) + "' has no interface in the subnet of " +
                                        std::string(client_address) + " (it has: " + interface_list(server) +
                                        "); name one in the worker's 'Local network interface'");
}

Result<PairAddresses> choose_pair_addresses(const protocol::Inventory& server, std::string_view server_name,
                                            const protocol::Inventory& client, std::string_view client_name) {
  for (const bool loopback : {false, true}) {
    for (const auto& theirs : client.interfaces) {
      if (is_loopback(theirs.address) != loopback) continue;
      for (const auto& mine : server.interfaces) {
        if (is_loopback(mine.address) == loopback && same_subnet(mine, theirs.address)) {
          return PairAddresses{mine.address, theirs.address};
        }
      }
    }
  }
  return fail(ErrorCode::not_found, "managers '" + std::string(server_name) + "' (" + interface_list(server) +
                                        ") and '" + std::string(client_name) + "' (" + interface_list(client) +
                                        ") share no subnet: give the addresses as A@ADDR:B@ADDR");
}

void add_network_pair(RunPlan& run, const PairRequest& pair) {
  NetworkPair recorded;
  auto& server = manager_run_for(run, pair.server_manager, {}, false);
  const auto engine = server.assignment.engine;
  const auto buffered = server.assignment.buffered;
  recorded.server_manager = pair.server_manager;
  recorded.server_worker = server.assignment.workers.size();
  server.assignment.workers.push_back(end_of_pair(pair, protocol::NetworkRole::server));
  // The reference above may move when the client's ManagerRun is added.
  auto& client = manager_run_for(run, pair.client_manager, engine, buffered);
  recorded.client_manager = pair.client_manager;
  recorded.client_worker = client.assignment.workers.size();
  client.assignment.workers.push_back(end_of_pair(pair, protocol::NetworkRole::client));
  run.network_pairs.push_back(recorded);
}

void drop_managers(RunPlan& run, const std::vector<std::size_t>& dropped) {
  const auto is_dropped = [&dropped](std::size_t manager) {
    return std::find(dropped.begin(), dropped.end(), manager) != dropped.end();
  };
  // Worker positions of each manager to remove, largest first so earlier ones stay valid.
  std::map<std::size_t, std::vector<std::size_t>> orphans;
  std::erase_if(run.network_pairs, [&](const NetworkPair& pair) {
    const bool server_gone = is_dropped(pair.server_manager);
    const bool client_gone = is_dropped(pair.client_manager);
    if (server_gone && !client_gone) orphans[pair.client_manager].push_back(pair.client_worker);
    if (client_gone && !server_gone) orphans[pair.server_manager].push_back(pair.server_worker);
    return server_gone || client_gone;
  });
  for (auto& [manager, workers] : orphans) {
    std::sort(workers.rbegin(), workers.rend());
    for (auto& planned : run.managers) {
      if (planned.manager != manager) continue;
      for (const auto worker : workers) {
        planned.assignment.workers.erase(planned.assignment.workers.begin() + static_cast<std::ptrdiff_t>(worker));
        for (auto& pair : run.network_pairs) {
          if (pair.server_manager == manager && pair.server_worker > worker) --pair.server_worker;
          if (pair.client_manager == manager && pair.client_worker > worker) --pair.client_worker;
        }
      }
    }
  }
  std::erase_if(run.managers, [&](const ManagerRun& planned) {
    return is_dropped(planned.manager) || planned.assignment.workers.empty();
  });
}

Result<std::map<std::size_t, protocol::NetworkPorts>> relay_ports(
    const RunPlan& run, std::uint64_t run_id, const std::map<std::size_t, protocol::NetworkPorts>& listening) {
  std::map<std::size_t, protocol::NetworkPorts> to_clients;
  for (const auto& pair : run.network_pairs) {
    std::optional<std::uint32_t> port;
    if (const auto reported = listening.find(pair.server_manager); reported != listening.end()) {
      for (const auto& entry : reported->second.ports) {
        if (entry.worker_index == pair.server_worker && entry.target_index == 0) port = entry.port;
      }
    }
    if (!port) {
      return fail(ErrorCode::not_found, "the network server of worker " + std::to_string(pair.server_worker) +
                                            " on manager " + std::to_string(pair.server_manager) +
                                            " reported no listening port");
    }
    auto& message = to_clients[pair.client_manager];
    message.run_id = run_id;
    message.ports.push_back({static_cast<std::uint32_t>(pair.client_worker), 0, *port});
  }
  return to_clients;
}

Result<protocol::PairSecret> make_pair_secret() {
  auto nonce = protocol::random_nonce();
  if (!nonce) return fail(nonce.error());
  protocol::PairSecret secret{};
  std::copy(nonce->begin(), nonce->end(), secret.begin());
  return secret;
}

Result<PairNames> parse_network_pair(std::string_view text) {
  const auto bad = [&text](const std::string& why) {
    return fail(Error(ErrorCode::invalid_argument, "\"" + std::string(text) + "\" " + why).in_field("--network-pair"));
  };
  const auto colon = text.rfind(':');
  if (colon == std::string_view::npos) return bad("is not SERVER:CLIENT");
  PairNames names;
  const auto side = [](std::string_view part, std::string& name, std::optional<std::string>& address) {
    const auto at = part.rfind('@');
    name = std::string(part.substr(0, at));
    if (at != std::string_view::npos) address = std::string(part.substr(at + 1));
    return !name.empty() && (!address || ipv4_value(*address));
  };
  if (!side(text.substr(0, colon), names.server, names.server_address) ||
      !side(text.substr(colon + 1), names.client, names.client_address)) {
    return bad("is not SERVER[@IPV4]:CLIENT[@IPV4] (manager names, optional addresses)");
  }
  return names;
}

}  // namespace iomark::controller
