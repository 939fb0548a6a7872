// A --find-max-iops search from the window: Test Setup's "Find max IOPS" reaches the series
// the core plans, and the session's search steps reach the Charts tab's latency-against-IOPS
// chart, one point per step, with the outcome's record kept for Save Results As. The search
// itself cannot run here: from QD 1 on the null engine every bound holds up to QD 1024 (its
// limits are fixed), so a stand-in for the series runner reports what a search reports.
#include <gtest/gtest.h>

#include <QCheckBox>
#include <QComboBox>
#include <QDoubleSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <optional>
#include <stop_token>
#include <vector>

#include "iomark/gui/charts/max_iops_chart.hpp"
#include "iomark/gui/main_window.hpp"
#include "iomark/gui/session.hpp"
#include "iomark/gui/test_setup_page.hpp"
#include "run_to_completion.hpp"
#include "short_runs.hpp"

namespace iomark::gui {
namespace {

constexpr int kWaitMs = 180'000;  // a bound for a hung agent, not a performance expectation
constexpr std::size_t kSteps = 4;

// What search_step() reports after `steps` runs of a search within avg <= 0.75 ms: QD 1 and
// 2 within, QD 4 over, then QD 4 at a rate within; the last is chosen.
results::MaxIopsRecord after(std::size_t steps) {
  results::MaxIopsRecord record{
      .figure = "avg",
      .limit_ms = 0.75,
      .steps = {{.run = 1, .outstanding_ios = 1, .iops = 4000, .latency_ms = 0.25, .within = true},
                {.run = 2, .outstanding_ios = 2, .iops = 7600, .latency_ms = 0.5, .within = true},
                {.run = 3, .outstanding_ios = 4, .iops = 9800, .latency_ms = 0.95},
                {.run = 4, .outstanding_ios = 4, .rate_iops = 8700, .iops = 8690, .latency_ms = 0.7, .within = true}},
      .chosen = steps == 1 ? 0U : steps < kSteps ? 1U : 3U,
      .finished = steps == kSteps,
      .conclusion = "after " + std::to_string(steps)};
  record.steps.resize(steps);
  return record;
}

// The core plans the series; this stands in for running it, and reports what a search does.
struct SeriesSeen {
  int series{};
  std::optional<access_specs::LatencyBound> bound;
};

void feed_search(Session& session, SeriesSeen& seen, bool cut_short) {
  session.set_series_runner([&seen, cut_short](const std::vector<controller::ManagerLink*>&,
                                               const controller::SeriesPlan& series, controller::SeriesObserver& observer,
                                               controller::ResultsRecorder&, std::stop_token) {
    ++seen.series;
    seen.bound = series.max_iops_search ? std::optional(series.max_iops_search->bound) : std::nullopt;
    controller::SeriesOutcome outcome;
    if (!series.max_iops_search) return outcome;
    if (cut_short) {  // stopped before its first run: no step was reported
      outcome.outcome = results::SeriesOutcome::aborted;
      outcome.stop_cause = controller::StopCause::stop_requested;
      outcome.error = Error(ErrorCode::cancelled, "stopped by the user");
      outcome.max_iops_search = results::MaxIopsRecord{.figure = "avg", .limit_ms = 0.75};
      return outcome;
    }
    for (std::size_t steps = 1; steps <= kSteps; ++steps) observer.search_step(after(steps));
    outcome.max_iops_search = after(kSteps);
    return outcome;
  });
}

struct SearchControls {
  QCheckBox* box{};
  QComboBox* figure{};
  QDoubleSpinBox* limit{};
};

SearchControls search_controls(TestSetupPage& page) {
  return {page.findChild<QCheckBox*>(QStringLiteral("find_max_iops")),
          page.findChild<QComboBox*>(QStringLiteral("find_max_iops_figure")),
          page.findChild<QDoubleSpinBox*>(QStringLiteral("find_max_iops_limit"))};
}

TEST(TestSetupPage, FindMaxIopsIsOffUntilTickedAndTurnsSteadyStateOff) {
  MainWindow window({});
  auto& page = window.test_setup_page();
  EXPECT_FALSE(page.find_max_iops().has_value());
  const auto search = search_controls(page);
  ASSERT_NE(search.box, nullptr);
  ASSERT_NE(search.figure, nullptr);
  ASSERT_NE(search.limit, nullptr);
  EXPECT_FALSE(search.box->isChecked());
  EXPECT_FALSE(search.figure->isEnabled()) << "the bound is given once the box is ticked";
  EXPECT_EQ(search.figure->count(), 3);
  EXPECT_EQ(search.figure->currentText(), "99th percentile response time");
  EXPECT_EQ(search.limit->value(), 2.0);
  EXPECT_EQ(search.limit->minimum(), 0.001);
  EXPECT_EQ(search.limit->maximum(), 60000.0);

  // Steady state first, then the search: a search is not run in rounds.
  auto* steady = page.findChild<QComboBox*>(QStringLiteral("steady_state"));
  ASSERT_NE(steady, nullptr);
  steady->setCurrentIndex(steady->findText(QStringLiteral("IOPS")));
  ASSERT_TRUE(page.steady_state().has_value());

  search.box->setChecked(true);
  search.figure->setCurrentIndex(search.figure->findText(QStringLiteral("99.9th percentile response time")));
  search.limit->setValue(0.5);
  EXPECT_TRUE(search.figure->isEnabled());
  EXPECT_EQ(page.find_max_iops(),
            (access_specs::LatencyBound{.figure = access_specs::LatencyFigure::p99_9_ms, .limit_ms = 0.5}));
  EXPECT_FALSE(page.steady_state().has_value());
  EXPECT_FALSE(steady->isEnabled());

  page.set_find_max_iops(access_specs::LatencyBound{.figure = access_specs::LatencyFigure::average_ms, .limit_ms = 12.5});
  EXPECT_EQ(search.figure->currentText(), "Average response time");
  EXPECT_EQ(search.limit->value(), 12.5);
  page.set_find_max_iops(std::nullopt);
  EXPECT_FALSE(page.find_max_iops().has_value());
  EXPECT_FALSE(search.box->isChecked());
  EXPECT_TRUE(steady->isEnabled());
}

TEST(MainWindow, ChartsEachSearchStepKeepsTheOutcomeAndStartsEmptyForANewSeries) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow window({});
  window.show();
  prepare_short_runs(window, dir.path(), kWaitMs);
  SeriesSeen seen;
  feed_search(window.session(), seen, false);
  auto* chart = window.findChild<MaxIopsChart*>();
  ASSERT_NE(chart, nullptr);

  // Test Setup: average response time within 0.75 ms, chosen as a user does.
  const auto search = search_controls(window.test_setup_page());
  ASSERT_NE(search.box, nullptr);
  search.box->setChecked(true);
  search.figure->setCurrentIndex(search.figure->findText(QStringLiteral("Average response time")));
  search.limit->setValue(0.75);

  // What the chart holds each time a step is reported (its own slot has run by then).
  std::vector<std::size_t> drawn_per_step;
  QObject::connect(&window.session(), &Session::search_step, &window,
                   [&](const results::MaxIopsRecord&) { drawn_per_step.push_back(chart->step_count()); });
  ASSERT_TRUE(run_to_completion(window, kWaitMs)) << logged_text(window);

  EXPECT_EQ(seen.series, 1);
  EXPECT_EQ(seen.bound, (access_specs::LatencyBound{.figure = access_specs::LatencyFigure::average_ms, .limit_ms = 0.75}));
  EXPECT_EQ(drawn_per_step, (std::vector<std::size_t>{1, 2, 3, 4}));
  EXPECT_EQ(chart->record(), after(kSteps));
  EXPECT_EQ(window.session().last_results().max_iops_search, after(kSteps)) << "Save Results As keeps the search";
  EXPECT_EQ(chart->verdict_text(), "Search done after 4 runs: after 4");
  // The series searched: its chart is in front.
  const auto* charts = qobject_cast<QTabWidget*>(window.tabs().currentWidget());
  ASSERT_NE(charts, nullptr);
  EXPECT_EQ(charts->currentWidget(), chart);
  EXPECT_EQ(charts->tabText(charts->currentIndex()), "Latency vs IOPS");

  // The search off: the next series starts with an empty chart and adds nothing to it.
  search.box->setChecked(false);
  std::optional<std::size_t> drawn_at_start;
  QObject::connect(&window.session(), &Session::series_started, &window,
                   [&](std::size_t) { drawn_at_start = chart->step_count(); });
  drawn_per_step.clear();
  ASSERT_TRUE(run_to_completion(window, kWaitMs)) << logged_text(window);
  EXPECT_EQ(seen.series, 2);
  EXPECT_FALSE(seen.bound.has_value());
  EXPECT_EQ(drawn_at_start, std::optional<std::size_t>(0));
  EXPECT_TRUE(drawn_per_step.empty());
  EXPECT_FALSE(chart->record().has_value());
  EXPECT_FALSE(window.session().last_results().max_iops_search.has_value());
}

TEST(MainWindow, ASearchStoppedBeforeItsFirstRunKeepsItsBound) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow window({});
  window.show();
  prepare_short_runs(window, dir.path(), kWaitMs);
  SeriesSeen seen;
  feed_search(window.session(), seen, true);
  window.test_setup_page().set_find_max_iops(
      access_specs::LatencyBound{.figure = access_specs::LatencyFigure::average_ms, .limit_ms = 0.75});

  bool finished = false;
  QObject::connect(&window.session(), &Session::series_finished, &window, [&] { finished = true; });
  window.start();
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished; }, kWaitMs)) << logged_text(window);

  EXPECT_EQ(seen.series, 1);
  // Only the outcome has it: no step was reported.
  const results::MaxIopsRecord bound_only{.figure = "avg", .limit_ms = 0.75};
  EXPECT_EQ(window.session().last_results().max_iops_search, bound_only);
  auto* chart = window.findChild<MaxIopsChart*>();
  ASSERT_NE(chart, nullptr);
  EXPECT_EQ(chart->record(), bound_only);
  EXPECT_EQ(chart->verdict_text(), "The search was cut short before its first run (avg <= 0.75 ms).");
}

}  // namespace
}  // namespace iomark::gui
