#include "iomark/cli_text/pts_text.hpp"

#include "iomark/access_specs/pts_iops.hpp"
#include "iomark/cli_text/text_table.hpp"
#include "iomark/results/precondition_writes.hpp"

namespace iomark::cli_text {

std::string pts_table_text(const results::PtsIopsTable& table) {
  if (table.first_round == 0) return "PTS IOPS: no round ran\n";
  std::string text = "PTS IOPS, average of round" +
                     (table.first_round == table.last_round
                          ? " " + std::to_string(table.first_round)
                          : "s " + std::to_string(table.first_round) + "-" + std::to_string(table.last_round)) +
                     (table.steady ? " (the steady-state window):\n" : " (not steady):\n");
  std::vector<TextTable::Column> columns{{"R/W", Align::left}};
  for (const auto block : table.block_bytes) columns.push_back({access_specs::pts_block_text(block), Align::right});
  TextTable rows(std::move(columns));
  for (std::size_t m = 0; m < table.read_percents.size(); ++m) {
    std::vector<std::string> cells{access_specs::pts_mix_text(table.read_percents[m])};
    for (const auto& iops : table.iops[m]) cells.push_back(iops ? format_fixed(*iops, 0) : std::string("-"));
    rows.add_row(std::move(cells));
  }
  return text + rows.render();
}

std::string precondition_line(const results::PreconditionRecord& record) {
  std::string targets;
  for (const auto& target : record.targets) targets += (targets.empty() ? "" : ", ") + target;
  return "preconditioned: every target written whole " + std::to_string(record.passes) +
         (record.passes == 1 ? " time in " : " times in ") + results::precondition_writes_text(record) +
         " before the first run" + (targets.empty() ? "" : " (" + targets + ")");
}

std::string pts_matrix_line(const results::PtsIopsRecord& record) {
  const auto span = [](const auto& values, const auto& text_of) {
    if (values.empty()) return std::string();
    return values.size() == 1 ? text_of(values.front()) : text_of(values.front()) + " .. " + text_of(values.back());
  };
  const auto mixes = record.read_percents.size();
  const auto blocks = record.block_bytes.size();
  return "PTS IOPS: " + std::to_string(mixes) + (mixes == 1 ? " mix (" : " mixes (") +
         span(record.read_percents, access_specs::pts_mix_text) + ") x " + std::to_string(blocks) +
         (blocks == 1 ? " block size (" : " block sizes (") + span(record.block_bytes, access_specs::pts_block_text) +
         ") a round";
}

}  // namespace iomark::cli_text
