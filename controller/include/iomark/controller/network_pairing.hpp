// Network pairs (IOmeter's TCP workers, docs/iometer-reference.md#workers-and-pairs): a
// server worker on one manager and the client worker IOmeter creates for it on the manager
// that owns the target interface. This header turns a pair into the two assignments (the
// server's and the client's, with the same spec, seed and a fresh pair secret) and relays the
// server's port to the client between Start and BeginIo.
//
// Pure functions over value types, except make_pair_secret() (the CSPRNG); thread-safe.
#pragma once

#include <cstddef>
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/common/result.hpp"
#include "iomark/controller/series_runner.hpp"
#include "iomark/protocol/messages.hpp"

namespace iomark::controller {

// The engine a Dynamo 1.1.0 manager lists, alone, in its Inventory (DynamoConnection): its
// network workers exchange Dynamo's bare TCP stream, not the iomark agents' pair protocol
// (a proof of the pair secret on every connection), so the two cannot be ends of one pair.
inline constexpr std::string_view kDynamoEngine = "dynamo";
// Whether a manager is a Dynamo (its inventory lists kDynamoEngine alone).
[[nodiscard]] bool is_dynamo(const protocol::Inventory& inventory);

// Whether the two ends of a pair speak the same data exchange: both Dynamo 1.1.0 managers or
// both iomark agents. Errors: unsupported naming the Dynamo end and the agent end.
[[nodiscard]] Result<void> check_pair_ends(const protocol::Inventory& server, std::string_view server_name,
                                           const protocol::Inventory& client, std::string_view client_name);

// Whether `address` is an IPv4 address in 127.0.0.0/8.
[[nodiscard]] bool is_loopback(std::string_view address);

// The interface of `inventory` named `wanted` by its name ("eth0") or its address.
[[nodiscard]] const protocol::NetworkInterface* find_interface(const protocol::Inventory& inventory,
                                                               std::string_view wanted);

// The address a server on `server` listens on for a client at `client_address`: the
// interface whose subnet holds it (the loopback interface for a loopback client).
// Errors: not_found naming the client address and the server's interfaces.
[[nodiscard]] Result<std::string> server_address_for(const protocol::Inventory& server, std::string_view server_name,
                                                     std::string_view client_address);

struct PairAddresses {
  std::string server;
  std::string client;
  friend bool operator==(const PairAddresses&, const PairAddresses&) = default;
};

// Addresses for a pair named without any (`--network-pair A:B`): a non-loopback interface of
// the client in the subnet of one of the server's, else loopback on both when both have it.
// Errors: not_found when the two share no subnet.
[[nodiscard]] Result<PairAddresses> choose_pair_addresses(const protocol::Inventory& server,
                                                          std::string_view server_name,
                                                          const protocol::Inventory& client,
                                                          std::string_view client_name);

// One pair to add to a run.
struct PairRequest {
  std::size_t server_manager{};  // index into the links
  std::string server_manager_name;
  std::size_t client_manager{};
  std::string client_manager_name;
  std::string worker_name;  // the server worker's; its client is "<name> (client)"
  access_specs::AccessSpec spec;
  PairAddresses addresses;
  std::uint64_t seed{};
  bool test_connection_rate{false};
  std::uint32_t transactions_per_connection{1};
  protocol::PairSecret secret{};
};

// Adds the server worker to the server manager's run and the client worker to the client
// manager's (each ManagerRun made when the run has none for it yet) and records the pair.
void add_network_pair(RunPlan& run, const PairRequest& pair);

// The run without the managers in `dropped` (lost earlier in the series): their ManagerRuns
// go, and so does the other end of every pair they were part of, so no worker waits for a
// partner that will never come; a manager left with no worker leaves the run too.
void drop_managers(RunPlan& run, const std::vector<std::size_t>& dropped);

// What Start's replies said, per manager: the ports its servers listen on. Returns the
// NetworkPorts request for each manager with clients, naming the client's worker.
// Errors: not_found when a server of the run reported no port (naming manager and worker).
[[nodiscard]] Result<std::map<std::size_t, protocol::NetworkPorts>> relay_ports(
    const RunPlan& run, std::uint64_t run_id, const std::map<std::size_t, protocol::NetworkPorts>& listening);

// A fresh random secret for one pair and run. Errors: io_error when the CSPRNG cannot be seeded.
[[nodiscard]] Result<protocol::PairSecret> make_pair_secret();

// "A:B" or "A@ADDR:B@ADDR" as given to --network-pair: the server and client manager names and
// optional addresses. Errors: invalid_argument (field --network-pair).
struct PairNames {
  std::string server;
  std::string client;
  std::optional<std::string> server_address;
  std::optional<std::string> client_address;
  friend bool operator==(const PairNames&, const PairNames&) = default;
};
[[nodiscard]] Result<PairNames> parse_network_pair(std::string_view text);

}  // namespace iomark::controller
