// A network pair between two Dynamo 1.1.0 managers (docs/iometer-reference.md#wire-network-pairs),
// each a stand-in (dynamo_stand_in.hpp) behind its own DynamoConnection: the pair is built and its
// port relayed by network_pairing's functions, as RunDriver does for iomark agents, and the
// legacy traffic is what IOmeter's GUI sends (the server's SET_TARGETS first, its port read
// from the echo, then the client's SET_TARGETS naming that port). Each failure is named.

#include "dynamo_stand_in.hpp"
#include "iomark/controller/network_pairing.hpp"

namespace iomark::controller {
namespace {

using P = legacy::Purpose;
constexpr std::uint64_t kRunId = 9;
constexpr std::uint16_t kServerPort = 40123;
const auto kTimeout = std::chrono::duration_cast<Nanoseconds>(std::chrono::seconds(5));

// What both stand-ins received, in order, each message with the name of its Dynamo.
class Timeline {
 public:
  void add(const std::string& dynamo, legacy::Message message) {
    std::lock_guard lock(mutex_);
    seen_.emplace_back(dynamo, message);
  }
  std::vector<std::pair<std::string, legacy::Message>> seen() {
    std::lock_guard lock(mutex_);
    return seen_;
  }

 private:
  std::mutex mutex_;
  std::vector<std::pair<std::string, legacy::Message>> seen_;
};

// One stand-in's side of the exchange: each message it gets is recorded; answers follow.
struct StandIn {
  std::string name;
  Peer channel;
  Timeline& timeline;
  legacy::Message next() {
    auto message = decode(channel.receive(legacy::kMessageBytes));
    timeline.add(name, message);
    return message;
  }
  void reply(legacy::Purpose purpose, std::int32_t data) { channel.send(legacy::encode_message({purpose, data})); }
  // ADD_WORKERS 1 and SET_ACCESS, both accepted.
  void accept_worker() {
    if (next().purpose == P::add_workers) reply(P::add_workers, 1);
    if (next().purpose == P::set_access) {
      (void)channel.receive(legacy::kDataMessageBytes);
      reply(P::set_access, 1);
    }
  }
  // SET_TARGETS answered `data`, its echo carrying `local_port` as a TCP server's; returns the
  // targets it was sent (empty when the block did not decode).
  std::vector<legacy::TargetSpec> answer_targets(std::int32_t data, std::uint16_t local_port) {
    if (next().purpose != P::set_targets) return {};
    auto targets = legacy::decode_target_list(channel.receive(legacy::kDataMessageBytes),
                                              legacy::TargetListUse::assignment)
                       .value_or(std::vector<legacy::TargetSpec>{});
    auto echoed = targets;
    for (auto& target : echoed) {
      if (auto* tcp = std::get_if<legacy::TcpDetails>(&target.details)) tcp->local_port = local_port;
    }
    reply(P::set_targets, data);
    channel.send(legacy::encode_target_list(echoed).value());
    return targets;
  }
};

class DynamoNetworkPairTest : public DynamoAcceptorTest {
 protected:
  // Logs in "dyn-server" then "dyn-client", both reporting the loopback NIC, and plans one
  // pair from the first to the second (512 B, 4 transactions per connection, seed 77).
  void SetUp() override {
    DynamoAcceptorTest::SetUp();
    server_.emplace(StandIn{"dyn-server", log_in_and_report(server_port_, true, {"127.0.0.1"}, "dyn-server"), timeline_});
    ASSERT_TRUE(registry_.wait_for(1, kTimeout).has_value());
    client_.emplace(StandIn{"dyn-client", log_in_and_report(client_port_, true, {"127.0.0.1"}, "dyn-client"), timeline_});
    ASSERT_TRUE(registry_.wait_for(2, kTimeout).has_value());
    links_ = registry_.links();
    ASSERT_EQ(links_[0]->name(), "dyn-server");
    PairRequest pair;
    pair.server_manager = 0;
    pair.server_manager_name = "dyn-server";
    pair.client_manager = 1;
    pair.client_manager_name = "dyn-client";
    pair.worker_name = "Worker 1";
    pair.spec = {"512 B", access_specs::DefaultAssignment::none, {{512, 100, 0, 0, 0, 1, 0, 512}}};
    pair.addresses = choose_pair_addresses(links_[0]->inventory(), "dyn-server", links_[1]->inventory(), "dyn-client")
                         .value();
    pair.seed = 77;
    pair.test_connection_rate = true;
    pair.transactions_per_connection = 4;
    add_network_pair(run_, pair);
    for (auto& planned : run_.managers) planned.assignment.run_id = kRunId;
  }

  Result<protocol::Message> assign(std::size_t manager) {
    return links_[manager]->request(run_.managers[manager].assignment, kTimeout);
  }
  Result<protocol::Message> phase(std::size_t manager, protocol::Phase phase) {
    return links_[manager]->request(protocol::PhaseCommand{kRunId, phase}, kTimeout);
  }

  CommandPort server_port_;
  CommandPort client_port_;
  Timeline timeline_;
  std::optional<StandIn> server_;
  std::optional<StandIn> client_;
  std::vector<ManagerLink*> links_;
  RunPlan run_;
};

TEST_F(DynamoNetworkPairTest, TheDynamosTcpNicsAreItsInterfaces) {
  const auto& interfaces = links_[0]->inventory().interfaces;
  ASSERT_EQ(interfaces.size(), 1U);
  EXPECT_EQ(interfaces[0].name, "127.0.0.1");
  EXPECT_EQ(interfaces[0].address, "127.0.0.1");
  EXPECT_EQ(interfaces[0].prefix_length, 8U);
  EXPECT_EQ(links_[0]->inventory().engines, std::vector<std::string>{std::string(kDynamoEngine)});
}

TEST_F(DynamoNetworkPairTest, TheServerIsSetFirstItsPortEchoedAndTheClientSetSecond) {
  std::vector<legacy::TargetSpec> server_targets;
  std::vector<legacy::TargetSpec> client_targets;
  std::thread server([&] {
    server_->accept_worker();
    server_targets = server_->answer_targets(1, kServerPort);
    if (server_->next().purpose == P::start) server_->reply(P::start, 1);
  });
  std::thread client([&] {
    client_->accept_worker();
    client_targets = client_->answer_targets(1, 50000);
    if (client_->next().purpose == P::start) client_->reply(P::start, 1);
  });

  ASSERT_TRUE(assign(0).has_value());
  ASSERT_TRUE(assign(1).has_value());
  auto server_started = phase(0, protocol::Phase::start);
  ASSERT_TRUE(server_started.has_value()) << server_started.error().describe();
  const auto* listening = std::get_if<protocol::NetworkPorts>(&*server_started);
  ASSERT_NE(listening, nullptr) << "the server's Start is answered with its port";
  EXPECT_EQ(listening->ports, (std::vector<protocol::NetworkPort>{{0, 0, kServerPort}}));
  auto client_started = phase(1, protocol::Phase::start);
  ASSERT_TRUE(client_started.has_value()) << client_started.error().describe();
  EXPECT_TRUE(std::holds_alternative<protocol::Ack>(*client_started));
  auto relayed = relay_ports(run_, kRunId, {{0, *listening}});
  ASSERT_TRUE(relayed.has_value()) << relayed.error().describe();
  auto connected = links_[1]->request(relayed->at(1), kTimeout);
  server.join();
  client.join();
  ASSERT_TRUE(connected.has_value()) << connected.error().describe();
  EXPECT_TRUE(std::holds_alternative<protocol::Ack>(*connected));

  using Seen = std::pair<std::string, legacy::Message>;
  EXPECT_EQ(timeline_.seen(), (std::vector<Seen>{{"dyn-server", {P::add_workers, 1}},
                                                 {"dyn-server", {P::set_access, 0}},
                                                 {"dyn-server", {P::set_targets, 0}},
                                                 {"dyn-client", {P::add_workers, 1}},
                                                 {"dyn-client", {P::set_access, 0}},
                                                 {"dyn-server", {P::start, legacy::kAllWorkers}},
                                                 {"dyn-client", {P::set_targets, 0}},
                                                 {"dyn-client", {P::start, legacy::kAllWorkers}}}));
  ASSERT_EQ(server_targets.size(), 1U);
  ASSERT_EQ(client_targets.size(), 1U);
  const auto& served = server_targets[0];
  const auto& connecting = client_targets[0];
  // The server's target is its partner, a TCP client; the client's is the server.
  EXPECT_EQ(served.type, legacy::target_type::kTcpClient | legacy::target_type::kActive);
  EXPECT_EQ(connecting.type, legacy::target_type::kTcpServer | legacy::target_type::kActive);
  EXPECT_EQ(served.name, "127.0.0.1");
  EXPECT_EQ(std::get<legacy::TcpDetails>(served.details).remote_address, "127.0.0.1");
  EXPECT_EQ(std::get<legacy::TcpDetails>(connecting.details).remote_address, "127.0.0.1");
  EXPECT_EQ(std::get<legacy::TcpDetails>(connecting.details).remote_port, kServerPort);
  for (const auto* end : {&served, &connecting}) {
    EXPECT_EQ(end->random_seed, 77U);  // both ends draw the same sizes
    EXPECT_TRUE(end->test_connection_rate);
    EXPECT_EQ(end->transactions_per_connection, 4U);
  }
}

TEST_F(DynamoNetworkPairTest, ADynamoRefusingTheServerTargetIsNamed) {
  std::thread server([&] {
    server_->accept_worker();
    (void)server_->answer_targets(0, 0xFFFF);  // Dynamo's answer when it cannot bind
  });
  const auto assigned = assign(0);
  server.join();
  ASSERT_FALSE(assigned.has_value());
  EXPECT_NE(assigned.error().message().find("dyn-server"), std::string::npos) << assigned.error().describe();
  EXPECT_NE(assigned.error().message().find("refused the targets of worker 0 (127.0.0.1)"), std::string::npos)
      << assigned.error().describe();
}

TEST_F(DynamoNetworkPairTest, AServerPortOfZeroIsNamed) {
  std::thread server([&] {
    server_->accept_worker();
    (void)server_->answer_targets(1, 0);
  });
  const auto assigned = assign(0);
  server.join();
  ASSERT_FALSE(assigned.has_value());
  EXPECT_NE(assigned.error().message().find("reported port 0"), std::string::npos) << assigned.error().describe();
}

TEST_F(DynamoNetworkPairTest, AClientWithoutItsPartnersPortIsNamedAndGetsNoTargets) {
  std::thread client([&] { client_->accept_worker(); });
  ASSERT_TRUE(assign(1).has_value());
  client.join();
  ASSERT_TRUE(phase(1, protocol::Phase::start).has_value());
  const auto missing = links_[1]->request(protocol::NetworkPorts{kRunId, {}}, kTimeout);
  ASSERT_FALSE(missing.has_value());
  EXPECT_NE(missing.error().message().find("its server end is missing"), std::string::npos)
      << missing.error().describe();
  const auto begun = phase(1, protocol::Phase::begin_io);
  ASSERT_FALSE(begun.has_value());
  EXPECT_NE(begun.error().message().find("never got its server's port"), std::string::npos) << begun.error().describe();
  // Nothing reached the client Dynamo after SET_ACCESS: neither SET_TARGETS nor START.
  EXPECT_EQ(timeline_.seen().size(), 2U);
  EXPECT_TRUE(links_[1]->is_open());
}

TEST_F(DynamoNetworkPairTest, AnInterfaceTheDynamoDoesNotReportIsRefusedBeforeAnythingIsSent) {
  auto assignment = run_.managers[0].assignment;
  assignment.workers[0].targets[0].network->local_address = "10.9.9.9";
  const auto refused = links_[0]->request(assignment, kTimeout);
  ASSERT_FALSE(refused.has_value());
  EXPECT_NE(refused.error().message().find("does not report a TCP interface '10.9.9.9'"), std::string::npos)
      << refused.error().describe();
  EXPECT_TRUE(timeline_.seen().empty());
  EXPECT_TRUE(links_[0]->is_open());
}

}  // namespace
}  // namespace iomark::controller
