#!/usr/bin/env bash
# The controller at fleet scale, shortened for CI: 256 simulated agents
# (iomark-sim-fleet: real TCP on 127.0.0.1, the key handshake, 16 workers each) log in at
# once and run a 2-run series; then the fault behaviour of agent_loss_test.sh at 256: some
# agents join late, some drop mid-run, and the series follows --on-agent-loss as at 2 agents.
# usage: sim_fleet_test.sh IOMARK IOMARK_SIM_FLEET
iomark=$1 agent=$2  # harness.sh calls the agent program $agent; here it is the fleet
fleet=$2
source "$(dirname "$0")/harness.sh"

truncate -s 1M "$work/target.dat"
series=(--key-file "$work/key" --target "$work/target.dat" --engine null --workers 16 --ramp 0 --time 2
  --spec-line "512,100,100,100,0,1,0,0" --wait-timeout 60)

# start_controller NAME ARGS...: `iomark run --listen 127.0.0.1:0 ARGS` in the background;
# sets controller and listen_port once it listens.
start_controller() {
  local name=$1
  shift
  "$iomark" run --listen 127.0.0.1:0 "${series[@]}" "$@" --results "$work/$name.csv" \
    >"$work/$name.out" 2>"$work/$name.err" &
  controller=$!
  pids+=("$controller")
  wait_for "$work/$name.err" "agent\(s\) on 127\.0\.0\.1:[0-9]+" 10 || return 1
  listen_port=$(sed -n 's/.*agent(s) on 127\.0\.0\.1:\([0-9]*\).*/\1/p' "$work/$name.err")
}

# start_fleet LOG ARGS...: iomark-sim-fleet against the controller; sets fleet_pid.
start_fleet() {
  local log=$1
  shift
  "$fleet" -i "127.0.0.1:$listen_port" --key-file "$work/key" "$@" 2>"$log" &
  fleet_pid=$!
  pids+=("$fleet_pid")
}

# rows_per_run CSV: the MANAGER rows of each run's results block, space-separated.
rows_per_run() { awk -F, '/^.Results/ {if (n) printf "%d ", m; n++; m = 0} $1 == "MANAGER" {m++} END {if (n) printf "%d", m}' "$1"; }

# ---- 256 agents logging in at once, 2 runs --------------------------------------------
start_controller clean --wait-managers 256 --qd 1,2 || exit 1
t0=$(now_ms)
start_fleet "$work/clean-fleet.log" -n 256
wait_for "$work/clean.err" "^run 1/2" 30
login_ms=$(($(now_ms) - t0))
wait_exit "$controller" 90
clean_status=$exit_status
wait_exit "$fleet_pid" 15
measured "256 agents logged in and the series began after ${login_ms} ms"
check "clean: the series succeeds (status $clean_status)" test "$clean_status" -eq 0
check "clean: 256 agents established, none refused" grep -q "256 of 256 agents established.* 0 refused" \
  "$work/clean-fleet.log"
check "clean: the controller refused nobody" test "$(grep -c refused "$work/clean.err")" = 0
check "clean: 256 MANAGER rows in each run ($(rows_per_run "$work/clean.csv"))" \
  test "$(rows_per_run "$work/clean.csv")" = "256 256"
check "clean: no sample lost" grep -Eq "^samples: [1-9][0-9]* received, 0 lost" "$work/clean.out"
check "clean: the series reached its end ('End Test)" test "$(tail -n1 "$work/clean.csv")" = "'End Test"
check "clean: the CSV reads back" "$iomark" results show "$work/clean.csv" >/dev/null
check "clean: the fleet sent final results for every agent and run" \
  grep -q "final results sent 512" "$work/clean-fleet.log"

# ---- 8 agents join late, 4 drop mid-run 1, --on-agent-loss continue -------------------
start_controller continue --wait-managers 256 --qd 1,2,4 --on-agent-loss continue || exit 1
start_fleet "$work/early.log" -n 248 --drop 4 --drop-after-samples 1
early_pid=$fleet_pid
sleep 2
check "continue: the series waits for the late agents" test "$(grep -c '^run 1/' "$work/continue.err")" = 0
start_fleet "$work/late.log" -n 8 --first-index 248
late_pid=$fleet_pid
wait_exit "$controller" 90
continue_status=$exit_status
wait_exit "$early_pid" 15
wait_exit "$late_pid" 15
check "continue: the controller ends (status $continue_status): 1 for a failed run" test "$continue_status" -eq 1
check "continue: the late agents were in run 1" grep -q "manager 'sim0255'" "$work/continue.err"
check "continue: the lost agents are dropped with a note ($(grep -c "lost .*dropped from the remaining" \
  "$work/continue.err"))" test "$(grep -c "lost .*dropped from the remaining 2 run(s)" "$work/continue.err")" = 4
check "continue: run 1 marked failed" grep -q "^ERROR: run 1 of 3" "$work/continue.csv"
check "continue: runs 2 and 3 ran on the 252 left ($(rows_per_run "$work/continue.csv"))" \
  test "$(rows_per_run "$work/continue.csv")" = "252 252"
check "continue: the series reached its end ('End Test)" test "$(tail -n1 "$work/continue.csv")" = "'End Test"

# ---- 4 agents drop mid-run 1, default policy: the series stops ------------------------
start_controller stop --wait-managers 256 --qd 1,2 || exit 1
start_fleet "$work/stop-fleet.log" -n 256 --drop 4 --drop-after-samples 1
wait_exit "$controller" 90
stop_status=$exit_status
wait_exit "$fleet_pid" 15
check "stop: the controller ends with failure (status $stop_status)" test "$stop_status" -eq 1
check "stop: the error names a dropped agent" grep -Eq "failed: .*agent 'sim025[2-5]'" "$work/stop.err"
check "stop: run 1 is marked failed" grep -q "^ERROR: run 1 of 2" "$work/stop.csv"
check "stop: no run recorded" test "$(csv_count "$work/stop.csv" "^'Results")" = 0
check "stop: the series is marked Aborted test" test "$(tail -n1 "$work/stop.csv")" = "Aborted test"
finish sim_fleet
