#include "iomark/run_options/bash_completion.hpp"

#include <filesystem>
#include <iostream>
#include <set>
#include <utility>
#include <vector>

#include "iomark/engine/engine_kind.hpp"

namespace iomark::run_options {

namespace {

struct CommandWords {
  std::string path;  // "" for the program, "icf show" for a nested subcommand
  std::vector<std::string> words;
};

void collect(const CLI::App& app, const std::string& path, std::vector<CommandWords>& commands,
             std::set<std::string>& file_flags) {
  CommandWords command{path, {}};
  for (const auto* option : app.get_options()) {
    for (const auto& name : option->get_lnames()) {
      command.words.push_back("--" + name);
      const auto type = option->get_type_name();
      if (type == "FILE" || type == "PATH") file_flags.insert("--" + name);
    }
  }
  for (const auto* sub : app.get_subcommands({})) {
    if (sub->get_group().empty()) continue;  // hidden, like `completion` itself
    command.words.push_back(sub->get_name());
    collect(*sub, path.empty() ? sub->get_name() : path + " " + sub->get_name(), commands, file_flags);
  }
  commands.push_back(std::move(command));
}

std::string joined(const std::vector<std::string>& words, std::string_view separator) {
  std::string text;
  for (const auto& word : words) {
    if (!text.empty()) text += separator;
    text += word;
  }
  return text;
}

std::string function_name(const std::string& program) {
  std::string name = "_" + program;
  for (auto& c : name) {
    if (c == '-') c = '_';
  }
  return name;
}

}  // namespace

std::string bash_completion(const CLI::App& app) {
  std::vector<CommandWords> commands;
  std::set<std::string> file_flags;
  collect(app, "", commands, file_flags);
  std::vector<std::string> engines{"auto"};
  for (const auto kind : engine::kAllEngineKinds) engines.emplace_back(engine::to_string(kind));
  engines.emplace_back("libaio");
  std::vector<std::string> paths;
  for (const auto& command : commands) {
    if (!command.path.empty()) paths.push_back("\"" + command.path + "\"");
  }

  // CLI11 names the app after argv[0]; the completion is for the installed command name.
  const auto program = std::filesystem::path(app.get_name()).filename().string();
  const auto function = function_name(program);
  std::string script = "# bash completion for " + program + ", generated from its option table by `" + program +
                       " completion`: do not edit.\n";
  script += function + "() {\n  local cur prev words cword\n  _init_completion || return\n";
  if (!file_flags.empty()) {
    script += "  case $prev in\n    " + joined({file_flags.begin(), file_flags.end()}, "|") +
              ") _filedir; return ;;\n";
    script += "    --engine) mapfile -t COMPREPLY < <(compgen -W \"" + joined(engines, " ") +
              "\" -- \"$cur\"); return ;;\n  esac\n";
  }
  script += "  local path=\"\" word\n  for word in \"${words[@]:1:cword-1}\"; do\n";
  if (!paths.empty()) {
    script += "    case \"${path:+$path }$word\" in\n      " + joined(paths, "|") +
              ") path=\"${path:+$path }$word\" ;;\n    esac\n";
  } else {
    script += "    :\n";
  }
  script += "  done\n  local choices=\"\"\n  case $path in\n";
  for (const auto& command : commands) {
    script += "    \"" + command.path + "\") choices=\"" + joined(command.words, " ") + "\" ;;\n";
  }
  script += "  esac\n  mapfile -t COMPREPLY < <(compgen -W \"$choices\" -- \"$cur\")\n";
  // Positionals (PLAN.icf, results files) are paths: offer files beside the subcommand names.
  script += "  if [[ $cur != -* ]]; then\n    local named=(\"${COMPREPLY[@]}\")\n    COMPREPLY=()\n    _filedir\n"
            "    COMPREPLY=(\"${named[@]}\" \"${COMPREPLY[@]}\")\n  fi\n}\n";
  script += "complete -F " + function + " " + program + "\n";
  return script;
}

void add_completion_command(CLI::App& app) {
  auto* command = app.add_subcommand("completion", "Print the bash completion script");
  command->group("");  // hidden: packagers run it, users get the installed file
  command->callback([&app] { std::cout << bash_completion(app); });
}

}  // namespace iomark::run_options
