#!/usr/bin/env bash
# docs/screenshots/test-setup-steady-state.png and charts-steady-state.png: Test Setup asking
# for steady-state rounds on IOPS (at most 8 rounds), then the Charts tab's steady-state chart
# the finished series left in front: each round's IOPS, the window's average with its 110% and
# 90% band and the least-squares line, and the verdict. screenshots.sh's plan, made NORMAL
# (one 1 s run per round), on the embedded agent. Under Xvfb.
#   tests/gui/steady_state_screenshot.sh [BUILD_DIR]   (default build/release; needs iomark-gui)
# Needs Xvfb, scrot and xdotool (screenshots.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
source tests/gui/xvfb.sh
screenshot_workspace
one_run_plan "$work/plan.icf"
start_xvfb 1600x1000 "$work/xvfb.log"
"$build/controller-gui/iomark-gui" --no-listen "$work/plan.icf" >"$work/gui.log" 2>&1 &
gui_pid=$!
place_gui_window 1600 1000
sleep 1
shot() { scrot --overwrite "docs/screenshots/$1.png"; echo "docs/screenshots/$1.png"; }
key ctrl+l  # Start Local Agent: the plan's manager pairs with it
sleep 2
key alt+s     # Test Setup
key alt+y     # Steady state: Off -> IOPS
key Down
key alt+x     # Max rounds: 8
key ctrl+a
xdotool type --delay 100 8 && sleep 1
shot test-setup-steady-state
key F5        # Start: the test file, then at most 8 rounds of one 1 s run
sleep 30
shot charts-steady-state
