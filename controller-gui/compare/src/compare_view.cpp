#include "iomark/gui/compare/compare_view.hpp"

#include <algorithm>

#include <QFile>
#include <QFileDialog>
#include <QFileInfo>
#include <QHBoxLayout>
#include <QHeaderView>
#include <QItemSelectionModel>
#include <QLabel>
#include <QListWidget>
#include <QSortFilterProxyModel>
#include <QSplitter>
#include <QTabWidget>
#include <QTableView>
#include <QToolBar>
#include <QToolButton>
#include <QVBoxLayout>

#include "iomark/gui/charts/chart_export.hpp"
#include "iomark/gui/charts/latency_chart.hpp"
#include "iomark/gui/charts/qd_chart.hpp"
#include "iomark/gui/compare/compare_model.hpp"

namespace iomark::gui {

namespace {

// The banner keeps the newest few messages; older ones scroll away instead of piling up.
constexpr qsizetype kShownErrors = 5;

}  // namespace

CompareView::CompareView(QWidget* parent) : QWidget(parent) {
  model_ = new CompareModel(this);
  sorted_ = new QSortFilterProxyModel(this);
  sorted_->setSourceModel(model_);
  sorted_->setSortRole(CompareModel::kSortRole);

  auto* tools = new QToolBar(this);
  tools->addAction(tr("Open results..."), this, &CompareView::choose_files);
  tools->addAction(tr("Remove file"), this, &CompareView::remove_selected_file);
  tools->addAction(tr("Clear"), this, &CompareView::clear);

  banner_ = new QWidget(this);
  banner_->setObjectName(QStringLiteral("error_banner"));
  banner_->setStyleSheet(QStringLiteral("#error_banner { background: #fde2e1; border: 1px solid #d9534f; }"));
  banner_text_ = new QLabel(banner_);
  banner_text_->setWordWrap(true);
  banner_text_->setTextInteractionFlags(Qt::TextSelectableByMouse);
  auto* dismiss = new QToolButton(banner_);
  dismiss->setText(tr("Dismiss"));
  connect(dismiss, &QToolButton::clicked, this, [this] {
    errors_.clear();
    banner_->hide();
  });
  auto* banner_layout = new QHBoxLayout(banner_);
  banner_layout->setContentsMargins(6, 4, 6, 4);
  banner_layout->addWidget(banner_text_, 1);
  banner_layout->addWidget(dismiss, 0, Qt::AlignTop);
  banner_->hide();

  files_ = new QListWidget(this);
  files_->setMinimumWidth(120);
  chart_ = new QdChart(this);
  latency_ = new LatencyChart(this);
  table_ = new QTableView(this);
  table_->setModel(sorted_);
  table_->setSortingEnabled(true);
  table_->sortByColumn(-1, Qt::AscendingOrder);  // file order until the user sorts
  table_->setSelectionBehavior(QAbstractItemView::SelectRows);
  table_->setSelectionMode(QAbstractItemView::SingleSelection);
  table_->verticalHeader()->hide();
  table_->horizontalHeader()->setStretchLastSection(true);
  table_->setWordWrap(false);
  table_->verticalHeader()->setDefaultSectionSize(table_->fontMetrics().height() + 6);
  connect(table_->selectionModel(), &QItemSelectionModel::currentRowChanged, this,
          [this](const QModelIndex& current) { show_latency_of(sorted_->mapToSource(current).row()); });

  // The charts get the full width (Qt Charts elides labels that do not fit); the table and
  // the file list stay visible below whichever chart is shown.
  auto* charts = new QTabWidget(this);
  charts->addTab(chart_, tr("QD curves"));
  charts->addTab(latency_, tr("Latency of the selected row"));
  auto* bottom = new QSplitter(Qt::Horizontal, this);
  bottom->addWidget(files_);
  bottom->addWidget(table_);
  bottom->setStretchFactor(0, 1);
  bottom->setStretchFactor(1, 5);
  auto* main = new QSplitter(Qt::Vertical, this);
  main->addWidget(charts);
  main->addWidget(bottom);
  main->setStretchFactor(0, 3);
  main->setStretchFactor(1, 2);

  auto* layout = new QVBoxLayout(this);
  layout->setContentsMargins(0, 0, 0, 0);
  layout->addWidget(tools);
  layout->addWidget(banner_);
  layout->addWidget(main, 1);
}

QString CompareView::error_text() const { return banner_->isHidden() ? QString() : banner_text_->text(); }

bool CompareView::open_file(const QString& path) {
  QFile file(path);
  if (!file.open(QIODevice::ReadOnly)) {
    show_error(tr("%1: cannot open: %2").arg(path, file.errorString()));
    return false;
  }
  const QByteArray bytes = file.readAll();
  const auto points = results::read_run_points(std::string_view(bytes.constData(), static_cast<std::size_t>(bytes.size())),
                                               path.toStdString());
  if (!points) {
    show_error(QString::fromStdString(points.error().describe()));
    return false;
  }
  model_->add_file({path, std::move(*points)});
  refresh();
  table_->resizeColumnsToContents();
  table_->setColumnWidth(CompareModel::file, std::min(table_->columnWidth(CompareModel::file), 200));
  // Something in the latency view from the start: the first row's distribution.
  if (!table_->currentIndex().isValid() && sorted_->rowCount() > 0) table_->setCurrentIndex(sorted_->index(0, 0));
  return true;
}

void CompareView::open_files(const QStringList& paths) {
  for (const QString& path : paths) open_file(path);
}

void CompareView::choose_files() {
  const QStringList paths = QFileDialog::getOpenFileNames(
      this, tr("Open results files"), {}, tr("Results (*.json *.csv);;iomark JSON (*.json);;IOmeter CSV (*.csv);;All files (*)"));
  open_files(paths);
}

void CompareView::remove_selected_file() {
  const int row = files_->currentRow();
  if (row < 0) return;
  model_->remove_file(static_cast<std::size_t>(row));
  refresh();
}

void CompareView::clear() {
  model_->clear();
  latency_->clear();
  refresh();
}

void CompareView::show_error(const QString& message) {
  errors_.push_back(message);
  while (errors_.size() > kShownErrors) errors_.pop_front();
  banner_text_->setText(errors_.join(QLatin1Char('\n')));
  banner_->show();
  emit load_failed(message);
}

void CompareView::refresh() {
  const auto& files = model_->files();
  files_->clear();
  std::vector<results::QdCurve> curves;
  for (std::size_t f = 0; f < files.size(); ++f) {
    const LoadedResults& loaded = files[f];
    const QString tag = CompareModel::file_tag(f);
    auto* item = new QListWidgetItem(tag + QLatin1Char(' ') + QFileInfo(loaded.path).fileName(), files_);
    item->setToolTip(loaded.path);
    if (loaded.points.empty()) item->setText(item->text() + tr(" (no runs)"));
    auto more = results::qd_curves(loaded.points);
    if (files.size() > 1) {
      for (auto& curve : more) curve.label = tag.toStdString() + " " + curve.label;
    }
    curves.insert(curves.end(), std::make_move_iterator(more.begin()), std::make_move_iterator(more.end()));
  }
  chart_->set_curves(std::move(curves));
}

void CompareView::show_latency_of(int source_row) {
  const auto [file_index, point] = model_->point_at(source_row);
  if (point == nullptr) {
    latency_->clear();
    return;
  }
  const QString title = tr("%1 run %2 %3")
                            .arg(QFileInfo(model_->files()[file_index].path).fileName())
                            .arg(point->run + 1)
                            .arg(point->manager.empty() ? QStringLiteral("ALL") : QString::fromStdString(point->manager));
  if (point->latency) {
    latency_->set_profile(*point->latency, title);
  } else {
    latency_->clear(tr("No latency bins in %1 (IOmeter before 1.1.0)").arg(model_->file_tag(file_index)));
  }
}

}  // namespace iomark::gui
