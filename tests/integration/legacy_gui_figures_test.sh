#!/usr/bin/env bash
# The figures an IOmeter GUI shows equal iomark's: `iomark run --legacy-dynamo` drives
# `iomark-agent --protocol iometer` through a relay (tools/legacy_relay.cpp) that keeps the
# agent's login block and its answer to every REPORT_RESULTS; tools/legacy_gui_figures.cpp
# computes from those raw counters what IOmeter 1.1.0's GUI shows for the manager (IOPS, MB/s,
# average and maximum response time, the 21 latency bins, CPU), and each run's MANAGER row of
# results.csv must hold the same figures within 1 % (the bins exactly).
# usage: legacy_gui_figures_test.sh IOMARK IOMARK_AGENT RELAY FIGURES
set -uo pipefail
iomark=$1 agent=$2 relay=$3 figures=$4
source "$(dirname "$0")/harness.sh"
source "$(dirname "$0")/dynamo_plan.sh"
dir=$work/target
prepare_dynamo_target "$dir" "$work/mtab" || exit 1
write_dynamo_plan "$work/plan.icf" 2 "$dir [$fstype]" unused 4096 dyn1

timeout 120 "$iomark" run "$work/plan.icf" --legacy-dynamo 127.0.0.1:0 --key-file "$work/key" --wait-timeout 30 \
  --results "$work/results.csv" >"$work/run.out" 2>"$work/run.err" &
ctl_pid=$!
pids+=("$ctl_pid")
wait_for "$work/run.err" "Dynamo logins on 127.0.0.1:[0-9]+" 10 || { echo "controller: $(cat "$work/run.err")"; exit 1; }
dyn_port=$(sed -n 's/.*Dynamo logins on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/run.err" | head -1)
"$relay" "$dyn_port" "$work/talk" "$work/gui" >"$work/relay.out" 2>&1 &
relay_pid=$!
pids+=("$relay_pid")
wait_for "$work/relay.out" "relay login port [0-9]+" 10 || { echo "relay: $(cat "$work/relay.out")"; exit 1; }
relay_port=$(sed -n 's/relay login port \([0-9]*\)/\1/p' "$work/relay.out")
"$agent" --protocol iometer -i "127.0.0.1:$relay_port" -m 127.0.0.1 -n dyn1 --allow "$dir" >"$work/agent.log" 2>&1 &
agent_pid=$!
pids+=("$agent_pid")
wait_exit "$ctl_pid" 100
check "the series exits 0 (got $exit_status: $(tail -3 "$work/run.err"))" test "$exit_status" -eq 0
wait_exit "$relay_pid" 20
wait_exit "$agent_pid" 10
check "the agent ends with 0 once the controller is done (got $exit_status: $(tail -2 "$work/agent.log"))" \
  test "$exit_status" -eq 0

# column CAPTION: the results.csv column of that caption (IOmeter's 80 and iomark's).
header=$(grep -m1 "^'Target Type" "$work/results.csv")
column() { awk -v RS=',' -v want="$1" '{sub(/\r?\n$/, "")} $0 == want {print NR; exit}' <<<"$header"; }
manager_row() { awk -F, '$1 == "MANAGER"' "$work/results.csv" | sed -n "${1}p"; }
field() { cut -d, -f"$1" <<<"$2"; }
# within_1_percent GUI IOMARK: |a - b| <= 1 % of the larger (both 0 counts as equal).
within_1_percent() { awk -v a="$1" -v b="$2" 'BEGIN {d = a - b; if (d < 0) d = -d; m = (a < 0 ? -a : a); n = (b < 0 ? -b : b); if (n > m) m = n; exit !(d <= 0.01 * m)}'; }

runs=$(awk -F, '$1 == "MANAGER"' "$work/results.csv" | wc -l)
check "three runs recorded (got $runs)" test "$runs" -eq 3
check "three REPORT_RESULTS answers kept by the relay" test -f "$work/gui.3"
for n in 1 2 3; do
  "$figures" "$work/gui.login" "$work/gui.$n" >"$work/figures.$n" || { check "run $n: the GUI's figures compute" false; continue; }
  row=$(manager_row "$n")
  gui() { awk -v k="$1" '$1 == k {print $2}' "$work/figures.$n"; }
  line="run $n:"
  for pair in "iops:IOps" "mib_per_s:MiBps (Binary)" "mb_per_s:MBps (Decimal)" "average_ms:Average Response Time" \
              "maximum_ms:Maximum Response Time" "cpu_percent:% CPU Utilization"; do
    key=${pair%%:*} caption=${pair#*:}
    ours=$(field "$(column "$caption")" "$row")
    check "run $n: $caption: GUI $(gui "$key"), results.csv $ours" within_1_percent "$(gui "$key")" "$ours"
    line+=" $key GUI $(gui "$key") / csv $ours;"
  done
  first_bin=60  # IOmeter 1.1.0's 21 bins are columns 60-80 (docs/results-format.md)
  bins_gui=$(for b in $(seq 0 20); do gui "bin$b"; done | paste -sd' ')
  bins_csv=$(cut -d, -f"$first_bin-$((first_bin + 20))" <<<"$row" | tr ',' ' ')
  check "run $n: the 21 latency bins are the same (GUI $bins_gui; results.csv $bins_csv)" test "$bins_gui" = "$bins_csv"
  check "run $n: I/O was done" awk -v v="$(gui iops)" 'BEGIN {exit !(v > 0)}'
  measured "$line bins $bins_gui"
done
finish legacy_gui_figures
