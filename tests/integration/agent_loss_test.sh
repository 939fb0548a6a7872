#!/usr/bin/env bash
# An agent lost mid-series, over TCP on 127.0.0.1 with two real agents:
# - SIGKILL, default --on-agent-loss stop: a named error at once, the completed run kept,
#   the failed run marked (results.csv ERROR: line + Aborted test, JSON failed_runs);
# - SIGSTOP, --on-agent-loss continue: declared dead within the 5 s dead-peer deadline, the
#   rest of the series runs without it ('End Test); once resumed it serves again.
# Nothing hangs: every wait is bounded, and every process ends on SIGTERM within 5 s.
# usage: agent_loss_test.sh IOMARK IOMARK_AGENT
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"

start_agent alpha || exit 1
start_agent beta || exit 1
series=(--key-file "$work/key" --target "$work/data" --spec "4K random read" --qd 1,2,4 --time 3 --size 16M)

# ---- SIGKILL mid-run 2, default policy (stop) -------------------------------------------
"$iomark" run --manager "127.0.0.1:$port_alpha" --manager "127.0.0.1:$port_beta" "${series[@]}" \
  --results "$work/kill.csv" --json "$work/kill.json" >"$work/kill.out" 2>"$work/kill.err" &
controller=$!
pids+=("$controller")
wait_for "$work/kill.err" "^run 2/3" 60 && sleep 1.5  # recording of run 2 has begun
t0=$(now_ms)
kill -KILL "$pid_beta"
{ wait "$pid_beta"; } 2>/dev/null
wait_for "$work/kill.err" "failed:" 30
detected=$(($(now_ms) - t0))
wait_exit "$controller" 30
measured "SIGKILL of an agent: named error after ${detected} ms"
check "SIGKILL: the controller ends (status $exit_status) with failure" test "$exit_status" -eq 1
check "SIGKILL: detected within the 5 s deadline (${detected} ms)" test "$detected" -lt 5000
check "SIGKILL: the error names the agent" grep -q "agent 'beta'" "$work/kill.err"
check "SIGKILL: the completed run is kept" test "$(csv_count "$work/kill.csv" "^'Results")" = 1
check "SIGKILL: run 2 is marked failed" grep -q "^ERROR: run 2 of 3 ('4K random read' QD 2): agent 'beta'" "$work/kill.csv"
check "SIGKILL: the series is marked Aborted test" test "$(tail -n1 "$work/kill.csv")" = "Aborted test"
check "SIGKILL: JSON marks run 2 failed" grep -q '"position": 2' "$work/kill.json"
check "SIGKILL: JSON outcome aborted" grep -q '"outcome": "aborted"' "$work/kill.json"
check "SIGKILL: the CSV reads back" "$iomark" results show "$work/kill.csv" >/dev/null
check "SIGKILL: the other agent still runs" kill -0 "$pid_alpha"

# ---- SIGSTOP mid-run 2, --on-agent-loss continue ----------------------------------------
start_agent beta || exit 1
"$iomark" run --manager "127.0.0.1:$port_alpha" --manager "127.0.0.1:$port_beta" "${series[@]}" \
  --on-agent-loss continue --results "$work/stop.csv" --json "$work/stop.json" \
  >"$work/stop.out" 2>"$work/stop.err" &
controller=$!
pids+=("$controller")
wait_for "$work/stop.err" "^run 2/3" 60 && sleep 1.5
t0=$(now_ms)
kill -STOP "$pid_beta"
wait_for "$work/stop.err" "failed:" 30
detected=$(($(now_ms) - t0))
wait_exit "$controller" 60
kill -CONT "$pid_beta"
measured "SIGSTOP of an agent: declared dead after ${detected} ms (deadline 5000 ms)"
check "SIGSTOP: the controller ends (status $exit_status): 1 for a failed run" test "$exit_status" -eq 1
check "SIGSTOP: declared dead within the deadline plus 2 s (${detected} ms)" test "$detected" -lt 7000
check "SIGSTOP: the error says the agent was silent" grep -q "agent 'beta'.*silent for" "$work/stop.err"
check "SIGSTOP: the lost agent is dropped with a note" \
  grep -q "manager 'beta' lost .*dropped from the remaining 1 run(s)" "$work/stop.err"
check "SIGSTOP: runs 1 and 3 recorded" test "$(csv_count "$work/stop.csv" "^'Results")" = 2
check "SIGSTOP: run 2 marked failed" grep -q "^ERROR: run 2 of 3" "$work/stop.csv"
check "SIGSTOP: run 3 ran on alpha alone" \
  test "$(awk -F, '/^.Results/ {n++} n == 2 && $1 == "MANAGER" {print $2}' "$work/stop.csv")" = alpha
check "SIGSTOP: run 3 is QD 4" test "$(awk -F, '$1 == "ALL" {q = $48} END {print q}' "$work/stop.csv")" = 4
check "SIGSTOP: the series reached its end ('End Test)" test "$(tail -n1 "$work/stop.csv")" = "'End Test"
check "SIGSTOP: JSON has one failed run" test "$(grep -c '"position"' "$work/stop.json")" = 1
check "SIGSTOP: the resumed agent drops the dead connection" wait_for "$work/beta.log" "closed the connection|silent for" 10
timeout 60 "$iomark" run --manager "127.0.0.1:$port_beta" --key-file "$work/key" --target "$work/data" \
  --spec "4K random read" --qd 1 --time 1 --size 16M --results "$work/again.csv" >/dev/null 2>"$work/again.err"
check "SIGSTOP: the resumed agent serves a new series (status $?)" test "$(tail -n1 "$work/again.csv")" = "'End Test"

check "alpha ends on SIGTERM within 5 s" stop_cleanly "$pid_alpha"
check "beta ends on SIGTERM within 5 s" stop_cleanly "$pid_beta"
finish agent_loss
