#include "iomark/gui/compare/compare_model.hpp"

#include <QFileInfo>

namespace iomark::gui {

namespace {

QString fixed(double value, int decimals) { return QString::number(value, 'f', decimals); }

// What a cell shows and how it sorts.
QVariant value_of(std::size_t file_index, const LoadedResults& loaded, const results::RunPoint& point, int column,
                  bool for_display) {
  switch (column) {
    case CompareModel::file:
      return for_display ? QVariant(CompareModel::file_tag(file_index) + QLatin1Char(' ') + QFileInfo(loaded.path).fileName())
                         : QVariant(static_cast<qulonglong>(file_index));
    case CompareModel::series: return static_cast<qulonglong>(point.series + 1);
    case CompareModel::run: return static_cast<qulonglong>(point.run + 1);
    case CompareModel::spec: return point.spec.empty() ? QObject::tr("(mixed)") : QString::fromStdString(point.spec);
    case CompareModel::manager: return point.manager.empty() ? QStringLiteral("ALL") : QString::fromStdString(point.manager);
    case CompareModel::queue_depth:
      if (!point.queue_depth) return for_display ? QVariant(QObject::tr("mixed")) : QVariant(-1);
      return *point.queue_depth;
    case CompareModel::iops: return for_display ? QVariant(fixed(point.iops, 1)) : QVariant(point.iops);
    case CompareModel::mb_per_s: return for_display ? QVariant(fixed(point.mb_per_s, 2)) : QVariant(point.mb_per_s);
    case CompareModel::average_ms:
      return for_display ? QVariant(fixed(point.average_response_ms, 3)) : QVariant(point.average_response_ms);
    case CompareModel::maximum_ms:
      return for_display ? QVariant(fixed(point.maximum_response_ms, 3)) : QVariant(point.maximum_response_ms);
    case CompareModel::p99_ms:
      if (!point.p99_response_ms) return for_display ? QVariant(QStringLiteral("-")) : QVariant(-1.0);
      return for_display ? QVariant(fixed(*point.p99_response_ms, 3)) : QVariant(*point.p99_response_ms);
    case CompareModel::cpu_percent:
      if (!point.cpu_percent) return for_display ? QVariant(QStringLiteral("-")) : QVariant(-1.0);
      return for_display ? QVariant(fixed(*point.cpu_percent, 1)) : QVariant(*point.cpu_percent);
    case CompareModel::errors: return static_cast<qulonglong>(point.errors);
    default: return {};
  }
}

}  // namespace

CompareModel::CompareModel(QObject* parent) : QAbstractTableModel(parent) {}

QString CompareModel::file_tag(std::size_t index) { return QStringLiteral("#%1").arg(index + 1); }

void CompareModel::add_file(LoadedResults loaded) {
  const auto first = static_cast<int>(rows_.size());
  const auto count = static_cast<int>(loaded.points.size());
  if (count > 0) beginInsertRows({}, first, first + count - 1);
  files_.push_back(std::move(loaded));
  for (std::size_t p = 0; p < files_.back().points.size(); ++p) rows_.emplace_back(files_.size() - 1, p);
  if (count > 0) endInsertRows();
}

void CompareModel::remove_file(std::size_t index) {
  if (index >= files_.size()) return;
  beginResetModel();
  files_.erase(files_.begin() + static_cast<std::ptrdiff_t>(index));
  rebuild_rows();
  endResetModel();
}

void CompareModel::clear() {
  beginResetModel();
  files_.clear();
  rows_.clear();
  endResetModel();
}

void CompareModel::rebuild_rows() {
  rows_.clear();
  for (std::size_t f = 0; f < files_.size(); ++f) {
    for (std::size_t p = 0; p < files_[f].points.size(); ++p) rows_.emplace_back(f, p);
  }
}

std::pair<std::size_t, const results::RunPoint*> CompareModel::point_at(int row) const {
  if (row < 0 || static_cast<std::size_t>(row) >= rows_.size()) return {0, nullptr};
  const auto [file_index, point] = rows_[static_cast<std::size_t>(row)];
  return {file_index, &files_[file_index].points[point]};
}

int CompareModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(rows_.size());
}

int CompareModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant CompareModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid | CheckIndexOption::ParentIsInvalid)) return {};
  const auto [file_index, point] = point_at(index.row());
  const LoadedResults& loaded = files_[file_index];
  switch (role) {
    case Qt::DisplayRole: return value_of(file_index, loaded, *point, index.column(), true);
    case kSortRole: return value_of(file_index, loaded, *point, index.column(), false);
    case Qt::TextAlignmentRole:
      return index.column() >= series && index.column() != spec && index.column() != manager
                 ? QVariant(Qt::AlignRight | Qt::AlignVCenter)
                 : QVariant(Qt::AlignLeft | Qt::AlignVCenter);
    case Qt::ToolTipRole:
      return point->line > 0 ? QStringLiteral("%1:%2").arg(loaded.path).arg(point->line) : loaded.path;
    default: return {};
  }
}

QVariant CompareModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return QAbstractTableModel::headerData(section, orientation, role);
  switch (section) {
    case file: return tr("File");
    case series: return tr("Series");
    case run: return tr("Run");
    case spec: return tr("Access specification");
    case manager: return tr("Manager");
    case queue_depth: return tr("QD");
    case iops: return tr("IOPS");
    case mb_per_s: return tr("MB/s");
    case average_ms: return tr("Avg ms");
    case maximum_ms: return tr("Max ms");
    case p99_ms: return tr("p99 ms");
    case cpu_percent: return tr("CPU %");
    case errors: return tr("Errors");
    default: return {};
  }
}

}  // namespace iomark::gui
