#!/usr/bin/env bash
# Takes a screenshot of each tab of iomark-gui under Xvfb into docs/screenshots/ (the README
# and docs/gui.md show them). A small plan drives the embedded agent on a temporary test file, so the
# Results Display shows a finished outstanding-I/O series.
#   tests/gui/screenshots.sh [BUILD_DIR]     (default build/release; iomark-gui is built there)
# Installs Xvfb, scrot and xdotool from Debian when missing (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
out=docs/screenshots
readonly WIDTH=1600 HEIGHT=1000

log() { printf '\033[1m[screenshots]\033[0m %s\n' "$*" >&2; }

missing=()
for package in xvfb scrot xdotool qt6-qpa-plugins; do
  dpkg-query -W -f='${Status}' "$package" 2>/dev/null | grep -q 'install ok installed' || missing+=("$package")
done
if ((${#missing[@]})); then
  as_root=()
  ((EUID == 0)) || as_root=(sudo)
  log "installing ${missing[*]}"
  "${as_root[@]}" apt-get update -qq
  DEBIAN_FRONTEND=noninteractive "${as_root[@]}" apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
fi
if [[ ! -f $build/build.ninja ]]; then
  ./dev build "$(basename "$build")" iomark-gui
else
  cmake --build "$build" --target iomark-gui
fi

work=$(mktemp -d /var/tmp/iomark-shots.XXXXXX)
xvfb_pid=
gui_pid=
cleanup() {
  local pid
  for pid in $gui_pid $xvfb_pid; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# A plan as IOmeter 1.1.0 writes it: one manager (it runs on the embedded agent, by order),
# one worker on the temp directory, the Database pattern and a spec of the plan's own, outstanding
# I/Os cycling 1, 2, 4, 8.
cat >"$work/plan.icf" <<ICF
Version 1.1.0
'TEST SETUP ====================================================================
'Test Description
	Database pattern, outstanding I/Os 1 to 8
'Run Time
'	hours      minutes    seconds
	0          0          2
'Ramp Up Time (s)
	0
'Default Disk Workers to Spawn
	NUMBER_OF_CPUS
'Default Network Workers to Spawn
	0
'Record Results
	ALL
'Worker Cycling
'	start      step       step type
	1          1          LINEAR
'Disk Cycling
'	start      step       step type
	1          1          LINEAR
'Queue Depth Cycling
'	start      end        step       step type
	1          8          2          EXPONENTIAL
'Test Type
	CYCLE_OUTSTANDING_IOS
'END test setup
'RESULTS DISPLAY ===============================================================
'Record Last Update Results,Update Frequency,Update Type
	DISABLED,1,WHOLE_TEST
'END results display
'ACCESS SPECIFICATIONS =========================================================
'Access specification name,default assignment
	Mixed 4K/64K,NONE
'size,% of size,% reads,% random,delay,burst,align,reply
	4096,80,70,100,0,1,4096,0
	65536,20,0,0,0,1,0,0
'END access specifications
'MANAGER LIST ==================================================================
'Manager ID, manager name
	1,lab-host
'Manager network address
	localhost
'Worker
	Worker 1
'Worker type
	DISK
'Default target settings for worker
'Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed seed value
	1,DISABLED,1,DISABLED,0
'Disk maximum size,starting sector,Data pattern
	16384,0,0
'End default target settings for worker
'Assigned access specs
	Database
'End assigned access specs
'Target assignments
'Target
	$work
'Target type
	DISK
'End target
'End target assignments
'End worker
'End manager
'END manager list
Version 1.1.0
ICF

source tests/gui/xvfb.sh
start_xvfb "${WIDTH}x${HEIGHT}" "$work/xvfb.log"

log "starting iomark-gui on $DISPLAY"
"$build/controller-gui/iomark-gui" --no-listen "$work/plan.icf" >"$work/gui.log" 2>&1 &
gui_pid=$!
place_gui_window "$WIDTH" "$HEIGHT"
sleep 1

shot() { scrot --overwrite "$out/$1.png"; log "$out/$1.png"; }
mkdir -p "$out"

key ctrl+l  # Start Local Agent
sleep 2
key F5  # Start: four runs of 2 s, plus making the 64 MiB test file
sleep 16
key alt+d
shot results-display
key alt+h  # Charts: the curves over outstanding I/Os
shot charts
key alt+t
shot disk-targets
key alt+a
shot access-specifications
key alt+s
shot test-setup
