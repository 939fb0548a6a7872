// Renders each chart widget fed real results to a PNG, for looking at them and for the docs:
//   chart_screenshots OUTDIR RESULTS.json INSTANTANEOUS.csv COMPARE_FILE...
// RESULTS.json: an `iomark run --qd 1,2,4,... --json` series (QD curves, latency of its last
// run). INSTANTANEOUS.csv: an IOmeter 1.1.0 side file, replayed into the live chart; it has no
// percentiles, so the p99 line shows the upper edge of the latency bin holding the 99th
// percentile of each sample. COMPARE_FILE...: opened in the compare view.
// Runs offscreen unless QT_QPA_PLATFORM says otherwise. Exit code 0, or 1 with a message.
#include <array>
#include <cstdio>
#include <set>
#include <string>

#include <QApplication>
#include <QDateTime>
#include <QDir>
#include <QFile>
#include <QTableView>

#include "iomark/gui/charts/chart_export.hpp"
#include "iomark/gui/charts/latency_chart.hpp"
#include "iomark/gui/charts/live_chart.hpp"
#include "iomark/gui/charts/qd_chart.hpp"
#include "iomark/gui/compare/compare_view.hpp"
#include "iomark/results/csv_reader.hpp"
#include "iomark/results/run_points.hpp"

namespace {

using namespace iomark;

int failed(const std::string& message) {
  std::fprintf(stderr, "chart_screenshots: %s\n", message.c_str());
  return 1;
}

Result<std::string> read_file(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    return fail(Error(ErrorCode::io_error, file.errorString().toStdString()).at({path.toStdString(), 0}));
  }
  return file.readAll().toStdString();
}

Result<void> save(QWidget& widget, const QDir& out, const QString& name) {
  widget.show();  // lays out the children; offscreen nothing appears
  QApplication::processEvents();
  const QString path = out.filePath(name);
  auto saved = gui::export_widget(widget, path);
  if (saved) std::printf("%s\n", path.toLocal8Bit().constData());
  return saved;
}

// Upper edges of IOmeter's 21 latency bins in ms (the last is open).
constexpr std::array<double, 21> kBinUpperMs{0.05, 0.1, 0.2, 0.5, 1, 2, 5, 10, 15, 20, 30,
                                             50, 100, 200, 500, 1000, 2000, 4700, 5000, 10000, 20000};

// Per sample round (each worker once), the sums of the interval WORKER rows.
std::vector<gui::LiveSample> replay(const results::CsvRun& run) {
  std::vector<gui::LiveSample> samples;
  std::set<std::string> seen;
  std::array<double, 21> bins{};
  double weighted_ms = 0.0;
  QDateTime first;
  const auto close_round = [&] {
    if (samples.empty() || samples.back().iops <= 0.0) return;
    auto& s = samples.back();
    s.average_ms = weighted_ms / s.iops;
    double total = 0.0;
    for (const double b : bins) total += b;
    double below = 0.0;
    for (std::size_t i = 0; i < bins.size(); ++i) {
      below += bins[i];
      if (below >= 0.99 * total) {
        s.p99_ms = kBinUpperMs[i];
        break;
      }
    }
  };
  for (const results::CsvRow& row : run.rows) {
    if (row.type != "WORKER" || !row.spec.empty()) continue;  // whole-run rows name their spec
    if (seen.contains(row.name) || samples.empty()) {
      close_round();
      seen.clear();
      bins = {};
      weighted_ms = 0.0;
      const QDateTime stamp = QDateTime::fromString(QString::fromStdString(row.time_stamp), "yyyy-MM-dd HH:mm:ss:zzz");
      if (!first.isValid()) first = stamp;
      samples.push_back({static_cast<double>(first.msecsTo(stamp)) / 1000.0, 0, 0, 0, 0});
    }
    seen.insert(row.name);
    auto& s = samples.back();
    s.iops += row.stats.iops.value_or(0.0);
    s.mb_per_s += row.stats.mb_per_s.value_or(0.0);
    weighted_ms += row.stats.iops.value_or(0.0) * row.stats.average_response_ms.value_or(0.0);
    if (const auto profile = results::latency_profile(row)) {
      for (std::size_t i = 0; i < bins.size(); ++i) bins[i] += static_cast<double>(profile->bins[i]);
    }
  }
  close_round();
  return samples;
}

int run(const QStringList& args) {
  if (args.size() < 4) return failed("usage: chart_screenshots OUTDIR RESULTS.json INSTANTANEOUS.csv COMPARE_FILE...");
  const QDir out(args[1]);
  if (!out.exists()) return failed(args[1].toStdString() + ": no such directory");

  const auto json = read_file(args[2]);
  if (!json) return failed(json.error().describe());
  const auto points = results::read_run_points(*json, args[2].toStdString());
  if (!points) return failed(points.error().describe());
  gui::QdChart qd;
  qd.resize(1200, 560);
  qd.set_curves(results::qd_curves(*points));
  if (auto saved = save(qd, out, "qd_chart.png"); !saved) return failed(saved.error().describe());

  gui::LatencyChart latency;
  latency.resize(1100, 460);
  const results::RunPoint* last = nullptr;
  for (const auto& point : *points) {
    if (point.manager.empty()) last = &point;
  }
  if (last == nullptr || !last->latency) return failed(args[2].toStdString() + ": no run with a histogram");
  latency.set_profile(*last->latency, QStringLiteral("run %1, %2 outstanding I/Os")
                                          .arg(last->run + 1)
                                          .arg(last->queue_depth.value_or(0)));
  if (auto saved = save(latency, out, "latency_chart.png"); !saved) return failed(saved.error().describe());

  const auto instant_text = read_file(args[3]);
  if (!instant_text) return failed(instant_text.error().describe());
  const auto instant = results::read_results_csv(*instant_text, args[3].toStdString());
  if (!instant) return failed(instant.error().describe());
  if (instant->empty() || instant->front().runs.empty()) return failed(args[3].toStdString() + ": no run");
  gui::LiveChart live;
  live.resize(900, 620);
  for (const auto& sample : replay(instant->front().runs.front())) live.add_sample(sample);
  if (auto saved = save(live, out, "live_chart.png"); !saved) return failed(saved.error().describe());

  gui::CompareView compare;
  compare.resize(1400, 900);
  compare.open_files(args.mid(4));
  if (auto saved = save(compare, out, "compare_view.png"); !saved) return failed(saved.error().describe());
  return compare.error_text().isEmpty() ? 0 : failed(compare.error_text().toStdString());
}

}  // namespace

int main(int argc, char** argv) {
  if (qEnvironmentVariableIsEmpty("QT_QPA_PLATFORM")) qputenv("QT_QPA_PLATFORM", "offscreen");
  QApplication app(argc, argv);
  return run(QApplication::arguments());
}
