// Looks shared by every iomark chart, so the live, QD, latency and compare views match.
//
// GUI thread only.
#pragma once

#include <cstddef>

#include <QColor>
#include <QString>

class QChart;
class QChartView;
class QLabel;
class QLineSeries;
class QWidget;

namespace iomark::gui {

// The colour of curve `index` (a qualitative palette that cycles).
[[nodiscard]] QColor curve_color(std::size_t index);

// A chart with `title`, no animations, legend at the bottom, and a view that draws it
// antialiased; the view is a child of `parent`.
[[nodiscard]] QChartView* make_chart_view(const QString& title, QWidget* parent);

// A line series named `name` in `chart`'s colour and pen style, 2 px wide, owned by the chart.
QLineSeries* add_line_series(QChart& chart, const QString& name, const QColor& color, Qt::PenStyle style);

// Lays `view` out in `owner` with a label under it for the chart's verdict (plain text,
// selectable, wrapped), as the round and search charts show theirs; returns the label.
QLabel* add_view_with_verdict(QWidget& owner, QChartView& view);

// A "nice" upper bound for a value axis showing values up to `maximum` (at least 1).
[[nodiscard]] double nice_upper_bound(double maximum);

}  // namespace iomark::gui
