// The main window at fleet scale: a plan of N managers x 16 workers x 1 target in
// the topology, and a series on them fed through the session's observer (fleet_feeder.hpp)
// into the Results Display and the charts, one live update a second, offscreen.
//
// It checks behaviour, not speed (this machine is shared and noisy); it prints how long the UI
// thread was blocked during each update, measured by a 10 ms heartbeat on the UI thread, for
// bench/gui-scale. Environment: IOMARK_GUI_SCALE_MANAGERS (default 256),
// IOMARK_GUI_SCALE_UPDATES (default 3), IOMARK_GUI_SCALE_VIEW (`charts`: the live chart is
// shown while it runs, not the Results Display), IOMARK_GUI_SCALE_SCREENSHOTS (a folder: the
// window's topology and Results Display are saved there as PNG).
#include <gtest/gtest.h>

#include <QElapsedTimer>
#include <QFile>
#include <QItemSelectionModel>
#include <QTemporaryDir>
#include <QTest>
#include <QTimer>
#include <QTreeView>
#include <algorithm>
#include <atomic>
#include <chrono>
#include <ctime>
#include <thread>
#include <cstdio>
#include <cstdlib>
#include <string>
#include <vector>

#include "fleet_feeder.hpp"
#include "iomark/gui/charts/live_chart.hpp"
#include "iomark/gui/main_window.hpp"
#include "iomark/gui/manager_filter.hpp"
#include "iomark/gui/results_page.hpp"
#include "iomark/gui/session.hpp"
#include "iomark/icf/icf.hpp"

namespace iomark::gui {
namespace {

std::size_t from_environment(const char* name, std::size_t otherwise) {
  const char* text = std::getenv(name);
  if (text == nullptr || *text == '\0') return otherwise;
  return static_cast<std::size_t>(std::strtoull(text, nullptr, 10));
}

qint64 thread_cpu_us() {
  timespec now{};
  clock_gettime(CLOCK_THREAD_CPUTIME_ID, &now);
  return static_cast<qint64>(now.tv_sec) * 1'000'000 + now.tv_nsec / 1'000;
}

// The longest gap between two ticks of a 10 ms timer on the UI thread, per live update: the
// time the thread could not run anything else (the update's slots, layout and painting). On a
// loaded machine that includes waiting for a core, so the CPU time the UI thread used in each
// update's second is kept beside it.
class UiBlockProbe {
 public:
  explicit UiBlockProbe(Session& session) {
    clock_.start();
    last_tick_ms_ = clock_.elapsed();
    window_cpu_us_ = thread_cpu_us();
    QObject::connect(&heartbeat_, &QTimer::timeout, [this] {
      const auto now = clock_.elapsed();
      if (current_ != nullptr) *current_ = std::max(*current_, now - last_tick_ms_);
      last_tick_ms_ = now;
    });
    // Connected after the main window's own slots, so each event opens its window after its
    // own work: the gap that holds that work ends inside the window.
    QObject::connect(&session, &Session::live, &heartbeat_, [this](const LiveUpdate&) {
      close_window();
      current_ = &blocks_ms_.emplace_back(0);
    });
    QObject::connect(&session, &Session::run_finished, &heartbeat_, [this] {
      close_window();
      current_ = &run_end_ms_;
    });
    heartbeat_.start(10);
  }

  // The longest gap while nothing but the heartbeat runs: what the machine's load alone costs.
  [[nodiscard]] qint64 idle_gap_ms(int wait_ms) {
    qint64 idle = 0;
    current_ = &idle;
    QTest::qWait(wait_ms);
    current_ = nullptr;
    return idle;
  }

  // The first update builds the rows; the others are what every second costs.
  [[nodiscard]] const std::vector<qint64>& blocks_ms() const noexcept { return blocks_ms_; }
  // The end of the run: the finished run's tree, its summary and the charts drawn from it.
  [[nodiscard]] qint64 run_end_ms() const noexcept { return run_end_ms_; }
  // The UI thread's CPU time from the end of the run to finish() (the window of run_end_ms()).
  [[nodiscard]] qint64 run_end_cpu_ms() {
    close_window();
    current_ = nullptr;
    return run_end_cpu_ms_;
  }
  // The UI thread's CPU time in each update's window (the same windows as blocks_ms()).
  [[nodiscard]] const std::vector<qint64>& cpu_ms() const noexcept { return cpu_ms_; }

 private:
  void close_window() {
    const auto now = thread_cpu_us();
    if (!blocks_ms_.empty() && current_ == &blocks_ms_.back()) cpu_ms_.push_back((now - window_cpu_us_) / 1000);
    if (current_ == &run_end_ms_) run_end_cpu_ms_ = (now - window_cpu_us_) / 1000;
    window_cpu_us_ = now;
  }

  QTimer heartbeat_;
  QElapsedTimer clock_;
  qint64 last_tick_ms_{};
  std::vector<qint64> blocks_ms_;
  qint64 run_end_ms_{};
  qint64 run_end_cpu_ms_{};
  qint64* current_{};
  qint64 window_cpu_us_{};
  std::vector<qint64> cpu_ms_;
};

qint64 median(std::vector<qint64> values) {
  if (values.empty()) return 0;
  std::sort(values.begin(), values.end());
  return values[values.size() / 2];
}

// The top-level rows a tree view shows, and how many of them are open.
std::pair<int, int> shown_and_open(const QTreeView& view) {
  const auto* model = view.model();
  int open = 0;
  for (int row = 0; row < model->rowCount(); ++row) open += view.isExpanded(model->index(row, 0)) ? 1 : 0;
  return {model->rowCount(), open};
}

void save_screenshot(QWidget& widget, const char* name) {
  const char* folder = std::getenv("IOMARK_GUI_SCALE_SCREENSHOTS");
  if (folder == nullptr || *folder == '\0') return;
  const auto path = QString::fromLocal8Bit(folder) + QStringLiteral("/%1.png").arg(QLatin1String(name));
  EXPECT_TRUE(widget.grab().save(path)) << path.toStdString();
}

TEST(GuiScale, FollowsAFleetSeriesUpdateByUpdate) {
  testing::FleetShape shape;
  shape.managers = from_environment("IOMARK_GUI_SCALE_MANAGERS", 256);
  shape.updates_per_run = static_cast<std::uint32_t>(from_environment("IOMARK_GUI_SCALE_UPDATES", 3));
  ASSERT_GE(shape.updates_per_run, 2U);
  QTemporaryDir dir;
  ASSERT_TRUE(dir.isValid());
  const auto plan_path = dir.filePath(QStringLiteral("fleet.icf"));
  {
    QFile file(plan_path);
    ASSERT_TRUE(file.open(QIODevice::WriteOnly));
    file.write(QByteArray::fromStdString(icf::write_icf(testing::fleet_plan(shape))));
  }

  MainWindowOptions options;
  options.insecure = true;
  MainWindow window(std::move(options));
  window.resize(1600, 1000);
  window.show();
  QElapsedTimer load;
  load.start();
  ASSERT_TRUE(window.open_plan(plan_path));
  const auto load_ms = load.elapsed();
  ASSERT_EQ(window.topology().rows().size(), shape.managers);
  // Beyond the expand limit the topology shows its managers closed.
  const bool beyond_limit = shape.managers > static_cast<std::size_t>(window.results_page().expand_limit());
  const auto [topology_shown, topology_open] = shown_and_open(window.topology_view());
  EXPECT_EQ(topology_shown, static_cast<int>(shape.managers));
  EXPECT_EQ(topology_open, beyond_limit ? 1 : topology_shown);  // the selected one opens

  // What the user watches while it runs: the Results Display (IOMARK_GUI_SCALE_VIEW=charts:
  // the live chart instead).
  const char* view = std::getenv("IOMARK_GUI_SCALE_VIEW");
  if (view != nullptr && std::string(view) == "charts") {
    auto* chart = window.findChild<LiveChart*>();
    ASSERT_NE(chart, nullptr);
    window.show_chart(chart);
  } else {
    window.tabs().setCurrentWidget(&window.results_page());
  }
  auto& session = window.session();
  session.set_series_runner(testing::feed_fleet(shape));
  const auto& live = window.results_page().live_figures();
  int resets = 0;
  QObject::connect(&live, &QAbstractItemModel::modelReset, [&] { ++resets; });
  QObject::connect(&window.topology(), &QAbstractItemModel::modelReset, [&] { ++resets; });
  std::size_t updates = 0;
  QObject::connect(&session, &Session::live, [&](const LiveUpdate&) { ++updates; });
  bool finished = false;
  QObject::connect(&session, &Session::series_finished, [&] { finished = true; });

  UiBlockProbe probe(session);
  const auto idle_ms = probe.idle_gap_ms(1000);
  ASSERT_TRUE(session.start_series(testing::fleet_series(shape), std::string()));
  ASSERT_TRUE(QTest::qWaitFor([&] { return updates >= 1; }, 60'000));
  const int resets_after_first = resets;
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished; }, 60'000 + 2'000 * static_cast<int>(shape.updates_per_run)));
  QTest::qWait(200);  // what the end of the run left to draw
  const auto run_end_cpu_ms = probe.run_end_cpu_ms();

  // Every update reached the window and changed figures in place: no model was reset.
  EXPECT_EQ(updates, shape.updates_per_run);
  EXPECT_EQ(resets, resets_after_first);
  EXPECT_EQ(live.rows().size(), 1 + shape.managers * (1 + 2 * shape.workers_per_manager));
  EXPECT_EQ(live.manager_count(), shape.managers);
  EXPECT_EQ(session.last_results().runs.size(), 1U);
  auto& results = window.results_page();
  const auto [results_shown, results_open] = shown_and_open(results.live_view());
  EXPECT_EQ(results_shown, static_cast<int>(1 + shape.managers));  // All managers, then each manager
  EXPECT_EQ(results_open, beyond_limit ? 0 : results_shown - 1);    // ALL has no rows under it
  save_screenshot(window, "fleet-results-display");

  // The filter keeps the managers whose name holds its text, and the selection.
  const auto third = live.index_of(1 + 2 * (1 + 2 * shape.workers_per_manager));  // host-003
  ASSERT_EQ(live.rows()[*live.row_of(third)].name, testing::fleet_manager_name(2));
  const auto* shown = results.live_view().model();
  const auto& filter = static_cast<const ManagerFilter&>(*shown);
  results.live_view().selectionModel()->select(filter.mapFromSource(third),
                                               QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  ASSERT_EQ(results.metered_row(), *live.row_of(third));
  results.set_manager_filter(QStringLiteral("HOST-00"));  // host-001 .. host-009, whatever the case
  EXPECT_EQ(shown->rowCount(), 1 + static_cast<int>(std::min<std::size_t>(shape.managers, 9)));
  EXPECT_TRUE(results.live_view().selectionModel()->isSelected(filter.mapFromSource(third)));
  results.set_manager_filter(QStringLiteral("no such host"));
  EXPECT_EQ(shown->rowCount(), 1);  // All managers stays
  EXPECT_EQ(results.metered_row(), *live.row_of(third));  // the meters stay on the hidden row
  results.set_manager_filter({});
  EXPECT_EQ(shown->rowCount(), static_cast<int>(1 + shape.managers));
  EXPECT_TRUE(results.live_view().selectionModel()->isSelected(filter.mapFromSource(third)));

  window.select({2, 5});  // host-003's Worker 6
  window.set_manager_filter(QStringLiteral("host-00"));
  EXPECT_EQ(window.topology_view().model()->rowCount(), static_cast<int>(std::min<std::size_t>(shape.managers, 9)));
  window.set_manager_filter(QStringLiteral("no such host"));
  EXPECT_EQ(window.topology_view().model()->rowCount(), 0);
  window.set_manager_filter(QStringLiteral("host-003"));
  const auto selected = window.topology_view().selectionModel()->selectedRows();
  ASSERT_EQ(selected.size(), 1);
  EXPECT_EQ(selected.front().data().toString(), QStringLiteral("Worker 6"));
  results.set_manager_filter(QStringLiteral("host-003"));
  results.live_view().expand(filter.mapFromSource(third));
  save_screenshot(window, "fleet-filtered");

  const auto& blocks = probe.blocks_ms();
  ASSERT_EQ(blocks.size(), shape.updates_per_run);
  const std::vector<qint64> steady(blocks.begin() + 1, blocks.end());
  const auto& cpu = probe.cpu_ms();
  ASSERT_EQ(cpu.size(), shape.updates_per_run);
  const std::vector<qint64> steady_cpu(cpu.begin() + 1, cpu.end());
  std::string each;
  for (const auto block : blocks) each += (each.empty() ? "" : ",") + std::to_string(block);
  std::printf("gui-scale managers=%zu workers=%zu updates=%zu load_ms=%lld first_update_ms=%lld run_end_ms=%lld run_end_cpu_ms=%lld "
              "max_block_ms=%lld median_block_ms=%lld max_cpu_ms=%lld median_cpu_ms=%lld idle_gap_ms=%lld blocks_ms=%s\n",
              shape.managers, shape.workers_per_manager, blocks.size(), static_cast<long long>(load_ms),
              static_cast<long long>(blocks.front()), static_cast<long long>(probe.run_end_ms()),
              static_cast<long long>(run_end_cpu_ms),
              static_cast<long long>(*std::max_element(steady.begin(), steady.end())),
              static_cast<long long>(median(steady)),
              static_cast<long long>(*std::max_element(steady_cpu.begin(), steady_cpu.end())),
              static_cast<long long>(median(steady_cpu)), static_cast<long long>(idle_ms), each.c_str());
}

// A UI thread busy while the series reports five updates takes only the newest one afterwards,
// then the finished run, in order.
TEST(GuiScale, HandsABusyUiThreadOnlyTheNewestLiveUpdate) {
  testing::FleetShape shape;
  shape.managers = 2;
  shape.workers_per_manager = 2;
  std::atomic<bool> reported{false};
  Session session(controller::RegistryOptions{});
  session.set_series_runner([&](const std::vector<controller::ManagerLink*>&, const controller::SeriesPlan& series,
                                controller::SeriesObserver& observer, controller::ResultsRecorder&, std::stop_token) {
    const auto& run = series.runs.front();
    observer.run_started(0, 1, run);
    for (int second = 1; second <= 5; ++second) {
      controller::LiveFigures figures;
      figures.run_count = 1;
      figures.run = &run;
      figures.phase = controller::LivePhase::recording;
      figures.elapsed_s = second;
      observer.live(figures);
    }
    results::RunResults finished{run.info, {}};
    observer.run_finished(0, finished, results::summarize_run(finished));
    reported = true;
    return controller::SeriesOutcome{};
  });
  std::vector<double> seen;
  bool run_finished_after_live = false;
  QObject::connect(&session, &Session::live, [&](const LiveUpdate& update) { seen.push_back(update.elapsed_s); });
  QObject::connect(&session, &Session::run_finished, [&] { run_finished_after_live = seen.size() == 1; });
  bool finished = false;
  QObject::connect(&session, &Session::series_finished, [&] { finished = true; });
  ASSERT_TRUE(session.start_series(testing::fleet_series(shape), std::string()));
  while (!reported) std::this_thread::sleep_for(std::chrono::milliseconds(5));  // the UI thread is busy
  ASSERT_TRUE(QTest::qWaitFor([&] { return finished; }, 10'000));
  EXPECT_EQ(seen, std::vector<double>{5.0});
  EXPECT_TRUE(run_finished_after_live);
  EXPECT_EQ(session.last_results().runs.size(), 1U);
}

}  // namespace
}  // namespace iomark::gui
