// A plan of one short run on the embedded agent, for the window tests of features that
// repeat or search from one run (steady state, --find-max-iops): the log as text for their
// failure messages.
#pragma once

#include <gtest/gtest.h>

#include <QString>
#include <QTest>
#include <string>

#include "iomark/gui/main_window.hpp"
#include "iomark/gui/plan_document.hpp"
#include "iomark/gui/session.hpp"
#include "iomark/gui/targets_model.hpp"
#include "iomark/gui/test_setup_page.hpp"
#include "test_paths.hpp"

namespace iomark::gui {

// One manager, one worker, one spec, NORMAL: one run.
inline const QString kOneRunPlan =
    QString::fromStdString((::iomark::test_support::test_data_dir() / "icf/ok_110_windows_plan.icf").string());

inline std::string logged_text(MainWindow& window) {
  std::string text;
  for (const auto& entry : window.log().entries()) text += entry.text.toStdString() + "\n";
  return text;
}

// kOneRunPlan's worker on `directory` with a 16 MiB iobw.tst, 1 s runs without ramp-up, on
// the null engine of the local agent.
inline void prepare_short_runs(MainWindow& window, const QString& directory, int wait_ms) {
  ASSERT_TRUE(window.open_plan(kOneRunPlan));
  RunSettings settings;
  settings.engine = "null";
  window.apply(settings);
  window.start_local_agent();
  ASSERT_TRUE(QTest::qWaitFor([&] { return window.session().managers().size() == 1; }, wait_ms));
  auto worker = window.document().managers()[0].workers[0];
  ASSERT_TRUE(worker.targets.has_value());
  worker = with_target(worker, worker.targets->front().name, false);
  worker = with_target(worker, directory.toStdString(), true);
  worker.maximum_disk_size_sectors = 4096;
  window.document().set_worker(0, 0, worker);
  auto setup = window.document().setup();
  setup.run_time_s = 1;
  setup.ramp_up_s = 0;
  window.document().set_setup(setup);
  ASSERT_EQ(window.test_setup_page().preview_run_count(), 1);
}

}  // namespace iomark::gui
