#include "iomark/cli_text/console_lines.hpp"

#include <functional>
#include <set>

namespace iomark::cli_text {

namespace {

struct NewChoice {
  std::string_view manager;
  std::string_view engine;
  std::string_view reason;
};

// "engine KEY: N workers on M managers" per distinct key (in order, so the folded lines do not
// depend on the order managers answered).
std::vector<std::string> counted_lines(const std::vector<NewChoice>& choices,
                                       const std::function<std::string_view(const NewChoice&)>& key_of,
                                       std::string_view suffix) {
  struct Counted {
    std::size_t workers{};
    std::set<std::string_view> managers;
  };
  std::map<std::string_view, Counted> by_key;
  for (const auto& choice : choices) {
    auto& counted = by_key[key_of(choice)];
    ++counted.workers;
    counted.managers.insert(choice.manager);
  }
  std::vector<std::string> lines;
  for (const auto& [key, counted] : by_key) {
    lines.push_back("engine " + std::string(key) + ": " + std::to_string(counted.workers) + " workers on " +
                    std::to_string(counted.managers.size()) + " managers" + std::string(suffix));
  }
  return lines;
}

}  // namespace

ConsoleLines preparing_lines(std::string_view manager, std::size_t position, std::size_t count) {
  ConsoleLines lines;
  lines.detail.push_back("preparing test files on " + std::string(manager));
  if (count <= kLinesListedOneByOne) {
    lines.shown = lines.detail;
  } else if (position == 0) {
    lines.shown.push_back("preparing test files on " + std::to_string(count) + " managers, one after another");
  }
  return lines;
}

ConsoleLines EngineLines::new_choices(const results::RunResults& run) {
  ConsoleLines lines;
  std::vector<NewChoice> choices;
  for (const auto& manager : run.managers) {
    for (const auto& worker : manager.workers) {
      auto& shown = shown_[manager.name + "/" + worker.name];
      if (worker.engine.empty() || shown == worker.engine) continue;
      shown = worker.engine;
      lines.detail.push_back("engine " + manager.name + "/" + worker.name + ": " + worker.engine_reason);
      choices.push_back({manager.name, worker.engine, worker.engine_reason});
    }
  }
  if (lines.detail.size() <= kLinesListedOneByOne) {
    lines.shown = lines.detail;
    return lines;
  }
  lines.shown = counted_lines(choices, [](const NewChoice& choice) { return choice.reason; }, "");
  // As many reasons as workers (auto's measurements differ by target): the engines alone.
  if (lines.shown.size() > kLinesListedOneByOne) {
    lines.shown = counted_lines(choices, [](const NewChoice& choice) { return choice.engine; },
                                " (for reasons that differ)");
  }
  return lines;
}

}  // namespace iomark::cli_text
