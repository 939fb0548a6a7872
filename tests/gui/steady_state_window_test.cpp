// Steady-state rounds from the window: Test Setup's choice reaches the series the core runs,
// the Charts tab's steady-state chart gets one point per judged round while a short series
// runs on the embedded agent's null engine, and a new series starts it empty. Whether the
// null engine's figures turn out steady is not deterministic, so the series is bounded by
// the rule's own window (5 rounds): it always runs exactly 5.
#include <gtest/gtest.h>

#include <QComboBox>
#include <QSpinBox>
#include <QTabWidget>
#include <QTemporaryDir>
#include <QTest>
#include <optional>
#include <stop_token>
#include <vector>

#include "iomark/gui/charts/steady_state_chart.hpp"
#include "iomark/gui/main_window.hpp"
#include "iomark/gui/session.hpp"
#include "iomark/gui/test_setup_page.hpp"
#include "run_to_completion.hpp"
#include "short_runs.hpp"

namespace iomark::gui {
namespace {

constexpr int kWaitMs = 180'000;  // a bound for a hung run, not a performance expectation
constexpr int kRounds = 5;        // the rule's window: no series can be steady sooner

// What the core was asked to run: the session's runner is the core's, watched.
struct SeriesSeen {
  int series{};
  std::optional<controller::SteadyStateRounds> steady_state;
};

void watch_series(Session& session, SeriesSeen& seen) {
  session.set_series_runner([&seen](const std::vector<controller::ManagerLink*>& links,
                                    const controller::SeriesPlan& series, controller::SeriesObserver& observer,
                                    controller::ResultsRecorder& recorder, std::stop_token stop) {
    ++seen.series;
    seen.steady_state = series.steady_state;
    return controller::run_series(links, series, observer, recorder, std::move(stop));
  });
}

TEST(TestSetupPage, SteadyStateChoiceIsOffUntilAFigureIsChosen) {
  MainWindow window({});
  auto& page = window.test_setup_page();
  EXPECT_FALSE(page.steady_state().has_value());
  auto* figure = page.findChild<QComboBox*>(QStringLiteral("steady_state"));
  auto* rounds = page.findChild<QSpinBox*>(QStringLiteral("max_rounds"));
  ASSERT_NE(figure, nullptr);
  ASSERT_NE(rounds, nullptr);
  EXPECT_FALSE(rounds->isEnabled());
  EXPECT_EQ(rounds->value(), 25);
  EXPECT_EQ(rounds->minimum(), 5);
  EXPECT_EQ(rounds->maximum(), 1000);

  figure->setCurrentIndex(figure->findText(QStringLiteral("99th percentile response time")));
  rounds->setValue(40);
  EXPECT_TRUE(rounds->isEnabled());
  EXPECT_EQ(page.steady_state(),
            (access_specs::SteadyStateRequest{.figure = access_specs::SteadyFigure::p99_ms, .max_rounds = 40}));

  page.set_steady_state(access_specs::SteadyStateRequest{.figure = access_specs::SteadyFigure::mb_per_s, .max_rounds = 7});
  EXPECT_EQ(figure->currentText(), "MB/s");
  EXPECT_EQ(rounds->value(), 7);
  page.set_steady_state(std::nullopt);
  EXPECT_FALSE(page.steady_state().has_value());
  EXPECT_FALSE(rounds->isEnabled());
}

TEST(MainWindow, ChartsEachSteadyStateRoundAndStartsEmptyForANewSeries) {
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  MainWindow window({});
  window.show();
  prepare_short_runs(window, dir.path(), kWaitMs);
  SeriesSeen seen;
  watch_series(window.session(), seen);
  auto* chart = window.findChild<SteadyStateChart*>();
  ASSERT_NE(chart, nullptr);

  // Test Setup: IOPS, at most 5 rounds, chosen as a user does.
  auto& page = window.test_setup_page();
  auto* figure = page.findChild<QComboBox*>(QStringLiteral("steady_state"));
  auto* rounds = page.findChild<QSpinBox*>(QStringLiteral("max_rounds"));
  ASSERT_NE(figure, nullptr);
  ASSERT_NE(rounds, nullptr);
  figure->setCurrentIndex(figure->findText(QStringLiteral("IOPS")));
  rounds->setValue(kRounds);

  // What the chart holds each time a round is judged (its own slot has run by then).
  std::vector<std::size_t> drawn_per_round;
  QObject::connect(&window.session(), &Session::round_judged, &window,
                   [&](const results::SteadyStateRecord&) { drawn_per_round.push_back(chart->round_count()); });
  ASSERT_TRUE(run_to_completion(window, kWaitMs)) << logged_text(window);

  EXPECT_EQ(seen.series, 1);
  ASSERT_TRUE(seen.steady_state.has_value());
  EXPECT_EQ(seen.steady_state->figure, access_specs::SteadyFigure::iops);
  EXPECT_EQ(seen.steady_state->max_rounds, static_cast<std::uint32_t>(kRounds));
  EXPECT_EQ(drawn_per_round, (std::vector<std::size_t>{1, 2, 3, 4, 5}));
  EXPECT_EQ(window.session().last_results().runs.size(), static_cast<std::size_t>(kRounds));
  ASSERT_TRUE(chart->record().has_value());
  EXPECT_EQ(chart->record()->figure, "iops");
  EXPECT_EQ(chart->record()->rounds.size(), static_cast<std::size_t>(kRounds));
  for (const double iops : chart->record()->rounds) EXPECT_GT(iops, 0.0);
  // The rounds go with "Save results as" too.
  EXPECT_EQ(window.session().last_results().steady_state, chart->record());
  // The series ended in rounds: its chart is in front, with a verdict under it.
  const auto* charts = qobject_cast<QTabWidget*>(window.tabs().currentWidget());
  ASSERT_NE(charts, nullptr);
  EXPECT_EQ(charts->currentWidget(), chart);
  EXPECT_FALSE(chart->verdict_text().isEmpty());
  // The rounds' long run labels ("round 5: ...") do not widen the window past its own size.
  EXPECT_LE(window.minimumSizeHint().width(), 1400);

  // Steady state off: the next series starts with an empty chart and adds nothing to it.
  figure->setCurrentIndex(figure->findText(QStringLiteral("Off: each run once")));
  std::optional<std::size_t> drawn_at_start;
  QObject::connect(&window.session(), &Session::series_started, &window,
                   [&](std::size_t) { drawn_at_start = chart->round_count(); });
  drawn_per_round.clear();
  ASSERT_TRUE(run_to_completion(window, kWaitMs)) << logged_text(window);
  EXPECT_EQ(seen.series, 2);
  EXPECT_FALSE(seen.steady_state.has_value());
  EXPECT_EQ(drawn_at_start, std::optional<std::size_t>(0));
  EXPECT_TRUE(drawn_per_round.empty());
  EXPECT_EQ(chart->round_count(), 0U);
  EXPECT_FALSE(chart->record().has_value());
  EXPECT_FALSE(window.session().last_results().steady_state.has_value());
  EXPECT_EQ(window.session().last_results().runs.size(), 1U);
}

}  // namespace
}  // namespace iomark::gui
