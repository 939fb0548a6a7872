// The main window with the real Dynamo 1.1.0 (built from ../shared into the build tree):
// ticking "Accept Legacy Dynamo 1.1.0 Logins" lets it log in, it shows in the topology as a
// manager with its name, address, CPUs and targets, and runs a short plan on a temp
// directory it is shown alone (MNTTAB names a mount table with only that directory).
#include <gtest/gtest.h>

#include <QAction>
#include <QCoreApplication>
#include <QDir>
#include <QFile>
#include <QProcess>
#include <QProcessEnvironment>
#include <QStorageInfo>
#include <QTemporaryDir>
#include <QTest>
#include <string>

#include "iomark/gui/main_window.hpp"
#include "iomark/gui/results_page.hpp"
#include "iomark/gui/session.hpp"
#include "run_to_completion.hpp"

namespace iomark::gui {
namespace {

constexpr int kLoginWaitMs = 30'000;   // bounds for a hung peer, not performance expectations
constexpr int kSeriesWaitMs = 120'000;

// The Dynamo binary the build made into its tree (reference_dynamo).
QString dynamo_binary() {
  return QDir::cleanPath(QCoreApplication::applicationDirPath() + QStringLiteral("/" IOMARK_DYNAMO_FROM_EXE));
}

// Why the tests that need Dynamo skip without it.
std::string no_dynamo_binary(const QString& binary) {
  return "no Dynamo binary at '" + binary.toStdString() +
         "' (the build makes it with ../shared/tools/build-dynamo from ../shared/third-party/iometer-1.1.0-dynamo)";
}

bool write_file(const QString& path, const QByteArray& bytes) {
  QFile file(path);
  return file.open(QIODevice::WriteOnly | QIODevice::Truncate) && file.write(bytes) == bytes.size();
}

// IOmeter 1.1.0's plan: manager "dyn1" with one worker on `target` (Dynamo's name for the
// directory, "PATH [FSTYPE]"), 4 KiB 70% read random, outstanding I/Os 1 then 2, 1 s each.
QByteArray plan_for(const QString& target) {
  return QStringLiteral(
             "Version 1.1.0 \n"
             "'TEST SETUP ====================================================================\n"
             "'Test Description\n\tdynamo in the gui\n'Run Time\n'\thours      minutes    seconds\n"
             "\t0          0          1\n'Ramp Up Time (s)\n\t0\n'Default Disk Workers to Spawn\n\t1\n"
             "'Default Network Workers to Spawn\n\t0\n'Record Results\n\tALL\n'Worker Cycling\n"
             "'\tstart      step       step type\n\t1          1          LINEAR\n'Disk Cycling\n"
             "'\tstart      step       step type\n\t1          1          LINEAR\n'Queue Depth Cycling\n"
             "'\tstart      end        step       step type\n\t1          2          2          EXPONENTIAL\n"
             "'Test Type\n\tCYCLE_OUTSTANDING_IOS\n'END test setup\n"
             "'ACCESS SPECIFICATIONS =========================================================\n"
             "'Access specification name,default assignment\n\t4K 70 read random,NONE\n"
             "'size,% of size,% reads,% random,delay,burst,align,reply\n\t4096,100,70,100,0,1,0,0\n"
             "'END access specifications\n"
             "'MANAGER LIST ==================================================================\n"
             "'Manager ID, manager name\n\t1,dyn1\n'Manager network address\n\t\n"
             "'Worker\n\tWorker 1\n'Worker type\n\tDISK\n'Default target settings for worker\n"
             "'Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed seed "
             "value\n\t1,DISABLED,1,DISABLED,0\n"
             "'Disk maximum size,starting sector,Data pattern\n\t4096,0,0\n'End default target settings for worker\n"
             "'Assigned access specs\n\t4K 70 read random\n'End assigned access specs\n"
             "'Target assignments\n'Target\n\t%1\n'Target type\n\tDISK\n'End target\n'End target assignments\n"
             "'End worker\n'End manager\n'END manager list\nVersion 1.1.0 \n")
      .arg(target)
      .toUtf8();
}

// What Dynamo is shown: a temp directory, its iobw.tst filled first, in a mount table of its
// own (MNTTAB).
struct ShownDirectory {
  QTemporaryDir dir;
  QString target_dir{dir.filePath(QStringLiteral("dynamo-target"))};
  QString mtab{dir.filePath(QStringLiteral("mtab"))};
  QString fstype;

  [[nodiscard]] bool create() {
    if (!dir.isValid() || !QDir().mkpath(target_dir)) return false;
    if (!write_file(target_dir + QStringLiteral("/iobw.tst"), QByteArray(8 << 20, 'x'))) return false;
    fstype = QString::fromUtf8(QStorageInfo(target_dir).fileSystemType());
    return write_file(mtab, QStringLiteral("iomark-test %1 %2 rw 0 0\n").arg(target_dir, fstype).toUtf8());
  }
};

// The real Dynamo "dyn1" logging in on 127.0.0.1:`port`, killed when this goes.
class DynamoProcess {
 public:
  DynamoProcess(const QString& binary, const ShownDirectory& shown, const QString& port) {
    auto environment = QProcessEnvironment::systemEnvironment();
    environment.insert(QStringLiteral("MNTTAB"), shown.mtab);
    process_.setProcessEnvironment(environment);
    process_.setProcessChannelMode(QProcess::MergedChannels);
    process_.start(binary, {QStringLiteral("-i"), QStringLiteral("127.0.0.1"), QStringLiteral("-p"), port,
                            QStringLiteral("-m"), QStringLiteral("127.0.0.1"), QStringLiteral("-n"),
                            QStringLiteral("dyn1")});
  }
  ~DynamoProcess() {
    process_.kill();
    process_.waitForFinished();
  }
  DynamoProcess(const DynamoProcess&) = delete;
  DynamoProcess& operator=(const DynamoProcess&) = delete;
  [[nodiscard]] bool started() { return process_.waitForStarted(); }
  [[nodiscard]] std::string output() { return process_.readAll().toStdString(); }

 private:
  QProcess process_;
};

int warnings_naming(const LogModel& log, const QString& text) {
  int count = 0;
  for (const auto& entry : log.entries()) count += entry.severity == Severity::warning && entry.text.contains(text);
  return count;
}

TEST(MainWindowDynamo, AcceptsTheRealDynamoAsAManagerAndRunsAPlanOnIt) {
  const auto dynamo = dynamo_binary();
  if (!QFile::exists(dynamo)) GTEST_SKIP() << no_dynamo_binary(dynamo);
  ShownDirectory shown;
  ASSERT_TRUE(shown.create());
  const auto& target_dir = shown.target_dir;
  const auto plan = shown.dir.filePath(QStringLiteral("plan.icf"));
  ASSERT_TRUE(write_file(plan, plan_for(QStringLiteral("%1 [%2]").arg(target_dir, shown.fstype))));

  MainWindow window({});
  window.show();
  ASSERT_TRUE(window.open_plan(plan));

  // Ticked: accepting on a port of its own, and warned once that nothing authenticates it.
  window.accept_legacy_dynamo(QStringLiteral("127.0.0.1:0"));
  const auto endpoint = window.session().accepting_dynamo();
  ASSERT_TRUE(endpoint.startsWith(QStringLiteral("127.0.0.1:"))) << endpoint.toStdString();
  EXPECT_EQ(warnings_naming(window.log(), QStringLiteral("no authentication")), 1);
  // The Managers menu's checkbox shows it, and unticking it stops accepting.
  QAction* checkbox = nullptr;
  for (auto* action : window.findChildren<QAction*>()) {
    if (action->text().startsWith(QStringLiteral("Accept Legacy &Dynamo"))) checkbox = action;
  }
  ASSERT_NE(checkbox, nullptr);
  EXPECT_TRUE(checkbox->isChecked());
  EXPECT_TRUE(checkbox->text().contains(endpoint)) << checkbox->text().toStdString();
  checkbox->trigger();
  EXPECT_TRUE(window.session().accepting_dynamo().isEmpty());
  EXPECT_FALSE(checkbox->isChecked());
  window.accept_legacy_dynamo(QStringLiteral("127.0.0.1:0"));
  EXPECT_EQ(warnings_naming(window.log(), QStringLiteral("no authentication")), 1) << "warned again";
  const auto port = window.session().accepting_dynamo().section(QLatin1Char(':'), 1);

  DynamoProcess process(dynamo, shown, port);
  ASSERT_TRUE(process.started());

  // In the topology as a manager like any other: the plan's dyn1, connected, with its CPUs
  // and the one file system it was shown.
  const bool joined = QTest::qWaitFor([&] { return window.session().managers().size() == 1; }, kLoginWaitMs);
  ASSERT_TRUE(joined) << "Dynamo did not log in; it said: " << process.output();
  const auto& manager = window.session().managers().front();
  EXPECT_EQ(manager.name, "dyn1");
  EXPECT_TRUE(manager.endpoint.starts_with("127.0.0.1:")) << manager.endpoint;
  EXPECT_GE(manager.inventory.cpu_count, 1U);
  // (Dynamo also lists raw devices it can open, without writing them; the plan names none.)
  ASSERT_EQ(manager.inventory.file_systems.size(), 1U);
  EXPECT_EQ(manager.inventory.file_systems.front().mount_point, target_dir.toStdString());
  ASSERT_EQ(window.topology().rows().size(), 1U);
  const auto& row = window.topology().rows().front();
  EXPECT_TRUE(row.connected);
  EXPECT_EQ(row.live_index, std::optional<std::size_t>(0));

  // It runs the plan: two runs, each with I/O counted on Dynamo's side.
  ASSERT_TRUE(run_to_completion(window, kSeriesWaitMs));
  const auto& runs = window.results_page().run_figures();
  ASSERT_EQ(runs.rowCount(), 2);
  for (const auto& figures : runs.rows()) {
    EXPECT_GT(figures.iops, 0.0) << figures.name;
    EXPECT_GT(figures.average_ms, 0.0) << figures.name;
    EXPECT_FALSE(figures.p99_ms.has_value()) << figures.name << ": Dynamo gives no percentile";
  }
}

// With no port of its own, Dynamo logs in on the port the agents log in to.
TEST(MainWindowDynamo, WithNoPortOfItsOwnDynamoLogsInOnTheAgentsPort) {
  const auto dynamo = dynamo_binary();
  if (!QFile::exists(dynamo)) GTEST_SKIP() << no_dynamo_binary(dynamo);
  ShownDirectory shown;
  ASSERT_TRUE(shown.create());
  MainWindowOptions options;
  options.insecure = true;
  options.listen = QStringLiteral("127.0.0.1:0");
  options.legacy_dynamo = QString();  // iomark-gui --legacy-dynamo
  MainWindow window(std::move(options));
  window.show();
  const auto listening = window.session().listening();
  ASSERT_TRUE(listening.startsWith(QStringLiteral("127.0.0.1:"))) << listening.toStdString();
  EXPECT_EQ(window.session().accepting_dynamo(), QStringLiteral("the agents' port"));
  EXPECT_EQ(warnings_naming(window.log(), QStringLiteral("anyone who reaches the agents' port")), 1);

  DynamoProcess process(dynamo, shown, listening.section(QLatin1Char(':'), 1));
  ASSERT_TRUE(process.started());
  const bool joined = QTest::qWaitFor([&] { return window.session().managers().size() == 1; }, kLoginWaitMs);
  ASSERT_TRUE(joined) << "Dynamo did not log in on the agents' port; it said: " << process.output();
  EXPECT_EQ(window.session().managers().front().name, "dyn1");
  ASSERT_EQ(window.session().managers().front().inventory.file_systems.size(), 1U);
  EXPECT_EQ(window.session().managers().front().inventory.file_systems.front().mount_point,
            shown.target_dir.toStdString());
}

}  // namespace
}  // namespace iomark::gui
