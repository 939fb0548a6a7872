// iomark-gui's command line: the run flags of run_options' one table land in the plan and the
// pages of the window, over what the plan opened with it says; --help lists them.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <vector>

#include "iomark/gui/command_line.hpp"
#include "iomark/gui/disk_targets_page.hpp"
#include "iomark/gui/main_window.hpp"
#include "iomark/gui/plan_document.hpp"
#include "iomark/gui/test_setup_page.hpp"
#include "test_paths.hpp"

namespace iomark::gui {
namespace {

const std::string kPlan = (::iomark::test_support::test_data_dir() / "icf/ok_110_windows_plan.icf").string();

// `arguments` (after the program name) parsed as iomark-gui parses them.
GuiFlags parsed(std::vector<std::string> arguments) {
  GuiFlags flags;
  CLI::App app{"iomark-gui"};
  add_gui_flags(app, flags);
  std::reverse(arguments.begin(), arguments.end());  // CLI11 takes them last first
  app.parse(arguments);
  return flags;
}

TEST(GuiCommandLine, RunFlagsLandInThePlanAndThePagesOverThePlansOwn) {
  const auto flags = parsed({kPlan, "--time", "42", "--ramp", "3", "--description", "from the command line",
                             "--results", "/var/tmp/gui-results.csv", "--json", "/var/tmp/gui-results.json",
                             "--engine", "null", "--buffered-io", "--size", "64M", "--steady-state", "avg",
                             "--max-rounds", "12"});
  EXPECT_EQ(flags.plan, kPlan);
  const auto settings = run_settings(flags.run);
  ASSERT_TRUE(settings) << settings.error().describe();

  MainWindow window({});
  ASSERT_TRUE(window.open_plan(QString::fromStdString(flags.plan)));
  ASSERT_NE(window.document().setup().run_time_s, 42U) << "the plan must say something else for this test";
  window.apply(*settings);
  const auto setup = window.document().setup();
  EXPECT_EQ(setup.run_time_s, 42U);
  EXPECT_EQ(setup.ramp_up_s, 3U);
  EXPECT_EQ(setup.description, "from the command line");
  EXPECT_EQ(window.test_setup_page().results_file(), QStringLiteral("/var/tmp/gui-results.csv"));
  EXPECT_EQ(window.disk_targets_page().test_file_bytes(), 64U << 20);
  EXPECT_EQ(window.run_settings().engine, "null");
  EXPECT_TRUE(window.run_settings().buffered);
  EXPECT_EQ(window.run_settings().results_json, "/var/tmp/gui-results.json");
  EXPECT_EQ(window.test_setup_page().steady_state(),
            (access_specs::SteadyStateRequest{.figure = access_specs::SteadyFigure::average_ms, .max_rounds = 12}));
}

TEST(GuiCommandLine, WithoutRunFlagsThePlanKeepsItsSettings) {
  const auto settings = run_settings(parsed({kPlan}).run);
  ASSERT_TRUE(settings) << settings.error().describe();
  MainWindow window({});
  ASSERT_TRUE(window.open_plan(QString::fromStdString(kPlan)));
  const auto before = window.document().setup();
  const auto results_file = window.test_setup_page().results_file();
  window.apply(*settings);
  EXPECT_EQ(window.document().setup(), before);
  EXPECT_EQ(window.test_setup_page().results_file(), results_file);
  EXPECT_EQ(window.run_settings().engine, "") << "auto: each agent probes";
  EXPECT_FALSE(window.test_setup_page().steady_state()) << "each run once unless asked";
  EXPECT_FALSE(window.test_setup_page().find_max_iops()) << "no search unless asked";
}

TEST(GuiCommandLine, FindMaxIopsPresetsTestSetupsSearch) {
  const auto settings = run_settings(parsed({kPlan, "--find-max-iops", "p99.9 <= 1500us"}).run);
  ASSERT_TRUE(settings) << settings.error().describe();
  const access_specs::LatencyBound bound{.figure = access_specs::LatencyFigure::p99_9_ms, .limit_ms = 1.5};
  EXPECT_EQ(settings->find_max_iops, bound);
  MainWindow window({});
  ASSERT_TRUE(window.open_plan(QString::fromStdString(kPlan)));
  window.apply(*settings);
  EXPECT_EQ(window.test_setup_page().find_max_iops(), bound);

  EXPECT_THROW(parsed({"--find-max-iops", "p99<2ms"}), CLI::ValidationError);
  // Test Setup holds one or the other, as `iomark run` runs one or the other.
  const auto both = run_settings(parsed({"--find-max-iops", "p99<=2ms", "--steady-state", "iops"}).run);
  ASSERT_FALSE(both);
  EXPECT_EQ(both.error().field(), "--find-max-iops");
}

TEST(GuiCommandLine, LimitsAndSizesAreCheckedBeforeTheWindowOpens) {
  EXPECT_THROW(parsed({"--time", "0"}), CLI::ValidationError);  // "until stopped" is for plans
  EXPECT_THROW(parsed({"--engine", "bogus"}), CLI::ValidationError);
  EXPECT_THROW(parsed({"--qd", "4"}), CLI::ParseError);  // the window edits the workload
  EXPECT_THROW(parsed({"--size", "lots"}), CLI::ValidationError);
  const auto settings = run_settings(parsed({"--size", "64M", "--engine", "libaio"}).run);
  ASSERT_TRUE(settings) << settings.error().describe();
  EXPECT_EQ(settings->test_file_bytes, 64U << 20);
  EXPECT_EQ(settings->engine, "linux-aio") << "the name the agents read";
}

TEST(GuiCommandLine, HelpListsTheRunFlagsWithTheConnectionOnes) {
  GuiFlags flags;
  CLI::App app{"iomark-gui"};
  add_gui_flags(app, flags);
  const auto help = app.help();
  for (const auto* flag : {"--time SECONDS", "--ramp SECONDS", "--engine ENGINE=auto", "--results FILE", "--json FILE",
                           "--description TEXT", "--size SIZE", "--find-max-iops BOUND", "--tls-cert FILE", "--key-file FILE",
                           "--listen"}) {
    EXPECT_NE(help.find(flag), std::string::npos) << flag << "\n" << help;
  }
  EXPECT_EQ(help.find("--qd"), std::string::npos) << help;
}

}  // namespace
}  // namespace iomark::gui
