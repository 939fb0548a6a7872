// The controller's Dynamo side (DynamoAcceptor and the connection behind it) against a
// stand-in Dynamo (dynamo_stand_in.hpp): the login exchange of docs/iometer-reference.md#login, the
// connect-back, and hostile or stalled peers, each a named refusal or error in bounded time.

#include "dynamo_stand_in.hpp"
#include "iomark/transport/first_bytes.hpp"

namespace iomark::controller {
namespace {

// Run 7: one worker reading 4 KiB at random from `path` with `queue_depth` I/Os outstanding.
protocol::Assignment one_worker_on(std::string path, std::uint32_t queue_depth = 1) {
  protocol::WorkerAssignment worker;
  worker.name = "Worker 1";
  worker.spec = {"4K read", access_specs::DefaultAssignment::none, {{4096, 100, 100, 100, 0, 1, 0, 0}}};
  protocol::TargetAssignment target;
  target.path = std::move(path);
  target.outstanding_ios = queue_depth;
  worker.targets = {target};
  return protocol::Assignment{7, "", false, {worker}};
}

TEST_F(DynamoAcceptorTest, RegistersALoggedInDynamoWithItsTargets) {
  CommandPort command;
  expect_registered(command);
}

TEST_F(DynamoAcceptorTest, WrongVersionIsAnsweredAndRefused) { expect_wrong_version_answered(); }

TEST_F(DynamoAcceptorTest, WrongSizeFieldGetsNoReply) {
  CommandPort command;
  auto login = Peer::dial(port_);
  login.send(legacy::encode_message({legacy::Purpose::login, legacy::kVersionCode_1_1_0}));
  auto block = login_block(command.port);
  block[0] = std::byte{0};  // size 888,832: an unpacked build
  login.send(block);
  EXPECT_TRUE(login.receive(legacy::kMessageBytes).empty());  // closed without a reply
  const auto refusal = events_.wait_refusal(5s);
  EXPECT_NE(refusal.find("packing"), std::string::npos) << refusal;
}

TEST_F(DynamoAcceptorTest, GarbageIsRefused) {
  auto login = Peer::dial(port_);
  login.send(std::as_bytes(std::span("GET / HTTP/1.1\r\n\r\n", 18)));
  const auto refusal = events_.wait_refusal(5s);
  EXPECT_NE(refusal.find("expected LOGIN"), std::string::npos) << refusal;
  EXPECT_EQ(registry_.size(), 0U);
}

TEST_F(DynamoAcceptorTest, StalledLoginIsRefusedWithinItsDeadline) {
  auto login = Peer::dial(port_);
  login.send(legacy::encode_message({legacy::Purpose::login, legacy::kVersionCode_1_1_0}));
  login.send(std::vector<std::byte>(1000));  // a small part of the data block, then nothing
  const auto start = Clock::now();
  const auto refusal = events_.wait_refusal(8s);
  const auto waited = Clock::now() - start;
  EXPECT_NE(refusal.find("stalled"), std::string::npos) << refusal;
  EXPECT_LE(waited, 6s);
}

TEST_F(DynamoAcceptorTest, ConnectBackThatNobodyAnswersIsRefused) {
  std::uint16_t closed_port = 0;
  {
    CommandPort gone;
    closed_port = gone.port;
  }
  auto login = Peer::dial(port_);
  login.send(legacy::encode_message({legacy::Purpose::login, legacy::kVersionCode_1_1_0}));
  login.send(login_block(closed_port));
  const auto refusal = events_.wait_refusal(8s);
  EXPECT_NE(refusal.find("connecting back"), std::string::npos) << refusal;
}

TEST_F(DynamoAcceptorTest, DesynchronisedReplyIsANamedError) {
  CommandPort command;
  auto channel = log_in_and_report(command);
  ASSERT_TRUE(registry_.wait_for(1, 5s).has_value());
  auto* link = registry_.links().front();
  std::thread dynamo([&channel] {
    (void)channel.receive(legacy::kMessageBytes);  // ADD_WORKERS
    channel.send(legacy::encode_message({legacy::Purpose::stop, 1}));
  });
  const auto reply = link->request(one_worker_on("/tmp/fake"), std::chrono::duration_cast<Nanoseconds>(5s));
  dynamo.join();
  ASSERT_FALSE(reply.has_value());
  EXPECT_NE(reply.error().message().find("desynchronised"), std::string::npos) << reply.error().describe();
  EXPECT_NE(reply.error().message().find("fake-dynamo"), std::string::npos) << reply.error().describe();
  EXPECT_FALSE(link->is_open());
}

TEST_F(DynamoAcceptorTest, UnknownTargetIsRefusedBeforeAnythingIsSent) {
  CommandPort command;
  auto channel = log_in_and_report(command);
  ASSERT_TRUE(registry_.wait_for(1, 5s).has_value());
  auto* link = registry_.links().front();
  const auto reply = link->request(one_worker_on("/dev/vda"), std::chrono::duration_cast<Nanoseconds>(5s));
  ASSERT_FALSE(reply.has_value());
  EXPECT_NE(reply.error().message().find("/dev/vda"), std::string::npos) << reply.error().describe();
  EXPECT_TRUE(link->is_open());
}

// A whole run against the stand-in: the exact legacy sequence IOmeter's GUI sends (purposes,
// data, blocks), and REPORT_RESULTS converted from Dynamo's ticks into iomark's units.
TEST_F(DynamoAcceptorTest, RunsOneTestAsIOmeterDoesAndConvertsItsTicks) {
  CommandPort command;
  auto channel = log_in_and_report(command);
  ASSERT_TRUE(registry_.wait_for(1, 5s).has_value());
  auto* link = registry_.links().front();
  // The stand-in's timer resolution is 2.5e9 ticks/s (login_block).

  std::vector<legacy::Message> seen;
  std::vector<std::string> errors;
  legacy::RawResult raw;
  raw.read_count = 1000;
  raw.bytes_read = 4096 * 1000;
  raw.read_latency_sum = 2'500'000'000ULL;  // 1 s in ticks: 1 ms per read
  raw.max_raw_read_latency = 12'500'000;     // 5 ms
  raw.write_count = 10;
  raw.bytes_written = 4096 * 10;
  raw.write_latency_sum = 25'000'000;  // 10 ms in ticks
  raw.max_raw_write_latency = 5'000'000;
  raw.transaction_count = 1010;
  raw.latency_bins[5] = 1010;
  std::thread dynamo([&] {
    const auto next = [&] {
      auto message = decode(channel.receive(legacy::kMessageBytes));
      seen.push_back(message);
      return message;
    };
    const auto reply = [&](legacy::Purpose purpose, std::int32_t data) {
      channel.send(legacy::encode_message({purpose, data}));
    };
    if (next().purpose == legacy::Purpose::add_workers) reply(legacy::Purpose::add_workers, 1);
    if (next().purpose == legacy::Purpose::set_access) {
      auto spec = legacy::decode_test_spec(channel.receive(legacy::kDataMessageBytes));
      if (!spec || spec->lines.size() != 1 || spec->lines[0].size_bytes != 4096) errors.push_back("SET_ACCESS block");
      reply(legacy::Purpose::set_access, 1);
    }
    if (next().purpose == legacy::Purpose::set_targets) {
      const auto block = channel.receive(legacy::kDataMessageBytes);
      auto targets = legacy::decode_target_list(block, legacy::TargetListUse::assignment);
      if (!targets || targets->size() != 1 || (*targets)[0].queue_depth != 4 ||
          !legacy::is_type((*targets)[0].type, legacy::target_type::kActive)) {
        errors.push_back("SET_TARGETS block");
      }
      reply(legacy::Purpose::set_targets, 1);
      channel.send(block);  // the echo
    }
    for (const auto& [purpose, data] : {std::pair{legacy::Purpose::start, 1}, std::pair{legacy::Purpose::begin_io, 1}}) {
      if (next().purpose == purpose) reply(purpose, data);
    }
    (void)next();  // RECORD_ON: no reply
    for (const auto purpose : {legacy::Purpose::record_off, legacy::Purpose::stop}) {
      if (next().purpose == purpose) reply(purpose, legacy::kAllWorkers);
    }
    if (next().purpose == legacy::Purpose::report_results) {
      legacy::ManagerResults manager;
      manager.cpus = {{40, 30, 10, 0, 0, 100}, {-0.5, 0, 0, 0, 0, 0}};  // a delta below zero, as Dynamo sends
      channel.send(legacy::encode_manager_results(manager).value());
      channel.send(legacy::encode_worker_results({5'000'000'000ULL, 15'000'000'000ULL, {raw}}).value());
    }
  });

  const auto timeout = std::chrono::duration_cast<Nanoseconds>(5s);
  EXPECT_TRUE(link->request(one_worker_on("/tmp/fake", 4), timeout).has_value());
  for (const auto phase : {protocol::Phase::start, protocol::Phase::begin_io, protocol::Phase::record_on,
                           protocol::Phase::record_off}) {
    const auto done = link->request(protocol::PhaseCommand{7, phase}, timeout);
    EXPECT_TRUE(done.has_value()) << done.error().describe();
  }
  const auto final_reply = link->request(protocol::PhaseCommand{7, protocol::Phase::stop}, timeout);
  dynamo.join();
  EXPECT_TRUE(errors.empty()) << errors.front();

  using P = legacy::Purpose;
  const std::vector<legacy::Message> expected{
      {P::add_workers, 1}, {P::set_access, 0}, {P::set_targets, 0}, {P::start, legacy::kAllWorkers},
      {P::begin_io, legacy::kAllWorkers}, {P::record_on, legacy::kAllWorkers}, {P::record_off, legacy::kAllWorkers},
      {P::stop, legacy::kAllWorkers}, {P::report_results, legacy::kManager}};
  EXPECT_EQ(seen, expected);

  ASSERT_TRUE(final_reply.has_value()) << final_reply.error().describe();
  const auto* results = std::get_if<protocol::FinalResults>(&*final_reply);
  ASSERT_NE(results, nullptr);
  ASSERT_EQ(results->workers.size(), 1U);
  EXPECT_EQ(results->workers[0].window, std::chrono::duration_cast<Nanoseconds>(4s));  // 1e10 ticks / 2.5e9
  ASSERT_EQ(results->workers[0].targets.size(), 1U);
  const auto& counters = results->workers[0].targets[0].counters;
  EXPECT_EQ(counters.reads.count, 1000U);
  EXPECT_EQ(counters.bytes_read, 4096U * 1000);
  EXPECT_EQ(counters.reads.sum_ns, 1'000'000'000U);
  EXPECT_EQ(counters.reads.max_ns, 5'000'000U);
  EXPECT_EQ(counters.writes.sum_ns, 10'000'000U);
  EXPECT_EQ(counters.writes.max_ns, 2'000'000U);
  EXPECT_EQ(counters.transactions.count, 1010U);
  EXPECT_EQ(counters.latency.count(), 0U);  // no exact latencies: percentiles are not known
  EXPECT_EQ(counters.latency.legacy_bins()[5], 1010U);
  EXPECT_FALSE(counters.latency.percentiles_cover_every_io());
  ASSERT_EQ(results->cpus.size(), 2U);
  EXPECT_EQ(results->cpus[0].total_percent, 40.0);
  EXPECT_EQ(results->cpus[1].total_percent, 0.0);  // clamped
}

// One port for both: the registry's listener (the agents' port) hands Dynamo logins to an
// acceptor of handed-over logins.
class DynamoOnAgentsPortTest : public DynamoAcceptorTest {
 protected:
  void SetUp() override {
    acceptor_ = DynamoAcceptor::for_handed_logins(registry_, events_);
    registry_.hand_legacy_logins_to(acceptor_->login_handler());
    auto endpoint = registry_.listen({"127.0.0.1", 0});
    ASSERT_TRUE(endpoint.has_value()) << endpoint.error().describe();
    port_ = static_cast<std::uint16_t>(std::stoi(endpoint->substr(endpoint->rfind(':') + 1)));
  }
};

TEST(DynamoFirstBytes, TheLegacyCodecsLoginIsWhatTheListenerKnowsAsOne) {
  for (const auto version : {legacy::kVersionCode_1_1_0, std::int32_t{20060727}}) {
    const auto login = legacy::encode_message({legacy::Purpose::login, version});
    for (std::size_t length = 0; length <= login.size(); ++length) {
      EXPECT_EQ(transport::classify_first_bytes(std::span(login).first(length)),
                length < transport::kFirstBytesDecisive ? transport::FirstBytes::need_more
                                                        : transport::FirstBytes::dynamo_login)
          << length;
    }
  }
}

TEST_F(DynamoOnAgentsPortTest, ADynamoLoggingInOnTheAgentsPortIsRegisteredWithItsTargets) {
  EXPECT_EQ(acceptor_->endpoint(), "the agents' port");
  CommandPort command;
  expect_registered(command);
}

TEST_F(DynamoOnAgentsPortTest, AWrongVersionOnTheAgentsPortIsStillAnsweredAsIOmeterDoes) {
  expect_wrong_version_answered();
}

TEST_F(DynamoOnAgentsPortTest, WhenNotAllowedALoginOnTheAgentsPortIsRefusedNamingWhy) {
  registry_.hand_legacy_logins_to({});
  auto login = Peer::dial(port_);
  login.send(legacy::encode_message({legacy::Purpose::login, legacy::kVersionCode_1_1_0}));
  EXPECT_TRUE(login.receive(legacy::kMessageBytes).empty());  // closed without a reply
  const auto refusal = events_.wait_refusal(5s);
  EXPECT_NE(refusal.find("refused a Dynamo 1.1.0 login: this port does not accept legacy logins"), std::string::npos)
      << refusal;
  EXPECT_EQ(registry_.size(), 0U);
}

// A target without iobw.tst: worker 0 gets it at the asked size and PREP_DISKS fills it, as
// IOmeter does; a failed preparation is a named error, a successful one makes it ready.
TEST_F(DynamoAcceptorTest, AnUnpreparedTargetIsFilledWithPrepDisks) {
  CommandPort command;
  auto channel = log_in_and_report(command, false);
  ASSERT_TRUE(registry_.wait_for(1, 5s).has_value());
  auto* link = registry_.links().front();
  std::vector<legacy::Message> seen;
  std::vector<std::string> errors;
  std::thread dynamo([&] {
    const auto next = [&] {
      auto message = decode(channel.receive(legacy::kMessageBytes));
      seen.push_back(message);
      return message;
    };
    if (next().purpose == legacy::Purpose::add_workers) channel.send(legacy::encode_message({legacy::Purpose::add_workers, 1}));
    for (const auto answer : {0, 1}) {  // the first preparation fails, the second succeeds
      if (next().purpose != legacy::Purpose::set_targets) return;
      const auto block = channel.receive(legacy::kDataMessageBytes);
      auto targets = legacy::decode_target_list(block, legacy::TargetListUse::assignment);
      if (!targets || targets->size() != 1 ||
          std::get<legacy::DiskDetails>((*targets)[0].details).maximum_size_sectors != 4096) {
        errors.push_back("SET_TARGETS block");
      }
      channel.send(legacy::encode_message({legacy::Purpose::set_targets, 1}));
      channel.send(block);
      if (next().purpose != legacy::Purpose::prep_disks) return;
      std::this_thread::sleep_for(300ms);  // filling
      channel.send(legacy::encode_message({legacy::Purpose::prep_disks, answer}));
    }
  });
  const protocol::PrepareTargets prepare{{{"/tmp/fake", 4096 * 4096, access_specs::DataPattern::repeating_bytes, std::nullopt, 0}}};
  std::vector<protocol::PrepareProgress> progress;
  const auto on_push = [&](const protocol::Message& message) {
    if (const auto* step = std::get_if<protocol::PrepareProgress>(&message)) progress.push_back(*step);
  };
  const auto failed = link->request(prepare, 10s, on_push);
  ASSERT_FALSE(failed.has_value());
  EXPECT_NE(failed.error().message().find("could not fill the test file in /tmp/fake (PREP_DISKS answered 0)"),
            std::string::npos)
      << failed.error().describe();
  const auto prepared = link->request(prepare, 10s, on_push);
  dynamo.join();
  ASSERT_TRUE(prepared.has_value()) << prepared.error().describe();
  EXPECT_TRUE(std::holds_alternative<protocol::Ack>(*prepared));
  EXPECT_TRUE(errors.empty()) << errors.front();
  EXPECT_EQ(seen, (std::vector<legacy::Message>{{legacy::Purpose::add_workers, 1},
                                                {legacy::Purpose::set_targets, 0},
                                                {legacy::Purpose::prep_disks, legacy::kAllWorkers},
                                                {legacy::Purpose::set_targets, 0},
                                                {legacy::Purpose::prep_disks, legacy::kAllWorkers}}));
  // Its start, then (the second time) its start and its end.
  EXPECT_EQ(progress, (std::vector<protocol::PrepareProgress>{{"/tmp/fake", 0, 4096 * 4096},
                                                              {"/tmp/fake", 0, 4096 * 4096},
                                                              {"/tmp/fake", 4096 * 4096, 4096 * 4096}}));
  // Now ready: nothing more is sent.
  const auto again = link->request(prepare, 10s, on_push);
  ASSERT_TRUE(again.has_value()) << again.error().describe();
  EXPECT_EQ(seen.size(), 5U);
}

}  // namespace
}  // namespace iomark::controller
