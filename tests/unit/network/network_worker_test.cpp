// Both ends of a pair in one process over 127.0.0.1 (ports chosen by the kernel).
#include "iomark/network/network_worker.hpp"

#include <gtest/gtest.h>

#include <chrono>
#include <thread>

#include "iomark/network/tcp_socket.hpp"

namespace iomark::network {
namespace {

using namespace std::chrono_literals;

access_specs::AccessSpec spec_of(access_specs::AccessSpecLine line) {
  access_specs::AccessSpec spec;
  spec.name = "net";
  spec.lines = {line};
  return spec;
}

protocol::NetworkEndpoint endpoint(protocol::NetworkRole role, std::uint8_t secret_byte = 1) {
  protocol::NetworkEndpoint end;
  end.role = role;
  end.local_address = "127.0.0.1";
  end.peer_address = "127.0.0.1";
  end.pair_secret[0] = std::byte{secret_byte};
  end.label = role == protocol::NetworkRole::server ? "a:127.0.0.1 >> b:127.0.0.1" : "b:127.0.0.1 >> a:127.0.0.1";
  return end;
}

struct Pair {
  std::unique_ptr<NetworkWorker> server;
  std::unique_ptr<NetworkWorker> client;
};

Pair make_pair(const access_specs::AccessSpec& spec, bool rate, std::uint32_t per_connection,
               std::uint8_t client_secret = 1) {
  auto server = NetworkWorker::create({"server", spec, endpoint(protocol::NetworkRole::server), 42, rate, per_connection});
  EXPECT_TRUE(server) << server.error().describe();
  auto client =
      NetworkWorker::create({"client", spec, endpoint(protocol::NetworkRole::client, client_secret), 42, rate, per_connection});
  EXPECT_TRUE(client) << client.error().describe();
  (*client)->set_peer_port(*(*server)->listening_port());
  return {std::move(*server), std::move(*client)};
}

void run_for(Pair& pair, std::chrono::milliseconds ramp, std::chrono::milliseconds recording) {
  ASSERT_TRUE(pair.server->start());
  ASSERT_TRUE(pair.client->start());
  std::this_thread::sleep_for(ramp);
  pair.server->record_on();
  pair.client->record_on();
  std::this_thread::sleep_for(recording);
  pair.server->record_off();
  pair.client->record_off();
  pair.client->stop();
  pair.server->stop();
}

TEST(NetworkWorker, BothEndsCountTheSameTransfersAsReads) {
  auto pair = make_pair(spec_of({65536, 100, 100, 0, 0, 1, 0, 0}), false, 1);
  run_for(pair, 50ms, 300ms);
  ASSERT_FALSE(pair.server->failure()) << pair.server->failure()->describe();
  ASSERT_FALSE(pair.client->failure()) << pair.client->failure()->describe();
  const auto server = pair.server->results();
  const auto client = pair.client->results();
  EXPECT_GT(server.counters.reads.count, 10U);
  EXPECT_EQ(server.counters.writes.count, 0U);
  EXPECT_EQ(client.counters.writes.count, 0U) << "the client's sends count as the server's reads";
  EXPECT_EQ(server.counters.bytes_read, server.counters.reads.count * 65536);
  // The client's sends run ahead of the server's receives by what the socket buffers hold.
  EXPECT_NEAR(static_cast<double>(client.counters.reads.count), static_cast<double>(server.counters.reads.count),
              0.2 * static_cast<double>(server.counters.reads.count) + 64);
  EXPECT_EQ(server.counters.connections.count, 0U) << "without connection rate nothing counts as a connection";
  EXPECT_GT(server.window, 250ms);
}

TEST(NetworkWorker, ARequestWithAReplyIsOneTransactionOfTwoIos) {
  auto pair = make_pair(spec_of({512, 100, 0, 0, 0, 1, 0, 512}), false, 1);
  run_for(pair, 20ms, 200ms);
  const auto server = pair.server->results();
  ASSERT_GT(server.counters.transactions.count, 10U);
  // The window's edges may cut one transaction between its request and its reply.
  EXPECT_NEAR(static_cast<double>(server.counters.writes.count), static_cast<double>(server.counters.transactions.count), 1.0);
  EXPECT_NEAR(static_cast<double>(server.counters.reads.count), static_cast<double>(server.counters.transactions.count), 1.0);
  EXPECT_GE(server.counters.transactions.sum_ns, server.counters.reads.sum_ns);
}

TEST(NetworkWorker, ConnectionRateReconnectsEveryNTransactions) {
  auto pair = make_pair(spec_of({4096, 100, 0, 0, 0, 1, 0, 4096}), true, 4);
  run_for(pair, 20ms, 300ms);
  ASSERT_FALSE(pair.server->failure()) << pair.server->failure()->describe();
  const auto server = pair.server->results().counters;
  const auto client = pair.client->results().counters;
  ASSERT_GT(server.connections.count, 5U);
  // Four transactions per connection, give or take the connections cut by the window's ends.
  EXPECT_NEAR(static_cast<double>(server.transactions.count), 4.0 * static_cast<double>(server.connections.count), 8.0);
  EXPECT_NEAR(static_cast<double>(client.connections.count), static_cast<double>(server.connections.count), 2.0);
  EXPECT_GT(server.connections.sum_ns, 0U);
}

TEST(NetworkWorker, ZeroTransactionsPerConnectionOnlyConnects) {
  auto pair = make_pair(spec_of({4096, 100, 0, 0, 0, 1, 0, 0}), true, 0);
  run_for(pair, 20ms, 200ms);
  const auto server = pair.server->results().counters;
  EXPECT_GT(server.connections.count, 5U) << "client: " << pair.client->results().counters.connections.count
                                          << (pair.client->failure() ? pair.client->failure()->describe() : "")
                                          << (pair.server->failure() ? pair.server->failure()->describe() : "");
  EXPECT_EQ(server.io_count(), 0U);
  EXPECT_EQ(server.transactions.count, 0U);
}

TEST(NetworkWorker, AClientWithoutTheSecretIsRefusedAndNeverCounted) {
  auto pair = make_pair(spec_of({4096, 100, 100, 0, 0, 1, 0, 0}), false, 1, /*client_secret=*/2);
  run_for(pair, 20ms, 200ms);
  EXPECT_EQ(pair.server->results().counters.io_count(), 0U);
  EXPECT_GE(pair.server->results().refused_connections, 1U);
}

TEST(NetworkWorker, APeerThatVanishesMidRunIsANamedFailure) {
  auto pair = make_pair(spec_of({65536, 100, 100, 0, 0, 1, 0, 0}), false, 1);
  ASSERT_TRUE(pair.server->start());
  ASSERT_TRUE(pair.client->start());
  pair.server->record_on();
  std::this_thread::sleep_for(100ms);
  pair.client.reset();  // the client's process is gone: its socket closes
  const auto give_up = std::chrono::steady_clock::now() + 3s;
  while (!pair.server->failed() && std::chrono::steady_clock::now() < give_up) std::this_thread::sleep_for(10ms);
  ASSERT_TRUE(pair.server->failed());
  const auto failure = pair.server->failure()->describe();
  EXPECT_NE(failure.find("the peer 127.0.0.1 closed the connection mid-run"), std::string::npos) << failure;
  EXPECT_NE(failure.find("a:127.0.0.1 >> b:127.0.0.1"), std::string::npos) << failure;
}

TEST(NetworkWorker, AClientWhoseServerStopsFirstAfterRecordOffDoesNotFail) {
  // Connections with no transactions keep the client connecting; the server's agent got the
  // run's stop first. The client retries a refused connect for 5 s: past that, it must not
  // call the peer's absence a failure.
  auto pair = make_pair(spec_of({512, 100, 0, 0, 0, 1, 0, 0}), true, 0);
  ASSERT_TRUE(pair.server->start());
  ASSERT_TRUE(pair.client->start());
  pair.server->record_on();
  pair.client->record_on();
  std::this_thread::sleep_for(100ms);
  pair.server->record_off();
  pair.client->record_off();
  pair.server->stop();
  std::this_thread::sleep_for(6s);
  EXPECT_FALSE(pair.client->failed()) << pair.client->failure()->describe();
  pair.client->stop();
  EXPECT_FALSE(pair.client->failure());
  EXPECT_GT(pair.client->results().counters.connections.count, 5U);
}

TEST(NetworkWorker, AServerCannotListenOnAnAddressThisHostLacks) {
  auto server_end = endpoint(protocol::NetworkRole::server);
  server_end.local_address = "192.0.2.77";  // TEST-NET-1: never this host's
  auto server = NetworkWorker::create({"server", spec_of({512, 100, 100, 0, 0, 1, 0, 0}), server_end, 1, false, 1});
  ASSERT_FALSE(server);
  EXPECT_NE(server.error().message().find("cannot listen on 192.0.2.77"), std::string::npos);
}

}  // namespace
}  // namespace iomark::network
