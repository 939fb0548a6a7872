// How every table of the window looks: one line per row, row height from the font, columns
// sized to their contents except the one that takes the remaining width.
#pragma once

#include <QFontMetrics>
#include <QHeaderView>
#include <QTableView>

namespace iomark::gui {

inline void make_compact(QTableView& view, int stretch_column) {
  view.verticalHeader()->hide();
  view.verticalHeader()->setDefaultSectionSize(view.fontMetrics().height() + 8);
  view.setWordWrap(false);
  view.setSelectionBehavior(QAbstractItemView::SelectRows);
  view.setAlternatingRowColors(true);
  view.horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  view.horizontalHeader()->setSectionResizeMode(stretch_column, QHeaderView::Stretch);
}

}  // namespace iomark::gui
