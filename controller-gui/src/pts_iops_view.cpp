#include "iomark/gui/pts_iops_view.hpp"

#include <QHeaderView>
#include <QLabel>
#include <QStandardItemModel>
#include <QTableView>
#include <QVBoxLayout>

#include "iomark/access_specs/pts_iops.hpp"

namespace iomark::gui {

namespace {

QString rounds_text(const results::PtsIopsTable& table) {
  return table.first_round == table.last_round
             ? PtsIopsView::tr("round %1").arg(table.first_round)
             : PtsIopsView::tr("rounds %1-%2").arg(table.first_round).arg(table.last_round);
}

}  // namespace

PtsIopsView::PtsIopsView(QWidget* parent) : QWidget(parent) {
  caption_ = new QLabel;
  caption_->setWordWrap(true);
  cells_ = new QStandardItemModel(this);
  view_ = new QTableView;
  view_->setModel(cells_);
  view_->setEditTriggers(QAbstractItemView::NoEditTriggers);
  view_->horizontalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  // Room for seven-figure IOPS whatever the block size's caption.
  view_->horizontalHeader()->setMinimumSectionSize(view_->fontMetrics().horizontalAdvance(QStringLiteral("000000000")));
  view_->verticalHeader()->setSectionResizeMode(QHeaderView::ResizeToContents);
  auto* layout = new QVBoxLayout(this);
  layout->addWidget(caption_);
  layout->addWidget(view_, 1);
  clear();
}

void PtsIopsView::clear() {
  table_.reset();
  cells_->clear();
  caption_->setText(tr("No PTS IOPS test yet: tick it on Test Setup, then Start."));
}

void PtsIopsView::set_table(const results::PtsIopsTable& table) {
  table_ = table;
  cells_->clear();
  cells_->setRowCount(static_cast<int>(table.read_percents.size()));
  cells_->setColumnCount(static_cast<int>(table.block_bytes.size()));
  QStringList blocks;
  for (const auto bytes : table.block_bytes) blocks << QString::fromStdString(access_specs::pts_block_text(bytes));
  QStringList mixes;
  for (const auto reads : table.read_percents) mixes << QString::fromStdString(access_specs::pts_mix_text(reads));
  cells_->setHorizontalHeaderLabels(blocks);
  cells_->setVerticalHeaderLabels(mixes);
  for (std::size_t mix = 0; mix < table.iops.size(); ++mix) {
    for (std::size_t block = 0; block < table.iops[mix].size(); ++block) {
      const auto& iops = table.iops[mix][block];
      auto* item = new QStandardItem(iops ? QString::number(*iops, 'f', 0) : QStringLiteral("-"));
      item->setTextAlignment(Qt::AlignRight | Qt::AlignVCenter);
      if (iops) item->setData(*iops, Qt::UserRole);
      cells_->setItem(static_cast<int>(mix), static_cast<int>(block), item);
    }
  }
  caption_->setText(caption_text());
}

QString PtsIopsView::caption_text() const {
  if (!table_) return caption_->text();
  if (table_->first_round == 0) return tr("PTS IOPS: no round ran, so there is no IOPS to show.");
  const auto what = tr("IOPS of each read/write mix (rows) and block size (columns), all managers together, averaged over %1")
                        .arg(rounds_text(*table_));
  return table_->steady ? tr("%1: the steady-state window of 4 KiB random writes.").arg(what)
                        : tr("%1: the last rounds run; 4 KiB random writes were not steady.").arg(what);
}

}  // namespace iomark::gui
