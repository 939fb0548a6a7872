#include "iomark/gui/charts/latency_chart.hpp"

#include <algorithm>
#include <cmath>

#include <QBarCategoryAxis>
#include <QBarSeries>
#include <QBarSet>
#include <QChart>
#include <QChartView>
#include <QHBoxLayout>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QValueAxis>

#include "iomark/gui/charts/chart_export.hpp"
#include "iomark/gui/charts/chart_style.hpp"

namespace iomark::gui {

namespace {

// "0.5 to 1 mS" -> "0.5-1 ms": IOmeter's captions, short enough for an axis.
QString bin_label(std::string_view caption) {
  QString label = QString::fromUtf8(caption.data(), static_cast<qsizetype>(caption.size())).trimmed();
  label.replace(QStringLiteral(" to "), QStringLiteral("-"));
  label.replace(QStringLiteral("uS"), QStringLiteral("µs"));
  label.replace(QStringLiteral("mS"), QStringLiteral("ms"));
  label.replace(QStringLiteral(" S"), QStringLiteral(" s"));
  return label;
}

QString percentile_label(double percentile) { return QString::number(percentile, 'g', 6); }

// A log axis cannot show 0; a percentile of 0 ms (an empty histogram) sits at 1 ns.
constexpr double kFloorMs = 1e-6;

// Point labels print the value itself; three significant digits keep them short.
double three_digits(double ms) {
  const double scale = std::pow(10.0, std::floor(std::log10(ms)) - 2.0);
  return std::round(ms / scale) * scale;
}

void remove_everything(QChart& chart) {
  chart.removeAllSeries();
  for (QAbstractAxis* axis : chart.axes()) {
    chart.removeAxis(axis);
    delete axis;
  }
}

}  // namespace

LatencyChart::LatencyChart(QWidget* parent) : QWidget(parent) {
  auto* bins_view = make_chart_view(tr("Latency histogram"), this);
  percentile_view_ = make_chart_view(tr("Latency percentiles"), this);
  bins_ = bins_view->chart();
  percentiles_ = percentile_view_->chart();
  bins_->legend()->hide();
  percentiles_->legend()->hide();
  auto* layout = new QHBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  // The 21 bins need the width: Qt Charts elides category labels that do not fit.
  layout->addWidget(bins_view, 3);
  layout->addWidget(percentile_view_, 2);
  add_export_action(*this, QStringLiteral("iomark-latency"));
}

void LatencyChart::set_histogram(const CompactLatencyHistogram& histogram, const QString& title) {
  set_profile(results::latency_profile(histogram), title);
}

void LatencyChart::clear(const QString& title) {
  remove_everything(*bins_);
  remove_everything(*percentiles_);
  bins_->setTitle(title.isEmpty() ? tr("Latency histogram") : title);
  percentile_view_->setVisible(title.isEmpty());
}

void LatencyChart::set_profile(const results::LatencyProfile& profile, const QString& title) {
  clear();
  bins_->setTitle(title.isEmpty() ? tr("Latency histogram") : tr("Latency histogram: %1").arg(title));

  std::uint64_t total = 0;
  for (const auto count : profile.bins) total += count;
  auto* set = new QBarSet(tr("% of I/Os"));
  set->setColor(curve_color(0));
  set->setBorderColor(curve_color(0));
  QStringList categories;
  const auto captions = legacy_latency_bin_captions();
  double highest = 0.0;
  for (std::size_t i = 0; i < profile.bins.size(); ++i) {
    const double share = total == 0 ? 0.0 : 100.0 * static_cast<double>(profile.bins[i]) / static_cast<double>(total);
    set->append(share);
    highest = std::max(highest, share);
    categories << bin_label(captions[i]);
  }
  auto* bars = new QBarSeries(bins_);
  bars->append(set);
  bars->setBarWidth(0.9);
  bins_->addSeries(bars);
  auto* bin_axis = new QBarCategoryAxis(bins_);
  bin_axis->append(categories);
  bin_axis->setLabelsAngle(-90);
  bin_axis->setTitleText(tr("latency"));
  auto* share_axis = new QValueAxis(bins_);
  share_axis->setRange(0.0, std::min(100.0, nice_upper_bound(highest)));
  share_axis->applyNiceNumbers();
  share_axis->setLabelFormat(QStringLiteral("%.0f"));
  share_axis->setTitleText(tr("% of I/Os"));
  bins_->addAxis(bin_axis, Qt::AlignBottom);
  bins_->addAxis(share_axis, Qt::AlignLeft);
  bars->attachAxis(bin_axis);
  bars->attachAxis(share_axis);

  percentile_view_->setVisible(!profile.percentiles.empty());
  if (profile.percentiles.empty()) return;
  auto* line = new QLineSeries(percentiles_);
  line->setName(tr("latency"));
  QPen pen(curve_color(1));
  pen.setWidthF(2.0);
  line->setPen(pen);
  line->setPointsVisible(true);
  line->setPointLabelsVisible(true);
  line->setPointLabelsFormat(QStringLiteral("@yPoint"));
  line->setPointLabelsClipping(false);
  QStringList names;
  double low = profile.percentiles.front().latency_ms;
  double high = low;
  for (std::size_t i = 0; i < profile.percentiles.size(); ++i) {
    const auto& p = profile.percentiles[i];
    const double ms = three_digits(std::max(p.latency_ms, kFloorMs));
    line->append(static_cast<double>(i), ms);
    names << percentile_label(p.percentile);
    low = std::min(low, ms);
    high = std::max(high, ms);
  }
  percentiles_->addSeries(line);
  auto* which = new QBarCategoryAxis(percentiles_);
  which->append(names);
  which->setTitleText(tr("percentile (p50 ... p99.99)"));
  auto* ms_axis = new QLogValueAxis(percentiles_);
  ms_axis->setBase(10.0);
  ms_axis->setLabelFormat(QStringLiteral("%g"));
  ms_axis->setTitleText(tr("ms (log)"));
  ms_axis->setMinorTickCount(8);
  // From a power of ten, so that the axis has at least one labelled tick, to just above the top.
  ms_axis->setRange(std::pow(10.0, std::floor(std::log10(low))), high * 2.0);
  percentiles_->addAxis(which, Qt::AlignBottom);
  percentiles_->addAxis(ms_axis, Qt::AlignLeft);
  line->attachAxis(which);
  line->attachAxis(ms_axis);
}

}  // namespace iomark::gui
