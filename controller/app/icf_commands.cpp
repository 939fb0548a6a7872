// iomark icf show FILE | iomark icf convert FILE -o OUT
#include <iostream>
#include <memory>

#include "cli_support.hpp"
#include "commands.hpp"
#include "iomark/cli_text/plan_report.hpp"
#include "iomark/icf/icf.hpp"
#include "iomark/icf/warning_groups.hpp"
#include "iomark/results/durable_append.hpp"

namespace iomark::cli {

namespace {

Result<icf::IcfImport> import_file(const std::string& path) {
  auto text = read_text_file(path);
  if (!text) return fail(text.error());
  return icf::read_icf(*text, path);
}

}  // namespace

void print_warnings(const std::string& path, const icf::IcfImport& imported) {
  for (const auto& group : icf::group_warnings(imported.warnings)) {
    std::cerr << path << ':' << group.first.line << ": warning: " << icf::describe(group) << '\n';
  }
}

namespace {

int show(const std::string& path) {
  const auto imported = import_file(path);
  if (!imported) return bad_input(imported.error());
  print_warnings(path, *imported);
  std::cout << path << " (IOmeter " << imported->version << " format)\n\n"
            << cli_text::describe_plan(imported->plan);
  return static_cast<int>(ExitCode::ok);
}

int convert(const std::string& path, const std::string& output) {
  const auto imported = import_file(path);
  if (!imported) return bad_input(imported.error());
  print_warnings(path, *imported);
  if (auto written = results::replace_durably(output, icf::write_icf(imported->plan)); !written) {
    return bad_input(written.error());
  }
  std::cerr << "wrote " << output << " (IOmeter 1.1.0 format, from " << imported->version << ")\n";
  return static_cast<int>(ExitCode::ok);
}

}  // namespace

void add_icf_commands(CLI::App& app, int& exit_code) {
  auto* icf = app.add_subcommand("icf", "Read and convert IOmeter configuration files (.icf)");
  icf->require_subcommand(1);

  // Option storage lives as long as the callback that reads it.
  auto* show_command = icf->add_subcommand("show", "Print the test plan of an .icf file, human readable");
  auto show_path = std::make_shared<std::string>();
  show_command->add_option("FILE", *show_path, "An .icf file of any IOmeter version")->required();
  show_command->callback([&exit_code, show_path] { exit_code = show(*show_path); });

  auto* convert_command = icf->add_subcommand("convert", "Rewrite an .icf file in IOmeter 1.1.0 form");
  auto convert_paths = std::make_shared<std::pair<std::string, std::string>>();
  convert_command->add_option("FILE", convert_paths->first, "An .icf file of any IOmeter version")->required();
  convert_command->add_option("-o,--output", convert_paths->second, "Where to write the 1.1.0 file")->required();
  convert_command->callback(
      [&exit_code, convert_paths] { exit_code = convert(convert_paths->first, convert_paths->second); });
}

}  // namespace iomark::cli
