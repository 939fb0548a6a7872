// The Network Targets tab: the interfaces listed from inventories and from the plan,
// the project's network plan shown as IOmeter shows it, and a pair made, saved, reloaded,
// edited, removed and run from the window between the embedded agent and a real iomark-agent
// on 127.0.0.1.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QCheckBox>
#include <QComboBox>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QSignalSpy>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <functional>

#include "iomark/access_specs/field_descriptors.hpp"
#include "iomark/gui/access_specs_page.hpp"
#include "iomark/gui/disk_targets_page.hpp"
#include "iomark/gui/main_window.hpp"
#include "iomark/gui/network_targets_model.hpp"
#include "iomark/gui/network_targets_page.hpp"
#include "iomark/gui/plan_document.hpp"
#include "iomark/gui/session.hpp"
#include "run_to_completion.hpp"
#include "test_paths.hpp"

namespace iomark::gui {
namespace {

using access_specs::WorkerType;

const QString kNetworkPlan =
    QString::fromStdString((::iomark::test_support::test_data_dir() / "icf/ok_110_network_pair.icf").string());
constexpr int kWaitMs = 120'000;  // a bound for a hung agent or run, not a performance expectation

protocol::NetworkInterface nic(std::string name, std::string address, std::uint32_t prefix, std::uint32_t mtu,
                               std::optional<std::uint32_t> speed) {
  return {std::move(name), std::move(address), prefix, mtu, speed};
}

access_specs::Manager plan_manager(std::string name, std::vector<access_specs::Worker> workers) {
  access_specs::Manager manager;
  manager.name = std::move(name);
  manager.workers = std::move(workers);
  return manager;
}

// The row of `choices` for `address` on plan manager `manager`; -1 when it is not listed.
int row_of(const std::vector<NetworkChoice>& choices, std::size_t manager, const std::string& address) {
  for (std::size_t r = 0; r < choices.size(); ++r) {
    if (choices[r].plan_manager == manager && choices[r].address == address) return static_cast<int>(r);
  }
  return -1;
}

TEST(NetworkChoices, ListEveryManagersInterfacesAndThePlansNamesWithThePartnerTicked) {
  auto server = make_worker("Worker 1", {}, WorkerType::network_tcp);
  server.targets->push_back({"10.0.0.5", WorkerType::network_tcp, 1, "cli"});
  auto other = make_worker("Worker 1", {}, WorkerType::network_tcp);
  other.targets->push_back({"192.168.1.9", WorkerType::network_tcp, 1, "far"});
  const std::vector<access_specs::Manager> planned{plan_manager("srv", {server}), plan_manager("cli", {other}),
                                                   plan_manager("far", {})};
  LiveManager srv_host{"srv", "127.0.0.1:5000", "iomark", {}};
  srv_host.inventory.interfaces = {nic("lo", "127.0.0.1", 8, 65536, std::nullopt)};
  LiveManager cli_host{"cli", "127.0.0.1:5001", "iomark", {}};
  cli_host.inventory.interfaces = {nic("lo", "127.0.0.1", 8, 65536, std::nullopt),
                                   nic("eth0", "10.0.0.5", 24, 1500, 1000)};

  // "far" is not connected: it is known by what the plan's targets name on it.
  const auto choices = network_choices(planned, server, 0, {&srv_host, &cli_host, nullptr});
  ASSERT_EQ(choices.size(), 4U);
  EXPECT_EQ(choices[0].address, "127.0.0.1");
  EXPECT_TRUE(choices[0].own_manager);
  EXPECT_EQ(choices[0].details, "/8, MTU 65536, link speed unknown");
  EXPECT_EQ(choices[2].interface, "eth0");
  EXPECT_EQ(choices[2].details, "/24, MTU 1500, 1000 Mb/s");
  EXPECT_TRUE(choices[2].partner);
  EXPECT_EQ(std::count_if(choices.begin(), choices.end(), [](const NetworkChoice& c) { return c.partner; }), 1);
  EXPECT_EQ(choices[3].manager, "far");
  EXPECT_EQ(choices[3].address, "192.168.1.9");
  EXPECT_NE(choices[3].details.find("not connected"), std::string::npos) << choices[3].details;
  EXPECT_FALSE(choices[3].partner);

  // A partner named by its interface name is ticked too (IOmeter's NIC names).
  auto by_name = server;
  by_name.targets->front().name = "eth0";
  EXPECT_TRUE(network_choices(planned, by_name, 0, {&srv_host, &cli_host, nullptr})[2].partner);

  // Pairing writes the one target IOmeter writes; unpairing leaves none.
  const auto paired = with_partner(server, &choices[3]);
  ASSERT_EQ(paired.targets->size(), 1U);
  EXPECT_EQ(paired.targets->front(), (access_specs::Target{"192.168.1.9", WorkerType::network_tcp, 1, "far"}));
  EXPECT_TRUE(with_partner(server, nullptr).targets->empty());
}

TEST(PlanDocument, AddsNetworkWorkersAndDropsThePairsOfARemovedManager) {
  PlanDocument document;
  access_specs::AccessSpec network_spec{"Net", access_specs::DefaultAssignment::network, {{512, 100, 100, 0, 0, 1, 0, 0}}};
  access_specs::AccessSpec disk_spec{"Disk", access_specs::DefaultAssignment::disk, {{512, 100, 100, 0, 0, 1, 0, 0}}};
  document.put_spec(network_spec);
  document.put_spec(disk_spec);
  const auto srv = document.ensure_manager("srv");
  const auto cli = document.ensure_manager("cli");
  const auto added = document.add_worker(srv, WorkerType::network_tcp);
  const auto& worker = document.managers()[srv].workers[added];
  EXPECT_EQ(worker.name, "Worker 2");
  EXPECT_EQ(worker.type, WorkerType::network_tcp);
  EXPECT_EQ(worker.assigned_specs, std::vector<std::string>{"Net"});  // the NETWORK default, not DISK's
  EXPECT_EQ(document.managers()[srv].workers[0].assigned_specs, std::vector<std::string>{"Disk"});

  access_specs::Target partner{"127.0.0.1", WorkerType::network_tcp, 1, "cli"};
  EXPECT_EQ(partner_manager(document.managers(), partner), cli);
  partner.remote_manager_id = 2;  // the second manager named cli: none
  EXPECT_FALSE(partner_manager(document.managers(), partner).has_value());
  partner.remote_manager_id = std::nullopt;  // no id: the first
  EXPECT_EQ(partner_manager(document.managers(), partner), cli);

  auto paired = document.managers()[srv].workers[added];
  paired.targets->push_back({"127.0.0.1", WorkerType::network_tcp, 1, "cli"});
  document.set_worker(srv, added, paired);
  document.remove_manager(cli);
  EXPECT_TRUE(document.managers()[srv].workers[added].targets->empty());
}

TEST(NetworkTargetsModel, AsksForTheTickAndKeepsRowsWhenOnlyTheTickMoves) {
  NetworkTargetsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  std::vector<NetworkChoice> choices{{0, "srv", 1, "lo", "127.0.0.1", "/8", true, false},
                                     {1, "cli", 1, "eth0", "10.0.0.5", "/24", false, true}};
  model.set_choices(choices);
  ASSERT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.data(model.index(1, NetworkTargetsModel::address_column), Qt::CheckStateRole).toInt(), Qt::Checked);
  EXPECT_EQ(model.data(model.index(1, NetworkTargetsModel::address_column)).toString(), QStringLiteral("10.0.0.5 (eth0)"));
  EXPECT_TRUE(model.data(model.index(0, NetworkTargetsModel::manager_column)).toString().contains(QStringLiteral("this")));

  QSignalSpy toggled(&model, &NetworkTargetsModel::toggled);
  ASSERT_TRUE(model.setData(model.index(0, NetworkTargetsModel::address_column), Qt::Checked, Qt::CheckStateRole));
  ASSERT_EQ(toggled.size(), 1);
  EXPECT_EQ(toggled.front().at(0).toInt(), 0);
  EXPECT_TRUE(toggled.front().at(1).toBool());
  // The model waits for the plan: nothing changed yet.
  EXPECT_EQ(model.data(model.index(0, NetworkTargetsModel::address_column), Qt::CheckStateRole).toInt(), Qt::Unchecked);

  QSignalSpy reset(&model, &QAbstractItemModel::modelReset);
  choices[0].partner = true;
  choices[1].partner = false;
  model.set_choices(choices);
  EXPECT_EQ(reset.size(), 0);
  EXPECT_EQ(model.data(model.index(0, NetworkTargetsModel::address_column), Qt::CheckStateRole).toInt(), Qt::Checked);
  choices.pop_back();
  model.set_choices(choices);
  EXPECT_EQ(reset.size(), 1);
}

TEST(NetworkTargetsPage, ShowsTheProjectsNetworkPlanAsIometerDoes) {
  MainWindow window({});
  window.show();
  ASSERT_TRUE(window.open_plan(kNetworkPlan));
  auto& tabs = window.tabs();
  EXPECT_EQ(tabs.tabText(1).remove('&'), QStringLiteral("Network Targets"));

  // The client IOmeter makes is shown under cli, greyed, and the plan does not hold it.
  const auto& rows = window.topology().rows();
  ASSERT_EQ(rows.size(), 2U);
  ASSERT_EQ(rows[1].workers.size(), 1U);
  EXPECT_EQ(rows[1].workers[0].name, "Worker 1 (client)");
  EXPECT_EQ(rows[1].workers[0].client_of, (PlanWorkerIndex{0, 0}));
  EXPECT_TRUE(window.document().managers()[1].workers.empty());
  EXPECT_EQ(rows[0].workers[0].state, "server, client on cli 127.0.0.1");

  window.select({0, 0});
  auto& page = window.network_targets_page();
  EXPECT_TRUE(page.explanation().contains(QStringLiteral("Worker 1"))) << page.explanation().toStdString();
  const auto& choices = page.targets().choices();
  ASSERT_EQ(choices.size(), 1U);  // nothing connected: what the plan names
  EXPECT_EQ(choices[0].manager, "cli");
  EXPECT_EQ(choices[0].address, "127.0.0.1");
  EXPECT_TRUE(choices[0].partner);
  EXPECT_TRUE(page.pair_status().contains(QStringLiteral("Paired"))) << page.pair_status().toStdString();
  EXPECT_EQ(page.local_interface().currentData().toString(), QStringLiteral("127.0.0.1"));
  EXPECT_TRUE(page.test_connection_rate().isChecked());
  EXPECT_EQ(page.transactions_per_connection().value(), 4);
  EXPECT_EQ(page.outstanding_ios().value(), 1);
  EXPECT_TRUE(page.test_connection_rate().isEnabled());
  EXPECT_FALSE(page.outstanding_ios().isEnabled());  // kept in the plan, not honoured
  // Limits from the field descriptors.
  EXPECT_EQ(page.transactions_per_connection().minimum(), 0);
  EXPECT_EQ(page.transactions_per_connection().maximum(),
            static_cast<int>(access_specs::field_descriptor(access_specs::FieldId::transactions_per_connection).max_value));
  // The Disk Targets tab is off for it, and says why.
  EXPECT_TRUE(window.disk_targets_page().explanation().contains(QStringLiteral("network worker")))
      << window.disk_targets_page().explanation().toStdString();

  // Selecting the client shows its server's pair.
  window.select({1, 0});
  EXPECT_TRUE(page.explanation().contains(QStringLiteral("<b>srv</b>"))) << page.explanation().toStdString();
  ASSERT_EQ(page.targets().choices().size(), 1U);
  EXPECT_TRUE(page.targets().choices()[0].partner);

  // Settings edit the worker in the plan.
  window.select({0, 0});
  page.transactions_per_connection().setValue(7);
  EXPECT_EQ(window.document().managers()[0].workers[0].transactions_per_connection, 7U);
  page.test_connection_rate().setChecked(false);
  EXPECT_FALSE(window.document().managers()[0].workers[0].test_connection_rate);
  EXPECT_FALSE(page.transactions_per_connection().isEnabled());

  // A disk worker: this tab is off and says why.
  window.select({1, std::nullopt});
  window.add_worker();
  ASSERT_EQ(window.document().managers()[1].workers.size(), 1U);
  window.select({0, 0});  // from the network worker straight to the disk worker
  window.select({1, 0});
  EXPECT_TRUE(page.explanation().contains(QStringLiteral("disk worker"))) << page.explanation().toStdString();
  EXPECT_TRUE(page.targets().choices().empty());
  EXPECT_FALSE(page.test_connection_rate().isEnabled());
  // The page's settings of the network worker shown before are not written to it.
  EXPECT_EQ(window.document().managers()[1].workers[0].transactions_per_connection, 1U);

  // Removing the client row unpairs the server; the plan keeps the server, without a target.
  window.select({1, 1});
  window.remove_selected();
  EXPECT_TRUE(window.document().managers()[0].workers[0].targets->empty());
  EXPECT_EQ(window.topology().rows()[1].workers.size(), 1U);
}

// An iomark-agent logging in to the window (no key: the window runs --insecure), stopped when
// this goes.
class AgentProcess {
 public:
  AgentProcess(const QString& name, const QString& controller) {
    process_.setProcessChannelMode(QProcess::MergedChannels);
    process_.start(QDir(QCoreApplication::applicationDirPath()).filePath(QStringLiteral(IOMARK_AGENT_FROM_EXE)),
                   {QStringLiteral("-i"), controller, QStringLiteral("-n"), name, QStringLiteral("--insecure")});
  }
  ~AgentProcess() {
    process_.terminate();
    if (!process_.waitForFinished(5000)) {
      process_.kill();
      process_.waitForFinished();
    }
  }
  AgentProcess(const AgentProcess&) = delete;
  AgentProcess& operator=(const AgentProcess&) = delete;
  [[nodiscard]] bool started() { return process_.waitForStarted(); }
  [[nodiscard]] std::string output() { return process_.readAll().toStdString(); }

 private:
  QProcess process_;
};

std::string read_all(const QString& path) {
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
  return file.readAll().toStdString();
}

TEST(NetworkTargetsPage, MakesSavesEditsRemovesAndRunsAPairBetweenTwoLiveManagers) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindowOptions options;
  options.insecure = true;
  options.listen = QStringLiteral("127.0.0.1:0");
  MainWindow window(std::move(options));
  window.show();
  ASSERT_TRUE(QTest::qWaitFor([&] { return !window.session().listening().isEmpty(); }, kWaitMs));
  window.start_local_agent();
  ASSERT_TRUE(QTest::qWaitFor([&] { return window.session().managers().size() == 1; }, kWaitMs));
  AgentProcess agent(QStringLiteral("cliB"), window.session().listening());
  ASSERT_TRUE(agent.started());
  ASSERT_TRUE(QTest::qWaitFor([&] { return window.session().managers().size() == 2; }, kWaitMs)) << agent.output();
  ASSERT_EQ(window.document().managers().size(), 2U);
  const auto& document = window.document();
  std::size_t server_manager = 0;
  std::size_t client_manager = 1;
  if (document.managers()[1].name != "cliB") std::swap(server_manager, client_manager);
  ASSERT_EQ(document.managers()[client_manager].name, "cliB");

  // A new network worker on the server's manager, and the tab comes to the front.
  window.select({server_manager, std::nullopt});
  window.add_network_worker();
  ASSERT_EQ(document.managers()[server_manager].workers.size(), 2U);
  const auto& added = document.managers()[server_manager].workers[1];
  EXPECT_EQ(added.type, WorkerType::network_tcp);
  EXPECT_TRUE(added.targets->empty());
  auto& page = window.network_targets_page();
  EXPECT_EQ(window.tabs().currentWidget(), &page);
  EXPECT_TRUE(page.pair_status().contains(QStringLiteral("Not paired")));

  // Both managers' interfaces come from their inventories.
  auto& model = page.targets();
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  const int client_loopback = row_of(model.choices(), client_manager, "127.0.0.1");
  ASSERT_GE(client_loopback, 0);
  ASSERT_GE(row_of(model.choices(), server_manager, "127.0.0.1"), 0);
  EXPECT_NE(model.choices()[static_cast<std::size_t>(client_loopback)].details.find("MTU"), std::string::npos);

  // Ticking cliB's loopback pairs them: the server's one target, the client shown on cliB.
  ASSERT_TRUE(model.setData(model.index(client_loopback, NetworkTargetsModel::address_column), Qt::Checked,
                            Qt::CheckStateRole));
  const auto* server = &document.managers()[server_manager].workers[1];
  ASSERT_EQ(server->targets->size(), 1U);
  EXPECT_EQ(server->targets->front(), (access_specs::Target{"127.0.0.1", WorkerType::network_tcp, 1, "cliB"}));
  const auto& client_rows = window.topology().rows()[client_manager].workers;
  ASSERT_EQ(client_rows.size(), 2U);  // cliB's own disk worker, then the client
  EXPECT_EQ(client_rows[1].client_of, (PlanWorkerIndex{server_manager, 1}));
  EXPECT_TRUE(page.pair_status().contains(QStringLiteral("cliB"))) << page.pair_status().toStdString();

  // The local interface the server listens on, and the connection-rate settings.
  auto& local = page.local_interface();
  const int listen_on = local.findData(QStringLiteral("127.0.0.1"));
  ASSERT_GT(listen_on, 0);
  local.setCurrentIndex(listen_on);
  page.test_connection_rate().setChecked(true);
  page.transactions_per_connection().setValue(3);
  server = &document.managers()[server_manager].workers[1];
  EXPECT_EQ(server->local_network_interface, "127.0.0.1");
  EXPECT_TRUE(server->test_connection_rate);
  EXPECT_EQ(server->transactions_per_connection, 3U);

  // A local interface the plan names by its NIC name shows as that interface, and stays named
  // so when another setting changes.
  const auto as_chosen = *server;
  auto by_name = as_chosen;
  by_name.local_network_interface = "lo";
  window.document().set_worker(server_manager, 1, by_name);
  EXPECT_EQ(local.currentIndex(), listen_on);
  page.transactions_per_connection().setValue(4);
  EXPECT_EQ(document.managers()[server_manager].workers[1].local_network_interface, "lo");
  EXPECT_EQ(document.managers()[server_manager].workers[1].transactions_per_connection, 4U);
  window.document().set_worker(server_manager, 1, as_chosen);
  server = &document.managers()[server_manager].workers[1];
  EXPECT_EQ(server->local_network_interface, "127.0.0.1");

  // Saved as IOmeter writes it (no client worker) and read back identical.
  const auto icf = dir.filePath(QStringLiteral("pair.icf"));
  ASSERT_TRUE(window.save_plan(icf));
  const auto text = read_all(icf);
  EXPECT_NE(text.find("\tNETWORK,TCP\n"), std::string::npos);
  EXPECT_NE(text.find("'Target manager ID, manager name\n\t1,cliB\n"), std::string::npos) << text;
  EXPECT_EQ(text.find("(client)"), std::string::npos);
  PlanDocument reopened;
  ASSERT_TRUE(reopened.open(icf).has_value());
  EXPECT_EQ(reopened.plan(), document.plan());

  // Edited: the partner moves to the server's own manager (a pair on one agent), the client
  // with it; then unticked: no target, no client.
  const int own_loopback = row_of(model.choices(), server_manager, "127.0.0.1");
  ASSERT_TRUE(model.setData(model.index(own_loopback, NetworkTargetsModel::address_column), Qt::Checked,
                            Qt::CheckStateRole));
  server = &document.managers()[server_manager].workers[1];
  EXPECT_EQ(server->targets->front().remote_manager_name, document.managers()[server_manager].name);
  EXPECT_EQ(window.topology().rows()[client_manager].workers.size(), 1U);
  EXPECT_EQ(window.topology().rows()[server_manager].workers.size(), 3U);
  ASSERT_TRUE(model.setData(model.index(own_loopback, NetworkTargetsModel::address_column), Qt::Unchecked,
                            Qt::CheckStateRole));
  EXPECT_TRUE(document.managers()[server_manager].workers[1].targets->empty());
  EXPECT_EQ(window.topology().rows()[server_manager].workers.size(), 2U);
  EXPECT_TRUE(page.pair_status().contains(QStringLiteral("Not paired")));

  // Paired again with cliB and run: the core runs the GUI's pair as it runs an .icf's.
  ASSERT_TRUE(model.setData(model.index(row_of(model.choices(), client_manager, "127.0.0.1"),
                                        NetworkTargetsModel::address_column),
                            Qt::Checked, Qt::CheckStateRole));
  window.access_specs_page().assign("64 KiB; 100% Read; 0% random");
  ASSERT_EQ(document.managers()[server_manager].workers[1].assigned_specs->size(), 1U);
  // The managers' own disk workers have nothing to drive: out of the run.
  window.document().remove_worker(client_manager, 0);
  window.document().remove_worker(server_manager, 0);
  auto setup = document.setup();
  setup.run_time_s = 2;
  setup.ramp_up_s = 0;
  window.document().set_setup(setup);
  ASSERT_TRUE(run_to_completion(window, kWaitMs));
  ASSERT_EQ(window.session().last_results().runs.size(), 1U);
  const auto& run = window.session().last_results().runs.front();
  // A NETWORK row at each end, named as IOmeter names them, each having received data (all
  // reads: the server receives what the client sends, both count reads).
  std::vector<std::string> network_rows;
  for (const auto& manager : run.managers) {
    for (const auto& worker : manager.workers) {
      for (const auto& target : worker.targets) {
        if (target.kind != results::TargetKind::network) continue;
        network_rows.push_back(target.name);
        EXPECT_GT(target.counters.bytes_read, 0U) << target.name;
      }
    }
  }
  ASSERT_EQ(network_rows.size(), 2U);
  auto named = [&](const std::function<bool(const std::string&)>& is) {
    return std::count_if(network_rows.begin(), network_rows.end(), is);
  };
  EXPECT_EQ(named([](const std::string& name) { return name.starts_with("cliB:127.0.0.1 >> "); }), 1);
  EXPECT_EQ(named([](const std::string& name) {
              return !name.starts_with("cliB:") && name.ends_with(":127.0.0.1 >> cliB:127.0.0.1");
            }),
            1);
}

}  // namespace
}  // namespace iomark::gui
