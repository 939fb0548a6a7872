#!/usr/bin/env bash
# The controller drives the real Dynamo 1.1.0 (built from ../shared) next to an iomark agent:
# a two-manager .icf plan cycling outstanding I/Os 1,2,4 on temp files; then a Dynamo killed
# (SIGKILL) and one stopped (SIGSTOP) mid-run give a named error within 5 s and the
# completed runs are kept; a rate or rounds judged on p99 are refused before the first run.
# Dynamo sees only what we show it: MNTTAB names a mount table with our temp directory
# alone, whose iobw.tst we fill first; the plan names only that target. (Dynamo also lists
# raw devices it can open, without writing them; no plan here names one.)
# usage: legacy_dynamo_test.sh IOMARK IOMARK_AGENT DYNAMO   (exit 77: Dynamo is missing)
set -uo pipefail
iomark=$1 agent=$2 dynamo=$3
if [[ ! -x $dynamo ]]; then
  echo "skipped: no Dynamo binary at $dynamo (needs ../shared/tools/build-dynamo and ../shared/third-party/iometer-1.1.0-dynamo)"
  exit 77
fi
source "$(dirname "$0")/harness.sh"

source "$(dirname "$0")/dynamo_plan.sh"
dyn_dir=$work/dynamo-target
prepare_dynamo_target "$dyn_dir" "$work/mtab" || exit 1

start_agent agentA || exit 1

# start_controller NAME ARGS...: iomark run with Dynamo logins on 127.0.0.1:0; sets ctl_pid and
# dyn_port once it listens.
start_controller() {
  local name=$1
  shift
  : >"$work/$name.err"
  timeout 180 "$iomark" run "$@" --legacy-dynamo 127.0.0.1:0 --manager "127.0.0.1:$port_agentA" \
    --key-file "$work/key" --wait-timeout 30 >"$work/$name.out" 2>"$work/$name.err" &
  ctl_pid=$!
  pids+=("$ctl_pid")
  wait_for "$work/$name.err" "Dynamo logins on 127.0.0.1:[0-9]+" 10 || { echo "controller: $(cat "$work/$name.err")"; return 1; }
  dyn_port=$(sed -n 's/.*Dynamo logins on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/$name.err" | head -1)
}

# start_dynamo NAME: the real Dynamo logging in to the controller; sets dyn_pid.
start_dynamo() {
  MNTTAB=$work/mtab "$dynamo" -i 127.0.0.1 -p "$dyn_port" -m 127.0.0.1 -n "$1" >"$work/$1.log" 2>&1 &
  dyn_pid=$!
  pids+=("$dyn_pid")
}

# write_plan FILE RUN_SECONDS: Dynamo manager "dyn1" on the temp directory, agentA on its
# data directory (tests/integration/dynamo_plan.sh).
write_plan() { write_dynamo_plan "$1" "$2" "$dyn_dir [$fstype]" "$work/data" 4096; }

# ---- 1. A whole series: Dynamo and an iomark agent side by side -------------------------
write_plan "$work/plan.icf" 3
start_controller series "$work/plan.icf" --results "$work/results.csv" --json "$work/results.json" || exit 1
start_dynamo dyn1
wait_exit "$ctl_pid" 120
check "series exits 0 (got $exit_status: $(tail -3 "$work/series.err"))" test "$exit_status" -eq 0
check "the no-authentication warning is printed once" test "$(grep -c 'no authentication' "$work/series.err")" = 1
csv=$work/results.csv
field() { awk -F, -v row="$1" -v col="$2" '$1 == row {print $col}' "$csv"; }
check "three ALL rows" test "$(field ALL 1 | wc -l)" = 3
check "ALL rows count 2 managers" test "$(field ALL 4 | sort -u)" = 2
check "queue depth cycles 1,2,4" test "$(field ALL 48 | tr '\n' ,)" = "1,2,4,"
check "MANAGER rows for dyn1 and agentA in every run" \
  test "$(field MANAGER 2 | sort | uniq -c | awk '{print $1 $2}' | tr '\n' ,)" = "3agentA,3dyn1,"
check "every MANAGER row did I/O" test "$(field MANAGER 7 | awk '$1 <= 0' | wc -l)" = 0
check "every ALL row did I/O" test "$(field ALL 7 | awk '$1 <= 0' | wc -l)" = 0
# Read share of the Dynamo's I/O: Read IOps / IOps, spec 67%.
read_share_ok() {
  awk -F, '$1 == "MANAGER" && $2 == "dyn1" {share = 100 * $8 / $7; if (share < 65 || share > 69) bad++; n++}
           END {exit !(n == 3 && bad == 0)}' "$csv"
}
check "Dynamo read share within 2 points of 67%" read_share_ok
check "ALL IOps is the sum of the MANAGER IOps" \
  test "$(awk -F, '$1 == "ALL" {all = $7} $1 == "MANAGER" {sum[all] += $7} END {for (a in sum) if ((a - sum[a])^2 > 1e-6) bad++; print bad + 0}' "$csv")" = 0
check "no errors" test "$(field ALL 28 | sort -u)" = 0
check "the series ends with 'End Test" test "$(tail -n1 "$csv")" = "'End Test"
check "the Dynamo exits after the series (EXIT MANAGER)" wait_exit "$dyn_pid" 10
measured "MANAGER IOps per run (QD 1,2,4), dyn1 then agentA: $(field MANAGER 7 | paste -d' ' - - | tr '\n' ';')"

# The Dynamo's rows carry what it gives, as IOmeter shows it: its own timer resolution as
# Processor Speed (col 54), raw sums in its ticks (col 37), and its 21 latency bins (cols
# 60-80), which count every read and write (cols 33, 34); the ALL rows add both managers' bins.
check "dyn1 Processor Speed is the Dynamo's timer resolution, not iomark's 1e9" \
  test "$(awk -F, '$1 == "MANAGER" && $2 == "dyn1" && ($54 <= 0 || $54 == 1e9)' "$csv" | wc -l)" = 0
check "agentA Processor Speed is 1e9 (nanoseconds)" test "$(awk -F, '$1 == "MANAGER" && $2 == "agentA" {print $54}' "$csv" | sort -u)" = 1000000000.000000
bins_count_every_io() {  # bins_count_every_io TYPE [NAME]
  awk -F, -v type="$1" -v name="${2:-}" '$1 == type && (name == "" || $2 == name) {
      bins = 0; for (c = 60; c <= 80; ++c) bins += $c
      if (bins != $33 + $34 || bins == 0) bad++; n++}
    END {exit !(n == 3 && bad == 0)}' "$csv"
}
check "dyn1 latency bins count every read and write" bins_count_every_io MANAGER dyn1
check "ALL latency bins count every read and write of both managers" bins_count_every_io ALL
# Average read response (ms, col 19) = raw read sum (col 37) / Processor Speed / Read I/Os.
check "dyn1 raw read sums are in its ticks" \
  awk -F, '$1 == "MANAGER" && $2 == "dyn1" {ms = 1000 * $37 / $54 / $33; if ((ms - $19)^2 > (0.01 * $19)^2) bad++; n++}
           END {exit !(n == 3 && bad == 0)}' "$csv"
measured "dyn1 Processor Speed: $(field MANAGER 54 | head -1) (first MANAGER row)"
# JSON: no percentiles for the Dynamo nor for ALL (part of it was not timed exactly); the
# agent's remain.
json=$work/results.json
jq_ok() { jq -e "$1" "$json" >/dev/null; }
check "results.json has three runs" jq_ok '.runs | length == 3'
check "JSON: dyn1 has bins but no percentiles" \
  jq_ok '[.runs[].managers[] | select(.name == "dyn1") | .summary
          | (.latency_ns | has("p50") or has("p99")) or ((.legacy_bins | add) != .counters.reads.count + .counters.writes.count)]
         | length == 3 and all(. == false)'
check "JSON: agentA has percentiles" \
  jq_ok '[.runs[].managers[] | select(.name == "agentA") | .summary.latency_ns | has("p99")] | length == 3 and all'
check "JSON: ALL has no percentiles" jq_ok '[.runs[].summary.latency_ns | has("p50")] | length == 3 and all(. == false)'
check "JSON: dyn1 timer resolution is not 1e9" \
  jq_ok '[.runs[].managers[] | select(.name == "dyn1") | .timer_resolution_hz != 1000000000] | length == 3 and all'

# ---- 2. Dynamo lost mid-run: SIGKILL, then SIGSTOP -----------------------------------------
# lost_midrun SIGNAL: the first run completes, the signal hits in the second; the controller
# must name the Dynamo within 5 s, keep run 1 and stop (--on-agent-loss stop).
lost_midrun() {
  local signal=$1 name=lost_${1#-}
  write_plan "$work/$name.icf" 3
  start_controller "$name" "$work/$name.icf" --results "$work/$name.csv" --on-agent-loss stop || return 1
  start_dynamo dyn1
  # Run 2 begins after run 1's 1 s ramp-up and 3 s recording: hit it 1 s into its recording.
  wait_for "$work/$name.csv" "^'Results" 60 || { echo "no first run: $(tail -3 "$work/$name.err")"; return 1; }
  sleep 2.5
  kill "$signal" "$dyn_pid"
  local t0
  t0=$(now_ms)
  wait_for "$work/$name.err" "Dynamo 'dyn1'" 10
  local detected_ms=$(($(now_ms) - t0))
  measured "$signal: error after $detected_ms ms: $(grep -m1 "Dynamo 'dyn1'" "$work/$name.err")"
  check "$signal: named error within 5 s (took $detected_ms ms)" test "$detected_ms" -le 5000
  wait_exit "$ctl_pid" 30
  check "$signal: controller exits non-zero" test "$exit_status" -ne 0
  check "$signal: the completed run is kept" test "$(awk -F, '$1 == "ALL"' "$work/$name.csv" | wc -l)" -ge 1
  check "$signal: the failed run is marked" grep -q "ERROR" "$work/$name.csv"
  kill -KILL "$dyn_pid" 2>/dev/null
}
lost_midrun -KILL
lost_midrun -STOP

# ---- 3. What a Dynamo cannot do is refused before the first run ----------------------------
no_results_block() { ! grep -q "^'Results" "$1" 2>/dev/null; }
# refused NAME FLAG ARGS...: the series is refused, naming the Dynamo and the flag, and no run
# starts (results.csv gets no results block).
refused() {
  local name=$1 flag=$2
  shift 2
  write_plan "$work/$name.icf" 1
  start_controller "$name" "$work/$name.icf" --results "$work/$name.csv" "$@" || return 1
  start_dynamo dyn1
  wait_exit "$ctl_pid" 60
  check "$name: controller exits non-zero (got $exit_status)" test "$exit_status" -ne 0
  check "$name: the error names the Dynamo and $flag ($(grep -m1 "Dynamo 'dyn1'" "$work/$name.err"))" \
    grep -q -e "$flag: Dynamo 'dyn1'" "$work/$name.err"
  check "$name: no run started" no_results_block "$work/$name.csv"
  kill -KILL "$dyn_pid" 2>/dev/null
}
refused rate --rate-iops --rate-iops 100
refused p99_rounds --steady-state --steady-state p99 --max-rounds 5

finish legacy_dynamo
