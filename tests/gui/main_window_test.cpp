// The main window driven offscreen as a user would: open a legacy plan of tests/data, start
// the embedded agent, point the plan's worker at a temporary directory, run a short
// outstanding-I/O cycle and see live figures, finished runs and saved results.
#include <gtest/gtest.h>

#include <cstdlib>

#include <QComboBox>
#include <QFile>
#include <QLineEdit>
#include <QTemporaryDir>
#include <QTest>

#include "iomark/gui/access_specs_page.hpp"
#include "iomark/gui/disk_targets_page.hpp"
#include "iomark/gui/main_window.hpp"
#include "iomark/gui/plan_document.hpp"
#include "iomark/gui/results_page.hpp"
#include "iomark/gui/session.hpp"
#include "iomark/gui/spec_models.hpp"
#include "iomark/gui/targets_model.hpp"
#include "iomark/gui/test_setup_page.hpp"
#include "iomark/history/history.hpp"
#include "iomark/results/csv_reader.hpp"
#include "iomark/results/results_json.hpp"
#include "iomark/gui/charts/live_chart.hpp"
#include "iomark/gui/charts/qd_chart.hpp"
#include "run_to_completion.hpp"
#include "test_paths.hpp"

namespace iomark::gui {
namespace {

// A Windows host's plan: one manager, one worker on a physical drive.
const QString kPlan =
    QString::fromStdString((::iomark::test_support::test_data_dir() / "icf/ok_110_windows_plan.icf").string());
constexpr int kWaitMs = 180'000;  // a bound for a hung run, not a performance expectation

// What the log pane holds, for a failure's message: why a series did not start is said there.
std::string logged_text(MainWindow& window) {
  std::string text;
  for (const auto& entry : window.log().entries()) text += entry.text.toStdString() + "\n";
  return text;
}

std::string read_all(const QString& path) {
  QFile file(path);
  EXPECT_TRUE(file.open(QIODevice::ReadOnly)) << path.toStdString();
  return file.readAll().toStdString();
}

TEST(MainWindow, RunsALegacyPlanOnTheEmbeddedAgentAndSavesTheResults) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow window({});
  window.show();
  ASSERT_TRUE(window.open_plan(kPlan));
  ASSERT_EQ(window.document().managers().size(), 1U);
  EXPECT_FALSE(window.topology().rows().front().connected);

  window.start_local_agent();
  ASSERT_TRUE(QTest::qWaitFor([&] { return window.session().managers().size() == 1; }, kWaitMs));
  const auto& row = window.topology().rows().front();
  EXPECT_TRUE(row.connected);  // the plan's Windows manager runs on the local agent, by order
  EXPECT_EQ(window.topology().rows().size(), 1U);

  // Point the plan's worker at the temp directory instead of its Windows drive.
  auto worker = window.document().managers()[0].workers[0];
  ASSERT_TRUE(worker.targets.has_value());
  const auto legacy = worker.targets->front().name;
  worker = with_target(worker, legacy, false);
  worker = with_target(worker, dir.path().toStdString(), true);
  worker.maximum_disk_size_sectors = 4096;  // a 16 MiB iobw.tst on a 4 KiB-block file system
  window.document().set_worker(0, 0, worker);
  auto setup = window.document().setup();
  setup.run_time_s = 2;
  setup.ramp_up_s = 0;
  setup.test_type = access_specs::TestType::cycle_outstanding_ios;
  setup.queue_depth_cycling = {1, 2, 2, access_specs::StepType::exponential};
  window.document().set_setup(setup);
  EXPECT_EQ(window.test_setup_page().preview_run_count(), 2);
  const auto csv_path = dir.filePath(QStringLiteral("appended.csv"));
  window.test_setup_page().set_results_file(csv_path);
  const auto history_path = dir.filePath(QStringLiteral("history.sqlite"));
  window.test_setup_page().set_history_database(history_path);
  window.test_setup_page().set_metrics_listen(QStringLiteral("127.0.0.1:0"));

  std::size_t live_rows = 0;
  QObject::connect(&window.session(), &Session::live, &window, [&](const LiveUpdate& update) {
    live_rows = std::max(live_rows, update.rows.size());
  });
  QStringList messages;
  QObject::connect(&window.session(), &Session::message, &window,
                   [&](Severity, const QString& text) { messages.append(text); });
  ASSERT_TRUE(run_to_completion(window, kWaitMs)) << logged_text(window);

  // Live figures came per level: all managers, the manager, its worker, its target.
  EXPECT_GE(live_rows, 4U);
  const auto& runs = window.results_page().run_figures();
  ASSERT_EQ(runs.rowCount(), 2);
  for (const auto& figures : runs.rows()) EXPECT_GT(figures.iops, 0.0) << figures.name;
  EXPECT_NE(runs.rows()[1].name.find("QD 2"), std::string::npos) << runs.rows()[1].name;
  ASSERT_EQ(window.session().last_results().runs.size(), 2U);
  // The curves over outstanding I/Os have both runs (the Compare tab has a QdChart of its
  // own, still empty); the live chart has its samples.
  std::size_t most_points = 0;
  for (const auto* chart : window.findChildren<QdChart*>()) {
    for (const auto& curve : chart->curves()) most_points = std::max(most_points, curve.points.size());
  }
  EXPECT_EQ(most_points, 2U);
  const auto* live = window.findChild<LiveChart*>();
  ASSERT_NE(live, nullptr);
  EXPECT_GT(live->sample_count(), 0U);

  // Saved as IOmeter CSV and as JSON, appended as it ran; each reads back with both runs.
  const auto saved_csv = dir.filePath(QStringLiteral("saved.csv"));
  const auto saved_json = dir.filePath(QStringLiteral("saved.json"));
  ASSERT_TRUE(window.save_results(saved_csv));
  ASSERT_TRUE(window.save_results(saved_json));
  for (const auto& path : {saved_csv, csv_path}) {
    const auto csv = results::read_results_csv(read_all(path), path.toStdString());
    ASSERT_TRUE(csv.has_value()) << csv.error().describe();
    ASSERT_EQ(csv->size(), 1U);
    EXPECT_EQ(csv->front().runs.size(), 2U) << path.toStdString();
  }
  const auto json = results::read_results_json(read_all(saved_json));
  ASSERT_TRUE(json.has_value()) << json.error().describe();
  EXPECT_EQ(json->runs.size(), 2U);
  ASSERT_TRUE(json->plan.has_value());
  EXPECT_EQ(*json->plan, window.document().plan());

  // Live metrics were served while it ran, and the history says what it recorded.
  EXPECT_FALSE(messages.filter(QStringLiteral("live metrics at http://127.0.0.1:")).isEmpty()) << messages.join('\n').toStdString();
  EXPECT_FALSE(messages.filter(QStringLiteral("2 run(s) recorded in the history")).isEmpty())
      << messages.join('\n').toStdString();
  // Both runs went into the run history as they completed, whole.
  auto history = history::History::open(history_path.toStdString());
  ASSERT_TRUE(history.has_value()) << history.error().describe();
  auto stored = history->list({});
  ASSERT_TRUE(stored.has_value());
  ASSERT_EQ(stored->size(), 2U);
  const std::vector<history::RunId> ids{stored->at(1).id, stored->at(0).id};  // oldest first
  auto loaded = history->load_results(ids);
  ASSERT_TRUE(loaded.has_value()) << loaded.error().describe();
  EXPECT_EQ(loaded->runs, window.session().last_results().runs);

  // The edited plan saves as an .icf that opens again unchanged.
  const auto icf = dir.filePath(QStringLiteral("edited.icf"));
  ASSERT_TRUE(window.save_plan(icf));
  PlanDocument reopened;
  ASSERT_TRUE(reopened.open(icf).has_value());
  EXPECT_EQ(reopened.plan(), window.document().plan());
}

TEST(MainWindow, SavesTheUpdateIntervalChosenOnResultsDisplayWithThePlan) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow window({});
  ASSERT_TRUE(window.open_plan(kPlan));
  ASSERT_TRUE(window.document().plan().display.has_value());
  EXPECT_EQ(window.document().plan().display->update_frequency_s, 3U);  // the plan's own
  EXPECT_EQ(window.results_page().update_interval_s(), 3);
  EXPECT_FALSE(window.document().modified());  // showing the plan's interval is no edit

  // The user picks 15 s in the page's combo box, as a click would.
  auto* interval = window.results_page().findChild<QComboBox*>();
  ASSERT_NE(interval, nullptr);
  const int fifteen = interval->findData(15);
  ASSERT_GE(fifteen, 0);
  interval->setCurrentIndex(fifteen);
  EXPECT_EQ(window.results_page().update_interval_s(), 15);
  EXPECT_TRUE(window.document().modified());
  const auto before = window.document().plan().display;

  const auto icf = dir.filePath(QStringLiteral("interval.icf"));
  ASSERT_TRUE(window.save_plan(icf));
  MainWindow reloaded({});
  ASSERT_TRUE(reloaded.open_plan(icf));
  ASSERT_TRUE(reloaded.document().plan().display.has_value());
  EXPECT_EQ(reloaded.document().plan().display->update_frequency_s, 15U);
  EXPECT_EQ(reloaded.results_page().update_interval_s(), 15);
  // Everything else the section holds came back as it was.
  EXPECT_EQ(reloaded.document().plan().display, before);
  EXPECT_EQ(reloaded.document().plan(), window.document().plan());

  // For looking at: IOMARK_GUI_SCREENSHOTS=DIR saves the reloaded Results Display there.
  if (const char* folder = std::getenv("IOMARK_GUI_SCREENSHOTS"); folder != nullptr && *folder != '\0') {
    reloaded.resize(1400, 860);
    reloaded.tabs().setCurrentWidget(&reloaded.results_page());
    const auto path = QString::fromLocal8Bit(folder) + QStringLiteral("/results-display-interval.png");
    EXPECT_TRUE(reloaded.grab().save(path)) << path.toStdString();
  }
}

TEST(MainWindow, ReportsWhatKeepsAPlanFromRunningInTheLogPane) {
  MainWindow window({});
  window.start_local_agent();
  ASSERT_TRUE(QTest::qWaitFor([&] { return window.session().managers().size() == 1; }, kWaitMs));
  // The local agent joins the empty plan with one worker, which has no target and no spec.
  ASSERT_EQ(window.document().managers().size(), 1U);
  ASSERT_EQ(window.document().managers()[0].workers.size(), 1U);
  const auto logged = window.log().rowCount();
  window.start();
  EXPECT_FALSE(window.session().series_running());
  ASSERT_GT(window.log().rowCount(), logged);
  const auto& last = window.log().entries().back();
  EXPECT_EQ(last.severity, Severity::error);
  EXPECT_TRUE(last.text.contains(QStringLiteral("nothing to run"))) << last.text.toStdString();

  // Workers are added to and removed from the selected manager.
  window.select({0, std::nullopt});
  window.add_worker();
  EXPECT_EQ(window.document().managers()[0].workers.size(), 2U);
  window.select({0, 1});
  window.access_specs_page().assign("Database");
  EXPECT_EQ(window.document().managers()[0].workers[1].assigned_specs->front(), "Database");
  window.remove_selected();
  EXPECT_EQ(window.document().managers()[0].workers.size(), 1U);
}

TEST(DiskTargetsPage, AWorkersRateIsTypedCheckedAndSavedWithThePlan) {
  PlanDocument document;
  const auto manager = document.ensure_manager("db1");
  DiskTargetsPage page(document);
  page.show_worker(manager, 0, std::nullopt);
  auto* rate = page.findChild<QLineEdit*>(QStringLiteral("worker_rate_iops"));
  ASSERT_NE(rate, nullptr);
  EXPECT_TRUE(rate->text().isEmpty()) << "as fast as it can until a rate is typed";
  const auto typed = [&](const QString& text) {
    rate->setText(text);
    emit rate->editingFinished();
    return document.managers()[manager].workers[0].rate_iops;
  };
  EXPECT_EQ(typed(QStringLiteral("2500")), std::optional<double>(2500.0));
  EXPECT_EQ(typed(QStringLiteral("fast")), std::optional<double>(2500.0)) << "refused, the plan unchanged";
  EXPECT_EQ(typed(QStringLiteral("0.001")), std::optional<double>(2500.0)) << "below a worker's least rate";
  EXPECT_EQ(typed(QStringLiteral("0.5")), std::optional<double>(0.5));

  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const auto path = dir.filePath(QStringLiteral("rated.icf"));
  ASSERT_TRUE(document.save(path));
  PlanDocument reopened;
  ASSERT_TRUE(reopened.open(path));
  EXPECT_EQ(reopened.managers().at(0).workers.at(0).rate_iops, std::optional<double>(0.5));
  DiskTargetsPage shown(reopened);
  shown.show_worker(0, 0, std::nullopt);
  EXPECT_EQ(shown.findChild<QLineEdit*>(QStringLiteral("worker_rate_iops"))->text(), QStringLiteral("0.5"));

  EXPECT_EQ(typed(QString()), std::nullopt) << "emptied: as fast as it can again";
}

TEST(SpecEditorDialog, ChecksNameAndLinesAsTheyAreTyped) {
  access_specs::AccessSpec spec{"Mine", access_specs::DefaultAssignment::none, {{4096, 100, 100, 0, 0, 1, 0, 0}}};
  SpecEditorDialog dialog(spec, {"Other"});
  EXPECT_TRUE(dialog.problem().isEmpty());
  dialog.name_editor().setText(QStringLiteral("other"));
  EXPECT_TRUE(dialog.problem().contains(QStringLiteral("already named")));
  dialog.name_editor().setText(QStringLiteral("Mine 2"));
  EXPECT_TRUE(dialog.problem().isEmpty());
  dialog.lines().add_line();  // 100% + 100% of size
  EXPECT_TRUE(dialog.problem().contains(QStringLiteral("must be 100"))) << dialog.problem().toStdString();
  ASSERT_TRUE(dialog.lines().setData(dialog.lines().index(0, 1), QStringLiteral("40")));
  ASSERT_TRUE(dialog.lines().setData(dialog.lines().index(1, 1), QStringLiteral("60")));
  EXPECT_TRUE(dialog.problem().isEmpty()) << dialog.problem().toStdString();
  EXPECT_EQ(dialog.spec().name, "Mine 2");
  EXPECT_EQ(dialog.spec().lines.size(), 2U);
}

}  // namespace
}  // namespace iomark::gui
