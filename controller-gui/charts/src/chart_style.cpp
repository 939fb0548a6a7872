#include "iomark/gui/charts/chart_style.hpp"

#include <array>
#include <cmath>

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QPainter>
#include <QPen>
#include <QVBoxLayout>

namespace iomark::gui {

QColor curve_color(std::size_t index) {
  // Okabe-Ito, then Tableau: distinguishable for colour-blind readers first.
  static constexpr std::array<QRgb, 14> kPalette{0x0072B2, 0xD55E00, 0x009E73, 0xCC79A7, 0xE69F00, 0x56B4E9, 0x000000,
                                                 0x8C564B, 0x7F7F7F, 0xBCBD22, 0x17BECF, 0x9467BD, 0xF0E442, 0x2CA02C};
  return QColor(kPalette[index % kPalette.size()]);
}

QLineSeries* add_line_series(QChart& chart, const QString& name, const QColor& color, Qt::PenStyle style) {
  auto* series = new QLineSeries(&chart);
  series->setName(name);
  QPen pen(color);
  pen.setWidthF(2.0);
  pen.setStyle(style);
  series->setPen(pen);
  chart.addSeries(series);
  return series;
}

QChartView* make_chart_view(const QString& title, QWidget* parent) {
  auto* chart = new QChart;
  chart->setTitle(title);
  chart->setAnimationOptions(QChart::NoAnimation);
  chart->legend()->setAlignment(Qt::AlignBottom);
  chart->setMargins(QMargins(4, 4, 4, 4));
  auto* view = new QChartView(chart, parent);  // takes ownership of the chart
  view->setRenderHint(QPainter::Antialiasing);
  view->setMinimumSize(320, 240);
  return view;
}

QLabel* add_view_with_verdict(QWidget& owner, QChartView& view) {
  auto* verdict = new QLabel(&owner);
  verdict->setTextFormat(Qt::PlainText);  // a conclusion's "<=" is not a tag
  verdict->setWordWrap(true);
  verdict->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* layout = new QVBoxLayout(&owner);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(&view, 1);
  layout->addWidget(verdict);
  return verdict;
}

double nice_upper_bound(double maximum) {
  if (!(maximum > 0.0)) return 1.0;
  const double magnitude = std::pow(10.0, std::floor(std::log10(maximum)));
  for (const double step : {1.0, 1.2, 1.5, 2.0, 2.5, 3.0, 4.0, 5.0, 6.0, 8.0, 10.0}) {
    if (maximum * 1.05 <= step * magnitude) return step * magnitude;
  }
  return 12.0 * magnitude;
}

}  // namespace iomark::gui
