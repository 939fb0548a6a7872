// iomark specs list | iomark specs show NAME
#include <iostream>
#include <memory>

#include "cli_support.hpp"
#include "commands.hpp"
#include "iomark/access_specs/builtin_specs.hpp"
#include "iomark/common/units.hpp"
#include "iomark/cli_text/plan_report.hpp"
#include "iomark/cli_text/text_table.hpp"

namespace iomark::cli {

namespace {

using cli_text::Align;
using cli_text::TextTable;

// A one-line summary of a spec for the list: size (or "mix"), reads, random.
std::vector<std::string> summary_row(const access_specs::AccessSpec& spec) {
  const auto& first = spec.lines.front();
  const bool single = spec.lines.size() == 1;
  auto percent_or_mix = [&](auto field) {
    for (const auto& line : spec.lines) {
      if (line.*field != first.*field) return std::string("mix");
    }
    return std::to_string(first.*field) + "%";
  };
  return {spec.name, single ? format_size(Bytes(first.size_bytes)) : std::to_string(spec.lines.size()) + " sizes",
          percent_or_mix(&access_specs::AccessSpecLine::percent_reads),
          percent_or_mix(&access_specs::AccessSpecLine::percent_random)};
}

void print_list(std::string_view title, std::span<const access_specs::AccessSpec> specs) {
  TextTable table({{std::string(title)}, {"size", Align::right}, {"reads", Align::right}, {"random", Align::right}});
  for (const auto& spec : specs) table.add_row(summary_row(spec));
  std::cout << table.render();
}

int list() {
  print_list("Storage patterns", access_specs::storage_pattern_specs());
  std::cout << '\n';
  print_list("IOmeter 1.1.0 defaults", access_specs::iometer_default_specs());
  return static_cast<int>(ExitCode::ok);
}

int show(const std::string& name) {
  const auto* spec = access_specs::find_builtin_spec(name);
  if (spec == nullptr) {
    return bad_input(Error(ErrorCode::not_found, "no built-in access specification named \"" + name +
                                                  "\" (see `iomark specs list`)"));
  }
  std::cout << cli_text::describe_spec(*spec);
  return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_specs_commands(CLI::App& app, int& exit_code) {
  auto* specs = app.add_subcommand("specs", "The built-in access specifications");
  specs->require_subcommand(1);
  specs->add_subcommand("list", "List the built-in access specifications")->callback([&exit_code] {
    exit_code = list();
  });
  auto* show_command = specs->add_subcommand("show", "Show one built-in access specification line by line");
  auto name = std::make_shared<std::string>();  // lives as long as the callback reading it
  show_command->add_option("NAME", *name, "Its name, e.g. Database (case does not matter)")->required();
  show_command->callback([&exit_code, name] { exit_code = show(*name); });
}

}  // namespace iomark::cli
