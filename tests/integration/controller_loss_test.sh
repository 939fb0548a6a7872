#!/usr/bin/env bash
# The controller lost mid-run, seen from an agent that logged in dynamo-style (-i):
# - SIGKILL: the agent stops all I/O within 2 s (its reads of the target stop, its worker
#   threads end) and dials again with backoff; a new controller on the same port gets it;
# - SIGSTOP: the agent declares the silent controller dead within the 5 s deadline and
#   stops its I/O the same way.
# The sync engine is used so that the agent's reads show in /proc/PID/io (rchar).
# usage: controller_loss_test.sh IOMARK IOMARK_AGENT
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"

# start_controller NAME PORT SECONDS: a controller listening on 127.0.0.1:PORT (0: any) for
# one agent, running one sync-engine read run of SECONDS; sets controller and port.
start_controller() {
  "$iomark" run --listen "127.0.0.1:$2" --wait-managers 1 --wait-timeout 40 --key-file "$work/key" \
    --target "$work/data" --spec "4K random read" --engine sync --qd 1 --time "$3" --size 16M \
    --results "$work/$1.csv" >"$work/$1.out" 2>"$work/$1.err" &
  controller=$!
  pids+=("$controller")
  wait_for "$work/$1.err" "agent\(s\) on 127.0.0.1:[0-9]+" 10 || return 1
  port=$(sed -n 's/.* on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/$1.err")
}

# ---- SIGKILL ----------------------------------------------------------------------------
start_controller first 0 60 || { echo "the controller did not start: $(cat "$work/first.err")"; exit 1; }
"$agent" -i "127.0.0.1:$port" -n alpha --key-file "$work/key" --allow "$work/data" >"$work/alpha.log" 2>&1 &
alpha=$!
pids+=("$alpha")
idle_threads=$(thread_count "$alpha")
wait_for "$work/first.err" "^run 1/1" 30
for _ in $(seq 1 100); do io_flowing "$alpha" && break; done
check "the agent's I/O flows before the kill" io_flowing "$alpha"
busy_threads=$(thread_count "$alpha")
t0=$(now_ms)
kill -KILL "$controller"
{ wait "$controller"; } 2>/dev/null
io_stopped_after "$alpha" "$t0" 10
measured "SIGKILL of the controller: the agent's I/O stopped within ${io_stop_ms:-?} ms"
check "SIGKILL: the agent stops its I/O within 2 s (${io_stop_ms:-never} ms)" test "${io_stop_ms:-99999}" -lt 2000
check "SIGKILL: its worker threads end ($busy_threads while running, idle $idle_threads, now $(thread_count "$alpha"))" \
  test "$(thread_count "$alpha")" -lt "$busy_threads"
check "SIGKILL: the agent names the lost controller" wait_for "$work/alpha.log" "controller '[^']*' .*(closed|reset)" 5
check "SIGKILL: the agent dials again with backoff" wait_for "$work/alpha.log" "retrying in [0-9]+ ms" 5
check "SIGKILL: the agent is still running" kill -0 "$alpha"

# A new controller on the same port: the agent logs in again and runs a series.
start_controller second "$port" 1 || echo "FAIL the second controller did not start: $(cat "$work/second.err")"
wait_exit "$controller" 60
check "reconnect: the new controller ran its series (status $exit_status)" test "$exit_status" -eq 0
check "reconnect: its results are complete" test "$(tail -n1 "$work/second.csv")" = "'End Test"
check "reconnect: the run did I/O" test "$(awk -F, '$1 == "ALL" {print ($7 > 0)}' "$work/second.csv")" = 1

# ---- SIGSTOP ----------------------------------------------------------------------------
start_controller third "$port" 60 || echo "FAIL the third controller did not start: $(cat "$work/third.err")"
wait_for "$work/third.err" "^run 1/1" 40
for _ in $(seq 1 100); do io_flowing "$alpha" && break; done
check "the agent's I/O flows before the freeze" io_flowing "$alpha"
busy_threads=$(thread_count "$alpha")
t0=$(now_ms)
kill -STOP "$controller"
io_stopped_after "$alpha" "$t0" 15
measured "SIGSTOP of the controller: the agent's I/O stopped within ${io_stop_ms:-?} ms (deadline 5000 ms)"
check "SIGSTOP: the agent stops its I/O within the deadline plus 2 s (${io_stop_ms:-never} ms)" \
  test "${io_stop_ms:-99999}" -lt 7000
check "SIGSTOP: its worker threads end" test "$(thread_count "$alpha")" -lt "$busy_threads"
check "SIGSTOP: the agent names the silent controller" wait_for "$work/alpha.log" "silent for .*declared dead" 5
kill -KILL "$controller"
{ wait "$controller"; } 2>/dev/null

check "the agent ends on SIGTERM within 5 s, even while dialling" stop_cleanly "$alpha"
finish controller_loss
