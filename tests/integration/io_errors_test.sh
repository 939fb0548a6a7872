#!/usr/bin/env bash
# I/O errors from the target and targets vanishing mid-run, over TCP with a real agent:
# - the fault-injecting test engine (--engine fault-eio-every-10) fails one I/O in ten: the
#   errors are counted in the error columns, named at once, and the runs go on (as IOmeter);
# - a file target truncated to nothing mid-run: its reads fail from then on, counted and
#   named within a sample interval, the run goes on;
# - a file target removed mid-run: Linux keeps the open file, so that run completes; the
#   next run cannot open it and fails naming the path (ERROR: + Aborted test).
# Loop devices that shrink or detach are in loop_vanish_test.sh (root only).
# usage: io_errors_test.sh IOMARK IOMARK_AGENT
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"

start_agent alpha || exit 1
manager=(--manager "127.0.0.1:$port_alpha" --key-file "$work/key")

# ---- the fault-injecting engine ---------------------------------------------------------
timeout 60 "$iomark" run "${manager[@]}" --target "$work/data" --spec "4K random read" --engine fault-eio-every-10 \
  --qd 1,4 --time 2 --size 16M --results "$work/eio.csv" --json "$work/eio.json" >"$work/eio.out" 2>"$work/eio.err"
status=$?
check "fault engine: the series completes (status $status)" test "$status" -eq 0
check "fault engine: both runs recorded" test "$(csv_count "$work/eio.csv" "^'Results")" = 2
# ALL rows: 28 Errors, 29 Read Errors, 33 Read I/Os.
check "fault engine: every run counts read errors" \
  test "$(awk -F, '$1 == "ALL" && $29 > 0 && $28 == $29' "$work/eio.csv" | wc -l)" = 2
share=$(awk -F, '$1 == "ALL" {e += $28; r += $33} END {printf "%d", 1000 * e / (e + r)}' "$work/eio.csv")
measured "fault engine fault-eio-every-10: ${share} per mille of the I/Os failed"
check "fault engine: about one I/O in ten failed (${share} per mille)" test "$share" -ge 90 -a "$share" -le 110
check "fault engine: the errors are named at once" \
  grep -q "agent 'alpha'.*Worker 1 on $work/data: [0-9]* I/O errors in" "$work/eio.err"
check "fault engine: the summary table shows them" grep -Eq "^ +1 .* [1-9][0-9]* +[0-9.]+$" "$work/eio.out"
check "fault engine: JSON counts them" grep -Eq '"read_errors": [1-9]' "$work/eio.json"
check "fault engine: no run failed" test "$(csv_count "$work/eio.csv" "^ERROR:")" = 0

# ---- a file target truncated mid-run ----------------------------------------------------
target=$work/data/target.dat
dd if=/dev/urandom of="$target" bs=1M count=16 status=none
"$iomark" run "${manager[@]}" --target "$target" --spec "4K random read" --qd 1 --time 5 \
  --results "$work/truncated.csv" >"$work/truncated.out" 2>"$work/truncated.err" &
controller=$!
pids+=("$controller")
wait_for "$work/truncated.err" "^run 1/1" 30 && sleep 1.5
t0=$(now_ms)
truncate -s 0 "$target"
wait_for "$work/truncated.err" "I/O errors in" 10
named=$(($(now_ms) - t0))
wait_exit "$controller" 30
measured "target truncated: errors named after ${named} ms"
check "truncated: the run completes (status $exit_status)" test "$exit_status" -eq 0
check "truncated: errors named within 5 s (${named} ms)" test "$named" -lt 5000
check "truncated: the notice names the target" grep -q "Worker 1 on $target" "$work/truncated.err"
check "truncated: errors counted" test "$(awk -F, '$1 == "ALL" {print ($28 > 0)}' "$work/truncated.csv")" = 1
check "truncated: reads before the cut counted too" test "$(awk -F, '$1 == "ALL" {print ($33 > 0)}' "$work/truncated.csv")" = 1

# ---- a file target removed mid-run ------------------------------------------------------
dd if=/dev/urandom of="$target" bs=1M count=16 status=none
"$iomark" run "${manager[@]}" --target "$target" --spec "4K random read" --qd 1,2 --time 3 \
  --results "$work/removed.csv" >"$work/removed.out" 2>"$work/removed.err" &
controller=$!
pids+=("$controller")
wait_for "$work/removed.err" "^run 1/2" 30 && sleep 1
rm "$target"
wait_exit "$controller" 60
check "removed: the series fails (status $exit_status)" test "$exit_status" -eq 1
check "removed: run 1 completes on the open file" test "$(csv_count "$work/removed.csv" "^'Results")" = 1
check "removed: run 1 without errors" test "$(awk -F, '$1 == "ALL" {print $28}' "$work/removed.csv")" = 0
check "removed: run 2 marked failed naming the path" grep -q "^ERROR: run 2 of 2 .*$target" "$work/removed.csv"
check "removed: Aborted test" test "$(tail -n1 "$work/removed.csv")" = "Aborted test"
check "removed: the agent still runs" kill -0 "$pid_alpha"

check "the agent ends on SIGTERM within 5 s" stop_cleanly "$pid_alpha"
finish io_errors
