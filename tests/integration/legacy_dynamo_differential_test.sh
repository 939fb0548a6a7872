#!/usr/bin/env bash
# The differential through iomark's own controller: `iomark run --legacy-dynamo`
# drives the real Dynamo 1.1.0 (built from ../shared), then `iomark-agent --protocol iometer`
# under the same name, with the same one-manager plan on the same directory. A relay
# (tools/legacy_relay.cpp) between the controller and each manager writes down their command
# conversation, exchange by exchange: purposes, data, blocks, order. Both must be identical,
# but for how many REPORT_UPDATE polls fit in a run (a matter of timing); the IOPS of both are
# printed, with their ratio. The directory has no iobw.tst before either, so the controller
# has each fill it first (PREP_DISKS), at the plan's size.
# usage: legacy_dynamo_differential_test.sh IOMARK IOMARK_AGENT DYNAMO RELAY   (exit 77: Dynamo is missing)
set -uo pipefail
iomark=$1 agent=$2 dynamo=$3 relay=$4
if [[ ! -x $dynamo ]]; then
  echo "skipped: no Dynamo binary at $dynamo (needs ../shared/tools/build-dynamo and ../shared/third-party/iometer-1.1.0-dynamo)"
  exit 77
fi
source "$(dirname "$0")/harness.sh"
source "$(dirname "$0")/dynamo_plan.sh"
dyn_dir=$work/target
prepare_dynamo_target "$dyn_dir" "$work/mtab" || exit 1
write_dynamo_plan "$work/plan.icf" 2 "$dyn_dir [$fstype]" unused 4096 dyn1

# start_drive NAME PLAN COMMAND...: the controller runs PLAN on the manager COMMAND starts,
# which logs in through the relay ("RELAY_PORT" in COMMAND is replaced by the relay's login
# port); the conversation goes to $work/NAME.talk, the results to $work/NAME.csv. Sets
# ctl_pid, relay_pid and manager_pid.
start_drive() {
  local name=$1 plan=$2
  shift 2
  rm -f "$dyn_dir/iobw.tst"
  : >"$work/$name.err"
  timeout 120 "$iomark" run "$plan" --legacy-dynamo 127.0.0.1:0 --key-file "$work/key" --wait-timeout 30 \
    --results "$work/$name.csv" >"$work/$name.out" 2>"$work/$name.err" &
  ctl_pid=$!
  pids+=("$ctl_pid")
  wait_for "$work/$name.err" "Dynamo logins on 127.0.0.1:[0-9]+" 10 || { echo "$name: controller: $(cat "$work/$name.err")"; return 1; }
  local dyn_port
  dyn_port=$(sed -n 's/.*Dynamo logins on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/$name.err" | head -1)
  "$relay" "$dyn_port" "$work/$name.talk" >"$work/$name.relay" 2>&1 &
  relay_pid=$!
  pids+=("$relay_pid")
  wait_for "$work/$name.relay" "relay login port [0-9]+" 10 || { echo "$name: relay: $(cat "$work/$name.relay")"; return 1; }
  local relay_port
  relay_port=$(sed -n 's/relay login port \([0-9]*\)/\1/p' "$work/$name.relay")
  MNTTAB=$work/mtab "${@//RELAY_PORT/$relay_port}" >"$work/$name.log" 2>&1 &
  manager_pid=$!
  pids+=("$manager_pid")
}
# drive NAME COMMAND...: start_drive with plan.icf, to the end of the series.
drive() {
  local name=$1
  shift
  start_drive "$name" "$work/plan.icf" "$@" || return 1
  wait_exit "$ctl_pid" 100
  check "$name: the series exits 0 (got $exit_status: $(tail -3 "$work/$name.err"))" test "$exit_status" -eq 0
  wait_exit "$relay_pid" 20
  check "$name: the relay saw the conversation end (got $exit_status: $(cat "$work/$name.relay"))" test "$exit_status" -eq 0
  wait_exit "$manager_pid" 10 || kill -KILL "$manager_pid" 2>/dev/null
  # Maximum Disk Size 4096 sectors of the directory's block size.
  check "$name: filled iobw.tst to the plan's size ($(stat -c %s "$dyn_dir/iobw.tst" 2>&1))" \
    test "$(stat -c %s "$dyn_dir/iobw.tst" 2>/dev/null)" = $((4096 * $(stat -f -c %S "$dyn_dir")))
}
drive dynamo "$dynamo" -i 127.0.0.1 -p RELAY_PORT -m 127.0.0.1 -n dyn1 || exit 1
drive agent "$agent" --protocol iometer -i 127.0.0.1:RELAY_PORT -m 127.0.0.1 -n dyn1 --allow "$dyn_dir" || exit 1

# The conversations, with runs of REPORT_UPDATE polls counted apart.
polls() { grep -o 'REPORT_UPDATE' "$1" | wc -l; }
check "the Dynamo conversation was recorded" test "$(wc -l <"$work/dynamo.talk")" -gt 20
check "the Dynamo was told to fill its test file" grep -q "^PREP_DISKS -4 -> PREP_DISKS 1$" "$work/dynamo.talk"
check "no exchange split into garbage" test "$(grep -c garbage "$work/dynamo.talk" "$work/agent.talk" | awk -F: '{s += $2} END {print s}')" = 0
check "both conversations are the same, exchange by exchange (diff below if not)" \
  cmp -s <(uniq "$work/dynamo.talk") <(uniq "$work/agent.talk")
cmp -s <(uniq "$work/dynamo.talk") <(uniq "$work/agent.talk") || diff <(uniq "$work/dynamo.talk") <(uniq "$work/agent.talk") | head -20
check "both were polled for updates in every run" test "$(polls "$work/dynamo.talk")" -ge 3 -a "$(polls "$work/agent.talk")" -ge 3
check "REPORT_UPDATE polls differ by at most one per run (Dynamo $(polls "$work/dynamo.talk"), agent $(polls "$work/agent.talk"))" \
  test $(( $(polls "$work/dynamo.talk") - $(polls "$work/agent.talk") )) -le 3 -a $(( $(polls "$work/agent.talk") - $(polls "$work/dynamo.talk") )) -le 3
measured "exchanges (Dynamo): $(uniq "$work/dynamo.talk" | tr '\n' ';')"

# IOPS per run (QD 1, 2, 4): both did I/O at the plan's read share; the ratio is printed.
iops() { awk -F, '$1 == "MANAGER" {print $7}' "$1"; }
check "three runs each" test "$(iops "$work/dynamo.csv" | wc -l)" = 3 -a "$(iops "$work/agent.csv" | wc -l)" = 3
check "every run did I/O" test "$(cat <(iops "$work/dynamo.csv") <(iops "$work/agent.csv") | awk '$1 <= 0' | wc -l)" = 0
read_share_ok() { awk -F, '$1 == "MANAGER" {s = 100 * $8 / $7; if (s < 62 || s > 72) bad++; n++} END {exit !(n == 3 && bad == 0)}' "$1"; }
check "Dynamo read share within 5 points of 67%" read_share_ok "$work/dynamo.csv"
check "agent read share within 5 points of 67%" read_share_ok "$work/agent.csv"
measured "IOPS per run QD 1,2,4 (Dynamo / iomark-agent --protocol iometer, ratio): $(paste -d' ' <(iops "$work/dynamo.csv") <(iops "$work/agent.csv") | awk '{printf "%.0f / %.0f (%.2f); ", $1, $2, $2 / $1}')"

# A stop (SIGINT) while Dynamo fills a large test file: STOP_PREPARE, its PREP_DISKS answer,
# and the controller ends at once with what it has (nothing: exit 130).
write_dynamo_plan "$work/big.icf" 2 "$dyn_dir [$fstype]" unused 2097152 dyn1
start_drive stopped "$work/big.icf" "$dynamo" -i 127.0.0.1 -p RELAY_PORT -m 127.0.0.1 -n dyn1 || exit 1
wait_for "$work/stopped.err" "preparing test files on" 30
sleep 1
kill -INT "$ctl_pid"
t0=$(now_ms)
wait_exit "$ctl_pid" 30
stop_ms=$(($(now_ms) - t0))
check "stop while preparing: exit 130 (got $exit_status: $(tail -2 "$work/stopped.err"))" test "$exit_status" -eq 130
check "stop while preparing: ended within 10 s (took $stop_ms ms)" test "$stop_ms" -le 10000
wait_exit "$relay_pid" 20
# (Dynamo 1.1.0 answers the pending PREP_DISKS with purpose STOP_PREPARE.)
check "stop while preparing: Dynamo was told STOP_PREPARE and answered" \
  grep -Eq "^(PREP_DISKS -4 \+ )?STOP_PREPARE 0 -> (PREP_DISKS|STOP_PREPARE) [01]$" "$work/stopped.talk"
filled=$(stat -c %s "$dyn_dir/iobw.tst" 2>/dev/null || echo 0)
check "stop while preparing: the file is not full ($filled bytes)" test "$filled" -lt $((2097152 * $(stat -f -c %S "$dyn_dir")))
measured "stop while preparing: $stop_ms ms from SIGINT to exit, $filled bytes written; exchanges: $(tr "\n" ";" <"$work/stopped.talk")"
wait_exit "$manager_pid" 10 || kill -KILL "$manager_pid" 2>/dev/null
rm -f "$dyn_dir/iobw.tst"

finish legacy_dynamo_differential
