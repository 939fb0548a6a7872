#include "iomark/gui/results_page.hpp"

#include <QComboBox>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QSplitter>
#include <QTableView>
#include <QVBoxLayout>

#include "iomark/common/units.hpp"
#include "iomark/gui/wording.hpp"
#include "table_views.hpp"

namespace iomark::gui {

namespace {

constexpr int kIntervals[] = {1, 2, 3, 4, 5, 10, 15, 30, 45, 60};

QTableView* figures_view(FiguresModel* model) {
  auto* view = new QTableView;
  view->setModel(model);
  make_compact(*view, FiguresModel::name_column);
  // Rows arrive while the tab may be hidden: leave room for the figures from the start.
  view->horizontalHeader()->setMinimumSectionSize(view->fontMetrics().horizontalAdvance(QStringLiteral("0000000.00")));
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  return view;
}

}  // namespace

ResultsPage::ResultsPage(QWidget* parent) : QWidget(parent) {
  live_ = new FiguresModel(this);
  runs_ = new FiguresModel(this);
  live_view_ = figures_view(live_);
  runs_view_ = figures_view(runs_);
  interval_ = new QComboBox;
  for (const int seconds : kIntervals) interval_->addItem(tr("%1 s").arg(seconds), seconds);
  interval_->setToolTip(tr("How often the meters and the live table change"));
  phase_ = new QLabel(tr("No series running."));
  selected_ = new QLabel;

  auto* meters_box = new QGroupBox(tr("Live meters"));
  auto* grid = new QGridLayout(meters_box);
  for (int column = FiguresModel::iops_column; column < FiguresModel::column_count; ++column) {
    auto* caption = new QLabel(live_->headerData(column, Qt::Horizontal).toString());
    caption->setAlignment(Qt::AlignHCenter);
    auto* value = new QLabel(QStringLiteral("-"));
    value->setAlignment(Qt::AlignHCenter);
    value->setFrameShape(QFrame::StyledPanel);
    value->setMinimumWidth(90);
    auto font = value->font();
    font.setPointSizeF(font.pointSizeF() * 1.8);
    font.setBold(true);
    value->setFont(font);
    grid->addWidget(caption, 0, column - 1);
    grid->addWidget(value, 1, column - 1);
    meters_.push_back(value);
  }

  auto* header = new QHBoxLayout;
  header->addWidget(phase_, 1);
  header->addWidget(new QLabel(tr("Update every")));
  header->addWidget(interval_);

  auto* live_box = new QGroupBox(tr("Live: all managers, each manager, worker and target (select a row for the meters)"));
  auto* live_layout = new QVBoxLayout(live_box);
  live_layout->addWidget(live_view_);
  auto* runs_box = new QGroupBox(tr("Finished runs of the series"));
  auto* runs_layout = new QVBoxLayout(runs_box);
  runs_layout->addWidget(runs_view_);

  auto* splitter = new QSplitter(Qt::Vertical);
  splitter->addWidget(live_box);
  splitter->addWidget(runs_box);
  splitter->setChildrenCollapsible(false);

  auto* layout = new QVBoxLayout(this);
  layout->addLayout(header);
  layout->addWidget(selected_);
  layout->addWidget(meters_box);
  layout->addWidget(splitter, 1);

  connect(interval_, &QComboBox::currentIndexChanged, this,
          [this] { emit update_interval_changed(interval_->currentData().toInt()); });
  connect(live_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, &ResultsPage::show_meters);
  connect(live_, &QAbstractItemModel::dataChanged, this, &ResultsPage::show_meters);
  connect(live_, &QAbstractItemModel::modelReset, this, &ResultsPage::show_meters);
}

void ResultsPage::begin_series() {
  live_->set_rows({});
  runs_->set_rows({});
  phase_->setText(tr("Starting the series..."));
  since_shown_.invalidate();
}

void ResultsPage::show_live(const LiveUpdate& update) {
  const auto run = tr("Run %1 of %2 (%3)")
                       .arg(update.run_index + 1)
                       .arg(update.run_count)
                       .arg(QString::fromStdString(update.label));
  if (update.phase == controller::LivePhase::preparing) {
    phase_->setText(tr("%1: preparing the test file in %2, %3 of %4")
                        .arg(run, QString::fromStdString(update.preparing.path),
                             QString::fromStdString(format_size(Bytes(update.preparing.bytes_done))),
                             QString::fromStdString(format_size(Bytes(update.preparing.bytes_total)))));
    return;
  }
  phase_->setText(tr("%1: %2 %3 of %4, about %5 left in the series")
                      .arg(run,
                           update.phase == controller::LivePhase::ramp_up ? tr("ramp-up") : tr("recording"),
                           duration_text(update.elapsed_s), duration_text(update.phase_s),
                           duration_text(update.remaining_s)));
  if (since_shown_.isValid() && since_shown_.elapsed() < update_interval_s() * 1000LL - 200) return;
  since_shown_.start();
  const bool first = live_->rowCount() == 0;
  live_->set_rows(update.rows);
  if (first && live_->rowCount() > 0) live_view_->selectRow(0);
}

void ResultsPage::end_series(const QString& text) {
  phase_->setText(text);
  since_shown_.invalidate();
}

void ResultsPage::add_run(std::size_t index, const results::RunResults& run, const results::RunSummary& summary) {
  auto row = figure_row(summary.all, std::to_string(index + 1) + ". " + summary.all.spec_name);
  if (run.info.queue_depth) row.name += ", QD " + std::to_string(*run.info.queue_depth);
  runs_->append_row(std::move(row));
  runs_view_->scrollToBottom();
}

void ResultsPage::set_update_interval_s(int seconds) {
  int best = 0;
  for (int i = 0; i < interval_->count(); ++i) {
    if (interval_->itemData(i).toInt() <= seconds) best = i;
  }
  interval_->setCurrentIndex(best);
}

int ResultsPage::update_interval_s() const { return interval_->currentData().toInt(); }

void ResultsPage::show_meters() {
  const auto rows = live_view_->selectionModel()->selectedRows();
  const int row = rows.isEmpty() ? 0 : rows.front().row();
  if (row >= live_->rowCount()) {
    for (auto* meter : meters_) meter->setText(QStringLiteral("-"));
    selected_->clear();
    return;
  }
  selected_->setText(tr("Meters of: <b>%1</b>")
                         .arg(live_->index(row, FiguresModel::name_column).data().toString().trimmed().toHtmlEscaped()));
  for (int column = FiguresModel::iops_column; column < FiguresModel::column_count; ++column) {
    meters_[static_cast<std::size_t>(column - 1)]->setText(live_->index(row, column).data().toString());
  }
}

}  // namespace iomark::gui
