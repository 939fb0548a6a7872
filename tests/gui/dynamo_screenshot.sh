#!/usr/bin/env bash
# Takes docs/screenshots/dynamo-and-agent.png: iomark-gui under Xvfb with the real Dynamo
# 1.1.0 (built from ../shared) and an iomark agent logged in side by side, after a short
# outstanding-I/O series (1, 2, 4) on temp files, Results Display in front.
#   tests/gui/dynamo_screenshot.sh [BUILD_DIR]   (default build/dev; iomark-gui, iomark-agent
#                                                 and reference_dynamo are built there)
# Needs Xvfb, scrot and xdotool (tests/gui/screenshots.sh installs them). Dynamo sees only a
# temp directory (MNTTAB names a mount table with it alone); nothing else is written.
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/dev}
out=docs/screenshots
readonly WIDTH=1600 HEIGHT=1000

log() { printf '\033[1m[dynamo-screenshot]\033[0m %s\n' "$*" >&2; }

for tool in Xvfb scrot xdotool; do
  command -v "$tool" >/dev/null || { log "missing $tool (tests/gui/screenshots.sh installs it)"; exit 1; }
done
[[ -x ../shared/tools/build-dynamo ]] || [[ -f ../shared/tools/build-dynamo ]] ||
  { log "missing ../shared/tools/build-dynamo (and the Dynamo 1.1.0 source beside it)"; exit 1; }
cmake --build "$build" --target iomark-gui iomark-agent reference_dynamo
dynamo=$build/dynamo/dynamo

work=$(mktemp -d /var/tmp/iomark-dynamo-shot.XXXXXX)
pids=()
cleanup() {
  local pid
  for pid in "${pids[@]}"; do
    kill "$pid" 2>/dev/null || true
    wait "$pid" 2>/dev/null || true
  done
  rm -rf "$work"
}
trap cleanup EXIT

# Dynamo's target: a temp directory whose iobw.tst is filled first, alone in its mount table.
dyn_dir=$work/dynamo-target
mkdir "$dyn_dir" "$work/data"
dd if=/dev/urandom of="$dyn_dir/iobw.tst" bs=1M count=32 status=none
fstype=$(stat -f -c %T "$dyn_dir")
printf 'iomark-test %s %s rw 0 0\n' "$dyn_dir" "$fstype" >"$work/mtab"

# The plan: Dynamo "dyn1" on its directory, iomark agent "agentA" on its own; 8 KiB 67% read
# random; outstanding I/Os 1, 2, 4; 1 s ramp-up and 3 s per run.
{
  printf 'Version 1.1.0 \n'
  printf "'TEST SETUP ====================================================================\n"
  printf "'Test Description\n\tDynamo 1.1.0 and iomark agent side by side\n"
  printf "'Run Time\n'\thours      minutes    seconds\n\t0          0          3\n"
  printf "'Ramp Up Time (s)\n\t1\n'Default Disk Workers to Spawn\n\t1\n'Default Network Workers to Spawn\n\t0\n"
  printf "'Record Results\n\tALL\n'Worker Cycling\n'\tstart      step       step type\n\t1          1          LINEAR\n"
  printf "'Disk Cycling\n'\tstart      step       step type\n\t1          1          LINEAR\n"
  printf "'Queue Depth Cycling\n'\tstart      end        step       step type\n\t1          4          2          EXPONENTIAL\n"
  printf "'Test Type\n\tCYCLE_OUTSTANDING_IOS\n'END test setup\n"
  printf "'ACCESS SPECIFICATIONS =========================================================\n"
  printf "'Access specification name,default assignment\n\t8K 67 read random,NONE\n"
  printf "'size,%% of size,%% reads,%% random,delay,burst,align,reply\n\t8192,100,67,100,0,1,0,0\n"
  printf "'END access specifications\n"
  printf "'MANAGER LIST ==================================================================\n"
  for manager in dyn1 agentA; do
    if [[ $manager == dyn1 ]]; then target="$dyn_dir [$fstype]"; else target=$work/data; fi
    printf "'Manager ID, manager name\n\t1,%s\n'Manager network address\n\t\n" "$manager"
    printf "'Worker\n\tWorker 1\n'Worker type\n\tDISK\n'Default target settings for worker\n"
    printf "'Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed seed value\n\t1,DISABLED,1,DISABLED,0\n"
    printf "'Disk maximum size,starting sector,Data pattern\n\t8192,0,0\n'End default target settings for worker\n"
    printf "'Assigned access specs\n\t8K 67 read random\n'End assigned access specs\n"
    printf "'Target assignments\n'Target\n\t%s\n'Target type\n\tDISK\n'End target\n'End target assignments\n'End worker\n'End manager\n" "$target"
  done
  printf "'END manager list\nVersion 1.1.0 \n"
} >"$work/plan.icf"

# Two free loopback ports, for the agents' login and Dynamo's (each bound by its listener
# moments later).
read -r agent_port dynamo_port < <(python3 -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))')

display=99
while [[ -e /tmp/.X11-unix/X$display || -e /tmp/.X$display-lock ]]; do display=$((display + 1)); done
Xvfb ":$display" -screen 0 "${WIDTH}x${HEIGHT}x24" -nolisten tcp >"$work/xvfb.log" 2>&1 &
pids+=($!)
export DISPLAY=":$display"
for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X$display ]] && break; sleep 0.1; done

log "starting iomark-gui on $DISPLAY (agents on $agent_port, Dynamo on $dynamo_port)"
"$build/controller-gui/iomark-gui" --insecure --listen "127.0.0.1:$agent_port" \
  --legacy-dynamo "127.0.0.1:$dynamo_port" "$work/plan.icf" >"$work/gui.log" 2>&1 &
pids+=($!)
window=$(xdotool search --sync --onlyvisible --name 'iomark' | head -1)
xdotool windowmove "$window" 0 0 windowsize "$window" "$WIDTH" "$HEIGHT" windowfocus --sync "$window"
sleep 1

MNTTAB=$work/mtab "$dynamo" -i 127.0.0.1 -p "$dynamo_port" -m 127.0.0.1 -n dyn1 >"$work/dynamo.log" 2>&1 &
pids+=($!)
"$build/agent/iomark-agent" -i "127.0.0.1:$agent_port" --insecure -n agentA --allow "$work/data" \
  >"$work/agent.log" 2>&1 &
pids+=($!)
sleep 4  # both log in; Dynamo's connect-back and REPORT_TARGETS take a moment

key() { xdotool key --clearmodifiers "$@"; sleep 1; }
key F5  # Start: three runs of 1 + 3 s, plus the agent's test file
sleep 20
key alt+d
mkdir -p "$out"
scrot --overwrite "$out/dynamo-and-agent.png"
log "$out/dynamo-and-agent.png"
grep -iE 'error|refused' "$work/dynamo.log" "$work/agent.log" "$work/gui.log" >&2 || true
