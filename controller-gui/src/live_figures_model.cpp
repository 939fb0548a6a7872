#include "iomark/gui/live_figures_model.hpp"

#include <algorithm>

#include "iomark/gui/manager_filter.hpp"

namespace iomark::gui {

namespace {

bool same_rows(const std::vector<FigureRow>& a, const std::vector<FigureRow>& b) {
  return std::equal(a.begin(), a.end(), b.begin(), b.end(),
                    [](const FigureRow& x, const FigureRow& y) { return x.level == y.level && x.name == y.name; });
}

}  // namespace

LiveFiguresModel::LiveFiguresModel(QObject* parent) : QAbstractItemModel(parent) {}

LiveFiguresModel::Change LiveFiguresModel::set_rows(const std::vector<FigureRow>& rows) {
  if (rows.empty() && rows_.empty()) return Change::none;
  if (!rows_.empty() && same_rows(rows_, rows)) {
    // Compared before rows_ changes; announced after, so views read the new figures.
    std::vector<std::pair<std::size_t, std::size_t>> changed;  // first and last row of a group
    auto note = [&](const std::vector<std::size_t>& group) {
      std::optional<std::size_t> first;
      std::size_t last = 0;
      for (const auto row : group) {
        if (rows[row] == rows_[row]) continue;
        if (!first) first = row;
        last = row;
      }
      if (first) changed.emplace_back(*first, last);
    };
    note(top_);
    for (const auto& node : nodes_) {
      if (!node.children.empty()) note(node.children);
    }
    if (changed.empty()) return Change::none;
    std::copy(rows.begin(), rows.end(), rows_.begin());
    static const QList<int> figure_roles{Qt::DisplayRole, Qt::ForegroundRole};
    for (const auto& [first, last] : changed) {
      emit dataChanged(index_of(first).siblingAtColumn(FiguresModel::iops_column),
                       index_of(last).siblingAtColumn(FiguresModel::column_count - 1), figure_roles);
    }
    return Change::figures;
  }
  beginResetModel();
  rows_ = rows;
  build_tree();
  endResetModel();
  return Change::rows;
}

void LiveFiguresModel::build_tree() {
  nodes_.assign(rows_.size(), Node{});
  top_.clear();
  managers_ = 0;
  std::optional<std::size_t> manager;
  std::optional<std::size_t> worker;
  for (std::size_t row = 0; row < rows_.size(); ++row) {
    std::optional<std::size_t> parent;
    switch (rows_[row].level) {
      case results::SummaryLevel::all: manager.reset(); worker.reset(); break;
      case results::SummaryLevel::manager:
        manager = row;
        worker.reset();
        ++managers_;
        break;
      case results::SummaryLevel::worker:
        parent = manager;
        worker = row;
        break;
      case results::SummaryLevel::target: parent = worker ? worker : manager; break;
    }
    auto& siblings = parent ? nodes_[*parent].children : top_;
    nodes_[row].parent = parent;
    nodes_[row].position = static_cast<int>(siblings.size());
    siblings.push_back(row);
  }
}

const std::vector<std::size_t>& LiveFiguresModel::children_of(const QModelIndex& parent) const {
  return parent.isValid() ? nodes_[parent.internalId()].children : top_;
}

std::optional<std::size_t> LiveFiguresModel::row_of(const QModelIndex& index) const {
  if (!index.isValid() || index.model() != this || index.internalId() >= rows_.size()) return std::nullopt;
  return static_cast<std::size_t>(index.internalId());
}

QModelIndex LiveFiguresModel::index_of(std::size_t row) const {
  if (row >= rows_.size()) return {};
  return createIndex(nodes_[row].position, 0, static_cast<quintptr>(row));
}

QModelIndex LiveFiguresModel::index(int row, int column, const QModelIndex& parent) const {
  if (row < 0 || column < 0 || column >= FiguresModel::column_count || (parent.isValid() && parent.column() != 0)) {
    return {};
  }
  const auto& children = children_of(parent);
  if (static_cast<std::size_t>(row) >= children.size()) return {};
  return createIndex(row, column, static_cast<quintptr>(children[static_cast<std::size_t>(row)]));
}

QModelIndex LiveFiguresModel::parent(const QModelIndex& child) const {
  const auto row = row_of(child);
  if (!row || !nodes_[*row].parent) return {};
  return index_of(*nodes_[*row].parent);
}

int LiveFiguresModel::rowCount(const QModelIndex& parent) const {
  if (parent.isValid() && parent.column() != 0) return 0;
  return static_cast<int>(children_of(parent).size());
}

int LiveFiguresModel::columnCount(const QModelIndex&) const { return FiguresModel::column_count; }

QVariant LiveFiguresModel::data(const QModelIndex& index, int role) const {
  const auto row = row_of(index);
  if (!row) return {};
  const auto& figures = rows_[*row];
  if (role == kManagerNameRole) {
    if (figures.level != results::SummaryLevel::manager) return {};
    return QString::fromStdString(figures.name);
  }
  return figure_data(figures, index.column(), role);
}

QVariant LiveFiguresModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  return figure_header(section);
}

}  // namespace iomark::gui
