// Models of the Access Specifications tab: the global library (the plan's specs, then the
// built-ins) and the lines of one spec in the editor, whose cells are checked against the
// field descriptors (access_specs/field_descriptors.hpp) as they are typed.
#pragma once

#include <QAbstractTableModel>
#include <cstddef>
#include <optional>
#include <string>
#include <vector>

#include "iomark/access_specs/access_spec.hpp"
#include "iomark/access_specs/field_descriptors.hpp"

namespace iomark::gui {

enum class SpecOrigin : std::uint8_t { plan, storage_pattern, iometer_default };

struct LibrarySpec {
  access_specs::AccessSpec spec;
  SpecOrigin origin{SpecOrigin::plan};
  friend bool operator==(const LibrarySpec&, const LibrarySpec&) = default;
};

// The plan's specs first, then the storage patterns, then IOmeter's defaults. A built-in
// whose name a plan spec takes (case-insensitively) is left out: the plan's spec is the one
// that runs.
[[nodiscard]] std::vector<LibrarySpec> spec_library(const std::vector<access_specs::AccessSpec>& plan_specs);

class SpecLibraryModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  enum Column { name_column, origin_column, lines_column, first_line_column, column_count };

  explicit SpecLibraryModel(QObject* parent = nullptr);

  void set_specs(std::vector<LibrarySpec> specs);
  [[nodiscard]] const std::vector<LibrarySpec>& specs() const noexcept { return specs_; }
  [[nodiscard]] const LibrarySpec* spec_at(const QModelIndex& index) const;

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 private:
  std::vector<LibrarySpec> specs_;
};

// One line's cells as typed: a cell holds its text until it parses and fits its descriptor.
struct EditedLine {
  std::vector<std::string> cells;  // one per spec_line descriptor, in ICF column order
  friend bool operator==(const EditedLine&, const EditedLine&) = default;
};

// The value of one cell: a number for its descriptor (sizes accept "4k", "64KiB"), or the
// error naming the field and its range.
[[nodiscard]] Result<std::uint64_t> parse_cell(const access_specs::FieldDescriptor& field, std::string_view text,
                                               std::size_t line_number);

// The editor's table: one row per line, one column per spec_line field descriptor (caption
// and unit from the descriptor). Cells are edited as text; a cell that does not parse or is
// out of range shows the error (red, with the message as tooltip) and the spec is not valid
// until it is fixed.
class SpecLinesModel : public QAbstractTableModel {
  Q_OBJECT

 public:
  explicit SpecLinesModel(QObject* parent = nullptr);

  void set_lines(const std::vector<access_specs::AccessSpecLine>& lines);
  // Appends a line with the descriptors' defaults (or a copy of `copy_of`).
  void add_line(std::optional<std::size_t> copy_of = std::nullopt);
  void remove_line(std::size_t line);
  void move_line(std::size_t line, std::size_t to);

  // The lines, when every cell parses and fits; else the first cell's error.
  [[nodiscard]] Result<std::vector<access_specs::AccessSpecLine>> lines() const;

  [[nodiscard]] int rowCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] int columnCount(const QModelIndex& parent = {}) const override;
  [[nodiscard]] QVariant data(const QModelIndex& index, int role = Qt::DisplayRole) const override;
  [[nodiscard]] bool setData(const QModelIndex& index, const QVariant& value, int role = Qt::EditRole) override;
  [[nodiscard]] Qt::ItemFlags flags(const QModelIndex& index) const override;
  [[nodiscard]] QVariant headerData(int section, Qt::Orientation orientation, int role = Qt::DisplayRole) const override;

 signals:
  // Any cell, or the set of lines, changed.
  void edited();

 private:
  std::vector<EditedLine> lines_;
};

}  // namespace iomark::gui
