// A plain-text table for terminal output: columns sized to their widest cell, numbers
// right-aligned. Used by every CLI verb that prints rows, so they all look alike.
#pragma once

#include <string>
#include <vector>

namespace iomark::cli_text {

enum class Align { left, right };

class TextTable {
 public:
  struct Column {
    std::string heading;
    Align align{Align::left};
  };

  explicit TextTable(std::vector<Column> columns);

  // A row with fewer cells than columns is padded with empty cells; extra cells are dropped.
  void add_row(std::vector<std::string> cells);
  [[nodiscard]] bool empty() const noexcept { return rows_.empty(); }

  // Heading, a rule of dashes, then the rows; two spaces between columns; each line ends in '\n'.
  [[nodiscard]] std::string render() const;

 private:
  std::vector<Column> columns_;
  std::vector<std::vector<std::string>> rows_;
};

// Fixed-point with `decimals` digits, e.g. format_fixed(1234.5, 1) == "1234.5".
[[nodiscard]] std::string format_fixed(double value, int decimals);

}  // namespace iomark::cli_text
