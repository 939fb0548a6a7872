// The compare view: open several results files (iomark JSON, IOmeter results.csv of 1.1.0 or
// 2004-2008) and see their QD curves overlaid (one tab), the latency distribution of the
// selected row (another tab) and every run in one sortable table below. A file that cannot be read leaves the others
// alone and shows a dismissable banner naming the file and line (never a modal dialog).
//
// GUI thread only. Files are read on the GUI thread: results files are small.
#pragma once

#include <QString>
#include <QStringList>
#include <QWidget>

class QLabel;
class QListWidget;
class QTableView;
class QSortFilterProxyModel;

namespace iomark::gui {

class CompareModel;
class LatencyChart;
class QdChart;

class CompareView : public QWidget {
  Q_OBJECT

 public:
  explicit CompareView(QWidget* parent = nullptr);

  [[nodiscard]] const CompareModel& model() const noexcept { return *model_; }
  [[nodiscard]] const QdChart& chart() const noexcept { return *chart_; }
  [[nodiscard]] const LatencyChart& latency() const noexcept { return *latency_; }
  // What the error banner says; empty when it is hidden.
  [[nodiscard]] QString error_text() const;

 public slots:
  // Reads and adds one file; on failure shows the error (FILE:LINE: message), emits
  // load_failed and returns false.
  bool open_file(const QString& path);
  void open_files(const QStringList& paths);
  // Asks for files with a file dialog, then opens them.
  void choose_files();
  void remove_selected_file();
  void clear();

 signals:
  void load_failed(const QString& message);

 private:
  void show_error(const QString& message);
  void refresh();  // the file list and the curves, after files came or went
  void show_latency_of(int source_row);

  CompareModel* model_;
  QSortFilterProxyModel* sorted_;
  QdChart* chart_;
  LatencyChart* latency_;
  QListWidget* files_;
  QTableView* table_;
  QWidget* banner_;
  QLabel* banner_text_;
  QStringList errors_;
};

}  // namespace iomark::gui
