#include "iomark/cli_text/text_table.hpp"

#include <algorithm>
#include <array>
#include <cstdio>

namespace iomark::cli_text {

TextTable::TextTable(std::vector<Column> columns) : columns_(std::move(columns)) {}

void TextTable::add_row(std::vector<std::string> cells) {
  cells.resize(columns_.size());
  rows_.push_back(std::move(cells));
}

std::string TextTable::render() const {
  std::vector<std::size_t> widths(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) {
    widths[c] = columns_[c].heading.size();
    for (const auto& row : rows_) widths[c] = std::max(widths[c], row[c].size());
  }
  auto render_line = [&](auto cell_of) {
    std::string line;
    for (std::size_t c = 0; c < columns_.size(); ++c) {
      const std::string& cell = cell_of(c);
      const auto padding = std::string(widths[c] - cell.size(), ' ');
      const bool last = c + 1 == columns_.size();
      if (columns_[c].align == Align::right) line += padding + cell;
      else line += last ? cell : cell + padding;
      if (!last) line += "  ";
    }
    return line + '\n';
  };
  std::string text = render_line([&](std::size_t c) -> const std::string& { return columns_[c].heading; });
  std::vector<std::string> rules(columns_.size());
  for (std::size_t c = 0; c < columns_.size(); ++c) rules[c] = std::string(widths[c], '-');
  text += render_line([&](std::size_t c) -> const std::string& { return rules[c]; });
  for (const auto& row : rows_) text += render_line([&](std::size_t c) -> const std::string& { return row[c]; });
  return text;
}

std::string format_fixed(double value, int decimals) {
  std::array<char, 64> buffer{};
  std::snprintf(buffer.data(), buffer.size(), "%.*f", decimals, value);
  return buffer.data();
}

}  // namespace iomark::cli_text
