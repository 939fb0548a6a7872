// Models of the Test Setup preview, the Results Display and the log pane, each fed plain
// values: the runs expand_series() makes of the plan, figures taken from results summaries,
// and log entries.
#pragma once

#include <QAbstractTableModel>
#include <QDateTime>
#include <QString>
#include <cstddef>
#include <cstdint>
#include <deque>
#include <optional>
#include <string>
#include <vector>

#include "iomark/access_specs/test_plan.hpp"
#include "iomark/common/result.hpp"
#include "iomark/results/run_results.hpp"
#include "iomark/results/summary.hpp"

namespace iomark::gui {

// One run of the series the plan expands into (controller::expand_series).
struct PreviewRow {
  std::string description;  // describe_run() without its "run i/N: " prefix
  std::size_t managers{};
  std::size_t workers{};
  std::size_t targets{};
  friend bool operator==(const PreviewRow&, const PreviewRow&) = default;
};

// The runs of `plan` in order; the expansion's error (too many runs) otherwise.
[[nodiscard]] Result<std::vector<PreviewRow>> preview_runs(const access_specs::TestPlan& plan);

class RunPreviewModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { run_column, description_column, managers_column, workers_column, targets_column, column_count };

  explicit RunPreviewModel(QObject* parent = nullptr);
  void set_rows(std::vector<PreviewRow> rows);

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<PreviewRow> rows_;
};

// The figures of one ALL, manager, worker or target (or one finished run).
struct FigureRow {
  results::SummaryLevel level{results::SummaryLevel::all};
  std::string name;
  double iops{};
  double mb_per_s{};
  double average_ms{};
  // Only where the histogram holds every I/O: a Dynamo gives no histogram, so its rows, and
  // an ALL mixing it with agents, have no percentile rather than one of a part.
  std::optional<double> p99_ms;
  double maximum_ms{};
  std::uint64_t errors{};
  std::optional<double> cpu_percent;  // ALL and managers
  friend bool operator==(const FigureRow&, const FigureRow&) = default;
};

[[nodiscard]] FigureRow figure_row(const results::Summary& summary, std::string name);

// ALL, then each manager followed by its workers, each followed by its targets.
[[nodiscard]] std::vector<FigureRow> figure_rows(const results::RunResults& run, const results::RunSummary& summary);

// A table of figures: the live meters of the Results Display (one row per level) and the
// table of finished runs.
class FiguresModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column {
    name_column,
    iops_column,
    mb_column,
    average_column,
    p99_column,
    maximum_column,
    errors_column,
    cpu_column,
    column_count
  };

  explicit FiguresModel(QObject* parent = nullptr);

  void set_rows(std::vector<FigureRow> rows);
  void append_row(FigureRow row);
  [[nodiscard]] const std::vector<FigureRow>& rows() const noexcept { return rows_; }

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<FigureRow> rows_;
};

// What a figures model shows of `row` in `column` (a FiguresModel::Column) for `role`: the
// name as it is, figures formatted, right-aligned, errors in red.
[[nodiscard]] QVariant figure_data(const FigureRow& row, int column, int role);
[[nodiscard]] QString figure_header(int column);

enum class Severity : std::uint8_t { info, warning, error };

struct LogEntry {
  QDateTime time;
  Severity severity{Severity::info};
  QString text;
};

// The log pane: notices, warnings and errors in arrival order, never in a modal dialog.
// Keeps the latest `max_entries`.
class LogModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { time_column, severity_column, text_column, column_count };

  explicit LogModel(std::size_t max_entries = 5000, QObject* parent = nullptr);

  void add(Severity severity, const QString& text);
  [[nodiscard]] const std::deque<LogEntry>& entries() const noexcept { return entries_; }

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 signals:
  void added(iomark::gui::Severity severity, const QString& text);

 private:
  std::size_t max_entries_;
  std::deque<LogEntry> entries_;
};

}  // namespace iomark::gui
