// Preconditioning and SNIA's PTS IOPS test from the window: Test Setup's choices, the locks the
// test puts on steady state, the search and preconditioning, the request Start builds from them
// (refused as plan_series refuses it), the Charts tab's PTS IOPS table after a short test on the
// embedded agent's null engine, and the Results Display's rate and time left while preparing.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QLabel>
#include <QLineEdit>
#include <QSpinBox>
#include <QStandardItemModel>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <algorithm>
#include <chrono>
#include <initializer_list>
#include <optional>
#include <stop_token>
#include <vector>

#include "iomark/gui/main_window.hpp"
#include "iomark/gui/pts_iops_view.hpp"
#include "iomark/gui/results_page.hpp"
#include "iomark/gui/session.hpp"
#include "iomark/gui/test_setup_page.hpp"
#include "run_to_completion.hpp"
#include "short_runs.hpp"

namespace iomark::gui {
namespace {

constexpr int kWaitMs = 180'000;  // a bound for a hung run, not a performance expectation
constexpr std::uint32_t kRounds = 5;  // the steady-state rule's window: the fewest a series may ask

// 4K and 8K, all reads and all writes: the smallest matrix that holds the tracked cell and
// something else in each direction.
const access_specs::PtsIopsMatrix kTwoByTwo{.read_percents = {100, 0}, .block_bytes = {4096, 8192}};

const access_specs::SteadyStateRequest kTracked{.figure = access_specs::SteadyFigure::iops,
                                                .max_rounds = kRounds,
                                                .tracked_spec = "PTS 4 KiB 0/100"};

struct Controls {
  QCheckBox* precondition{};
  QSpinBox* passes{};
  QCheckBox* pts{};
  QLineEdit* block_sizes{};
  QLineEdit* mixes{};
  QSpinBox* pts_rounds{};
  QLabel* pts_error{};
  QComboBox* steady{};
  QSpinBox* steady_rounds{};
  QCheckBox* search{};
};

Controls controls(TestSetupPage& page) {
  Controls found{page.findChild<QCheckBox*>(QStringLiteral("precondition")),
                 page.findChild<QSpinBox*>(QStringLiteral("precondition_passes")),
                 page.findChild<QCheckBox*>(QStringLiteral("pts_iops")),
                 page.findChild<QLineEdit*>(QStringLiteral("pts_block_sizes")),
                 page.findChild<QLineEdit*>(QStringLiteral("pts_mixes")),
                 page.findChild<QSpinBox*>(QStringLiteral("pts_max_rounds")),
                 page.findChild<QLabel*>(QStringLiteral("pts_error")),
                 page.findChild<QComboBox*>(QStringLiteral("steady_state")),
                 page.findChild<QSpinBox*>(QStringLiteral("max_rounds")),
                 page.findChild<QCheckBox*>(QStringLiteral("find_max_iops"))};
  for (const QObject* control : std::initializer_list<const QObject*>{
           found.precondition, found.passes, found.pts, found.block_sizes, found.mixes, found.pts_rounds,
           found.pts_error, found.steady, found.steady_rounds, found.search}) {
    EXPECT_NE(control, nullptr);
  }
  return found;
}

QString preview_summary(TestSetupPage& page) {
  // The summary is the label that speaks of the runs; the page's other labels are captions.
  for (const auto* label : page.findChildren<QLabel*>()) {
    if (label->wordWrap() && label->objectName().isEmpty() && !label->text().isEmpty()) return label->text();
  }
  return {};
}

TEST(TestSetupPage, PreconditioningIsOffUntilTickedWithTwoPasses) {
  MainWindow window({});
  auto& page = window.test_setup_page();
  const auto c = controls(page);
  ASSERT_NE(c.passes, nullptr);
  EXPECT_EQ(page.precondition_passes(), 0U);
  EXPECT_FALSE(c.precondition->isChecked());
  EXPECT_FALSE(c.passes->isEnabled()) << "the passes are given once the box is ticked";
  EXPECT_EQ(c.passes->value(), 2);
  EXPECT_EQ(c.passes->minimum(), 1);
  EXPECT_EQ(c.passes->maximum(), 100);

  c.precondition->setChecked(true);
  c.passes->setValue(4);
  EXPECT_TRUE(c.passes->isEnabled());
  EXPECT_EQ(page.precondition_passes(), 4U);
  page.set_precondition_passes(0);
  EXPECT_EQ(page.precondition_passes(), 0U);
  page.set_precondition_passes(7);
  EXPECT_TRUE(c.precondition->isChecked());
  EXPECT_EQ(page.precondition_passes(), 7U);
}

TEST(TestSetupPage, PtsIopsLocksSteadyStateAndTheSearchAndImpliesPreconditioning) {
  MainWindow window({});
  auto& page = window.test_setup_page();
  const auto c = controls(page);
  ASSERT_NE(c.pts, nullptr);
  ASSERT_TRUE(page.pts_iops());
  EXPECT_FALSE(page.pts_iops()->has_value());
  EXPECT_EQ(c.block_sizes->text(), "1M,128K,64K,32K,16K,8K,4K,512") << "PTS-E's own";
  EXPECT_EQ(c.mixes->text(), "100/0,95/5,65/35,50/50,35/65,5/95,0/100");
  EXPECT_EQ(c.pts_rounds->value(), 25);
  EXPECT_FALSE(c.block_sizes->isEnabled());

  // The user's choices before the test: a search (which turned steady state off), no preconditioning.
  c.search->setChecked(true);
  ASSERT_TRUE(page.find_max_iops().has_value());
  const int steady_before = c.steady->currentIndex();

  c.pts->setChecked(true);
  c.pts_rounds->setValue(static_cast<int>(kRounds));
  EXPECT_TRUE(c.block_sizes->isEnabled());
  EXPECT_FALSE(page.find_max_iops().has_value()) << "a PTS IOPS test is not a search";
  EXPECT_FALSE(c.search->isEnabled());
  EXPECT_EQ(c.steady->currentText(), "IOPS");
  EXPECT_FALSE(c.steady->isEnabled());
  EXPECT_FALSE(c.steady_rounds->isEnabled()) << "the test's own max rounds hold";
  EXPECT_EQ(page.steady_state(), kTracked) << "judged on the 4 KiB random writes";
  EXPECT_TRUE(c.precondition->isChecked());
  EXPECT_FALSE(c.precondition->isEnabled());
  EXPECT_TRUE(c.passes->isEnabled()) << "the passes stay the user's";
  EXPECT_EQ(page.precondition_passes(), 2U);
  const auto matrix = page.pts_iops();
  ASSERT_TRUE(matrix) << matrix.error().describe();
  EXPECT_EQ(*matrix, access_specs::PtsIopsMatrix{});

  // Unticked, the page is as the user left it, but for the search (which it does not turn back on).
  c.pts->setChecked(false);
  EXPECT_EQ(c.steady->currentIndex(), steady_before);
  EXPECT_TRUE(c.steady->isEnabled());
  EXPECT_FALSE(page.steady_state().has_value());
  EXPECT_TRUE(c.search->isEnabled());
  EXPECT_FALSE(c.precondition->isChecked());
  EXPECT_TRUE(c.precondition->isEnabled());
  EXPECT_EQ(page.precondition_passes(), 0U);
  ASSERT_TRUE(page.pts_iops());
  EXPECT_FALSE(page.pts_iops()->has_value());

  page.set_pts_iops(kTwoByTwo, 9);
  EXPECT_EQ(c.block_sizes->text(), "4K,8K");
  EXPECT_EQ(c.mixes->text(), "100/0,0/100");
  EXPECT_EQ(page.pts_iops().value_or(std::nullopt), std::optional(kTwoByTwo));
  EXPECT_EQ(page.steady_state()->max_rounds, 9U);
  // Preconditioning set while the test holds it is what unticking gives back.
  page.set_precondition_passes(3);
  page.set_pts_iops(std::nullopt, 0);
  EXPECT_EQ(page.precondition_passes(), 3U);
  EXPECT_TRUE(c.precondition->isEnabled());
}

TEST(TestSetupPage, AnInvalidMatrixIsShownAndStartRefusesIt) {
  MainWindow window({});
  ASSERT_TRUE(window.open_plan(kOneRunPlan));
  auto setup = window.document().setup();
  setup.run_time_s = 1;
  window.document().set_setup(setup);
  auto& page = window.test_setup_page();
  const auto c = controls(page);
  ASSERT_NE(c.pts, nullptr);
  c.pts->setChecked(true);
  EXPECT_TRUE(c.pts_error->isHidden());

  c.block_sizes->setText(QStringLiteral("4K,1000"));
  EXPECT_FALSE(c.pts_error->isHidden());
  EXPECT_TRUE(c.pts_error->text().startsWith(QStringLiteral("Block sizes: \"1000\" is not a block size")))
      << c.pts_error->text().toStdString();
  ASSERT_FALSE(page.pts_iops());
  EXPECT_EQ(page.pts_iops().error().field(), "--block-sizes");
  EXPECT_TRUE(preview_summary(page).contains(c.pts_error->text())) << preview_summary(page).toStdString();

  c.block_sizes->setText(QStringLiteral("4K,8K"));
  c.mixes->setText(QStringLiteral("100/0,70/30"));
  ASSERT_FALSE(page.pts_iops());
  EXPECT_EQ(page.pts_iops().error().field(), "--mixes");
  EXPECT_TRUE(c.pts_error->text().startsWith(QStringLiteral("Mixes: must hold 0/100"))) << c.pts_error->text().toStdString();

  // Refused before anything starts, the local agent included, with the page in front.
  window.start();
  EXPECT_TRUE(window.session().managers().empty());
  EXPECT_FALSE(window.session().series_running());
  const auto& last = window.log().entries().back();
  EXPECT_EQ(last.severity, Severity::error);
  EXPECT_TRUE(last.text.startsWith(QStringLiteral("cannot start: --mixes: must hold 0/100"))) << last.text.toStdString();
  EXPECT_EQ(window.tabs().currentWidget(), &page);

  // Unticked, the text no longer matters.
  c.pts->setChecked(false);
  EXPECT_TRUE(c.pts_error->isHidden());
  EXPECT_TRUE(page.pts_iops());
}

TEST(TestSetupPage, PreviewSaysWhatAPtsIopsTestRuns) {
  MainWindow window({});
  ASSERT_TRUE(window.open_plan(kOneRunPlan));
  auto& page = window.test_setup_page();
  auto setup = window.document().setup();
  setup.run_time_s = 50;
  setup.ramp_up_s = 10;
  window.document().set_setup(setup);
  ASSERT_EQ(page.preview_run_count(), 1);

  page.set_precondition_passes(3);
  EXPECT_EQ(preview_summary(page),
            "1 run, about 1 min 0 s without preparing test files. Every target is preconditioned first: written "
            "whole 3 times.");
  page.set_pts_iops(kTwoByTwo, 8);
  EXPECT_EQ(preview_summary(page),
            "PTS IOPS: 4 cells per round (2 mixes x 2 block sizes), about 4 min 0 s per round without preparing test "
            "files; until the IOPS of 4 KiB random writes are steady, at most 8 rounds (about 32 min 0 s). Every "
            "target is preconditioned first: written whole 3 times.");

  // The matrix makes a round from one run: a plan of several is refused, here as by Start.
  setup.test_type = access_specs::TestType::cycle_outstanding_ios;
  setup.queue_depth_cycling = {.start = 1, .end = 2, .step = 1, .step_type = access_specs::StepType::linear};
  window.document().set_setup(setup);
  EXPECT_EQ(preview_summary(page),
            "The PTS IOPS test runs the plan's one run over its matrix, and this plan makes 2 runs: choose Normal and "
            "one access specification per worker.");
}

// What the core was asked to run: the session's runner is the core's, watched.
struct SeriesSeen {
  int series{};
  std::size_t runs_per_round{};
  std::optional<controller::SteadyStateRounds> steady_state;
  std::optional<results::PtsIopsRecord> pts_iops;
  std::optional<results::PreconditionRecord> precondition;
};

void watch_series(Session& session, SeriesSeen& seen) {
  session.set_series_runner([&seen](const std::vector<controller::ManagerLink*>& links,
                                    const controller::SeriesPlan& series, controller::SeriesObserver& observer,
                                    controller::ResultsRecorder& recorder, std::stop_token stop) {
    ++seen.series;
    seen.runs_per_round = series.runs.size();
    seen.steady_state = series.steady_state;
    seen.pts_iops = series.pts_iops;
    seen.precondition = series.precondition;
    return controller::run_series(links, series, observer, recorder, std::move(stop));
  });
}

TEST(MainWindow, APtsIopsTestFillsItsTableWithEveryCell) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow window({});
  window.show();
  prepare_short_runs(window, dir.path(), kWaitMs);
  SeriesSeen seen;
  watch_series(window.session(), seen);
  auto* table = window.findChild<PtsIopsView*>();
  ASSERT_NE(table, nullptr);
  EXPECT_FALSE(table->table().has_value());

  // Test Setup: 4K and 8K, 100/0 and 0/100, at most 5 rounds, typed as a user does.
  const auto c = controls(window.test_setup_page());
  ASSERT_NE(c.pts, nullptr);
  c.pts->setChecked(true);
  c.block_sizes->setText(QStringLiteral("4K,8K"));
  c.mixes->setText(QStringLiteral("100/0,0/100"));
  c.pts_rounds->setValue(static_cast<int>(kRounds));
  ASSERT_TRUE(run_to_completion(window, kWaitMs)) << logged_text(window);

  EXPECT_EQ(seen.series, 1);
  EXPECT_EQ(seen.runs_per_round, 4U) << "one run per cell";
  EXPECT_EQ(seen.pts_iops, (results::PtsIopsRecord{.read_percents = {100, 0}, .block_bytes = {4096, 8192}}));
  ASSERT_TRUE(seen.steady_state.has_value());
  EXPECT_EQ(seen.steady_state->max_rounds, kRounds);
  ASSERT_TRUE(seen.precondition.has_value());
  EXPECT_EQ(seen.precondition->passes, 2U);
  const auto& results = window.session().last_results();
  EXPECT_EQ(results.runs.size(), 4U * kRounds);
  EXPECT_EQ(results.pts_iops, seen.pts_iops) << "Save Results As keeps the matrix";
  EXPECT_EQ(results.precondition, seen.precondition);

  ASSERT_TRUE(table->table().has_value());
  const auto& cells = *table->table();
  EXPECT_EQ(cells.read_percents, (std::vector<std::uint32_t>{100, 0}));
  EXPECT_EQ(cells.block_bytes, (std::vector<std::uint64_t>{4096, 8192}));
  EXPECT_EQ(cells.last_round, kRounds);
  for (const auto& row : cells.iops) {
    for (const auto& iops : row) {
      ASSERT_TRUE(iops.has_value());
      EXPECT_GT(*iops, 0.0);
    }
  }
  const auto& model = table->cells();
  ASSERT_EQ(model.rowCount(), 2);
  ASSERT_EQ(model.columnCount(), 2);
  EXPECT_EQ(model.headerData(0, Qt::Vertical).toString(), "100/0");
  EXPECT_EQ(model.headerData(1, Qt::Vertical).toString(), "0/100");
  EXPECT_EQ(model.headerData(0, Qt::Horizontal).toString(), "4 KiB");
  EXPECT_EQ(model.headerData(1, Qt::Horizontal).toString(), "8 KiB");
  EXPECT_EQ(model.index(1, 0).data().toString(), QString::number(*cells.iops[1][0], 'f', 0));
  EXPECT_TRUE(table->caption_text().contains(QStringLiteral("averaged over round"))) << table->caption_text().toStdString();
  // The series was a PTS IOPS test: its table is in front.
  const auto* charts = qobject_cast<QTabWidget*>(window.tabs().currentWidget());
  ASSERT_NE(charts, nullptr);
  EXPECT_EQ(charts->currentWidget(), table);
  EXPECT_EQ(charts->tabText(charts->currentIndex()), "PTS IOPS");

  // Without the test, the next series starts with an empty table and leaves it so.
  c.pts->setChecked(false);
  ASSERT_TRUE(run_to_completion(window, kWaitMs)) << logged_text(window);
  EXPECT_EQ(seen.series, 2);
  EXPECT_FALSE(seen.pts_iops.has_value());
  EXPECT_FALSE(seen.precondition.has_value());
  EXPECT_FALSE(table->table().has_value());
  EXPECT_FALSE(window.session().last_results().pts_iops.has_value());
}

TEST(MainWindow, APlanOfSeveralRunsIsRefusedAsPlanSeriesRefusesIt) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow window({});
  prepare_short_runs(window, dir.path(), kWaitMs);
  auto setup = window.document().setup();
  setup.test_type = access_specs::TestType::cycle_outstanding_ios;
  setup.queue_depth_cycling = {.start = 1, .end = 2, .step = 1, .step_type = access_specs::StepType::linear};
  window.document().set_setup(setup);
  window.test_setup_page().set_pts_iops(kTwoByTwo, kRounds);

  window.start();
  // Start may first restart the local agent for the plan's paths.
  const auto refused = [&] {
    const auto& entries = window.log().entries();
    return std::any_of(entries.begin(), entries.end(), [](const LogEntry& entry) {
      return entry.severity == Severity::error && entry.text.startsWith(QStringLiteral("cannot start: PTS IOPS: "));
    });
  };
  ASSERT_TRUE(QTest::qWaitFor(refused, kWaitMs)) << logged_text(window);
  EXPECT_FALSE(window.session().series_running());
}

TEST(PtsIopsView, CaptionSaysWhichRoundsAndWhetherSteady) {
  PtsIopsView view;
  EXPECT_EQ(view.caption_text(), "No PTS IOPS test yet: tick it on Test Setup, then Start.");
  results::PtsIopsTable table{.read_percents = {100, 0},
                              .block_bytes = {4096, 8192},
                              .iops = {{1000.4, std::nullopt}, {500.0, 250.0}},
                              .first_round = 3,
                              .last_round = 7,
                              .steady = true};
  view.set_table(table);
  EXPECT_EQ(view.caption_text(),
            "IOPS of each read/write mix (rows) and block size (columns), all managers together, averaged over rounds "
            "3-7: the steady-state window of 4 KiB random writes.");
  EXPECT_EQ(view.cells().index(0, 0).data().toString(), "1000");
  EXPECT_EQ(view.cells().index(0, 1).data().toString(), "-") << "no run of the cell in those rounds";
  table.steady = false;
  table.first_round = table.last_round = 2;
  view.set_table(table);
  EXPECT_EQ(view.caption_text(),
            "IOPS of each read/write mix (rows) and block size (columns), all managers together, averaged over round "
            "2: the last rounds run; 4 KiB random writes were not steady.");
  view.set_table(results::PtsIopsTable{.read_percents = {0}, .block_bytes = {4096}, .iops = {{std::nullopt}}});
  EXPECT_EQ(view.caption_text(), "PTS IOPS: no round ran, so there is no IOPS to show.");
  view.clear();
  EXPECT_FALSE(view.table().has_value());
  EXPECT_EQ(view.cells().rowCount(), 0);
}

TEST(PreparingRate, IsWhatThePathWroteSinceItsFirstReport) {
  using std::chrono::milliseconds;
  const auto start = std::chrono::steady_clock::time_point{} + std::chrono::hours(1);
  controller::PreparingRate rate;
  const controller::PrepareFigures first{.path = "/data/iobw.tst", .bytes_done = 10'000'000, .bytes_total = 110'000'000};
  EXPECT_FALSE(rate.update(first, start).has_value()) << "nothing to measure over yet";
  auto later = first;
  later.bytes_done = 30'000'000;
  EXPECT_FALSE(rate.update(later, start + milliseconds(500)).has_value()) << "under a second is no rate";
  later.bytes_done = 50'000'000;
  const auto estimate = rate.update(later, start + milliseconds(2000));
  ASSERT_TRUE(estimate.has_value());
  EXPECT_DOUBLE_EQ(estimate->bytes_per_s, 20e6);
  EXPECT_DOUBLE_EQ(estimate->remaining_s, 3.0);
  EXPECT_EQ(preparing_text(later, estimate), "preparing /data/iobw.tst: 47.7 MiB of 104.9 MiB, 20.0 MB/s, ETA 3 s");

  // The next pass starts over from 0: so does the measure, as it does for another path.
  const controller::PrepareFigures next_pass{.path = "/data/iobw.tst", .bytes_done = 0, .bytes_total = 110'000'000};
  EXPECT_FALSE(rate.update(next_pass, start + milliseconds(3000)).has_value());
  const controller::PrepareFigures other{.path = "/data/other.tst", .bytes_done = 60'000'000, .bytes_total = 110'000'000};
  EXPECT_FALSE(rate.update(other, start + milliseconds(9000)).has_value());
  EXPECT_EQ(preparing_text(other, std::nullopt), "preparing /data/other.tst: 57.2 MiB of 104.9 MiB");
}

TEST(ResultsPage, PreparingShowsTheBytesThenTheRateAndTimeLeft) {
  ResultsPage page;
  page.begin_series();
  LiveUpdate update{.run_index = 0,
                    .run_count = 4,
                    .label = "'PTS 4 KiB 100/0'",
                    .phase = controller::LivePhase::preparing,
                    .rows = {},
                    .preparing = {.path = "/data/iobw.tst", .bytes_done = 0, .bytes_total = 16 << 20}};
  page.show_live(update);
  EXPECT_EQ(page.phase_text(), "Run 1 of 4 ('PTS 4 KiB 100/0'): preparing /data/iobw.tst: 0 B of 16 MiB");
  QTest::qWait(1100);  // the rate is measured over a second at least
  update.preparing.bytes_done = 8 << 20;
  page.show_live(update);
  const auto text = page.phase_text();
  EXPECT_TRUE(text.startsWith(QStringLiteral("Run 1 of 4 ('PTS 4 KiB 100/0'): preparing /data/iobw.tst: 8 MiB of 16 MiB, ")))
      << text.toStdString();
  EXPECT_TRUE(text.contains(QStringLiteral(" MB/s, ETA "))) << text.toStdString();
}

}  // namespace
}  // namespace iomark::gui
