// The table of the compare view: one row per run point (ALL, then each manager) of every
// loaded results file, in the order the files were added. The File column shows the file's
// tag and name ("#2 results.csv"), its tool tip the path and, for results.csv, the line.
//
// GUI thread only.
#pragma once

#include <cstddef>
#include <utility>
#include <vector>

#include <QAbstractTableModel>
#include <QString>

#include "iomark/results/run_points.hpp"

namespace iomark::gui {

struct LoadedResults {
  QString path;  // as opened
  std::vector<results::RunPoint> points;
};

class CompareModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column : int {
    file,
    series,
    run,
    spec,
    manager,
    queue_depth,
    iops,
    mb_per_s,
    average_ms,
    maximum_ms,
    p99_ms,
    cpu_percent,
    errors,
    column_count,
  };
  // Data role holding a value that sorts naturally (numbers as doubles, text as text).
  static constexpr int kSortRole = Qt::UserRole;

  explicit CompareModel(QObject* parent = nullptr);

  // How the table, the file list and curve labels name file `index`: "#1", "#2", ...
  [[nodiscard]] static QString file_tag(std::size_t index);

  void add_file(LoadedResults loaded);
  void remove_file(std::size_t index);
  void clear();

  [[nodiscard]] const std::vector<LoadedResults>& files() const noexcept { return files_; }
  // The file index and point of a row; nullptr point for a row out of range.
  [[nodiscard]] std::pair<std::size_t, const results::RunPoint*> point_at(int row) const;

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  void rebuild_rows();

  std::vector<LoadedResults> files_;
  std::vector<std::pair<std::size_t, std::size_t>> rows_;  // (file, point) per row
};

}  // namespace iomark::gui
