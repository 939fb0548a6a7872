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
source tests/integration/dynamo_plan.sh
write_dynamo_plan "$work/plan.icf" 3 "$dyn_dir [$fstype]" "$work/data" 8192

# Two free loopback ports, for the agents' login and Dynamo's (each bound by its listener
# moments later).
read -r agent_port dynamo_port < <(python3 -c '
import socket
sockets = [socket.socket() for _ in range(2)]
for s in sockets: s.bind(("127.0.0.1", 0))
print(*(s.getsockname()[1] for s in sockets))')

source tests/gui/xvfb.sh
start_xvfb "${WIDTH}x${HEIGHT}" "$work/xvfb.log"
pids+=("$xvfb_pid")

log "starting iomark-gui on $DISPLAY (agents on $agent_port, Dynamo on $dynamo_port)"
"$build/controller-gui/iomark-gui" --insecure --listen "127.0.0.1:$agent_port" \
  --legacy-dynamo "127.0.0.1:$dynamo_port" "$work/plan.icf" >"$work/gui.log" 2>&1 &
pids+=($!)
place_gui_window "$WIDTH" "$HEIGHT"
sleep 1

MNTTAB=$work/mtab "$dynamo" -i 127.0.0.1 -p "$dynamo_port" -m 127.0.0.1 -n dyn1 >"$work/dynamo.log" 2>&1 &
pids+=($!)
"$build/agent/iomark-agent" -i "127.0.0.1:$agent_port" --insecure -n agentA --allow "$work/data" \
  >"$work/agent.log" 2>&1 &
pids+=($!)
sleep 4  # both log in; Dynamo's connect-back and REPORT_TARGETS take a moment

key F5  # Start: three runs of 1 + 3 s, plus the agent's test file
sleep 20
key alt+d
mkdir -p "$out"
scrot --overwrite "$out/dynamo-and-agent.png"
log "$out/dynamo-and-agent.png"
grep -iE 'error|refused' "$work/dynamo.log" "$work/agent.log" "$work/gui.log" >&2 || true
