#include "iomark/gui/charts/qd_chart.hpp"

#include <algorithm>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QComboBox>
#include <QCursor>
#include <QHBoxLayout>
#include <QLabel>
#include <QLineSeries>
#include <QListWidget>
#include <QLogValueAxis>
#include <QPixmap>
#include <QScrollBar>
#include <QToolTip>
#include <QValueAxis>
#include <QVBoxLayout>

#include "iomark/gui/charts/chart_export.hpp"
#include "iomark/gui/charts/chart_style.hpp"

namespace iomark::gui {

namespace {

constexpr int kCurveRole = Qt::UserRole;  // legend item -> index into curves_

bool in_scope(const results::QdCurve& curve, CurveScope scope) {
  return (scope == CurveScope::totals) == curve.manager.empty();
}

// The powers of two around every queue depth shown, at least one doubling wide.
std::pair<double, double> depth_range(const std::vector<const results::QdCurve*>& curves) {
  std::uint32_t low = UINT32_MAX;
  std::uint32_t high = 1;
  for (const auto* curve : curves) {
    for (const auto& point : curve->points) {
      low = std::min(low, *point.queue_depth);
      high = std::max(high, *point.queue_depth);
    }
  }
  if (low == UINT32_MAX) return {1.0, 256.0};
  double from = std::exp2(std::floor(std::log2(static_cast<double>(low))));
  double to = std::exp2(std::ceil(std::log2(static_cast<double>(high))));
  if (to <= from) to = from * 2.0;
  return {from, to};
}

QLogValueAxis* depth_axis(QChart& chart, std::pair<double, double> range) {
  auto* axis = new QLogValueAxis(&chart);
  axis->setBase(2.0);
  axis->setLabelFormat(QStringLiteral("%g"));
  axis->setTitleText(QObject::tr("outstanding I/Os"));
  axis->setMinorTickCount(0);
  axis->setRange(range.first, range.second);
  chart.addAxis(axis, Qt::AlignBottom);
  return axis;
}

QValueAxis* value_axis(QChart& chart, const QString& title, double maximum, const QString& format) {
  auto* axis = new QValueAxis(&chart);
  axis->setTitleText(title);
  axis->setLabelFormat(format);
  axis->setRange(0.0, nice_upper_bound(maximum));
  axis->applyNiceNumbers();
  chart.addAxis(axis, Qt::AlignLeft);
  return axis;
}

QLineSeries* curve_series(QChart& chart, const QString& name, const QColor& color, Qt::PenStyle style,
                          const QString& unit) {
  auto* series = add_line_series(chart, name, color, style);
  series->setPointsVisible(true);
  QObject::connect(series, &QXYSeries::hovered, series, [series, unit](const QPointF& point, bool entered) {
    if (!entered) {
      QToolTip::hideText();
      return;
    }
    QToolTip::showText(QCursor::pos(), QStringLiteral("%1\nQD %2: %3 %4")
                                           .arg(series->name())
                                           .arg(point.x(), 0, 'g', 6)
                                           .arg(point.y(), 0, 'f', unit == QLatin1String("IOPS") ? 0 : 3)
                                           .arg(unit));
  });
  return series;
}

QIcon swatch(const QColor& color) {
  QPixmap pixmap(12, 12);
  pixmap.fill(color);
  return QIcon(pixmap);
}

}  // namespace

QdChart::QdChart(QWidget* parent) : QWidget(parent) {
  auto* iops_view = make_chart_view(tr("IOPS vs outstanding I/Os"), this);
  auto* response_view = make_chart_view({}, this);
  iops_ = iops_view->chart();
  response_ = response_view->chart();
  iops_->legend()->hide();
  response_->legend()->hide();

  scope_box_ = new QComboBox(this);
  scope_box_->addItem(tr("All managers (ALL rows)"));
  scope_box_->addItem(tr("Per manager"));
  connect(scope_box_, &QComboBox::currentIndexChanged, this,
          [this](int index) { set_scope(index == 0 ? CurveScope::totals : CurveScope::managers); });

  legend_ = new QListWidget(this);
  legend_->setFlow(QListView::LeftToRight);
  legend_->setWrapping(true);
  legend_->setResizeMode(QListView::Adjust);
  legend_->setSpacing(2);
  legend_->setSizePolicy(QSizePolicy::Preferred, QSizePolicy::Fixed);
  connect(legend_, &QListWidget::itemChanged, this, [this](QListWidgetItem* item) {
    const int curve = item->data(kCurveRole).toInt();
    const bool visible = item->checkState() == Qt::Checked;
    for (QChart* chart : {iops_, response_}) {
      for (QAbstractSeries* series : chart->series()) {
        if (series->property("curve").toInt() == curve) series->setVisible(visible);
      }
    }
  });

  auto* charts = new QHBoxLayout;
  charts->addWidget(iops_view);
  charts->addWidget(response_view);
  auto* controls = new QHBoxLayout;
  controls->addWidget(new QLabel(tr("Curves:"), this));
  controls->addWidget(scope_box_);
  controls->addStretch();
  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addLayout(controls);
  layout->addLayout(charts, 1);
  layout->addWidget(legend_);
  add_export_action(*this, QStringLiteral("iomark-qd-curves"));
  redraw();
}

void QdChart::set_curves(std::vector<results::QdCurve> curves) {
  curves_ = std::move(curves);
  redraw();
}

void QdChart::add_run(const results::RunResults& run, const results::RunSummary& summary) {
  auto points = results::run_points(run, summary, live_runs_++, run.info.description);
  live_points_.insert(live_points_.end(), std::make_move_iterator(points.begin()),
                      std::make_move_iterator(points.end()));
  set_curves(results::qd_curves(live_points_));
}

void QdChart::set_scope(CurveScope scope) {
  if (scope == scope_) return;
  scope_ = scope;
  scope_box_->setCurrentIndex(scope == CurveScope::totals ? 0 : 1);
  redraw();
}

void QdChart::clear() {
  live_points_.clear();
  live_runs_ = 0;
  set_curves({});
}

void QdChart::redraw() {
  for (QChart* chart : {iops_, response_}) {
    chart->removeAllSeries();
    for (QAbstractAxis* axis : chart->axes()) {
      chart->removeAxis(axis);
      delete axis;
    }
  }
  const QSignalBlocker block(legend_);
  legend_->clear();

  std::vector<const results::QdCurve*> shown;
  std::vector<int> indices;
  for (std::size_t i = 0; i < curves_.size(); ++i) {
    if (in_scope(curves_[i], scope_)) {
      shown.push_back(&curves_[i]);
      indices.push_back(static_cast<int>(i));
    }
  }
  double max_iops = 0.0;
  double max_ms = 0.0;
  for (const auto* curve : shown) {
    for (const auto& point : curve->points) {
      max_iops = std::max(max_iops, point.iops);
      max_ms = std::max({max_ms, point.average_response_ms, point.p99_response_ms.value_or(0.0)});
    }
  }
  const auto range = depth_range(shown);
  auto* iops_x = depth_axis(*iops_, range);
  auto* iops_y = value_axis(*iops_, tr("IOPS"), max_iops, QStringLiteral("%.0f"));
  auto* response_x = depth_axis(*response_, range);
  auto* response_y = value_axis(*response_, tr("response time (ms)"), max_ms, QStringLiteral("%.2f"));

  const auto attach = [](QLineSeries* series, QAbstractAxis* x, QAbstractAxis* y, int curve) {
    series->attachAxis(x);
    series->attachAxis(y);
    series->setProperty("curve", curve);
  };
  for (std::size_t s = 0; s < shown.size(); ++s) {
    const results::QdCurve& curve = *shown[s];
    const QColor color = curve_color(s);
    const QString label = QString::fromStdString(curve.label);
    auto* iops = curve_series(*iops_, label, color, Qt::SolidLine, QStringLiteral("IOPS"));
    auto* average = curve_series(*response_, label + tr(" (average)"), color, Qt::SolidLine, QStringLiteral("ms"));
    for (const auto& point : curve.points) {
      const auto depth = static_cast<double>(*point.queue_depth);
      iops->append(depth, point.iops);
      average->append(depth, point.average_response_ms);
    }
    attach(iops, iops_x, iops_y, indices[s]);
    attach(average, response_x, response_y, indices[s]);

    auto* item = new QListWidgetItem(swatch(color), label, legend_);
    item->setData(kCurveRole, indices[s]);
    item->setFlags(Qt::ItemIsEnabled | Qt::ItemIsUserCheckable);
    item->setCheckState(Qt::Checked);
  }
  // p99 after every average, so the series order is documented and stable.
  for (std::size_t s = 0; s < shown.size(); ++s) {
    const results::QdCurve& curve = *shown[s];
    const bool has_p99 = std::any_of(curve.points.begin(), curve.points.end(),
                                     [](const results::RunPoint& p) { return p.p99_response_ms.has_value(); });
    if (!has_p99) continue;
    auto* p99 = curve_series(*response_, QString::fromStdString(curve.label) + tr(" (p99)"), curve_color(s),
                             Qt::DashLine, QStringLiteral("ms"));
    for (const auto& point : curve.points) {
      if (point.p99_response_ms) p99->append(static_cast<double>(*point.queue_depth), *point.p99_response_ms);
    }
    attach(p99, response_x, response_y, indices[s]);
  }
  legend_->setVisible(!shown.empty());
  const bool any_p99 = response_->series().size() > static_cast<qsizetype>(shown.size());
  response_->setTitle(any_p99 ? tr("Response time vs outstanding I/Os (solid: average, dashed: p99)")
                              : tr("Response time vs outstanding I/Os (average)"));
  fit_legend();
}

void QdChart::resizeEvent(QResizeEvent* event) {
  QWidget::resizeEvent(event);
  fit_legend();
}

void QdChart::fit_legend() {
  // Wraps the items as the list view does, so the legend is as tall as its rows (a few at
  // most; more scroll) instead of a fixed box that is mostly empty or cut off.
  constexpr int kMostRows = 6;
  // The legend spans this widget; its own width may not be laid out yet.
  const int width = std::max(1, this->width() - 2 * legend_->frameWidth() -
                                    legend_->verticalScrollBar()->sizeHint().width());
  const int spacing = legend_->spacing();
  int rows = legend_->count() > 0 ? 1 : 0;
  int x = 0;
  int row_height = 0;
  for (int i = 0; i < legend_->count(); ++i) {
    const QSize item = legend_->sizeHintForIndex(legend_->model()->index(i, 0)) + QSize(2 * spacing, 2 * spacing);
    row_height = std::max(row_height, item.height());
    if (x > 0 && x + item.width() > width) {
      ++rows;
      x = 0;
    }
    x += item.width();
  }
  legend_->setFixedHeight(std::min(rows, kMostRows) * row_height + 2 * legend_->frameWidth() + 2);
}

}  // namespace iomark::gui
