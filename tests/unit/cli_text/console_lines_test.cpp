#include "iomark/cli_text/console_lines.hpp"

#include <gtest/gtest.h>

namespace iomark::cli_text {
namespace {

// `managers` managers of `workers` workers each, every worker on `engine` for `reason` (with
// "{m}" replaced by the manager's number, so reasons can differ by manager).
results::RunResults run_on(std::size_t managers, std::size_t workers, const std::string& engine,
                           const std::string& reason) {
  results::RunResults run;
  for (std::size_t m = 0; m < managers; ++m) {
    results::ManagerResult manager;
    manager.name = "host" + std::to_string(m);
    for (std::size_t w = 0; w < workers; ++w) {
      results::WorkerResult worker;
      worker.name = "Worker " + std::to_string(w + 1);
      worker.engine = engine;
      worker.engine_reason = reason;
      if (const auto at = reason.find("{m}"); at != std::string::npos) {
        worker.engine_reason = reason.substr(0, at) + std::to_string(m) + reason.substr(at + 3);
      }
      manager.workers.push_back(worker);
    }
    run.managers.push_back(manager);
  }
  return run;
}

TEST(ConsoleLines, AFewManagersPreparingAreListedOneByOne) {
  for (std::size_t position = 0; position < 3; ++position) {
    const auto lines = preparing_lines("host" + std::to_string(position), position, 3);
    const std::vector<std::string> expected{"preparing test files on host" + std::to_string(position)};
    EXPECT_EQ(lines.shown, expected);
    EXPECT_EQ(lines.detail, expected);
  }
}

TEST(ConsoleLines, AFleetPreparingShowsOneLineWithTheCount) {
  const auto first = preparing_lines("host0", 0, 1024);
  EXPECT_EQ(first.shown, std::vector<std::string>{"preparing test files on 1024 managers, one after another"});
  EXPECT_EQ(first.detail, std::vector<std::string>{"preparing test files on host0"});
  const auto later = preparing_lines("host7", 7, 1024);
  EXPECT_TRUE(later.shown.empty());
  EXPECT_EQ(later.detail, std::vector<std::string>{"preparing test files on host7"});
}

TEST(ConsoleLines, AFewEnginesAreListedOneByOneAndOnlyWhenNew) {
  EngineLines engines;
  const auto run = run_on(1, 2, "null", "as asked");
  const auto first = engines.new_choices(run);
  const std::vector<std::string> expected{"engine host0/Worker 1: as asked", "engine host0/Worker 2: as asked"};
  EXPECT_EQ(first.shown, expected);
  EXPECT_EQ(first.detail, expected);
  const auto again = engines.new_choices(run);
  EXPECT_TRUE(again.shown.empty());
  EXPECT_TRUE(again.detail.empty());
}

TEST(ConsoleLines, AFleetsEnginesFoldIntoOneLinePerReason) {
  EngineLines engines;
  auto run = run_on(1024, 16, "null", "as asked");
  run.managers[5].workers[0].engine = "io_uring";
  run.managers[5].workers[0].engine_reason = "fastest measured";
  const auto lines = engines.new_choices(run);
  const std::vector<std::string> expected{"engine as asked: 16383 workers on 1024 managers",
                                          "engine fastest measured: 1 workers on 1 managers"};
  EXPECT_EQ(lines.shown, expected);
  EXPECT_EQ(lines.detail.size(), 1024U * 16U);
  EXPECT_EQ(lines.detail[80], "engine host5/Worker 1: fastest measured");
}

TEST(ConsoleLines, ReasonsThatAllDifferFoldByEngine) {
  EngineLines engines;
  const auto lines = engines.new_choices(run_on(64, 16, "io_uring", "measured on host{m}"));
  EXPECT_EQ(lines.shown,
            std::vector<std::string>{"engine io_uring: 1024 workers on 64 managers (for reasons that differ)"});
  EXPECT_EQ(lines.detail.size(), 1024U);
}

}  // namespace
}  // namespace iomark::cli_text
