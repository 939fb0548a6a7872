#include "iomark/gui/charts/steady_state_chart.hpp"

#include <algorithm>

#include <QChart>
#include <QChartView>
#include <QLabel>
#include <QLineSeries>
#include <QValueAxis>
#include <QVBoxLayout>

#include "iomark/access_specs/run_request.hpp"
#include "iomark/gui/charts/chart_export.hpp"
#include "iomark/gui/charts/chart_style.hpp"
#include "iomark/results/steady_state_lines.hpp"

namespace iomark::gui {

namespace {

using access_specs::SteadyFigure;

struct FigureWording {
  QString title;        // axis and chart title: "IOPS"
  QString unit;         // after a value: "IOPS", "ms avg"
  int decimals{};       // of a value in the verdict
  QString axis_format;  // printf format of the axis labels
};

FigureWording wording_of(const std::string& figure) {
  const auto parsed = access_specs::parse_steady_figure(figure);
  switch (parsed ? *parsed : SteadyFigure::iops) {
    case SteadyFigure::iops: return {QObject::tr("IOPS"), QObject::tr("IOPS"), 0, QStringLiteral("%.0f")};
    case SteadyFigure::mb_per_s: return {QObject::tr("MB/s"), QObject::tr("MB/s"), 2, QStringLiteral("%.1f")};
    case SteadyFigure::average_ms:
      return {QObject::tr("average response time (ms)"), QObject::tr("ms average"), 3, QStringLiteral("%.3f")};
    case SteadyFigure::p99_ms:
      return {QObject::tr("99th percentile response time (ms)"), QObject::tr("ms p99"), 3, QStringLiteral("%.3f")};
  }
  return {QString::fromStdString(figure), {}, 3, QStringLiteral("%.3f")};
}

// A tick interval of 1, 2 or 5 times a power of ten rounds giving at most about 10 ticks.
double round_step(double span) {
  double step = 1.0;
  for (;;) {
    for (const double factor : {1.0, 2.0, 5.0}) {
      if (span / (step * factor) <= 10.0) return step * factor;
    }
    step *= 10.0;
  }
}

QString percent(double fraction) { return QString::number(fraction * 100.0, 'f', 1) + QLatin1Char('%'); }

}  // namespace

SteadyStateChart::SteadyStateChart(QWidget* parent) : QWidget(parent) {
  auto* view = make_chart_view({}, this);
  chart_ = view->chart();
  rounds_ = add_line_series(*chart_, tr("each round"), curve_color(0), Qt::SolidLine);
  rounds_->setPointsVisible(true);
  average_ = add_line_series(*chart_, tr("window average"), curve_color(2), Qt::SolidLine);
  above_ = add_line_series(*chart_, tr("110% of the average"), curve_color(1), Qt::DashLine);
  below_ = add_line_series(*chart_, tr("90% of the average"), curve_color(1), Qt::DashLine);
  trend_ = add_line_series(*chart_, tr("least-squares line"), curve_color(3), Qt::DashDotLine);
  rounds_axis_ = new QValueAxis(chart_);
  rounds_axis_->setTitleText(tr("round"));
  rounds_axis_->setLabelFormat(QStringLiteral("%.0f"));
  rounds_axis_->setTickType(QValueAxis::TicksDynamic);  // whole rounds, never "2.5"
  rounds_axis_->setTickAnchor(0.0);
  chart_->addAxis(rounds_axis_, Qt::AlignBottom);
  figure_axis_ = new QValueAxis(chart_);
  chart_->addAxis(figure_axis_, Qt::AlignLeft);
  for (QLineSeries* series : {rounds_, average_, above_, below_, trend_}) {
    series->attachAxis(rounds_axis_);
    series->attachAxis(figure_axis_);
  }

  verdict_ = add_view_with_verdict(*this, *view);
  add_export_action(*this, QStringLiteral("iomark-steady-state"));
  redraw();
}

std::size_t SteadyStateChart::round_count() const noexcept { return static_cast<std::size_t>(rounds_->count()); }

void SteadyStateChart::set_record(const results::SteadyStateRecord& record) {
  record_ = record;
  redraw();
}

void SteadyStateChart::clear() {
  record_.reset();
  redraw();
}

QString SteadyStateChart::verdict_text() const { return verdict_->text(); }

void SteadyStateChart::redraw() {
  for (QLineSeries* series : {rounds_, average_, above_, below_, trend_}) series->clear();
  if (!record_) {
    chart_->setTitle(tr("Steady state per round"));
    rounds_axis_->setRange(1.0, 5.0);
    rounds_axis_->setTickInterval(1.0);
    figure_axis_->setTitleText({});
    figure_axis_->setRange(0.0, 1.0);
    verdict_->setText(tr("No steady-state rounds: choose a figure under Test Setup > Steady state, then Start."));
    return;
  }
  const auto& record = *record_;
  const auto wording = wording_of(record.figure);
  chart_->setTitle(tr("Steady state: %1 per round").arg(wording.title));
  double highest = 0.0;
  for (std::size_t r = 0; r < record.rounds.size(); ++r) {
    rounds_->append(static_cast<double>(r + 1), record.rounds[r]);
    highest = std::max(highest, record.rounds[r]);
  }
  if (const auto lines = results::steady_state_lines(record)) {
    const auto draw = [&](QLineSeries& line, double at_first, double at_last) {
      line.append(lines->first_round, at_first);
      line.append(lines->last_round, at_last);
      highest = std::max({highest, at_first, at_last});
    };
    draw(*average_, lines->average, lines->average);
    draw(*above_, lines->above, lines->above);
    draw(*below_, lines->below, lines->below);
    draw(*trend_, lines->trend_at_first, lines->trend_at_last);
  }
  const double last_round =
      static_cast<double>(std::max<std::size_t>({record.rounds.size(), record.window, std::size_t{2}}));
  rounds_axis_->setRange(1.0, last_round);
  rounds_axis_->setTickInterval(round_step(last_round - 1.0));
  figure_axis_->setTitleText(wording.title);
  figure_axis_->setLabelFormat(wording.axis_format);
  figure_axis_->setRange(0.0, nice_upper_bound(highest));
  figure_axis_->applyNiceNumbers();

  const auto value = [&](double figure) {
    return QStringLiteral("%1 %2").arg(QString::number(figure, 'f', wording.decimals), wording.unit);
  };
  const auto rounds = static_cast<qsizetype>(record.rounds.size());
  const QString window = tr("rounds %1-%2").arg(record.window_first + 1).arg(rounds);
  if (record.steady) {
    verdict_->setText(tr("Steady in round %1: average %2 over %3 (range %4, slope %5 of the average)")
                          .arg(rounds)
                          .arg(value(record.average), window, percent(record.data_excursion),
                               percent(record.slope_excursion)));
  } else if (rounds >= static_cast<qsizetype>(record.max_rounds)) {
    verdict_->setText(tr("Not steady after %1 rounds, the most asked for: %2")
                          .arg(rounds)
                          .arg(QString::fromStdString(record.reason)));
  } else {
    verdict_->setText(tr("Round %1 of at most %2: not steady yet (%3)")
                          .arg(rounds)
                          .arg(record.max_rounds)
                          .arg(QString::fromStdString(record.reason)));
  }
}

}  // namespace iomark::gui
