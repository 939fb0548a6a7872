#!/usr/bin/env bash
# docs/screenshots/test-setup-pts-iops.png and pts-iops-table.png: Test Setup with the PTS IOPS
# test ticked by `iomark-gui --pts-iops` (4K, 8K and 64K by 100/0, 65/35 and 0/100, at most 5
# rounds), preconditioning implied, then the Charts tab's PTS IOPS table the finished series left
# in front. screenshots.sh's plan, made NORMAL (one 1 s run, repeated per cell), on the embedded
# agent and a temporary test file, so the figures are this host's. Under Xvfb.
#   tests/gui/pts_iops_screenshot.sh [BUILD_DIR]   (default build/release; needs iomark-gui)
# Needs Xvfb, scrot and xdotool (screenshots.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
source tests/gui/xvfb.sh
screenshot_workspace
one_run_plan "$work/plan.icf"
start_xvfb 1600x1000 "$work/xvfb.log"
# The JSON results say when the series is over (the series' own "outcome", last).
"$build/controller-gui/iomark-gui" --no-listen --pts-iops --block-sizes 4K,8K,64K --mixes 100/0,65/35,0/100 \
  --steady-state iops --max-rounds 5 --json "$work/pts.json" "$work/plan.icf" >"$work/gui.log" 2>&1 &
gui_pid=$!
place_gui_window 1600 1000
sleep 1
shot() { scrot --overwrite "docs/screenshots/$1.png"; echo "docs/screenshots/$1.png"; }
key ctrl+l  # Start Local Agent: the plan's manager pairs with it
sleep 2
key alt+s   # Test Setup: the PTS IOPS test ticked, steady state and preconditioning locked on
shot test-setup-pts-iops
key F5      # Start: the test file preconditioned, then at most 5 rounds of 9 cells of 1 s
for _ in $(seq 240); do
  grep -qE '^  "outcome": "(completed|aborted)"' "$work/pts.json" 2>/dev/null && break
  sleep 1
done
sleep 2
shot pts-iops-table
