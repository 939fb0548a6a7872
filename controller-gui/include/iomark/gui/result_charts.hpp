// Puts the chart widgets (controller-gui/charts, controller-gui/compare) into the main window
// and feeds them from its session: the live time series and, run by run, the IOPS and
// response-time curves over outstanding I/Os, the latency distribution and, round by round,
// the steady-state rounds and, step by step, a --find-max-iops search's latency against IOPS
// on the Charts tab (the search shown when a series that searched ends, the rounds when a
// series in rounds ends, else the curves when a series of several runs ends), and the PTS IOPS
// table when a PTS IOPS series ends (shown before all the others); the Compare
// view as a tab of its own.
// Each chart exports PNG/SVG from its context menu.
#pragma once

namespace iomark::gui {

class MainWindow;

void add_result_charts(MainWindow& window);

}  // namespace iomark::gui
