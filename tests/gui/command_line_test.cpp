// iomark-gui's command line: the run flags of run_options' one table land in the plan and the
// pages of the window, over what the plan opened with it says; --help lists them.
#include <gtest/gtest.h>

#include <QComboBox>
#include <algorithm>
#include <optional>
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

TEST(GuiCommandLine, PreconditionPresetsTestSetupsPasses) {
  const auto settings = run_settings(parsed({kPlan, "--precondition", "--precondition-passes", "3"}).run);
  ASSERT_TRUE(settings) << settings.error().describe();
  EXPECT_EQ(settings->precondition_passes, 3U);
  MainWindow window({});
  ASSERT_TRUE(window.open_plan(QString::fromStdString(kPlan)));
  window.apply(*settings);
  EXPECT_EQ(window.test_setup_page().precondition_passes(), 3U);

  const auto two = run_settings(parsed({"--precondition"}).run);
  ASSERT_TRUE(two) << two.error().describe();
  EXPECT_EQ(two->precondition_passes, 2U) << "iomark run's default";
  EXPECT_THROW(parsed({"--precondition", "--precondition-passes", "0"}), CLI::ValidationError);
  EXPECT_THROW(parsed({"--precondition-passes", "3"}), CLI::ValidationError) << "passes of no preconditioning";
  EXPECT_THROW(parsed({"--max-rounds", "9"}), CLI::ValidationError) << "rounds of no rounds";
}

TEST(GuiCommandLine, APreconditionSpecPresetsTestSetupsAndIsWhatStartAsksFor) {
  const auto settings = run_settings(parsed({kPlan, "--precondition", "--precondition-spec", "4K random write"}).run);
  ASSERT_TRUE(settings) << settings.error().describe();
  EXPECT_EQ(settings->precondition_spec, "4K random write");
  MainWindow window({});
  ASSERT_TRUE(window.open_plan(QString::fromStdString(kPlan)));
  window.apply(*settings);
  auto& page = window.test_setup_page();
  EXPECT_EQ(page.precondition_spec(), "4K random write");
  auto* box = page.findChild<QComboBox*>(QStringLiteral("precondition_spec"));
  ASSERT_NE(box, nullptr);
  EXPECT_TRUE(box->isEnabled());
  box->setCurrentIndex(0);
  EXPECT_EQ(page.precondition_spec(), "") << "the first choice: 128 KiB sequential writes";
  box->setCurrentText(QStringLiteral("My plan's spec"));
  EXPECT_EQ(page.precondition_spec(), "My plan's spec") << "typed, as a plan's own spec is named";
  page.set_precondition_passes(0);
  EXPECT_EQ(page.precondition_spec(), "") << "no preconditioning, no spec";
  EXPECT_FALSE(box->isEnabled());
  EXPECT_THROW(parsed({"--precondition-spec", "4K random write"}), CLI::RequiresError) << "needs --precondition";
}

TEST(GuiCommandLine, PtsIopsPresetsTestSetupsTestWithItsMatrixAndRounds) {
  const auto settings = run_settings(parsed({kPlan, "--pts-iops", "--block-sizes", "4K,8K", "--mixes", "100/0,0/100",
                                             "--steady-state", "iops", "--max-rounds", "7"})
                                         .run);
  ASSERT_TRUE(settings) << settings.error().describe();
  const access_specs::PtsIopsMatrix matrix{.read_percents = {100, 0}, .block_bytes = {4096, 8192}};
  EXPECT_EQ(settings->pts_iops, matrix);
  EXPECT_FALSE(settings->description.has_value()) << "the plan's description stays";
  EXPECT_EQ(settings->precondition_passes, 2U) << "iomark pts iops' default passes";
  MainWindow window({});
  ASSERT_TRUE(window.open_plan(QString::fromStdString(kPlan)));
  const auto description = window.document().setup().description;
  window.apply(*settings);
  auto& page = window.test_setup_page();
  EXPECT_EQ(page.pts_iops().value_or(std::nullopt), std::optional(matrix));
  EXPECT_EQ(page.steady_state(), (access_specs::SteadyStateRequest{.figure = access_specs::SteadyFigure::iops,
                                                                  .max_rounds = 7,
                                                                  .tracked_spec = "PTS 4 KiB 0/100"}));
  EXPECT_EQ(page.precondition_passes(), 2U);
  EXPECT_FALSE(page.find_max_iops().has_value());
  EXPECT_EQ(window.document().setup().description, description);

  // Alone: PTS-E's own matrix, 25 rounds at most.
  const auto whole = run_settings(parsed({"--pts-iops"}).run);
  ASSERT_TRUE(whole) << whole.error().describe();
  EXPECT_EQ(whole->pts_iops, access_specs::PtsIopsMatrix{});
  MainWindow plain({});
  plain.apply(*whole);
  EXPECT_EQ(plain.test_setup_page().pts_iops().value_or(std::nullopt), std::optional(access_specs::PtsIopsMatrix{}));
  EXPECT_EQ(plain.test_setup_page().steady_state()->max_rounds, 25U);

  // Its rounds and passes without --steady-state iops or --precondition: the test implies both.
  const auto own = run_settings(parsed({"--max-rounds", "9", "--precondition-passes", "3", "--pts-iops"}).run);
  ASSERT_TRUE(own) << own.error().describe();
  EXPECT_EQ(own->steady_state.value_or(access_specs::SteadyStateRequest{}).max_rounds, 9U);
  EXPECT_EQ(own->precondition_passes, 3U);
  MainWindow preset({});
  preset.apply(*own);
  EXPECT_EQ(preset.test_setup_page().steady_state()->max_rounds, 9U);
  EXPECT_EQ(preset.test_setup_page().precondition_passes(), 3U);
}

TEST(GuiCommandLine, PtsIopsIsRefusedWithASearchOrAnotherSteadyFigureOrWithoutItsCell) {
  const auto search = run_settings(parsed({"--pts-iops", "--find-max-iops", "p99<=2ms"}).run);
  ASSERT_FALSE(search);
  EXPECT_EQ(search.error().field(), "--find-max-iops");
  const auto other_figure = run_settings(parsed({"--pts-iops", "--steady-state", "avg"}).run);
  ASSERT_FALSE(other_figure);
  EXPECT_EQ(other_figure.error().field(), "--steady-state");
  const auto no_4k = run_settings(parsed({"--pts-iops", "--block-sizes", "8K,16K"}).run);
  ASSERT_FALSE(no_4k);
  EXPECT_EQ(no_4k.error().field(), "--block-sizes");
  const auto no_writes = run_settings(parsed({"--pts-iops", "--mixes", "100/0"}).run);
  ASSERT_FALSE(no_writes);
  EXPECT_EQ(no_writes.error().field(), "--mixes");
  EXPECT_THROW(parsed({"--block-sizes", "4K,1000"}), CLI::ValidationError);
  EXPECT_THROW(parsed({"--mixes", "60/30"}), CLI::ValidationError);
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
                           "--listen", "--precondition", "--precondition-passes N", "--precondition-spec NAME", "--pts-iops",
                           "--block-sizes SIZE[,SIZE...]", "--mixes R/W[,R/W...]"}) {
    EXPECT_NE(help.find(flag), std::string::npos) << flag << "\n" << help;
  }
  EXPECT_EQ(help.find("--qd"), std::string::npos) << help;
}

}  // namespace
}  // namespace iomark::gui
