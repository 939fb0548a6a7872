#include "iomark/gui/run_models.hpp"

#include <QBrush>
#include <QColor>
#include <QLocale>
#include <algorithm>

#include "iomark/controller/plan_expansion.hpp"

namespace iomark::gui {

namespace {

double ms_of(Nanoseconds duration) { return static_cast<double>(duration.count()) / 1e6; }

QString fixed(double value, int decimals) { return QLocale::c().toString(value, 'f', decimals); }

}  // namespace

Result<std::vector<PreviewRow>> preview_runs(const access_specs::TestPlan& plan) {
  auto series = controller::expand_series(plan);
  if (!series) return fail(series.error());
  std::vector<PreviewRow> rows;
  for (const auto& run : *series) {
    auto text = controller::describe_run(run, series->size());
    const auto colon = text.find(": ");
    if (colon != std::string::npos) text.erase(0, colon + 2);
    rows.push_back({std::move(text), run.active_manager_count(), run.active_worker_count(), run.active_target_count()});
  }
  return rows;
}

RunPreviewModel::RunPreviewModel(QObject* parent) : QAbstractTableModel(parent) {}

void RunPreviewModel::set_rows(std::vector<PreviewRow> rows) {
  if (rows == rows_) return;
  beginResetModel();
  rows_ = std::move(rows);
  endResetModel();
}

int RunPreviewModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int RunPreviewModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant RunPreviewModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const auto& row = rows_[static_cast<std::size_t>(index.row())];
  if (role == Qt::TextAlignmentRole && index.column() != description_column) {
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role != Qt::DisplayRole) return {};
  switch (index.column()) {
    case run_column: return index.row() + 1;
    case description_column: return QString::fromStdString(row.description);
    case managers_column: return static_cast<qulonglong>(row.managers);
    case workers_column: return static_cast<qulonglong>(row.workers);
    case targets_column: return static_cast<qulonglong>(row.targets);
    default: return {};
  }
}

QVariant RunPreviewModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case run_column: return tr("Run");
    case description_column: return tr("Access spec and outstanding I/Os");
    case managers_column: return tr("Managers");
    case workers_column: return tr("Workers");
    case targets_column: return tr("Targets");
    default: return {};
  }
}

FigureRow figure_row(const results::Summary& summary, std::string name) {
  FigureRow row;
  row.level = summary.level;
  row.name = std::move(name);
  row.iops = summary.rates.iops;
  row.mb_per_s = summary.rates.mb_per_s;
  row.average_ms = summary.average_response_ms();
  const auto& counters = summary.counters;
  if (counters.io_count() > 0 && counters.latency.count() == counters.io_count()) {
    row.p99_ms = ms_of(counters.latency.percentile(99));
  }
  row.maximum_ms = summary.maximum_response_ms();
  row.errors = summary.counters.error_count();
  if (summary.cpu) row.cpu_percent = summary.cpu->total_percent;
  return row;
}

std::vector<FigureRow> figure_rows(const results::RunResults& run, const results::RunSummary& summary) {
  std::vector<FigureRow> rows;
  rows.push_back(figure_row(summary.all, "All managers"));
  for (std::size_t m = 0; m < run.managers.size() && m < summary.managers.size(); ++m) {
    const auto& manager = run.managers[m];
    rows.push_back(figure_row(summary.managers[m].total, manager.name));
    for (std::size_t w = 0; w < manager.workers.size() && w < summary.managers[m].workers.size(); ++w) {
      const auto& worker = manager.workers[w];
      const auto& worker_summary = summary.managers[m].workers[w];
      rows.push_back(figure_row(worker_summary.total, worker.name));
      for (std::size_t t = 0; t < worker.targets.size() && t < worker_summary.targets.size(); ++t) {
        rows.push_back(figure_row(worker_summary.targets[t], worker.targets[t].name));
      }
    }
  }
  return rows;
}

FiguresModel::FiguresModel(QObject* parent) : QAbstractTableModel(parent) {}

void FiguresModel::set_rows(std::vector<FigureRow> rows) {
  if (rows == rows_) return;
  if (rows.size() == rows_.size() && !rows.empty()) {
    // The same rows with new figures (the live meters every interval): keep the selection.
    rows_ = std::move(rows);
    emit dataChanged(index(0, 0), index(rowCount() - 1, column_count - 1));
    return;
  }
  beginResetModel();
  rows_ = std::move(rows);
  endResetModel();
}

void FiguresModel::append_row(FigureRow row) {
  const int at = rowCount();
  beginInsertRows({}, at, at);
  rows_.push_back(std::move(row));
  endInsertRows();
}

int FiguresModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int FiguresModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant figure_data(const FigureRow& row, int column, int role) {
  if (role == Qt::TextAlignmentRole && column != FiguresModel::name_column) {
    return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
  }
  if (role == Qt::ForegroundRole && column == FiguresModel::errors_column && row.errors != 0) {
    return QBrush(QColor(0xb0, 0x00, 0x20));
  }
  if (role != Qt::DisplayRole) return {};
  switch (column) {
    case FiguresModel::name_column: return QString::fromStdString(row.name);
    case FiguresModel::iops_column: return fixed(row.iops, 0);
    case FiguresModel::mb_column: return fixed(row.mb_per_s, 2);
    case FiguresModel::average_column: return fixed(row.average_ms, 3);
    case FiguresModel::p99_column: return row.p99_ms ? fixed(*row.p99_ms, 3) : QStringLiteral("-");
    case FiguresModel::maximum_column: return fixed(row.maximum_ms, 3);
    case FiguresModel::errors_column: return static_cast<qulonglong>(row.errors);
    case FiguresModel::cpu_column: return row.cpu_percent ? fixed(*row.cpu_percent, 1) : QStringLiteral("-");
    default: return {};
  }
}

QString figure_header(int column) {
  switch (column) {
    case FiguresModel::name_column: return FiguresModel::tr("Name");
    case FiguresModel::iops_column: return FiguresModel::tr("IOPS");
    case FiguresModel::mb_column: return FiguresModel::tr("MB/s");
    case FiguresModel::average_column: return FiguresModel::tr("Avg ms");
    case FiguresModel::p99_column: return FiguresModel::tr("p99 ms");
    case FiguresModel::maximum_column: return FiguresModel::tr("Max ms");
    case FiguresModel::errors_column: return FiguresModel::tr("Errors");
    case FiguresModel::cpu_column: return FiguresModel::tr("CPU %");
    default: return {};
  }
}

QVariant FiguresModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const auto& row = rows_[static_cast<std::size_t>(index.row())];
  if (role == Qt::DisplayRole && index.column() == name_column) {
    // Indent by level so the flat table reads as the tree ALL > manager > worker > target.
    const int depth = row.level == results::SummaryLevel::all       ? 0
                      : row.level == results::SummaryLevel::manager ? 1
                      : row.level == results::SummaryLevel::worker  ? 2
                                                                    : 3;
    return QString(depth * 3, QLatin1Char(' ')) + QString::fromStdString(row.name);
  }
  return figure_data(row, index.column(), role);
}

QVariant FiguresModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return figure_header(section);
}

LogModel::LogModel(std::size_t max_entries, QObject* parent)
    : QAbstractTableModel(parent), max_entries_(std::max<std::size_t>(max_entries, 1)) {}

void LogModel::add(Severity severity, const QString& text) {
  if (entries_.size() >= max_entries_) {
    beginRemoveRows({}, 0, 0);
    entries_.pop_front();
    endRemoveRows();
  }
  const int at = rowCount();
  beginInsertRows({}, at, at);
  entries_.push_back({QDateTime::currentDateTime(), severity, text});
  endInsertRows();
  emit added(severity, text);
}

int LogModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(entries_.size());
}

int LogModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant LogModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const auto& entry = entries_[static_cast<std::size_t>(index.row())];
  if (role == Qt::ForegroundRole) {
    switch (entry.severity) {
      case Severity::error: return QBrush(QColor(0xb0, 0x00, 0x20));
      case Severity::warning: return QBrush(QColor(0x99, 0x55, 0x00));
      case Severity::info: return {};
    }
  }
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  switch (index.column()) {
    case time_column: return entry.time.toString(QStringLiteral("HH:mm:ss"));
    case severity_column:
      return entry.severity == Severity::error     ? tr("error")
             : entry.severity == Severity::warning ? tr("warning")
                                                   : tr("info");
    case text_column: return entry.text;
    default: return {};
  }
}

QVariant LogModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case time_column: return tr("Time");
    case severity_column: return tr("Kind");
    case text_column: return tr("Message");
    default: return {};
  }
}

}  // namespace iomark::gui
