// What the topology and the Results Display share at fleet scale: a filter box that keeps the
// managers whose name holds its text (with everything under them), and how far a tree of
// managers opens by default (everything up to a number of managers, beyond it managers only).
//
// GUI thread only.
#pragma once

#include <QSortFilterProxyModel>
#include <QString>
#include <cstddef>

class QLineEdit;
class QTreeView;

namespace iomark::gui {

// The role under which a model gives the manager name of a top-level row. Top-level rows
// without one (the Results Display's "All managers") always pass the filter.
inline constexpr int kManagerNameRole = Qt::UserRole + 1;

// Up to this many managers a tree opens fully; beyond it only the managers show, each opened
// on demand (its workers, then their targets).
inline constexpr int kDefaultExpandLimit = 32;

// Keeps the top-level rows whose manager name contains the pattern (case-insensitive) and
// every row under them. Names are not expected to change in place, so figures changing do not
// filter again (no dynamic filtering); set_pattern() and structural changes do.
class ManagerFilter : public QSortFilterProxyModel {
  Q_OBJECT

 public:
  explicit ManagerFilter(QObject* parent = nullptr);

  void set_pattern(const QString& pattern);
  [[nodiscard]] const QString& pattern() const noexcept { return pattern_; }

 protected:
  [[nodiscard]] bool filterAcceptsRow(int source_row, const QModelIndex& source_parent) const override;

 private:
  QString pattern_;
};

// A line edit ("Filter managers", with a clear button) that sets `filter`'s pattern as the
// user types.
[[nodiscard]] QLineEdit* make_manager_filter_box(ManagerFilter& filter);

// Opens `view` as far as `expand_limit` allows for a tree of `managers` managers: every row
// when managers <= expand_limit, otherwise none (the top-level rows show, closed).
void apply_expansion(QTreeView& view, std::size_t managers, int expand_limit);

}  // namespace iomark::gui
