#include "iomark/gui/spec_models.hpp"

#include <QBrush>
#include <QColor>
#include <algorithm>
#include <charconv>

#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/common/ascii.hpp"
#include "iomark/common/units.hpp"
#include "iomark/gui/plan_document.hpp"

namespace iomark::gui {

namespace {

using access_specs::AccessSpecLine;
using access_specs::FieldDescriptor;
using access_specs::FieldGroup;
using access_specs::FieldId;

std::span<const FieldDescriptor> line_fields() { return access_specs::field_descriptors(FieldGroup::spec_line); }

// The member of a line that a spec_line descriptor describes.
std::uint32_t& member(AccessSpecLine& line, FieldId id) {
  switch (id) {
    case FieldId::size: return line.size_bytes;
    case FieldId::percent_of_size: return line.percent_of_size;
    case FieldId::percent_reads: return line.percent_reads;
    case FieldId::percent_random: return line.percent_random;
    case FieldId::delay: return line.delay_ms;
    case FieldId::burst: return line.burst_transactions;
    case FieldId::align: return line.align_bytes;
    default: return line.reply_bytes;
  }
}

std::uint32_t value_of(AccessSpecLine line, FieldId id) { return member(line, id); }

std::string cell_text(const FieldDescriptor& field, std::uint32_t value) {
  if (field.unit == access_specs::FieldUnit::bytes && value != 0) return format_size(Bytes(value));
  return std::to_string(value);
}

QString origin_name(SpecOrigin origin) {
  switch (origin) {
    case SpecOrigin::plan: return SpecLibraryModel::tr("this plan");
    case SpecOrigin::storage_pattern: return SpecLibraryModel::tr("built-in pattern");
    case SpecOrigin::iometer_default: return SpecLibraryModel::tr("IOmeter default");
  }
  return {};
}

}  // namespace

std::vector<LibrarySpec> spec_library(const std::vector<access_specs::AccessSpec>& plan_specs) {
  std::vector<LibrarySpec> library;
  for (const auto& spec : plan_specs) library.push_back({spec, SpecOrigin::plan});
  auto add_builtins = [&](std::span<const access_specs::AccessSpec> specs, SpecOrigin origin) {
    for (const auto& spec : specs) {
      const bool shadowed = std::any_of(plan_specs.begin(), plan_specs.end(),
                                        [&](const access_specs::AccessSpec& s) { return ascii::iequals(s.name, spec.name); });
      if (!shadowed) library.push_back({spec, origin});
    }
  };
  add_builtins(access_specs::storage_pattern_specs(), SpecOrigin::storage_pattern);
  add_builtins(access_specs::iometer_default_specs(), SpecOrigin::iometer_default);
  return library;
}

SpecLibraryModel::SpecLibraryModel(QObject* parent) : QAbstractTableModel(parent) {}

void SpecLibraryModel::set_specs(std::vector<LibrarySpec> specs) {
  if (specs == specs_) return;
  beginResetModel();
  specs_ = std::move(specs);
  endResetModel();
}

const LibrarySpec* SpecLibraryModel::spec_at(const QModelIndex& index) const {
  if (!index.isValid() || index.row() >= rowCount()) return nullptr;
  return &specs_[static_cast<std::size_t>(index.row())];
}

int SpecLibraryModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(specs_.size());
}

int SpecLibraryModel::columnCount(const QModelIndex& parent) const { return parent.isValid() ? 0 : column_count; }

QVariant SpecLibraryModel::data(const QModelIndex& index, int role) const {
  const auto* entry = spec_at(index);
  if (entry == nullptr) return {};
  if (role == Qt::ForegroundRole && entry->origin != SpecOrigin::plan) return QBrush(QColor(0x55, 0x55, 0x55));
  if (role != Qt::DisplayRole && role != Qt::ToolTipRole) return {};
  const auto& spec = entry->spec;
  switch (index.column()) {
    case name_column: return QString::fromStdString(spec.name);
    case origin_column: return origin_name(entry->origin);
    case lines_column: return static_cast<int>(spec.lines.size());
    case first_line_column: {
      if (spec.lines.empty()) return {};
      const auto& line = spec.lines.front();
      return tr("%1, %2% read, %3% random%4")
          .arg(QString::fromStdString(format_size(Bytes(line.size_bytes))))
          .arg(line.percent_reads)
          .arg(line.percent_random)
          .arg(spec.lines.size() > 1 ? tr(" (+%1 lines)").arg(spec.lines.size() - 1) : QString());
    }
    default: return {};
  }
}

QVariant SpecLibraryModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation != Qt::Horizontal || role != Qt::DisplayRole) return {};
  switch (section) {
    case name_column: return tr("Access specification");
    case origin_column: return tr("From");
    case lines_column: return tr("Lines");
    case first_line_column: return tr("Pattern");
    default: return {};
  }
}

Result<std::uint64_t> parse_cell(const FieldDescriptor& field, std::string_view text, std::size_t line_number) {
  const auto context = "line " + std::to_string(line_number);
  while (!text.empty() && text.front() == ' ') text.remove_prefix(1);
  while (!text.empty() && text.back() == ' ') text.remove_suffix(1);
  std::uint64_t value = 0;
  if (field.unit == access_specs::FieldUnit::bytes) {
    const auto size = parse_size(text);
    if (!size) {
      return fail(Error(ErrorCode::parse_error, context + ": '" + std::string(field.icf_name) + "' is \"" +
                                                    std::string(text) + "\", not a size (4096, 4k, 64KiB)")
                      .in_field(std::string(field.key)));
    }
    value = size->count();
  } else {
    const auto* end = text.data() + text.size();
    const auto parsed = std::from_chars(text.data(), end, value);
    if (text.empty() || parsed.ec != std::errc() || parsed.ptr != end) {
      return fail(Error(ErrorCode::parse_error, context + ": '" + std::string(field.icf_name) + "' is \"" +
                                                    std::string(text) + "\", not a whole number")
                      .in_field(std::string(field.key)));
    }
  }
  if (auto fits = access_specs::check_field(field.id, value, context); !fits) return fail(fits.error());
  return value;
}

SpecLinesModel::SpecLinesModel(QObject* parent) : QAbstractTableModel(parent) {}

void SpecLinesModel::set_lines(const std::vector<AccessSpecLine>& lines) {
  beginResetModel();
  lines_.clear();
  for (const auto& line : lines) {
    EditedLine edited;
    for (const auto& field : line_fields()) edited.cells.push_back(cell_text(field, value_of(line, field.id)));
    lines_.push_back(std::move(edited));
  }
  endResetModel();
  emit edited();
}

void SpecLinesModel::add_line(std::optional<std::size_t> copy_of) {
  EditedLine line;
  if (copy_of && *copy_of < lines_.size()) {
    line = lines_[*copy_of];
  } else {
    for (const auto& field : line_fields()) line.cells.push_back(cell_text(field, static_cast<std::uint32_t>(field.default_value)));
  }
  const int row = rowCount();
  beginInsertRows({}, row, row);
  lines_.push_back(std::move(line));
  endInsertRows();
  emit edited();
}

void SpecLinesModel::remove_line(std::size_t line) {
  if (line >= lines_.size()) return;
  beginRemoveRows({}, static_cast<int>(line), static_cast<int>(line));
  lines_.erase(lines_.begin() + static_cast<std::ptrdiff_t>(line));
  endRemoveRows();
  emit edited();
}

void SpecLinesModel::move_line(std::size_t line, std::size_t to) {
  if (line >= lines_.size() || to >= lines_.size() || line == to) return;
  // Qt's destination row is the row the moved one is inserted before.
  const int destination = static_cast<int>(to > line ? to + 1 : to);
  beginMoveRows({}, static_cast<int>(line), static_cast<int>(line), {}, destination);
  auto moved = std::move(lines_[line]);
  lines_.erase(lines_.begin() + static_cast<std::ptrdiff_t>(line));
  lines_.insert(lines_.begin() + static_cast<std::ptrdiff_t>(to), std::move(moved));
  endMoveRows();
  emit edited();
}

Result<std::vector<AccessSpecLine>> SpecLinesModel::lines() const {
  std::vector<AccessSpecLine> lines;
  const auto fields = line_fields();
  for (std::size_t row = 0; row < lines_.size(); ++row) {
    AccessSpecLine line;
    for (std::size_t column = 0; column < fields.size(); ++column) {
      auto value = parse_cell(fields[column], lines_[row].cells[column], row + 1);
      if (!value) return fail(value.error());
      member(line, fields[column].id) = static_cast<std::uint32_t>(*value);
    }
    lines.push_back(line);
  }
  return lines;
}

int SpecLinesModel::rowCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(lines_.size());
}

int SpecLinesModel::columnCount(const QModelIndex& parent) const {
  return parent.isValid() ? 0 : static_cast<int>(line_fields().size());
}

QVariant SpecLinesModel::data(const QModelIndex& index, int role) const {
  if (!checkIndex(index, CheckIndexOption::IndexIsValid)) return {};
  const auto row = static_cast<std::size_t>(index.row());
  const auto column = static_cast<std::size_t>(index.column());
  const auto& text = lines_[row].cells[column];
  switch (role) {
    case Qt::DisplayRole:
    case Qt::EditRole: return QString::fromStdString(text);
    case Qt::TextAlignmentRole: return QVariant::fromValue(Qt::AlignRight | Qt::AlignVCenter);
    case Qt::BackgroundRole:
      return parse_cell(line_fields()[column], text, row + 1) ? QVariant() : QVariant(QBrush(QColor(0xf6, 0xc8, 0xc8)));
    case Qt::ToolTipRole: {
      const auto& field = line_fields()[column];
      const auto value = parse_cell(field, text, row + 1);
      if (!value) return QString::fromStdString(value.error().message());
      return QString::fromStdString(std::string(field.help));
    }
    default: return {};
  }
}

bool SpecLinesModel::setData(const QModelIndex& index, const QVariant& value, int role) {
  if (role != Qt::EditRole || !checkIndex(index, CheckIndexOption::IndexIsValid)) return false;
  auto& cell = lines_[static_cast<std::size_t>(index.row())].cells[static_cast<std::size_t>(index.column())];
  const auto text = value.toString().toStdString();
  if (cell == text) return true;
  cell = text;
  emit dataChanged(index, index, {Qt::DisplayRole, Qt::EditRole, Qt::BackgroundRole, Qt::ToolTipRole});
  emit edited();
  return true;
}

Qt::ItemFlags SpecLinesModel::flags(const QModelIndex& index) const {
  if (!index.isValid()) return Qt::NoItemFlags;
  return Qt::ItemIsSelectable | Qt::ItemIsEnabled | Qt::ItemIsEditable;
}

QVariant SpecLinesModel::headerData(int section, Qt::Orientation orientation, int role) const {
  if (orientation == Qt::Vertical) return role == Qt::DisplayRole ? QVariant(section + 1) : QVariant();
  if (section < 0 || section >= columnCount()) return {};
  const auto& field = line_fields()[static_cast<std::size_t>(section)];
  if (role == Qt::ToolTipRole) return QString::fromStdString(std::string(field.caption) + ": " + std::string(field.help));
  if (role != Qt::DisplayRole) return {};
  const auto unit = access_specs::to_string(field.unit);
  auto caption = QString::fromStdString(std::string(field.icf_name));
  return unit.empty() || field.unit == access_specs::FieldUnit::percent
             ? caption
             : caption + " (" + QString::fromStdString(std::string(unit)) + ")";
}

}  // namespace iomark::gui
