#!/usr/bin/env bash
# A block-device target vanishing mid-run, with a loop device this test creates over a
# scratch file (root only; skipped with the reason otherwise):
# - the device shrinks to nothing (backing file truncated, `losetup -c`): every I/O fails
#   with EIO from then on; the errors are counted, named within a sample interval, and the
#   run goes on;
# - the device is detached (`losetup -d`) while the agent has it open: Linux only marks it
#   for removal (autoclear), so that run completes without errors; once the agent closed it
#   the device is gone and the next series fails naming it (ERROR: + Aborted test).
# usage: loop_vanish_test.sh IOMARK IOMARK_AGENT
if ((EUID != 0)) || ! command -v losetup >/dev/null; then
  echo "loop_vanish: skipped: needs root and losetup to create loop devices"
  exit 77
fi
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"

devices=()
trap 'loop_cleanup' EXIT
loop_cleanup() {
  for pid in "${pids[@]}"; do kill -KILL "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  for device in "${devices[@]}"; do losetup -d "$device" 2>/dev/null; done
  harness_cleanup
}
# new_loop NAME: a 64 MiB loop device over $work/NAME.img; sets device.
new_loop() {
  truncate -s 64M "$work/$1.img"
  device=$(losetup -f --show "$work/$1.img") || { echo "loop_vanish: losetup failed"; exit 1; }
  devices+=("$device")
}

# ---- shrinks to nothing -----------------------------------------------------------------
new_loop shrink
start_agent alpha --allow "$device" || exit 1
"$iomark" run --manager "127.0.0.1:$port_alpha" --key-file "$work/key" --target "$device" --spec "4K random read" \
  --qd 1 --time 5 --results "$work/shrink.csv" >"$work/shrink.out" 2>"$work/shrink.err" &
controller=$!
pids+=("$controller")
wait_for "$work/shrink.err" "^run 1/1" 30 && sleep 1.5
t0=$(now_ms)
truncate -s 0 "$work/shrink.img" && losetup -c "$device"
wait_for "$work/shrink.err" "I/O errors in" 10
named=$(($(now_ms) - t0))
wait_exit "$controller" 30
measured "loop device shrunk to nothing: errors named after ${named} ms"
check "shrunk: the run completes (status $exit_status)" test "$exit_status" -eq 0
check "shrunk: errors named within 5 s (${named} ms)" test "$named" -lt 5000
check "shrunk: the notice names the device" grep -q "Worker 1 on $device" "$work/shrink.err"
check "shrunk: errors counted" test "$(awk -F, '$1 == "ALL" {print ($28 > 0)}' "$work/shrink.csv")" = 1
check "the agent ends on SIGTERM within 5 s" stop_cleanly "$pid_alpha"

# ---- detached while open ----------------------------------------------------------------
new_loop detach
start_agent beta --allow "$device" || exit 1
"$iomark" run --manager "127.0.0.1:$port_beta" --key-file "$work/key" --target "$device" --spec "4K random read" \
  --qd 1 --time 3 --results "$work/detach.csv" >"$work/detach.out" 2>"$work/detach.err" &
controller=$!
pids+=("$controller")
wait_for "$work/detach.err" "^run 1/1" 30 && sleep 1
losetup -d "$device"
wait_exit "$controller" 60
check "detached: the run on the open device completes (status $exit_status)" test "$exit_status" -eq 0
check "detached: without errors" test "$(awk -F, '$1 == "ALL" {print $28}' "$work/detach.csv")" = 0
for _ in $(seq 1 50); do [[ -z $(losetup -j "$work/detach.img") ]] && break; sleep 0.1; done
check "detached: the device is gone once the agent closed it" test -z "$(losetup -j "$work/detach.img")"
timeout 60 "$iomark" run --manager "127.0.0.1:$port_beta" --key-file "$work/key" --target "$device" \
  --spec "4K random read" --qd 1 --time 1 --results "$work/gone.csv" >/dev/null 2>"$work/gone.err"
status=$?
check "gone: the next series fails (status $status)" test "$status" -eq 1
check "gone: its run is marked failed naming the device" grep -q "^ERROR: run 1 of 1 .*$device: the target is empty" "$work/gone.csv"
check "gone: Aborted test" test "$(tail -n1 "$work/gone.csv")" = "Aborted test"
check "the agent ends on SIGTERM within 5 s" stop_cleanly "$pid_beta"
finish loop_vanish
