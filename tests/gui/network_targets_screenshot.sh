#!/usr/bin/env bash
# docs/screenshots/network-targets.png: the Network Targets tab of the project's network plan
# (tests/data/icf/ok_110_network_pair.icf: srv's Worker 1 paired with cli's 127.0.0.1) with
# both managers connected, so their interfaces come from the agents' inventories: srv runs on
# the embedded agent, cli is an iomark-agent logging in on 127.0.0.1 (no key: --insecure,
# loopback only). Under Xvfb.
#   tests/gui/network_targets_screenshot.sh [BUILD_DIR]   (default build/release; needs iomark-gui, iomark-agent)
# Needs Xvfb, scrot and xdotool (screenshots.sh installs them).
set -euo pipefail
cd "$(dirname "$0")/../.."
build=${1:-build/release}
source tests/gui/xvfb.sh
screenshot_workspace
# A port the kernel has just handed out and taken back: free for the GUI to listen on.
port=$(python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])')
start_xvfb 1600x1000 "$work/xvfb.log"
"$build/controller-gui/iomark-gui" --listen "127.0.0.1:$port" --insecure tests/data/icf/ok_110_network_pair.icf \
  >"$work/gui.log" 2>&1 &
gui_pid=$!
place_gui_window 1600 1000
sleep 1
"$build/agent/iomark-agent" -i "127.0.0.1:$port" -n cli --insecure >"$work/agent.log" 2>&1 &
agent_pid=$!
sleep 2                                          # cli logs in and pairs with the plan's cli by name
xdotool key --clearmodifiers ctrl+l && sleep 3   # Start Local Agent: srv, the manager left, runs on it
xdotool key --clearmodifiers alt+n && sleep 1    # Network Targets
xdotool mousemove 70 97 click 1 && sleep 1       # srv's Worker 1 in the topology
scrot --overwrite docs/screenshots/network-targets.png
echo "docs/screenshots/network-targets.png"
