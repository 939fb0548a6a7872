// The GUI's models fed plain values and checked by QAbstractItemModelTester, and the plan
// document against a plan of tests/data.
#include <gtest/gtest.h>

#include <QAbstractItemModelTester>
#include <QSignalSpy>
#include <QTemporaryDir>

#include "iomark/gui/managers.hpp"
#include "iomark/gui/plan_document.hpp"
#include "iomark/gui/run_models.hpp"
#include "iomark/gui/spec_models.hpp"
#include "iomark/gui/targets_model.hpp"
#include "iomark/gui/topology_model.hpp"
#include "test_paths.hpp"

namespace iomark::gui {
namespace {

using access_specs::AccessSpec;
using access_specs::Manager;
using access_specs::Worker;

const QString kPlans = QString::fromStdString((::iomark::test_support::test_data_dir() / "icf").string());

LiveManager live_manager(std::string name, std::string endpoint = "127.0.0.1:5000") {
  LiveManager live;
  live.name = std::move(name);
  live.endpoint = std::move(endpoint);
  live.build = "iomark test";
  live.inventory.host_name = live.name;
  live.inventory.cpu_count = 4;
  live.inventory.os_name = "Linux";
  live.inventory.kernel_release = "6.1";
  live.inventory.engines = {"io_uring", "null"};
  live.inventory.block_devices.push_back({"/dev/sdb", 1ULL << 30, 512, "disk", protocol::MountState::not_mounted, false});
  live.inventory.block_devices.push_back({"/dev/sda", 1ULL << 34, 512, "root", protocol::MountState::partition_mounted, true});
  live.inventory.file_systems.push_back({"/data", "/dev/sdc1", "xfs", 1ULL << 40, 1ULL << 39, 4096, 1ULL << 30});
  live.inventory.allowed_paths = {"/dev/sdb"};
  return live;
}

Manager manager(std::string name, std::vector<std::string> workers) {
  Manager result;
  result.name = std::move(name);
  for (auto& worker : workers) result.workers.push_back(make_worker(std::move(worker), {}));
  return result;
}

TEST(PairManagers, ByNameFirstThenInOrder) {
  const std::vector<Manager> planned{manager("M1", {"W"}), manager("db2", {"W"}), manager("M3", {"W"})};
  const std::vector<LiveManager> live{live_manager("host-a"), live_manager("DB2")};
  const auto paired = pair_managers(planned, live);
  ASSERT_EQ(paired.size(), 3U);
  EXPECT_EQ(paired[0], std::optional<std::size_t>(0));  // by order: the one left over
  EXPECT_EQ(paired[1], std::optional<std::size_t>(1));  // by name, ignoring case
  EXPECT_EQ(paired[2], std::nullopt);
  const auto map = manager_map(planned, live);
  ASSERT_EQ(map.size(), 2U);
  EXPECT_EQ(map[0], (std::pair<std::string, std::string>{"M1", "host-a"}));
}

TEST(TopologyModel, ShowsPlanManagersTheirWorkersAndUnusedLiveManagers) {
  const std::vector<Manager> planned{manager("M1", {"Worker 1", "Worker 2"}), manager("M2", {"Worker 1"})};
  const std::vector<LiveManager> live{live_manager("host-a"), live_manager("M2"), live_manager("spare")};
  TopologyModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_rows(build_topology(planned, live, false));
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.index(0, TopologyModel::name_column).data().toString(), "M1 on host-a");
  EXPECT_EQ(model.index(1, TopologyModel::name_column).data().toString(), "M2");
  EXPECT_EQ(model.index(2, TopologyModel::state_column).data().toString(), "connected, not in the plan");
  EXPECT_TRUE(model.index(0, TopologyModel::details_column).data().toString().contains("4 CPUs"));
  const auto m1 = model.index(0, 0);
  ASSERT_EQ(model.rowCount(m1), 2);
  const auto worker = model.index(1, TopologyModel::name_column, m1);
  EXPECT_EQ(worker.data().toString(), "Worker 2");
  EXPECT_EQ(model.index(1, TopologyModel::state_column, m1).data().toString(), "no target");
  const auto where = model.position(worker);
  ASSERT_TRUE(where.has_value());
  EXPECT_EQ(where->manager, 0U);
  EXPECT_EQ(where->worker, std::optional<std::size_t>(1));
  EXPECT_EQ(model.index_of(*where), model.index(1, 0, m1));

  // A connection is lost: M2 waits for another manager and the lost one says so.
  auto lost = live;
  lost[1].open = false;
  model.set_rows(build_topology(planned, lost, false));
  ASSERT_EQ(model.rowCount(), 3);
  EXPECT_EQ(model.index(1, TopologyModel::name_column).data().toString(), "M2 on spare");
  EXPECT_EQ(model.index(2, TopologyModel::state_column).data().toString(), "connection lost: disconnect it");

  // A manager goes away: the plan's M2 is left without one.
  model.set_rows(build_topology(planned, {live[0]}, true));
  EXPECT_EQ(model.rowCount(), 2);
  EXPECT_EQ(model.index(0, TopologyModel::state_column).data().toString(), "running");
  EXPECT_EQ(model.index(1, TopologyModel::state_column).data().toString(), "not connected");
}

TEST(SpecLibraryModel, PlanSpecsFirstAndShadowBuiltinsOfTheSameName) {
  AccessSpec database{"database", access_specs::DefaultAssignment::none, {{8192, 100, 50, 50, 0, 1, 0, 0}}};
  AccessSpec mine{"Mine", access_specs::DefaultAssignment::none, {{4096, 100, 100, 0, 0, 1, 0, 0}}};
  SpecLibraryModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_specs(spec_library({database, mine}));
  EXPECT_EQ(model.index(0, SpecLibraryModel::name_column).data().toString(), "database");
  EXPECT_EQ(model.index(1, SpecLibraryModel::origin_column).data().toString(), "this plan");
  int named_database = 0;
  for (int row = 0; row < model.rowCount(); ++row) {
    if (model.index(row, 0).data().toString().compare("Database", Qt::CaseInsensitive) == 0) ++named_database;
  }
  EXPECT_EQ(named_database, 1);
  EXPECT_GT(model.rowCount(), 40);  // the patterns and IOmeter's 31 defaults
  EXPECT_EQ(model.index(1, SpecLibraryModel::first_line_column).data().toString(), "4 KiB, 100% read, 0% random");
}

TEST(SpecLinesModel, ChecksEveryCellAgainstItsDescriptorAsItIsTyped) {
  SpecLinesModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_lines({{4096, 100, 67, 100, 0, 1, 0, 0}});
  ASSERT_EQ(model.columnCount(), 8);
  EXPECT_EQ(model.index(0, 0).data().toString(), "4 KiB");
  ASSERT_TRUE(model.lines().has_value());
  EXPECT_EQ(model.lines()->front().size_bytes, 4096U);

  QSignalSpy edited(&model, &SpecLinesModel::edited);
  ASSERT_TRUE(model.setData(model.index(0, 2), QStringLiteral("101")));
  EXPECT_EQ(edited.count(), 1);
  const auto broken = model.lines();
  ASSERT_FALSE(broken.has_value());
  EXPECT_EQ(broken.error().field(), "percent_reads");
  EXPECT_TRUE(model.index(0, 2).data(Qt::BackgroundRole).isValid());
  EXPECT_TRUE(model.index(0, 2).data(Qt::ToolTipRole).toString().contains("at most 100"));

  ASSERT_TRUE(model.setData(model.index(0, 2), QStringLiteral("30")));
  ASSERT_TRUE(model.setData(model.index(0, 0), QStringLiteral("64k")));
  EXPECT_FALSE(model.index(0, 2).data(Qt::BackgroundRole).isValid());
  ASSERT_TRUE(model.setData(model.index(0, 5), QStringLiteral("two")));
  EXPECT_FALSE(model.lines().has_value());
  ASSERT_TRUE(model.setData(model.index(0, 5), QStringLiteral("2")));

  model.add_line(0);
  model.add_line();
  ASSERT_EQ(model.rowCount(), 3);
  model.move_line(2, 0);
  model.move_line(0, 2);
  model.remove_line(1);
  const auto lines = model.lines();
  ASSERT_TRUE(lines.has_value());
  ASSERT_EQ(lines->size(), 2U);
  EXPECT_EQ((*lines)[0], (access_specs::AccessSpecLine{65536, 100, 30, 100, 0, 2, 0, 0}));
  EXPECT_EQ((*lines)[1].size_bytes, 2048U);  // the descriptor's default
}

TEST(TargetsModel, ListsTheInventoryAndTicksTheWorkersTargetsInOrder) {
  auto worker = make_worker("Worker 1", {});
  worker = with_target(worker, "/data", true);
  worker = with_target(worker, "sdc", true);
  worker = with_target(worker, "/dev/sdb", true);
  const auto live = live_manager("host-a");
  TargetsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_choices(target_choices(worker, &live));
  ASSERT_EQ(model.rowCount(), 4);  // sdb, sda, /data, then the plan's "sdc"
  EXPECT_EQ(model.index(0, 0).data().toString(), "3. /dev/sdb");
  EXPECT_EQ(model.index(1, 0).data(Qt::CheckStateRole).toInt(), Qt::Unchecked);
  EXPECT_TRUE(model.index(1, TargetsModel::details_column).data().toString().contains("refuses"));
  EXPECT_EQ(model.index(2, 0).data().toString(), "1. /data");
  EXPECT_EQ(model.index(2, TargetsModel::test_file_column).data().toString(), "iobw.tst, 1 GiB");
  EXPECT_EQ(model.index(3, 0).data().toString(), "2. sdc");

  QSignalSpy toggled(&model, &TargetsModel::toggled);
  ASSERT_TRUE(model.setData(model.index(2, 0), Qt::Unchecked, Qt::CheckStateRole));
  ASSERT_EQ(toggled.count(), 1);
  EXPECT_EQ(toggled.front().at(0).toString(), "/data");
  EXPECT_FALSE(toggled.front().at(1).toBool());
  worker = with_target(worker, "/data", false);
  model.set_choices(target_choices(worker, &live));
  EXPECT_EQ(model.index(0, 0).data().toString(), "2. /dev/sdb");
  EXPECT_EQ(model.rowCount(), 4);

  // Not connected: only the worker's own targets.
  model.set_choices(target_choices(worker, nullptr));
  EXPECT_EQ(model.rowCount(), 2);
}

TEST(TargetsModel, GreysAFileSystemOutsideTheAgentsWriteScopeWithTheReason) {
  auto worker = make_worker("Worker 1", {});
  auto live = live_manager("host-a");  // allows /dev/sdb only
  live.inventory.file_systems.push_back({"/scratch", "tmpfs", "tmpfs", 1ULL << 30, 1ULL << 29, 4096, 0});
  live.inventory.allowed_paths = {"/dev/sdb", "/scratch"};
  TargetsModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_choices(target_choices(worker, &live));
  ASSERT_EQ(model.rowCount(), 4);  // sdb, sda, /data, /scratch
  const auto data = model.index(2, 0);
  ASSERT_EQ(data.data().toString(), "/data");
  EXPECT_FALSE(model.flags(data).testFlag(Qt::ItemIsEnabled));
  EXPECT_FALSE(model.flags(data).testFlag(Qt::ItemIsUserCheckable));
  const auto tip = data.data(Qt::ToolTipRole).toString();
  EXPECT_TRUE(tip.contains("agent host-a refuses /data")) << tip.toStdString();
  EXPECT_TRUE(tip.contains("(/dev/sdb, /scratch)")) << tip.toStdString();
  const auto scratch = model.index(3, 0);
  ASSERT_EQ(scratch.data().toString(), "/scratch");
  EXPECT_TRUE(model.flags(scratch).testFlag(Qt::ItemIsEnabled));
  EXPECT_TRUE(scratch.data(Qt::ToolTipRole).toString().isEmpty() ||
              !scratch.data(Qt::ToolTipRole).toString().contains("refuses"));

  // Ticked (by a loaded plan): still enabled, so that it can be unticked.
  worker = with_target(worker, "/data", true);
  model.set_choices(target_choices(worker, &live));
  EXPECT_TRUE(model.flags(model.index(2, 0)).testFlag(Qt::ItemIsUserCheckable));
}

TEST(TargetsModel, GreysEveryFileSystemOfAnAgentStartedWithoutAllow) {
  const auto worker = make_worker("Worker 1", {});
  auto live = live_manager("host-a");
  live.inventory.allowed_paths.clear();
  live.inventory.write_scope = true;
  TargetsModel model;
  model.set_choices(target_choices(worker, &live));
  const auto data = model.index(2, 0);
  ASSERT_EQ(data.data().toString(), "/data");
  EXPECT_FALSE(model.flags(data).testFlag(Qt::ItemIsEnabled));
  const auto tip = data.data(Qt::ToolTipRole).toString();
  EXPECT_TRUE(tip.contains("agent host-a refuses /data")) << tip.toStdString();

  // The same list from an agent that reports no scope (older than it): left to the agent.
  live.inventory.write_scope = false;
  model.set_choices(target_choices(worker, &live));
  EXPECT_TRUE(model.flags(model.index(2, 0)).testFlag(Qt::ItemIsEnabled));
}

TEST(RunPreviewModel, ShowsTheRunsOfAQueueDepthCycle) {
  access_specs::TestPlan plan;
  plan.setup = access_specs::TestSetup{};
  plan.setup->test_type = access_specs::TestType::cycle_outstanding_ios;
  plan.setup->queue_depth_cycling = {1, 8, 2, access_specs::StepType::exponential};
  auto host = manager("host", {"Worker 1"});
  host.workers[0].assigned_specs = std::vector<std::string>{"Database"};
  host.workers[0] = with_target(host.workers[0], "/data", true);
  plan.managers = std::vector<Manager>{host};
  const auto rows = preview_runs(plan);
  ASSERT_TRUE(rows.has_value());
  RunPreviewModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_rows(*rows);
  ASSERT_EQ(model.rowCount(), 4);
  EXPECT_TRUE(model.index(3, RunPreviewModel::description_column).data().toString().contains("QD 8"));
  EXPECT_EQ(model.index(3, RunPreviewModel::targets_column).data().toULongLong(), 1U);

  plan.setup->queue_depth_cycling = {1, 100000, 1, access_specs::StepType::linear};
  EXPECT_FALSE(preview_runs(plan).has_value());
}

results::RunResults two_target_run() {
  results::RunResults run;
  results::ManagerResult host;
  host.name = "host";
  host.cpus = {{50, 40, 10, 0, 0, 100}, {30, 20, 10, 0, 0, 100}};
  results::WorkerResult worker;
  worker.name = "Worker 1";
  worker.recording_window = std::chrono::seconds(2);
  for (const char* name : {"/dev/sdb", "/data/iobw.tst"}) {
    results::TargetResult target{name, results::TargetKind::disk, {}};
    for (int i = 0; i < 1000; ++i) target.counters.record_read(4096, 1'000'000);
    target.counters.read_errors = 1;
    worker.targets.push_back(target);
  }
  host.workers.push_back(worker);
  run.managers.push_back(host);
  return run;
}

TEST(FiguresModel, ShowsEveryLevelOfARun) {
  const auto run = two_target_run();
  const auto rows = figure_rows(run, results::summarize_run(run));
  FiguresModel model;
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  model.set_rows(rows);
  ASSERT_EQ(model.rowCount(), 5);  // ALL, host, Worker 1, two targets
  EXPECT_EQ(model.index(0, FiguresModel::iops_column).data().toString(), "1000");
  EXPECT_EQ(model.index(0, FiguresModel::errors_column).data().toULongLong(), 2U);
  EXPECT_EQ(model.index(0, FiguresModel::cpu_column).data().toString(), "40.0");
  EXPECT_EQ(model.index(1, FiguresModel::name_column).data().toString().trimmed(), "host");
  EXPECT_EQ(model.index(3, FiguresModel::average_column).data().toString(), "1.000");
  EXPECT_EQ(model.index(4, FiguresModel::cpu_column).data().toString(), "-");
  auto faster = rows;
  faster[0].iops = 2000;
  model.set_rows(faster);  // same shape: updated in place
  EXPECT_EQ(model.index(0, FiguresModel::iops_column).data().toString(), "2000");
  model.append_row(rows[0]);
  EXPECT_EQ(model.rowCount(), 6);
  model.set_rows({});
  EXPECT_EQ(model.rowCount(), 0);
}

// A Dynamo reports counts, sums, maxima and bins but no histogram: its rows, and an ALL that
// mixes it with an agent, show no p99 rather than one made of the agent's I/Os alone.
TEST(FiguresModel, ShowsNoPercentileWhereAManagerGaveNoHistogram) {
  auto run = two_target_run();
  auto dynamo = run.managers.front();
  dynamo.name = "dyn1";
  for (auto& target : dynamo.workers.front().targets) {
    target.counters.latency = {};  // counted, but not one latency in the histogram
  }
  run.managers.push_back(dynamo);
  const auto rows = figure_rows(run, results::summarize_run(run));
  FiguresModel model;
  model.set_rows(rows);
  ASSERT_EQ(model.rowCount(), 9);  // ALL, then host and dyn1 with a worker and two targets each
  EXPECT_EQ(model.index(0, FiguresModel::p99_column).data().toString(), "-");  // ALL: part unknown
  EXPECT_EQ(model.index(1, FiguresModel::p99_column).data().toString(), "1.000");  // host
  EXPECT_EQ(model.index(3, FiguresModel::p99_column).data().toString(), "1.000");  // host's target
  for (int row = 5; row < 9; ++row) {
    EXPECT_EQ(model.index(row, FiguresModel::p99_column).data().toString(), "-") << "row " << row;
    EXPECT_EQ(model.index(row, FiguresModel::average_column).data().toString(), "1.000") << "row " << row;
  }
}

TEST(LogModel, KeepsTheLatestEntries) {
  LogModel model(10);
  QAbstractItemModelTester tester(&model, QAbstractItemModelTester::FailureReportingMode::Fatal);
  QSignalSpy added(&model, &LogModel::added);
  for (int i = 0; i < 13; ++i) model.add(Severity::info, QString::number(i));
  model.add(Severity::error, QStringLiteral("broken"));
  EXPECT_EQ(model.rowCount(), 10);
  EXPECT_EQ(model.index(0, LogModel::text_column).data().toString(), "4");
  EXPECT_EQ(model.index(9, LogModel::severity_column).data().toString(), "error");
  EXPECT_EQ(added.count(), 14);
}

TEST(PlanDocument, OpensSavesAndReopensALegacyPlan) {
  PlanDocument document;
  QSignalSpy replaced(&document, &PlanDocument::plan_replaced);
  const auto warnings = document.open(kPlans + "/ok_110_two_managers.icf");
  ASSERT_TRUE(warnings.has_value()) << warnings.error().describe();
  EXPECT_EQ(replaced.count(), 1);
  ASSERT_EQ(document.managers().size(), 2U);
  EXPECT_EQ(document.managers()[0].name, "M1");
  EXPECT_FALSE(document.modified());

  QTemporaryDir dir;
  const auto path = dir.filePath(QStringLiteral("copy.icf"));
  ASSERT_TRUE(document.save(path).has_value());
  PlanDocument reopened;
  ASSERT_TRUE(reopened.open(path).has_value());
  EXPECT_EQ(reopened.plan(), document.plan());

  EXPECT_FALSE(document.open(dir.filePath(QStringLiteral("missing.icf"))).has_value());
  EXPECT_EQ(document.file_path(), path);  // unchanged by the failed open
}

TEST(PlanDocument, EditsManagersWorkersAndSpecs) {
  PlanDocument document;
  QSignalSpy topology(&document, &PlanDocument::topology_changed);
  QSignalSpy modified(&document, &PlanDocument::modified_changed);
  const auto host = document.ensure_manager("host");
  EXPECT_EQ(document.ensure_manager("HOST"), host);
  EXPECT_EQ(document.managers()[host].workers.size(), 1U);
  EXPECT_TRUE(document.modified());
  EXPECT_EQ(modified.count(), 1);

  AccessSpec spec{"Mine", access_specs::DefaultAssignment::all, {{4096, 100, 100, 0, 0, 1, 0, 0}}};
  document.put_spec(spec);
  const auto second = document.add_worker(host);
  EXPECT_EQ(document.managers()[host].workers[second].name, "Worker 2");
  ASSERT_TRUE(document.managers()[host].workers[second].assigned_specs.has_value());
  EXPECT_EQ(*document.managers()[host].workers[second].assigned_specs, std::vector<std::string>{"Mine"});

  spec.name = "Renamed";
  document.put_spec(spec, "mine");
  EXPECT_EQ(document.specs().size(), 1U);
  EXPECT_EQ(document.managers()[host].workers[second].assigned_specs->front(), "Renamed");
  document.remove_spec("renamed");
  EXPECT_TRUE(document.specs().empty());
  EXPECT_TRUE(document.managers()[host].workers[second].assigned_specs->empty());

  document.remove_worker(host, 0);
  EXPECT_EQ(document.managers()[host].workers.front().name, "Worker 2");
  EXPECT_EQ(document.add_worker(host), 1U);
  EXPECT_EQ(document.managers()[host].workers[1].name, "Worker 3");  // "Worker 2" is taken
  EXPECT_GE(topology.count(), 5);
  document.remove_manager(host);
  EXPECT_TRUE(document.managers().empty());
}

}  // namespace
}  // namespace iomark::gui
