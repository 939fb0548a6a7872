# Sourced by the screenshot scripts of tests/gui.
# screenshot_workspace: makes $work, a scratch folder, and stops at exit whatever the script
# started and recorded in $agent_pid, $gui_pid and $xvfb_pid, then removes $work.
screenshot_workspace() {
  work=$(mktemp -d /var/tmp/iomark-shots.XXXXXX)
  xvfb_pid= gui_pid= agent_pid=
  trap stop_screenshot_processes EXIT
}
# one_run_plan FILE: screenshots.sh's plan made a single 1 s run (its run time 0 0 2 made 1 s,
# its QD cycling NORMAL), its test files under $work; for the charts a series of such runs draws.
one_run_plan() {
  sed -n '/^Version 1.1.0/,/^ICF$/p' tests/gui/screenshots.sh | sed '$d' | sed "s|\$work|$work|" |
    sed 's|^\t0          0          2$|\t0          0          1|' |
    sed 's|^\tCYCLE_OUTSTANDING_IOS$|\tNORMAL|' >"$1"
}
stop_screenshot_processes() {
  local pid
  for pid in $agent_pid $gui_pid $xvfb_pid; do kill "$pid" 2>/dev/null || true; wait "$pid" 2>/dev/null || true; done
  rm -rf "$work"
}
# start_xvfb WIDTHxHEIGHT LOG: starts Xvfb on the first free display from :99, exports
# DISPLAY, sets xvfb_pid (the caller's cleanup stops it) and waits up to 5 s for its socket.
start_xvfb() {
  local display=99
  while [[ -e /tmp/.X11-unix/X$display || -e /tmp/.X$display-lock ]]; do display=$((display + 1)); done
  Xvfb ":$display" -screen 0 "${1}x24" -nolisten tcp >"$2" 2>&1 &
  xvfb_pid=$!
  export DISPLAY=":$display"
  for _ in $(seq 50); do [[ -e /tmp/.X11-unix/X$display ]] && break; sleep 0.1; done
}
# place_gui_window WIDTH HEIGHT: waits for the iomark window, moves it to the top left at that
# size and focuses it; sets $window.
place_gui_window() {
  window=$(xdotool search --sync --onlyvisible --name 'iomark' | head -1)
  xdotool windowmove "$window" 0 0 windowsize "$window" "$1" "$2" windowfocus --sync "$window"
}
# key KEYS...: typed into the focused window, then a second for the window to redraw.
key() { xdotool key --clearmodifiers "$@"; sleep 1; }
