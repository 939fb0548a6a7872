#include "iomark/gui/charts/max_iops_chart.hpp"

#include <algorithm>
#include <cmath>
#include <initializer_list>
#include <vector>

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLegend>
#include <QLegendMarker>
#include <QLineSeries>
#include <QLogValueAxis>
#include <QPen>
#include <QScatterSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include "iomark/gui/charts/chart_export.hpp"
#include "iomark/gui/charts/chart_style.hpp"
#include "iomark/results/max_iops_curve.hpp"

namespace iomark::gui {

namespace {

// applyNiceNumbers() starts from the axis's tick count and changes it: set again before each
// call, so a chart redrawn step after step does not drift to ever fewer ticks.
constexpr int kTicks = 6;

QString latency_title(const std::string& figure) {
  if (figure == "avg") return QObject::tr("average response time (ms)");
  if (figure == "p99") return QObject::tr("99th percentile response time (ms)");
  if (figure == "p99.9") return QObject::tr("99.9th percentile response time (ms)");
  return QString::fromStdString(figure) + QObject::tr(" (ms)");
}

// "p99 ≤ 2 ms": chart titles and legends are rich text, where "<=" would open a tag.
QString legend_bound_text(const results::MaxIopsRecord& record) {
  return QString::fromStdString(record.figure) + QStringLiteral(" \u2264 ") +
         QString::fromStdString(results::limit_ms_text(record.limit_ms));
}

QString runs_text(std::size_t runs) {
  return runs == 1 ? QObject::tr("1 run") : QObject::tr("%1 runs").arg(runs);
}

}  // namespace

MaxIopsChart::MaxIopsChart(QWidget* parent) : QWidget(parent) {
  auto* view = make_chart_view({}, this);
  chart_ = view->chart();
  runs_ = add_line_series(*chart_, tr("each run"), curve_color(0), Qt::SolidLine);
  runs_->setPointsVisible(true);
  bound_ = add_line_series(*chart_, tr("bound"), curve_color(4), Qt::DashLine);
  chosen_ = new QScatterSeries(chart_);
  chosen_->setMarkerSize(14.0);
  chosen_->setColor(curve_color(1));
  chosen_->setBorderColor(curve_color(1));
  chart_->addSeries(chosen_);

  iops_axis_ = new QValueAxis(chart_);
  iops_axis_->setTitleText(tr("IOPS"));
  iops_axis_->setLabelFormat(QStringLiteral("%.0f"));
  chart_->addAxis(iops_axis_, Qt::AlignBottom);
  linear_axis_ = new QValueAxis(chart_);
  linear_axis_->setLabelFormat(QStringLiteral("%.3g"));
  chart_->addAxis(linear_axis_, Qt::AlignLeft);
  log_axis_ = new QLogValueAxis(this);  // on the chart only while a run passes ten times the bound
  log_axis_->setBase(10.0);
  log_axis_->setLabelFormat(QStringLiteral("%g"));
  log_axis_->setMinorTickCount(-1);  // Qt's own: one at 2, 3, ... 9 times each power of ten
  for (QXYSeries* series : std::initializer_list<QXYSeries*>{runs_, bound_, chosen_}) {
    series->attachAxis(iops_axis_);
    series->attachAxis(linear_axis_);
  }

  verdict_ = add_view_with_verdict(*this, *view);
  add_export_action(*this, QStringLiteral("iomark-max-iops"));
  redraw();
}

std::size_t MaxIopsChart::step_count() const noexcept { return static_cast<std::size_t>(runs_->count()); }

bool MaxIopsChart::logarithmic() const noexcept { return chart_->axes(Qt::Vertical).contains(log_axis_); }

void MaxIopsChart::set_record(const results::MaxIopsRecord& record) {
  record_ = record;
  series_ended_ = false;
  redraw();
}

void MaxIopsChart::set_final_record(const results::MaxIopsRecord& record) {
  record_ = record;
  series_ended_ = true;
  redraw();
}

void MaxIopsChart::clear() {
  record_.reset();
  series_ended_ = false;
  redraw();
}

QString MaxIopsChart::verdict_text() const { return verdict_->text(); }

void MaxIopsChart::use_latency_axis(bool logarithmic) {
  QAbstractAxis* wanted = logarithmic ? static_cast<QAbstractAxis*>(log_axis_) : linear_axis_;
  QAbstractAxis* other = logarithmic ? static_cast<QAbstractAxis*>(linear_axis_) : log_axis_;
  if (chart_->axes(Qt::Vertical).contains(wanted)) return;
  for (QXYSeries* series : std::initializer_list<QXYSeries*>{runs_, bound_, chosen_}) series->detachAxis(other);
  chart_->removeAxis(other);
  other->setParent(this);  // removeAxis() gives it up; it is wanted again at the next switch
  chart_->addAxis(wanted, Qt::AlignLeft);
  for (QXYSeries* series : std::initializer_list<QXYSeries*>{runs_, bound_, chosen_}) series->attachAxis(wanted);
}

void MaxIopsChart::redraw() {
  for (QXYSeries* series : std::initializer_list<QXYSeries*>{runs_, bound_, chosen_}) series->clear();
  const auto chosen_markers = chart_->legend()->markers(chosen_);
  if (!record_) {
    use_latency_axis(false);
    chart_->setTitle(tr("Latency against IOPS"));
    bound_->setName(tr("bound"));
    for (auto* marker : chosen_markers) marker->setVisible(false);
    iops_axis_->setRange(0.0, 1.0);
    linear_axis_->setTitleText({});
    linear_axis_->setRange(0.0, 1.0);
    verdict_->setText(tr("No search: tick Find max IOPS under Test Setup, then Start."));
    return;
  }
  const auto& record = *record_;
  const QString bound = legend_bound_text(record);
  chart_->setTitle(tr("Latency against IOPS (%1)").arg(bound));

  double most_iops = 0.0;
  double highest = record.limit_ms;
  double lowest = record.limit_ms;
  for (const std::size_t s : results::steps_by_iops(record)) {
    const auto& step = record.steps[s];
    runs_->append(step.iops, step.latency_ms);
    most_iops = std::max(most_iops, step.iops);
    highest = std::max(highest, step.latency_ms);
    if (step.latency_ms > 0.0) lowest = std::min(lowest, step.latency_ms);
  }
  iops_axis_->setRange(0.0, nice_upper_bound(most_iops));
  iops_axis_->setTickCount(kTicks);
  iops_axis_->applyNiceNumbers();
  bound_->setName(tr("bound: %1").arg(bound));
  bound_->append(iops_axis_->min(), record.limit_ms);
  bound_->append(iops_axis_->max(), record.limit_ms);
  if (record.chosen && *record.chosen < record.steps.size()) {
    const auto& step = record.steps[*record.chosen];
    chosen_->append(step.iops, step.latency_ms);
    chosen_->setName(tr("chosen: %1 IOPS at QD %2").arg(QString::number(step.iops, 'f', 0)).arg(step.outstanding_ios));
  }
  for (auto* marker : chosen_markers) marker->setVisible(chosen_->count() > 0);

  const bool logarithmic = results::wants_log_latency_axis(record);
  use_latency_axis(logarithmic);
  if (logarithmic) {
    log_axis_->setTitleText(latency_title(record.figure));
    log_axis_->setRange(std::pow(10.0, std::floor(std::log10(lowest))), std::pow(10.0, std::ceil(std::log10(highest))));
  } else {
    linear_axis_->setTitleText(latency_title(record.figure));
    linear_axis_->setRange(0.0, nice_upper_bound(highest));
    linear_axis_->setTickCount(kTicks);
    linear_axis_->applyNiceNumbers();
  }

  const auto runs = runs_text(record.steps.size());
  const auto conclusion = QString::fromStdString(record.conclusion);
  if (record.finished) {
    verdict_->setText(tr("Search done after %1: %2").arg(runs, conclusion));
  } else if (!series_ended_) {
    verdict_->setText(record.steps.empty() ? tr("Searching...")
                                           : tr("Searching... %1 so far: %2").arg(runs, conclusion));
  } else if (record.steps.empty()) {
    verdict_->setText(tr("The search was cut short before its first run (%1 <= %2 ms).")
                          .arg(QString::fromStdString(record.figure), QString::number(record.limit_ms, 'g', 6)));
  } else {
    verdict_->setText(tr("The search was cut short after %1: %2").arg(runs, conclusion));
  }
}

}  // namespace iomark::gui
