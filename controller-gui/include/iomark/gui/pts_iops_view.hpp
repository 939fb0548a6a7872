// The PTS IOPS table of the Charts tab (docs/characterize.md#pts-iops): a row per read/write
// mix, a column per block size, each cell's IOPS (ALL row) averaged over the rounds its steady
// state was judged on, as `iomark pts iops` prints it, with a caption saying which rounds and
// whether they were steady. Set when a PTS IOPS series ends (Session::pts_iops_finished).
#pragma once

#include <QWidget>
#include <optional>

#include "iomark/results/pts_iops_table.hpp"

class QLabel;
class QStandardItemModel;
class QTableView;

namespace iomark::gui {

class PtsIopsView : public QWidget {
  Q_OBJECT

 public:
  explicit PtsIopsView(QWidget* parent = nullptr);

  void set_table(const results::PtsIopsTable& table);
  void clear();

  [[nodiscard]] const std::optional<results::PtsIopsTable>& table() const noexcept { return table_; }
  // "IOPS averaged over rounds 3-7, the steady-state window ...", or why there is none.
  [[nodiscard]] QString caption_text() const;
  // Rows the mixes ("65/35"), columns the block sizes ("4 KiB"), cells the IOPS ("-": none).
  [[nodiscard]] const QStandardItemModel& cells() const noexcept { return *cells_; }

 private:
  std::optional<results::PtsIopsTable> table_;
  QLabel* caption_{};
  QStandardItemModel* cells_{};
  QTableView* view_{};
};

}  // namespace iomark::gui
