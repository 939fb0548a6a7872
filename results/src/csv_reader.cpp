#include "iomark/results/csv_reader.hpp"

#include <algorithm>
#include <charconv>
#include <cmath>
#include <utility>

#include "iomark/common/ascii.hpp"

namespace iomark::results {
namespace {

constexpr std::string_view kMaxFigureText = "1e15";

using access_specs::AccessSpec;
using access_specs::DefaultAssignment;

using ascii::trim;

std::vector<std::string_view> split_fields(std::string_view line) {
  std::vector<std::string_view> fields;
  std::size_t start = 0;
  while (true) {
    const std::size_t comma = line.find(',', start);
    if (comma == std::string_view::npos) {
      fields.push_back(line.substr(start));
      return fields;
    }
    fields.push_back(line.substr(start, comma - start));
    start = comma + 1;
  }
}

// Any number strtod reads, `inf` and `nan` included: the caller decides what is a figure.
std::optional<double> parse_number(std::string_view text) {
  text = trim(text);
  if (text.empty()) return std::nullopt;
  if (text.front() == '+') text.remove_prefix(1);
  double value = 0;
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

template <typename Integer>
std::optional<Integer> parse_integer(std::string_view text) {
  text = trim(text);
  Integer value{};
  const auto [end, error] = std::from_chars(text.data(), text.data() + text.size(), value);
  if (text.empty() || error != std::errc() || end != text.data() + text.size()) return std::nullopt;
  return value;
}

// Which captions each common statistic goes by, newest dialect first.
struct StatisticColumn {
  std::optional<double> CsvStatistics::*member;
  std::initializer_list<std::string_view> captions;
};

const StatisticColumn kStatisticColumns[] = {
    {&CsvStatistics::iops, {"IOps"}},
    {&CsvStatistics::read_iops, {"Read IOps"}},
    {&CsvStatistics::write_iops, {"Write IOps"}},
    {&CsvStatistics::mib_per_s, {"MiBps (Binary)", "MBps (Binary)", "MBps"}},
    {&CsvStatistics::read_mib_per_s, {"Read MiBps (Binary)", "Read MBps (Binary)", "Read MBps"}},
    {&CsvStatistics::write_mib_per_s, {"Write MiBps (Binary)", "Write MBps (Binary)", "Write MBps"}},
    {&CsvStatistics::mb_per_s, {"MBps (Decimal)"}},
    {&CsvStatistics::read_mb_per_s, {"Read MBps (Decimal)"}},
    {&CsvStatistics::write_mb_per_s, {"Write MBps (Decimal)"}},
    {&CsvStatistics::average_response_ms, {"Average Response Time"}},
    {&CsvStatistics::average_read_ms, {"Average Read Response Time"}},
    {&CsvStatistics::average_write_ms, {"Average Write Response Time"}},
    {&CsvStatistics::maximum_response_ms, {"Maximum Response Time"}},
    {&CsvStatistics::errors, {"Errors"}},
    {&CsvStatistics::managers, {"# Managers"}},
    {&CsvStatistics::workers, {"# Workers"}},
    {&CsvStatistics::disks, {"# Disks"}},
    {&CsvStatistics::queue_depth, {"Queue Depth"}},
    {&CsvStatistics::cpu_percent, {"% CPU Utilization"}},
};

// Lines are taken from the text one at a time, never indexed all at once: what the reader
// holds beyond the text is what it read (50 MB of newlines cost no more than the 50 MB).
class Reader {
 public:
  Reader(std::string_view text, std::string_view file_name) : text_(text), file_name_(file_name) {}

  Result<std::vector<CsvSeries>> read() {
    while (more_lines()) {
      auto line = take_line();
      if (!line) return tl::unexpected(std::move(line.error()));
      if (auto step = read_line(*line); !step) return tl::unexpected(std::move(step.error()));
    }
    return std::move(series_);
  }

 private:
  [[nodiscard]] std::uint64_t line_number() const { return index_; }  // of the line last taken

  [[nodiscard]] bool more_lines() const { return position_ < text_.size(); }

  // The next line without its line end; past kMaxCsvLines an error at the first line too many.
  Result<std::string_view> take_line() {
    if (index_ >= kMaxCsvLines) {
      ++index_;
      return error("more than " + std::to_string(kMaxCsvLines) + " lines: not a results file this reader takes");
    }
    const std::size_t end = text_.find('\n', position_);
    const std::size_t stop = end == std::string_view::npos ? text_.size() : end;
    std::string_view line = text_.substr(position_, stop - position_);
    if (!line.empty() && line.back() == '\r') line.remove_suffix(1);
    position_ = stop + 1;
    ++index_;
    return line;
  }

  tl::unexpected<Error> error(std::string message, std::string field = {}) const {
    Error e(ErrorCode::parse_error, std::move(message));
    e.at({std::string(file_name_), line_number()});
    if (!field.empty()) e.in_field(std::move(field));
    return tl::unexpected<Error>(std::move(e));
  }

  // The line after a marker, which must exist.
  Result<std::string_view> next_line(std::string_view marker) {
    if (!more_lines()) return error("'" + std::string(marker) + "' is not followed by a value line");
    return take_line();
  }

  Result<CsvSeries*> current_series(std::string_view what) {
    if (series_.empty()) return error(std::string(what) + " before any `'Test Type,Test Description` header");
    return &series_.back();
  }

  Result<void> read_line(std::string_view raw) {
    const std::string_view line = trim(raw);
    if (line.empty()) return {};
    if (line.starts_with("ERROR:")) {
      auto series = current_series("an ERROR line");
      if (!series) return tl::unexpected(std::move(series.error()));
      (*series)->errors.emplace_back(trim(line.substr(6)));
      return {};
    }
    if (line == "Aborted test") {
      auto series = current_series("`Aborted test`");
      if (!series) return tl::unexpected(std::move(series.error()));
      (*series)->end = CsvSeriesEnd::aborted;
      open_run_ = nullptr;
      return {};
    }
    if (line.starts_with('\'')) return read_marker(line);
    return read_row(raw);
  }

  Result<void> read_marker(std::string_view marker) {
    if (marker == "'Test Type,Test Description") return read_series_header();
    auto series = current_series(marker);
    if (!series) return tl::unexpected(std::move(series.error()));
    if (marker == "'Version") {
      auto value = next_line(marker);
      if (!value) return tl::unexpected(std::move(value.error()));
      (*series)->version = trim(*value);
      return {};
    }
    if (marker == "'Time Stamp") {
      auto value = next_line(marker);
      if (!value) return tl::unexpected(std::move(value.error()));
      if (open_run_ != nullptr) {
        open_run_->time_stamp = trim(*value);
        open_run_ = nullptr;
      } else {
        (*series)->time_stamp = trim(*value);
      }
      return {};
    }
    if (marker == "'Access specifications") return read_spec_block(**series);
    if (marker == "'Results") return read_results_header(**series);
    if (marker == "'End Test") {
      (*series)->end = CsvSeriesEnd::end_test;
      open_run_ = nullptr;
      return {};
    }
    return error("unknown marker line `" + std::string(marker) + "`");
  }

  Result<void> read_series_header() {
    CsvSeries series;
    series.line = line_number();
    auto value = next_line("Test Type,Test Description");
    if (!value) return tl::unexpected(std::move(value.error()));
    const std::string_view text = trim(*value);
    const std::size_t comma = text.find(',');
    const auto type = parse_integer<unsigned>(text.substr(0, comma));
    if (!type || *type > static_cast<unsigned>(access_specs::TestType::cycle_outstanding_ios_and_targets)) {
      return error("test type must be a number from 0 to 7, not `" + std::string(text.substr(0, comma)) + "`",
                   "Test Type");
    }
    series.test_type = static_cast<access_specs::TestType>(*type);
    if (comma != std::string_view::npos) series.description = text.substr(comma + 1);
    series_.push_back(std::move(series));
    open_run_ = nullptr;
    return {};
  }

  Result<void> read_spec_block(CsvSeries& series) {
    CsvSpecBlock block;
    block.line = line_number();
    while (true) {
      if (!more_lines()) return error("spec block without `'End access specifications`");
      auto taken = take_line();
      if (!taken) return tl::unexpected(std::move(taken.error()));
      const std::string_view line = trim(*taken);
      if (line.empty()) continue;
      if (line == "'End access specifications") break;
      if (line == "'Access specification name,default assignment") {
        auto spec = read_spec_name();
        if (!spec) return tl::unexpected(std::move(spec.error()));
        block.specs.push_back(std::move(*spec));
      } else if (line.starts_with("'size")) {
        continue;
      } else if (block.specs.empty()) {
        return error("spec line before any `'Access specification name` line");
      } else {
        auto spec_line = read_spec_line(line);
        if (!spec_line) return tl::unexpected(std::move(spec_line.error()));
        block.specs.back().lines.push_back(*spec_line);
      }
    }
    series.spec_blocks.push_back(std::move(block));
    return {};
  }

  Result<AccessSpec> read_spec_name() {
    auto value = next_line("Access specification name,default assignment");
    if (!value) return tl::unexpected(std::move(value.error()));
    const std::string_view text = trim(*value);
    const std::size_t comma = text.rfind(',');
    if (comma == std::string_view::npos) return error("expected `<name>,<default assignment>`", "default assignment");
    const auto assignment = parse_integer<unsigned>(text.substr(comma + 1));
    if (!assignment || *assignment > static_cast<unsigned>(DefaultAssignment::network)) {
      return error("default assignment must be 0 to 3, not `" + std::string(text.substr(comma + 1)) + "`",
                   "default assignment");
    }
    AccessSpec spec;
    spec.name = text.substr(0, comma);
    spec.default_assignment = static_cast<DefaultAssignment>(*assignment);
    return spec;
  }

  Result<access_specs::AccessSpecLine> read_spec_line(std::string_view line) {
    if (line.ends_with(',')) line.remove_suffix(1);  // 1.1.0 ends spec lines with a comma
    auto parsed = access_specs::parse_spec_line(line);
    if (!parsed) {
      Error e = std::move(parsed.error());
      e.at({std::string(file_name_), line_number()});
      return tl::unexpected(std::move(e));
    }
    return *parsed;
  }

  Result<void> read_results_header(CsvSeries& series) {
    CsvRun run;
    run.line = line_number();
    if (!series.spec_blocks.empty()) run.spec_block = series.spec_blocks.size() - 1;
    auto header = next_line("Results");
    if (!header) return tl::unexpected(std::move(header.error()));
    for (std::string_view caption : split_fields(trim(*header))) {
      if (caption.starts_with('\'')) caption.remove_prefix(1);
      run.columns.emplace_back(caption);
    }
    bool has_type = false;
    bool has_mib = false;
    for (const std::string& column : run.columns) {
      has_type = has_type || column == "Target Type";
      has_mib = has_mib || column == "MiBps (Binary)";
    }
    if (!has_type) return error("results header without a `Target Type` column");
    if (run.columns.front() == "TimeStamp") {
      run.layout = CsvLayout::instantaneous;
    } else {
      run.layout = has_mib ? CsvLayout::iometer_1_1_0 : CsvLayout::legacy;
    }
    series.runs.push_back(std::move(run));
    open_run_ = &series.runs.back();
    return {};
  }

  Result<void> read_row(std::string_view line) {
    if (open_run_ == nullptr) return error("data row outside a results block");
    const std::vector<std::string_view> fields = split_fields(line);
    const std::vector<std::string>& columns = open_run_->columns;
    for (std::size_t i = columns.size(); i < fields.size(); ++i) {
      if (!trim(fields[i]).empty()) {
        return error("row has more fields (" + std::to_string(fields.size()) + ") than the header (" +
                     std::to_string(columns.size()) + ")");
      }
    }
    CsvRow row;
    row.line = line_number();
    for (std::size_t i = 0; i < fields.size() && i < columns.size(); ++i) {
      row.values.insert_or_assign(columns[i], std::string(fields[i]));
    }
    row.type = row.value("Target Type").value_or("");
    row.name = row.value("Target Name").value_or("");
    row.spec = row.value("Access Specification Name").value_or("");
    row.time_stamp = row.value("TimeStamp").value_or("");
    if (row.type.empty()) return error("row without a target type", "Target Type");
    for (const StatisticColumn& statistic : kStatisticColumns) {
      for (const std::string_view caption : statistic.captions) {
        const auto cell = row.value(caption);
        if (!cell) continue;
        if (!trim(*cell).empty()) {
          const auto number = parse_number(*cell);
          if (!number) {
            return error("`" + std::string(*cell) + "` in column " + std::to_string(column_of(caption) + 1) +
                             " is not a number",
                         std::string(caption));
          }
          if (!is_figure(*number)) {
            return error("`" + std::string(trim(*cell)) + "` in column " + std::to_string(column_of(caption) + 1) +
                             " is not a figure (finite, below " + std::string(kMaxFigureText) + " in magnitude)",
                         std::string(caption));
          }
          row.stats.*statistic.member = number;
        }
        break;
      }
    }
    open_run_->rows.push_back(std::move(row));
    return {};
  }

  // The 0-based position of a caption in the open block's header.
  std::size_t column_of(std::string_view caption) const {
    const auto& columns = open_run_->columns;
    return static_cast<std::size_t>(std::find(columns.begin(), columns.end(), caption) - columns.begin());
  }

  std::string_view text_;
  std::size_t position_{};  // of the next line's first byte
  std::string_view file_name_;
  std::uint64_t index_{};   // lines taken
  std::vector<CsvSeries> series_;
  CsvRun* open_run_{nullptr};  // the results block rows go to, until its `'Time Stamp`
};

}  // namespace

std::optional<std::string_view> CsvRow::value(std::string_view column) const {
  const auto found = values.find(column);
  if (found == values.end()) return std::nullopt;
  return std::string_view(found->second);
}

std::optional<double> CsvRow::number(std::string_view column) const {
  const auto cell = value(column);
  const auto number = cell ? parse_number(*cell) : std::nullopt;
  return number && is_figure(*number) ? number : std::nullopt;
}

bool is_figure(double value) noexcept { return std::isfinite(value) && std::fabs(value) < kMaxFigure; }

const CsvRow* CsvRun::find_row(std::string_view type) const {
  for (const CsvRow& row : rows) {
    if (row.type == type) return &row;
  }
  return nullptr;
}

Result<std::vector<CsvSeries>> read_results_csv(std::string_view text, std::string_view file_name) {
  return Reader(text, file_name).read();
}

}  // namespace iomark::results
