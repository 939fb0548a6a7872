#!/usr/bin/env bash
# docs/screenshots/test-setup-find-max-iops.png and charts-max-iops.png: Test Setup with Find
# max IOPS ticked by `iomark-gui --find-max-iops 'avg<=1ms'`, then the Charts tab's
# latency-against-IOPS chart the finished search left in front: every step, the bound, the
# chosen run and the conclusion. screenshots.sh's plan, made NORMAL (one 1 s run to search
# from), on the embedded agent and a temporary test file, so the curve is this host's. The
# average, not p99: on a busy build host the p99 of a 1 s run is the scheduler's, not the
# disk's. Under Xvfb.
#   tests/gui/max_iops_screenshot.sh [BUILD_DIR]   (default build/release; needs iomark-gui)
# Needs Xvfb, scrot and xdotool (screenshots.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
source tests/gui/xvfb.sh
screenshot_workspace
one_run_plan "$work/plan.icf"
start_xvfb 1600x1000 "$work/xvfb.log"
# The JSON results say when the search is over (the series' own "outcome", last).
"$build/controller-gui/iomark-gui" --no-listen --find-max-iops 'avg<=1ms' --json "$work/search.json" "$work/plan.icf" \
  >"$work/gui.log" 2>&1 &
gui_pid=$!
place_gui_window 1600 1000
sleep 1
shot() { scrot --overwrite "docs/screenshots/$1.png"; echo "docs/screenshots/$1.png"; }
key ctrl+l  # Start Local Agent: the plan's manager pairs with it
sleep 2
key alt+s   # Test Setup: Find max IOPS ticked, average response time at or below 1 ms
shot test-setup-find-max-iops
key F5      # Start: the test file, then the search's runs, at most 23 of 1 s
for _ in $(seq 180); do
  grep -qE '^  "outcome": "(completed|aborted)"' "$work/search.json" 2>/dev/null && break
  sleep 1
done
sleep 2
shot charts-max-iops
