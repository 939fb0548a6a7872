#include "iomark/controller/network_pairing.hpp"

#include <gtest/gtest.h>

namespace iomark::controller {
namespace {

protocol::Inventory host(std::vector<protocol::NetworkInterface> interfaces) {
  protocol::Inventory inventory;
  inventory.host_name = "h";
  inventory.interfaces = std::move(interfaces);
  return inventory;
}

const protocol::NetworkInterface kLoopback{"lo", "127.0.0.1", 8, 65536, std::nullopt};

TEST(NetworkPairing, InterfacesAreFoundByNameOrAddress) {
  const auto inventory = host({kLoopback, {"eth0", "10.1.2.3", 24, 1500, 1000}});
  ASSERT_NE(find_interface(inventory, "eth0"), nullptr);
  EXPECT_EQ(find_interface(inventory, "10.1.2.3")->name, "eth0");
  EXPECT_EQ(find_interface(inventory, "10.1.2.4"), nullptr);
  EXPECT_EQ(find_interface(inventory, ""), nullptr);
}

// A Dynamo 1.1.0 end streams bare TCP, an iomark agent's proves the pair secret first.
TEST(NetworkPairing, APairIsTwoDynamosOrTwoAgentsNeverOneOfEach) {
  auto dynamo = host({kLoopback});
  dynamo.engines = {std::string(kDynamoEngine)};
  auto agent = host({kLoopback});
  agent.engines = {"io_uring", "threadpool"};
  EXPECT_TRUE(check_pair_ends(dynamo, "dyn1", dynamo, "dyn2").has_value());
  EXPECT_TRUE(check_pair_ends(agent, "a", agent, "b").has_value());
  for (const auto& mixed : {check_pair_ends(dynamo, "dyn1", agent, "a"), check_pair_ends(agent, "a", dynamo, "dyn1")}) {
    ASSERT_FALSE(mixed.has_value());
    EXPECT_EQ(mixed.error().code(), ErrorCode::unsupported);
    EXPECT_NE(mixed.error().message().find("'dyn1' is a Dynamo 1.1.0 and 'a' an iomark agent"), std::string::npos)
        << mixed.error().message();
  }
}

TEST(NetworkPairing, TheServerListensInTheClientsSubnet) {
  const auto server = host({kLoopback, {"eth0", "192.168.7.1", 24, 1500, {}}, {"eth1", "10.88.0.1", 16, 9000, {}}});
  EXPECT_EQ(server_address_for(server, "a", "10.88.3.9"), "10.88.0.1");
  EXPECT_EQ(server_address_for(server, "a", "127.0.0.1"), "127.0.0.1");
  const auto missing = server_address_for(server, "a", "172.16.0.1");
  ASSERT_FALSE(missing);
  EXPECT_NE(missing.error().message().find("eth1 10.88.0.1/16"), std::string::npos) << missing.error().message();
}

TEST(NetworkPairing, AQuickPairPrefersASharedSubnetOverLoopback) {
  const auto a = host({kLoopback, {"veth-a", "10.88.0.1", 24, 1500, {}}, {"ctl", "10.77.1.2", 24, 1500, {}}});
  const auto b = host({kLoopback, {"veth-b", "10.88.0.2", 24, 1500, {}}, {"ctl", "10.77.2.2", 24, 1500, {}}});
  EXPECT_EQ(choose_pair_addresses(a, "a", b, "b"), (PairAddresses{"10.88.0.1", "10.88.0.2"}));
  EXPECT_EQ(choose_pair_addresses(host({kLoopback}), "a", host({kLoopback}), "b"),
            (PairAddresses{"127.0.0.1", "127.0.0.1"}));
  EXPECT_FALSE(choose_pair_addresses(host({{"e", "10.0.0.1", 24, 1500, {}}}), "a",
                                     host({{"e", "10.0.1.1", 24, 1500, {}}}), "b"));
}

PairRequest request(std::size_t server, std::size_t client) {
  PairRequest pair;
  pair.server_manager = server;
  pair.server_manager_name = "srv";
  pair.client_manager = client;
  pair.client_manager_name = "cli";
  pair.worker_name = "Worker 1";
  pair.spec.name = "4 KiB";
  pair.spec.lines = {{4096, 100, 100, 0, 0, 1, 0, 0}};
  pair.addresses = {"10.0.0.1", "10.0.0.2"};
  pair.seed = 99;
  pair.test_connection_rate = true;
  pair.transactions_per_connection = 8;
  pair.secret[3] = std::byte{5};
  return pair;
}

TEST(NetworkPairing, APairIsAServerWorkerAndAClientWorkerWithTheSameSeedAndSecret) {
  RunPlan run;
  ManagerRun existing;
  existing.manager = 0;
  existing.assignment.workers.resize(2);  // two disk workers already
  run.managers.push_back(existing);
  add_network_pair(run, request(0, 3));
  ASSERT_EQ(run.managers.size(), 2U);
  ASSERT_EQ(run.network_pairs, (std::vector<NetworkPair>{{0, 2, 3, 0}}));
  const auto& server = run.managers[0].assignment.workers[2];
  const auto& client = run.managers[1].assignment.workers[0];
  EXPECT_EQ(run.managers[1].manager, 3U);
  EXPECT_EQ(server.name, "Worker 1");
  EXPECT_EQ(client.name, "Worker 1 (client)");
  ASSERT_TRUE(server.targets.at(0).network && client.targets.at(0).network);
  const auto& s = *server.targets[0].network;
  const auto& c = *client.targets[0].network;
  EXPECT_EQ(s.role, protocol::NetworkRole::server);
  EXPECT_EQ(c.role, protocol::NetworkRole::client);
  EXPECT_EQ(s.local_address, "10.0.0.1");
  EXPECT_EQ(s.peer_address, "10.0.0.2");
  EXPECT_EQ(c.local_address, "10.0.0.2");
  EXPECT_EQ(c.peer_address, "10.0.0.1");
  EXPECT_EQ(s.pair_secret, c.pair_secret);
  EXPECT_EQ(s.label, "srv:10.0.0.1 >> cli:10.0.0.2");
  EXPECT_EQ(c.label, "cli:10.0.0.2 >> srv:10.0.0.1");
  EXPECT_EQ(server.targets[0].seed, client.targets[0].seed);
  EXPECT_TRUE(client.targets[0].test_connection_rate);
  EXPECT_EQ(client.targets[0].transactions_per_connection, 8U);
  EXPECT_EQ(client.spec, server.spec);
}

TEST(NetworkPairing, APairOnOneManagerPutsBothWorkersThere) {
  RunPlan run;
  add_network_pair(run, request(1, 1));
  ASSERT_EQ(run.managers.size(), 1U);
  EXPECT_EQ(run.managers[0].assignment.workers.size(), 2U);
  EXPECT_EQ(run.network_pairs, (std::vector<NetworkPair>{{1, 0, 1, 1}}));
}

TEST(NetworkPairing, EachServersPortGoesToItsClient) {
  RunPlan run;
  add_network_pair(run, request(0, 1));
  add_network_pair(run, request(1, 0));
  std::map<std::size_t, protocol::NetworkPorts> listening{{0, {7, {{0, 0, 5000}}}}, {1, {7, {{1, 0, 6000}}}}};
  auto relayed = relay_ports(run, 7, listening);
  ASSERT_TRUE(relayed) << relayed.error().describe();
  ASSERT_EQ(relayed->size(), 2U);
  EXPECT_EQ(relayed->at(1), (protocol::NetworkPorts{7, {{0, 0, 5000}}}));
  EXPECT_EQ(relayed->at(0), (protocol::NetworkPorts{7, {{1, 0, 6000}}}));
  listening.erase(1);
  EXPECT_FALSE(relay_ports(run, 7, listening));
}

TEST(NetworkPairing, DroppingAManagerDropsTheOtherEndOfItsPairs) {
  RunPlan run;
  ManagerRun disks;
  disks.manager = 0;
  disks.assignment.workers.resize(1);
  run.managers.push_back(disks);
  add_network_pair(run, request(0, 1));  // manager 0 worker 1 serves manager 1 worker 0
  add_network_pair(run, request(2, 0));  // manager 2 worker 0 serves manager 0 worker 2
  add_network_pair(run, request(1, 2));  // manager 1 worker 1 serves manager 2 worker 1
  drop_managers(run, {1});
  // Manager 0 keeps its disk worker and its client of manager 2; manager 2 keeps only its
  // server (its client's server was on manager 1).
  ASSERT_EQ(run.managers.size(), 2U);
  EXPECT_EQ(run.managers[0].assignment.workers.size(), 2U);
  EXPECT_EQ(run.managers[0].assignment.workers[1].name, "Worker 1 (client)");
  ASSERT_EQ(run.network_pairs, (std::vector<NetworkPair>{{2, 0, 0, 1}}));
  EXPECT_EQ(run.managers[1].manager, 2U);
  EXPECT_EQ(run.managers[1].assignment.workers.size(), 1U);
  drop_managers(run, {2});
  ASSERT_EQ(run.managers.size(), 1U);
  EXPECT_EQ(run.managers[0].assignment.workers.size(), 1U) << "only the disk worker is left";
  EXPECT_TRUE(run.network_pairs.empty());
}

TEST(NetworkPairing, PairsParseWithOptionalAddresses) {
  EXPECT_EQ(parse_network_pair("a:b"), (PairNames{"a", "b", std::nullopt, std::nullopt}));
  EXPECT_EQ(parse_network_pair("db1@10.0.0.1:db2@10.0.0.2"), (PairNames{"db1", "db2", "10.0.0.1", "10.0.0.2"}));
  EXPECT_FALSE(parse_network_pair("ab"));
  EXPECT_FALSE(parse_network_pair(":b"));
  EXPECT_FALSE(parse_network_pair("a@nowhere:b"));
}

TEST(NetworkPairing, EverySecretIsFresh) {
  auto first = make_pair_secret();
  auto second = make_pair_secret();
  ASSERT_TRUE(first && second);
  EXPECT_NE(*first, *second);
}

}  // namespace
}  // namespace iomark::controller
