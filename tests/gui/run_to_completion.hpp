// Starts the window's series as the green flag does and waits for it to end: success only
// when it completed, otherwise the outcome and the session's error.
#pragma once

#include <gtest/gtest.h>

#include <QObject>
#include <QString>
#include <QTest>

#include "iomark/gui/main_window.hpp"
#include "iomark/gui/session.hpp"

namespace iomark::gui {

inline testing::AssertionResult run_to_completion(MainWindow& window, int wait_ms) {
  bool finished = false;
  results::SeriesOutcome outcome{};
  QString error;
  QObject context;  // ends the connection when this returns
  QObject::connect(&window.session(), &Session::series_finished, &context,
                   [&](results::SeriesOutcome how, const QString& why) {
                     finished = true;
                     outcome = how;
                     error = why;
                   });
  window.start();
  // Start may first restart the local agent so that it is allowed the plan's paths, and starts
  // the series once that agent is back: a bound for that restart, not a speed expectation.
  constexpr int kAgentRestartMs = 20'000;
  if (!QTest::qWaitFor([&] { return finished || window.session().series_running(); }, kAgentRestartMs)) {
    return testing::AssertionFailure() << "the series did not start";
  }
  if (!QTest::qWaitFor([&] { return finished; }, wait_ms)) {
    return testing::AssertionFailure() << "the series did not end within " << wait_ms << " ms";
  }
  if (outcome != results::SeriesOutcome::completed) {
    return testing::AssertionFailure() << "the series did not complete: " << error.toStdString();
  }
  return testing::AssertionSuccess();
}

}  // namespace iomark::gui
