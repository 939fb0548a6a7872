#include "iomark/gui/results_page.hpp"

#include <QComboBox>
#include <QFrame>
#include <QGridLayout>
#include <QGroupBox>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QLabel>
#include <QLineEdit>
#include <QSignalBlocker>
#include <QSpinBox>
#include <QSplitter>
#include <QTableView>
#include <QTreeView>
#include <QVBoxLayout>
#include <algorithm>

#include "iomark/common/units.hpp"
#include "iomark/gui/manager_filter.hpp"
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

// The live tree: one line per row and columns of fixed width, so that figures changing every
// second never lay out the rows or the header again (no sizing to contents).
QTreeView* live_tree(QAbstractItemModel* model) {
  auto* view = new QTreeView;
  view->setModel(model);
  view->setUniformRowHeights(true);
  view->setWordWrap(false);
  view->setAlternatingRowColors(true);
  view->setSelectionBehavior(QAbstractItemView::SelectRows);
  view->setSelectionMode(QAbstractItemView::SingleSelection);
  auto* header = view->header();
  header->setStretchLastSection(false);
  header->setSectionResizeMode(QHeaderView::Interactive);
  header->setSectionResizeMode(FiguresModel::name_column, QHeaderView::Stretch);
  const int figure_width = view->fontMetrics().horizontalAdvance(QStringLiteral("00000000.000"));
  for (int column = FiguresModel::iops_column; column < FiguresModel::column_count; ++column) {
    header->resizeSection(column, figure_width);
  }
  return view;
}

bool same_row(const FigureRow& a, const FigureRow& b) { return a.level == b.level && a.name == b.name; }

}  // namespace

QString preparing_text(const controller::PrepareFigures& figures, const std::optional<controller::PreparingRate::Estimate>& estimate) {
  auto text = ResultsPage::tr("preparing %1: %2 of %3")
                  .arg(QString::fromStdString(figures.path),
                       QString::fromStdString(format_size(Bytes(figures.bytes_done))),
                       QString::fromStdString(format_size(Bytes(figures.bytes_total))));
  if (!estimate) return text;
  return ResultsPage::tr("%1, %2 MB/s, ETA %3")
      .arg(text, QString::number(estimate->bytes_per_s / 1e6, 'f', 1), duration_text(estimate->remaining_s));
}

ResultsPage::ResultsPage(QWidget* parent) : QWidget(parent) {
  live_ = new LiveFiguresModel(this);
  live_filter_ = new ManagerFilter(this);
  live_filter_->setSourceModel(live_);
  runs_ = new FiguresModel(this);
  live_view_ = live_tree(live_filter_);
  filter_box_ = make_manager_filter_box(*live_filter_);
  expand_limit_ = new QSpinBox;
  expand_limit_->setRange(0, 100000);
  expand_limit_->setValue(kDefaultExpandLimit);
  expand_limit_->setSuffix(tr(" managers"));
  expand_limit_->setToolTip(tr("Up to this many managers the live tree opens every worker and target; "
                               "beyond it only the managers show, each opened on demand"));
  runs_view_ = figures_view(runs_);
  interval_ = new QComboBox;
  for (const int seconds : kIntervals) interval_->addItem(tr("%1 s").arg(seconds), seconds);
  interval_->setToolTip(tr("How often the meters and the live table change"));
  phase_ = new QLabel(tr("No series running."));
  // Run labels grow long ("round 12: ..." in a steady-state series): wrapped, they never
  // widen the window past the screen.
  phase_->setWordWrap(true);
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
  header->addWidget(new QLabel(tr("Open all up to")));
  header->addWidget(expand_limit_);

  auto* live_box = new QGroupBox(tr("Live: all managers, each manager, worker and target (select a row for the meters)"));
  auto* live_layout = new QVBoxLayout(live_box);
  live_layout->addWidget(filter_box_);
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
  connect(expand_limit_, &QSpinBox::valueChanged, this, [this](int managers) {
    apply_expansion(*live_view_, live_->manager_count(), managers);
    select_live_row(metered_);
    emit expand_limit_changed(managers);
  });
  connect(live_view_->selectionModel(), &QItemSelectionModel::selectionChanged, this, [this] {
    // An empty selection is a filter hiding the row: the meters stay on it.
    const auto rows = live_view_->selectionModel()->selectedRows();
    if (rows.isEmpty()) return;
    const auto row = live_->row_of(live_filter_->mapToSource(rows.front()));
    if (!row) return;
    metered_ = *row;
    metered_key_ = live_->rows()[*row];
    show_meters();
  });
  // The filter keeps the row selected when it stays visible; one that comes back is selected again.
  connect(filter_box_, &QLineEdit::textChanged, this, [this] { select_live_row(metered_); });
}

void ResultsPage::begin_series() {
  live_->set_rows({});
  show_meters();
  runs_->set_rows({});
  phase_->setText(tr("Starting the series..."));
  since_shown_.invalidate();
  preparing_rate_ = {};
}

void ResultsPage::show_live(const LiveUpdate& update) {
  const auto run = tr("Run %1 of %2 (%3)")
                       .arg(update.run_index + 1)
                       .arg(update.run_count)
                       .arg(QString::fromStdString(update.label));
  if (update.phase == controller::LivePhase::preparing) {
    const auto estimate = preparing_rate_.update(update.preparing, std::chrono::steady_clock::now());
    phase_->setText(tr("%1: %2").arg(run, preparing_text(update.preparing, estimate)));
    return;
  }
  phase_->setText(tr("%1: %2 %3 of %4, about %5 left in the series")
                      .arg(run,
                           update.phase == controller::LivePhase::ramp_up ? tr("ramp-up") : tr("recording"),
                           duration_text(update.elapsed_s), duration_text(update.phase_s),
                           duration_text(update.remaining_s)));
  if (since_shown_.isValid() && since_shown_.elapsed() < update_interval_s() * 1000LL - 200) return;
  since_shown_.start();
  if (live_->set_rows(update.rows) == LiveFiguresModel::Change::rows) {
    // New rows: the meters stay on the row of the same level and name, else go to ALL.
    const auto& rows = live_->rows();
    const auto same = metered_key_ ? std::find_if(rows.begin(), rows.end(),
                                                  [this](const FigureRow& row) { return same_row(row, *metered_key_); })
                                   : rows.end();
    metered_ = same == rows.end() ? 0 : static_cast<std::size_t>(same - rows.begin());
    apply_expansion(*live_view_, live_->manager_count(), expand_limit());
    select_live_row(metered_);
  }
  show_meters();
}

void ResultsPage::select_live_row(std::size_t row) {
  const auto index = live_filter_->mapFromSource(live_->index_of(row));
  if (!index.isValid()) return;
  if (live_view_->selectionModel()->isRowSelected(index.row(), index.parent())) return;
  live_view_->selectionModel()->select(index, QItemSelectionModel::ClearAndSelect | QItemSelectionModel::Rows);
  live_view_->scrollTo(index);
}

int ResultsPage::expand_limit() const { return expand_limit_->value(); }

void ResultsPage::set_manager_filter(const QString& text) { filter_box_->setText(text); }

QString ResultsPage::phase_text() const { return phase_->text(); }

std::size_t ResultsPage::metered_row() const { return metered_ < live_->rows().size() ? metered_ : 0; }

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
  const QSignalBlocker not_the_user(interval_);
  int best = 0;
  for (int i = 0; i < interval_->count(); ++i) {
    if (interval_->itemData(i).toInt() <= seconds) best = i;
  }
  interval_->setCurrentIndex(best);
}

int ResultsPage::update_interval_s() const { return interval_->currentData().toInt(); }

void ResultsPage::show_meters() {
  const auto& rows = live_->rows();
  if (rows.empty()) {
    for (auto* meter : meters_) meter->setText(QStringLiteral("-"));
    selected_->clear();
    return;
  }
  const auto& row = rows[metered_row()];
  selected_->setText(tr("Meters of: <b>%1</b>").arg(QString::fromStdString(row.name).toHtmlEscaped()));
  for (int column = FiguresModel::iops_column; column < FiguresModel::column_count; ++column) {
    meters_[static_cast<std::size_t>(column - 1)]->setText(figure_data(row, column, Qt::DisplayRole).toString());
  }
}

}  // namespace iomark::gui
