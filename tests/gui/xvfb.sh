# Sourced by the screenshot scripts of tests/gui.
# screenshot_workspace: makes $work, a scratch folder, and stops at exit whatever the script
# started and recorded in $agent_pid, $gui_pid and $xvfb_pid, then removes $work.
screenshot_workspace() {
  work=$(mktemp -d /var/tmp/iomark-shots.XXXXXX)
  xvfb_pid= gui_pid= agent_pid=
  trap stop_screenshot_processes EXIT
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
