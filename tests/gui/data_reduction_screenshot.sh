#!/usr/bin/env bash
# docs/screenshots/disk-targets-data-reduction.png: the Disk Targets page of a worker whose
# plan asks for compress:2,dedupe:3 and a rate of 2500 I/Os per second (an .icf with an
# 'IOMARK EXTENSIONS section), under Xvfb.
#   tests/gui/data_reduction_screenshot.sh [BUILD_DIR]   (default build/release; needs iomark-gui)
# Needs Xvfb, scrot and xdotool (screenshots.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
source tests/gui/xvfb.sh
screenshot_workspace
sed -n '/^Version 1.1.0/,/^ICF$/p' tests/gui/screenshots.sh | sed '$d' | sed "s|\$work|$work|" |
  sed 's|^\t16384,0,0$|\t16384,0,2|' |
  sed '$d' >"$work/plan.icf"
cat >>"$work/plan.icf" <<'ICF'
'IOMARK EXTENSIONS =============================================================
'Data reduction,manager,worker,pattern
	1,1,compress:2,dedupe:3
'Rate IOPS,manager,worker,rate
	1,1,2500
'END iomark extensions
Version 1.1.0
ICF
start_xvfb 1600x1000 "$work/xvfb.log"
"$build/controller-gui/iomark-gui" --no-listen "$work/plan.icf" >"$work/gui.log" 2>&1 &
gui_pid=$!
place_gui_window 1600 1000
sleep 1
xdotool key --clearmodifiers ctrl+l && sleep 3   # Start Local Agent: the plan's manager pairs with it
xdotool key --clearmodifiers alt+t && sleep 1    # Disk Targets
xdotool mousemove 70 97 click 1 && sleep 1       # Worker 1 in the topology
scrot --overwrite docs/screenshots/disk-targets-data-reduction.png
echo "docs/screenshots/disk-targets-data-reduction.png"
