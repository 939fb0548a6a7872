#include "iomark/gui/result_charts.hpp"

#include <QElapsedTimer>
#include <QTabWidget>
#include <memory>

#include "iomark/gui/charts/chart_export.hpp"
#include "iomark/gui/charts/latency_chart.hpp"
#include "iomark/gui/charts/live_chart.hpp"
#include "iomark/gui/charts/max_iops_chart.hpp"
#include "iomark/gui/charts/qd_chart.hpp"
#include "iomark/gui/charts/steady_state_chart.hpp"
#include "iomark/gui/compare/compare_view.hpp"
#include "iomark/gui/main_window.hpp"
#include "iomark/gui/pts_iops_view.hpp"
#include "iomark/gui/session.hpp"

namespace iomark::gui {

void add_result_charts(MainWindow& window) {
  auto& session = window.session();
  auto* live = new LiveChart;
  auto* curves = new QdChart;
  auto* latency = new LatencyChart;
  auto* steady = new SteadyStateChart;
  auto* search = new MaxIopsChart;
  auto* pts = new PtsIopsView;
  add_export_action(*live, QStringLiteral("iomark-live"));
  add_export_action(*curves, QStringLiteral("iomark-qd-curves"));
  add_export_action(*latency, QStringLiteral("iomark-latency"));
  window.add_chart(live, MainWindow::tr("Live"));
  window.add_chart(curves, MainWindow::tr("IOPS and response time vs outstanding I/Os"));
  window.add_chart(latency, MainWindow::tr("Latency of the last run"));
  window.add_chart(steady, MainWindow::tr("Steady state"));
  window.add_chart(search, MainWindow::tr("Latency vs IOPS"));
  window.add_chart(pts, MainWindow::tr("PTS IOPS"));

  // The live series is drawn over the seconds since Start.
  auto clock = std::make_shared<QElapsedTimer>();
  QObject::connect(&session, &Session::series_started, live, [live, curves, latency, steady, search, pts, clock] {
    live->clear();
    curves->clear();
    latency->clear();
    steady->clear();
    search->clear();
    pts->clear();
    clock->start();
  });
  QObject::connect(&session, &Session::live, live, [live, clock](const LiveUpdate& update) {
    if (update.phase == controller::LivePhase::preparing || update.rows.empty()) return;
    const auto& all = update.rows.front();
    live->add_sample({static_cast<double>(clock->elapsed()) / 1000.0, all.iops, all.mb_per_s, all.average_ms, all.p99_ms});
  });
  QObject::connect(&session, &Session::run_finished, curves,
                   [curves, latency](std::size_t index, const results::RunResults& run,
                                     const results::RunSummary& summary) {
                     curves->add_run(run, summary);
                     latency->set_histogram(summary.all.counters.latency,
                                            MainWindow::tr("Run %1: %2")
                                                .arg(index + 1)
                                                .arg(QString::fromStdString(summary.all.spec_name)));
                   });

  QObject::connect(&session, &Session::round_judged, steady, &SteadyStateChart::set_record);
  QObject::connect(&session, &Session::search_step, search, &MaxIopsChart::set_record);
  QObject::connect(&session, &Session::pts_iops_finished, pts, &PtsIopsView::set_table);

  // After a PTS IOPS test, its table is what the user came for (its rounds are on the steady
  // state chart); after a search, its curve and conclusion; after a series in rounds, its
  // rounds; after a series of several runs, its curves.
  QObject::connect(&session, &Session::series_finished, curves,
                   [&window, curves, steady, search, pts](results::SeriesOutcome, const QString&) {
                     if (pts->table()) {
                       window.show_chart(pts);
                     } else if (const auto& record = window.session().last_results().max_iops_search) {
                       search->set_final_record(*record);
                       window.show_chart(search);
                     } else if (steady->record()) {
                       window.show_chart(steady);
                     } else if (window.session().last_results().runs.size() > 1) {
                       window.show_chart(curves);
                     }
                   });

  window.tabs().addTab(new CompareView, MainWindow::tr("&Compare"));
}

}  // namespace iomark::gui
