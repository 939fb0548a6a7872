#include "iomark/gui/manager_filter.hpp"

#include <QLineEdit>
#include <QTreeView>
#include <algorithm>

namespace iomark::gui {

ManagerFilter::ManagerFilter(QObject* parent) : QSortFilterProxyModel(parent) {
  // Figures change every second; names do not: filtering again on each update would cost a
  // call per changed row for nothing.
  setDynamicSortFilter(false);
}

void ManagerFilter::set_pattern(const QString& pattern) {
  const auto trimmed = pattern.trimmed();
  if (trimmed == pattern_) return;
  pattern_ = trimmed;
  invalidateFilter();
}

bool ManagerFilter::filterAcceptsRow(int source_row, const QModelIndex& source_parent) const {
  if (source_parent.isValid() || pattern_.isEmpty()) return true;  // rows under a manager go with it
  const auto name = sourceModel()->index(source_row, 0, source_parent).data(kManagerNameRole);
  return !name.isValid() || name.toString().contains(pattern_, Qt::CaseInsensitive);
}

QLineEdit* make_manager_filter_box(ManagerFilter& filter) {
  auto* box = new QLineEdit;
  box->setObjectName(QStringLiteral("manager-filter"));
  box->setPlaceholderText(ManagerFilter::tr("Filter managers"));
  box->setToolTip(ManagerFilter::tr("Show only the managers whose name contains this text"));
  box->setClearButtonEnabled(true);
  QObject::connect(box, &QLineEdit::textChanged, &filter, &ManagerFilter::set_pattern);
  return box;
}

void apply_expansion(QTreeView& view, std::size_t managers, int expand_limit) {
  if (managers <= static_cast<std::size_t>(std::max(expand_limit, 0))) {
    view.expandAll();
  } else {
    view.collapseAll();
  }
}

}  // namespace iomark::gui
