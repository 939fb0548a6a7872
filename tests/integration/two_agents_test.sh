#!/usr/bin/env bash
# Two real iomark-agent processes on 127.0.0.1 (port 0), authenticated with a key file, run a
# queue-depth cycling series from the iomark controller over TCP; results.csv is checked row
# by row. Also: a wrong key is refused on both sides, and a missing agent is a named error.
# usage: two_agents_test.sh IOMARK IOMARK_AGENT
set -uo pipefail
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"

start_agent agentA || exit 1
start_agent agentB || exit 1
port_a=$port_agentA port_b=$port_agentB

timeout 120 "$iomark" run --manager "127.0.0.1:$port_a" --manager "127.0.0.1:$port_b" --key-file "$work/key" \
  --target "$work/data" --spec "4K random read" --qd 1,2,4 --time 2 --ramp 1 --size 16M \
  --results "$work/results.csv" --json "$work/results.json" >"$work/run.out" 2>"$work/run.err"
status=$?
check "controller exits 0 (got $status: $(tail -2 "$work/run.err"))" test "$status" -eq 0

csv=$work/results.csv
field() { awk -F, -v row="$1" -v col="$2" '$1 == row {print $col}' "$csv"; }
check "series header: test type 6 (cycle outstanding I/Os)" test "$(sed -n 2p "$csv" | cut -d, -f1)" = 6
check "one spec block for the single access index" test "$(grep -c "^'Access specifications" "$csv")" = 1
check "three results blocks" test "$(grep -c "^'Results" "$csv")" = 3
# IOmeter's 80 columns, then iomark's data-pattern column (the default: repeating).
check "81-column header" test "$(grep -m1 "^'Target Type" "$csv" | awk -F, '{print NF}')" = 81
check "three ALL rows, each 81 fields" test "$(awk -F, '$1 == "ALL" && NF == 81' "$csv" | wc -l)" = 3
check "the iomark column names the data pattern" test "$(field ALL 81 | sort -u)" = repeating
check "ALL rows count 2 managers" test "$(field ALL 4 | sort -u)" = 2
check "ALL rows count 2 workers" test "$(field ALL 5 | sort -u)" = 2
check "ALL rows count 2 disks" test "$(field ALL 6 | sort -u)" = 2
check "queue depth column cycles 1,2,4" test "$(field ALL 48 | tr '\n' ,)" = "1,2,4,"
check "MANAGER rows name both agents in every run" \
  test "$(field MANAGER 2 | sort | uniq -c | awk '{print $1 $2}' | tr '\n' ,)" = "3agentA,3agentB,"
check "one WORKER and one DISK row per manager and run" \
  test "$(awk -F, '$1 == "WORKER" || $1 == "DISK"' "$csv" | wc -l)" = 12
check "PROCESSOR rows have 59 fields" test "$(awk -F, '$1 == "PROCESSOR" && NF != 59' "$csv" | wc -l)" = 0
check "every run did I/O" test "$(field ALL 7 | awk '$1 <= 0' | wc -l)" = 0
check "no errors" test "$(field ALL 28 | sort -u)" = 0
check "ALL IOps is the sum of the MANAGER IOps" \
  test "$(awk -F, '$1 == "ALL" {all = $7} $1 == "MANAGER" {sum[all] += $7} END {for (a in sum) if ((a - sum[a])^2 > 1e-6) bad++; print bad + 0}' "$csv")" = 0
check "the series ends with 'End Test" test "$(tail -n1 "$csv")" = "'End Test"
check "JSON results written" grep -q '"format": "iomark-results"' "$work/results.json"
check "the CSV reads back" "$iomark" results show "$csv" >/dev/null

# The same over an IOmeter .icf plan: two managers paired by name, QD cycling 1..4.
plan=$work/plan.icf
{
  printf 'Version 1.1.0 \n'
  printf "'TEST SETUP ====================================================================\n"
  printf "'Test Description\n\ttwo agents from a plan\n'Run Time\n'\thours      minutes    seconds\n\t0          0          2\n"
  printf "'Ramp Up Time (s)\n\t0\n'Default Disk Workers to Spawn\n\t1\n'Default Network Workers to Spawn\n\t0\n"
  printf "'Record Results\n\tALL\n'Worker Cycling\n'\tstart      step       step type\n\t1          1          LINEAR\n"
  printf "'Disk Cycling\n'\tstart      step       step type\n\t1          1          LINEAR\n"
  printf "'Queue Depth Cycling\n'\tstart      end        step       step type\n\t1          4          2          EXPONENTIAL\n"
  printf "'Test Type\n\tCYCLE_OUTSTANDING_IOS\n'END test setup\n"
  printf "'MANAGER LIST ==================================================================\n"
  for m in agentB agentA; do
    printf "'Manager ID, manager name\n\t1,%s\n'Manager network address\n\t\n" "$m"
    printf "'Worker\n\tWorker 1\n'Worker type\n\tDISK\n'Default target settings for worker\n"
    printf "'Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed seed value\n\t1,DISABLED,1,ENABLED,42\n"
    printf "'Disk maximum size,starting sector,Data pattern\n\t2048,0,0\n'End default target settings for worker\n"
    printf "'Assigned access specs\n\t4K random read\n'End assigned access specs\n"
    printf "'Target assignments\n'Target\n\t%s\n'Target type\n\tDISK\n'End target\n'End target assignments\n'End worker\n'End manager\n" "$work/data"
  done
  printf "'END manager list\nVersion 1.1.0 \n"
} >"$plan"
timeout 120 "$iomark" run "$plan" --manager "127.0.0.1:$port_a" --manager "127.0.0.1:$port_b" --key-file "$work/key" \
  --results "$work/plan.csv" >"$work/plan.out" 2>"$work/plan.err"
status=$?
check "plan run exits 0 (got $status: $(tail -2 "$work/plan.err"))" test "$status" -eq 0
pcsv=$work/plan.csv
check "plan: description from the .icf" test "$(sed -n 2p "$pcsv")" = "6,two agents from a plan"
check "plan: three runs, QD 1,2,4" test "$(awk -F, '$1 == "ALL" {print $48}' "$pcsv" | tr '\n' ,)" = "1,2,4,"
check "plan: MANAGER rows in the plan's order (agentB first)" \
  test "$(awk -F, '$1 == "MANAGER" {print $2}' "$pcsv" | head -2 | tr '\n' ,)" = "agentB,agentA,"
check "plan: maximum size column from the plan" test "$(awk -F, '$1 == "ALL" {print $47}' "$pcsv" | sort -u)" = 2048
check "plan: no errors" test "$(awk -F, '$1 == "ALL" {print $28}' "$pcsv" | sort -u)" = 0

# Steady state over both agents: the series repeated in rounds until the IOPS of the merged ALL
# row is steady (SNIA's rule over 5 rounds), at most 6 rounds.
timeout 120 "$iomark" run --manager "127.0.0.1:$port_a" --manager "127.0.0.1:$port_b" --key-file "$work/key" \
  --target "$work/data" --spec "4K random read" --qd 2 --time 1 --engine null --size 16M \
  --steady-state iops --max-rounds 6 --results "" --json "$work/steady.json" >"$work/steady.out" 2>"$work/steady.err"
status=$?
check "steady-state run exits 0 (got $status: $(tail -2 "$work/steady.err"))" test "$status" -eq 0
steady_check() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); s = d['steady_state']; sys.exit(0 if ($1) else 1)" "$work/steady.json"; }
check "steady state: one figure per round, one run per round" steady_check "len(s['rounds']) == len(d['runs'])"
check "steady state: 5 or 6 rounds (a verdict needs 5, at most 6 asked)" steady_check "len(s['rounds']) in (5, 6)"
check "steady state: stopped at the first steady round, or at the sixth without one" \
  steady_check "s['steady'] or len(s['rounds']) == 6"
check "steady state: each round's figure is its run's ALL IOPS, merged over both managers" \
  steady_check "all(r == run['summary']['iops'] and len(run['managers']) == 2 for r, run in zip(s['rounds'], d['runs']))"
check "steady state: the window is the last 5 rounds" steady_check "s['window'] == 5 and s['window_first'] == len(s['rounds']) - 5"
check "steady state: the console has a line per round" test "$(grep -c '^round [0-9]/6: ' "$work/steady.err" "$work/steady.out" | awk -F: '{n += $2} END {print n}')" -ge 5
check "steady state: the verdict under the summary" grep -q '^steady state (iops): ' "$work/steady.out"

# A rate over both agents: 4000 I/Os per second, 1000 for each of the two workers of each
# agent, on the null engine (which could do far more): the merged ALL row and each manager
# are on the schedule, and the JSON carries the lag and service time of a rated run.
timeout 120 "$iomark" run --manager "127.0.0.1:$port_a" --manager "127.0.0.1:$port_b" --key-file "$work/key" \
  --target "$work/data" --spec "4K random read" --qd 4 --workers 2 --ramp 1 --time 3 --engine null --size 16M \
  --rate-iops 4000 --results "" --json "$work/rate.json" >"$work/rate.out" 2>"$work/rate.err"
status=$?
check "rated run exits 0 (got $status: $(tail -2 "$work/rate.err"))" test "$status" -eq 0
rate_check() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); r = d['runs'][0]; sys.exit(0 if ($1) else 1)" "$work/rate.json"; }
# A stall of the loaded machine at the window's end loses what was due then: a few percent.
rated_iops=$(python3 -c "import json, sys; print(json.load(open(sys.argv[1]))['runs'][0]['summary']['iops'])" "$work/rate.json" 2>/dev/null)
check "rate: ALL within 5% of 4000 (got $rated_iops)" rate_check "abs(r['summary']['iops'] - 4000) <= 200"
check "rate: each manager within 5% of 2000" rate_check "all(abs(m['summary']['iops'] - 2000) <= 100 for m in r['managers'])"
check "rate: the lag and the service time are in the summary" \
  rate_check "all(k in r['summary'] for k in ('average_issue_lag_ms', 'average_service_ms', 'maximum_issue_lag_ms'))"
check "rate: the console says how late the I/Os were issued" grep -q 'on schedule: issued avg' "$work/rate.err" "$work/rate.out"

# A wrong key: refused on both sides, and no run.
head -c 48 /dev/urandom | base64 >"$work/wrong" && chmod 600 "$work/wrong"
timeout 60 "$iomark" run --manager "127.0.0.1:$port_a" --key-file "$work/wrong" --target "$work/data" --qd 1 \
  --time 1 --results "$work/wrong.csv" >/dev/null 2>"$work/wrong.err"
status=$?
check "wrong key: controller exits 5, refused (got $status)" test "$status" -eq 5
check "wrong key: controller says so" grep -q "authentication failed" "$work/wrong.err"
# The agent logs the refusal on its own thread: give it a moment after the controller exits.
check "wrong key: agent says so" wait_for "$work/agentA.log" "authentication failed" 5
check "wrong key: nothing recorded" test ! -e "$work/wrong.csv"

# No agent listening there: a named error, not a hang.
timeout 60 "$iomark" run --manager "127.0.0.1:1" --key-file "$work/key" --target "$work/data" --qd 1 --time 1 \
  --results "" >/dev/null 2>"$work/none.err"
status=$?
check "unreachable agent: exit 4, cannot connect (got $status)" test "$status" -eq 4
check "unreachable agent: naming the address" grep -q "127.0.0.1:1" "$work/none.err"

check "both agents still running before cleanup" kill -0 "$pid_agentA" "$pid_agentB"
finish two_agents
