# Sourced by the screenshot scripts of tests/gui.
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
