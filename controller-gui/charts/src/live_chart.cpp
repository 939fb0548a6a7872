#include "iomark/gui/charts/live_chart.hpp"

#include <algorithm>

#include <QChart>
#include <QChartView>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include "iomark/gui/charts/chart_export.hpp"
#include "iomark/gui/charts/chart_style.hpp"

namespace iomark::gui {

namespace {

QValueAxis* add_axis(QChart& chart, const QString& title, Qt::Alignment alignment, const QString& format) {
  auto* axis = new QValueAxis(&chart);
  axis->setTitleText(title);
  axis->setLabelFormat(format);
  axis->setRange(0.0, 1.0);
  chart.addAxis(axis, alignment);
  return axis;
}

// A tick interval of 1, 2 or 5 times a power of ten seconds (at least 1 s) giving at most
// about 8 ticks over `span_s`.
double time_step(double span_s) {
  double step = 1.0;
  for (;;) {
    for (const double factor : {1.0, 2.0, 5.0}) {
      if (span_s / (step * factor) <= 8.0) return step * factor;
    }
    step *= 10.0;
  }
}

}  // namespace

LiveChart::LiveChart(QWidget* parent, std::size_t capacity) : QWidget(parent), capacity_(std::max<std::size_t>(capacity, 2)) {
  auto* throughput_view = make_chart_view(tr("Throughput"), this);
  auto* latency_view = make_chart_view(tr("Response time"), this);
  throughput_ = throughput_view->chart();
  latency_ = latency_view->chart();

  iops_ = add_line_series(*throughput_, tr("IOPS"), curve_color(0), Qt::SolidLine);
  mb_per_s_ = add_line_series(*throughput_, tr("MB/s"), curve_color(1), Qt::SolidLine);
  throughput_time_ = add_axis(*throughput_, tr("time (s)"), Qt::AlignBottom, QStringLiteral("%.0f"));
  iops_axis_ = add_axis(*throughput_, tr("IOPS"), Qt::AlignLeft, QStringLiteral("%.0f"));
  mb_per_s_axis_ = add_axis(*throughput_, tr("MB/s"), Qt::AlignRight, QStringLiteral("%.1f"));
  iops_axis_->setLinePenColor(curve_color(0));
  mb_per_s_axis_->setLinePenColor(curve_color(1));
  mb_per_s_axis_->setGridLineVisible(false);  // its ticks need not meet the IOPS grid
  iops_->attachAxis(throughput_time_);
  iops_->attachAxis(iops_axis_);
  mb_per_s_->attachAxis(throughput_time_);
  mb_per_s_->attachAxis(mb_per_s_axis_);

  average_ms_ = add_line_series(*latency_, tr("average"), curve_color(2), Qt::SolidLine);
  p99_ms_ = add_line_series(*latency_, tr("p99"), curve_color(3), Qt::DashLine);
  latency_time_ = add_axis(*latency_, tr("time (s)"), Qt::AlignBottom, QStringLiteral("%.0f"));
  ms_axis_ = add_axis(*latency_, tr("ms"), Qt::AlignLeft, QStringLiteral("%.2f"));
  for (auto* series : {average_ms_, p99_ms_}) {
    series->attachAxis(latency_time_);
    series->attachAxis(ms_axis_);
  }

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(throughput_view);
  layout->addWidget(latency_view);
  add_export_action(*this, QStringLiteral("iomark-live"));
}

void LiveChart::add_sample(const LiveSample& sample) {
  samples_.push_back(sample);
  iops_->append(sample.time_s, sample.iops);
  mb_per_s_->append(sample.time_s, sample.mb_per_s);
  average_ms_->append(sample.time_s, sample.average_ms);
  if (sample.p99_ms) p99_ms_->append(sample.time_s, *sample.p99_ms);
  if (samples_.size() > capacity_) {
    samples_.pop_front();
    for (auto* series : {iops_, mb_per_s_, average_ms_}) series->remove(0);
    // p99 has points only for the samples that knew it.
    while (p99_ms_->count() > 0 && p99_ms_->at(0).x() < samples_.front().time_s) p99_ms_->remove(0);
  }
  rescale();
}

void LiveChart::clear() {
  samples_.clear();
  for (auto* series : {iops_, mb_per_s_, average_ms_, p99_ms_}) series->clear();
  rescale();
}

void LiveChart::rescale() {
  double first = 0.0;
  double last = 1.0;
  double iops = 0.0;
  double mb_per_s = 0.0;
  double ms = 0.0;
  if (!samples_.empty()) {
    first = samples_.front().time_s;
    last = std::max(samples_.back().time_s, first + 1.0);
  }
  for (const LiveSample& s : samples_) {
    iops = std::max(iops, s.iops);
    mb_per_s = std::max(mb_per_s, s.mb_per_s);
    ms = std::max({ms, s.average_ms, s.p99_ms.value_or(0.0)});
  }
  throughput_time_->setRange(first, last);
  latency_time_->setRange(first, last);
  iops_axis_->setRange(0.0, nice_upper_bound(iops));
  mb_per_s_axis_->setRange(0.0, nice_upper_bound(mb_per_s));
  ms_axis_->setRange(0.0, nice_upper_bound(ms));
  // Round ticks: whole seconds, no "12.50" labels. The time axis keeps its exact range so
  // the newest sample stays at the right edge.
  for (QValueAxis* axis : {iops_axis_, mb_per_s_axis_, ms_axis_}) axis->applyNiceNumbers();
  for (QValueAxis* axis : {throughput_time_, latency_time_}) {
    axis->setTickType(QValueAxis::TicksDynamic);
    axis->setTickAnchor(0.0);
    axis->setTickInterval(time_step(last - first));
  }
}

}  // namespace iomark::gui
