// The live figures of the Results Display as a tree: "All managers" and each manager at the
// top, each manager's workers under it, each worker's targets under the worker. It is fed the
// flat rows figure_rows() makes every update interval (each row after its parent).
//
// Built for fleets (256 managers x 16 workers is 8,449 rows): an update whose rows have the
// same levels and names in the same order as the rows shown changes the figures in place,
// with one dataChanged per group of siblings whose figures changed, over the figure columns
// only; the model is reset only when the rows themselves change (another run's managers, a
// manager whose first sample arrived). The manager name of top-level rows is given under
// kManagerNameRole for ManagerFilter.
//
// GUI thread only.
#pragma once

#include <QAbstractItemModel>
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

#include "iomark/gui/run_models.hpp"

namespace iomark::gui {

class LiveFiguresModel : public QAbstractItemModel {
  Q_OBJECT

 public:
  // What set_rows() did.
  enum class Change : std::uint8_t { none, figures, rows };

  explicit LiveFiguresModel(QObject* parent = nullptr);

  Change set_rows(const std::vector<FigureRow>& rows);
  [[nodiscard]] const std::vector<FigureRow>& rows() const noexcept { return rows_; }
  [[nodiscard]] std::size_t manager_count() const noexcept { return managers_; }

  // The place in rows() an index shows, and back.
  [[nodiscard]] std::optional<std::size_t> row_of(const QModelIndex& index) const;
  [[nodiscard]] QModelIndex index_of(std::size_t row) const;

  [[nodiscard]] QModelIndex index(int row, int column, const QModelIndex& parent = {}) const override;
  [[nodiscard]] QModelIndex parent(const QModelIndex& child) const override;
  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  // Where a row sits in the tree; rows are numbered as in rows_.
  struct Node {
    std::optional<std::size_t> parent;  // none: a top-level row
    int position{};                      // among its siblings
    std::vector<std::size_t> children;
  };

  void build_tree();
  [[nodiscard]] const std::vector<std::size_t>& children_of(const QModelIndex& parent) const;

  std::vector<FigureRow> rows_;
  std::vector<Node> nodes_;  // parallel to rows_
  std::vector<std::size_t> top_;
  std::size_t managers_{};
};

}  // namespace iomark::gui
