#!/usr/bin/env bash
# Several hosts on one machine: two network namespaces joined to this one by veth pairs
# (10.77.N.1 here, 10.77.N.2 inside), an agent listening in each, the controller dialling
# both from here. Then the network is cut between the controller and one host mid-series
# (--on-agent-loss continue): the controller declares the host dead within the 5 s deadline
# and goes on without it, the cut-off agent stops its I/O on its own, and once the link is
# back it serves again. Needs root and iproute2; otherwise it says why and counts as skipped.
# Every address used is one this test creates; everything is removed at exit.
# usage: netns_test.sh IOMARK IOMARK_AGENT
set -uo pipefail
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"
netns_require netns
suffix=$$

managers=()
for n in 1 2; do
  ns=iomark-test-$n-$suffix
  add_namespace "$ns" "iomk$n-$suffix" "iomk$n-p$suffix" "10.77.$n.1/24" "10.77.$n.2/24" ||
    { echo "netns: cannot create namespace $n"; exit 1; }
  ip netns exec "$ns" "$agent" --listen "10.77.$n.2:1066" -n "host$n" --key-file "$work/key" \
    --allow "$work/data" >"$work/agent$n.log" 2>&1 &
  pids+=($!)
  printf -v "agent_pid_$n" '%s' "$!"
  managers+=(--manager "10.77.$n.2:1066")
done
for n in 1 2; do
  if ! wait_for "$work/agent$n.log" "listening on 10.77.$n.2:1066" 10; then
    echo "netns: the agent in namespace $n did not start: $(cat "$work/agent$n.log")"
    exit 1
  fi
done

timeout 120 "$iomark" run "${managers[@]}" --key-file "$work/key" --target "$work/data" --spec "4K random read" \
  --qd 1,4 --time 2 --size 16M --results "$work/results.csv" >"$work/run.out" 2>"$work/run.err"
status=$?
check "controller exits 0 (got $status: $(tail -2 "$work/run.err"))" test "$status" -eq 0
check "both hosts answered from their own addresses" grep -q "10.77.2.2:1066" "$work/run.err"
check "two MANAGER rows per run" test "$(awk -F, '$1 == "MANAGER"' "$work/results.csv" | wc -l)" = 4
check "ALL counts 2 managers" test "$(awk -F, '$1 == "ALL" {print $4}' "$work/results.csv" | sort -u)" = 2
check "agents saw the controller from the namespace link" grep -q "10.77.1.1" "$work/agent1.log"

# The link to host2 goes down in the middle of run 1 of 2; the series goes on without it.
"$iomark" run "${managers[@]}" --key-file "$work/key" --target "$work/data" --spec "4K random read" --engine sync \
  --qd 1,2 --time 8 --size 16M --on-agent-loss continue --results "$work/cut.csv" >"$work/cut.out" 2>"$work/cut.err" &
controller=$!
pids+=("$controller")
wait_for "$work/cut.err" "^run 1/2" 60 && sleep 2
check "link cut: host2's I/O flows before the cut" io_flowing "$agent_pid_2"
t0=$(now_ms)
ip link set "iomk2-$suffix" down
wait_for "$work/cut.err" "failed:" 30
detected=$(($(now_ms) - t0))
io_stopped_after "$agent_pid_2" "$t0" 20
wait_exit "$controller" 60
measured "network cut: the controller declared host2 dead after ${detected} ms (deadline 5000 ms)"
measured "network cut: host2's agent stopped its I/O within ${io_stop_ms:-?} ms"
check "link cut: the controller ends (status $exit_status): 1 for a failed run" test "$exit_status" -eq 1
check "link cut: host2 declared dead within the deadline plus 2 s (${detected} ms)" test "$detected" -lt 7000
check "link cut: the error names host2 and its silence" grep -q "agent 'host2'.*silent for" "$work/cut.err"
check "link cut: host2 dropped with a note" grep -q "manager 'host2' lost .*dropped from the remaining 1 run(s)" "$work/cut.err"
check "link cut: run 1 marked failed" grep -q "^ERROR: run 1 of 2 .*host2" "$work/cut.csv"
check "link cut: run 2 ran on host1 alone" \
  test "$(awk -F, '$1 == "MANAGER" {print $2}' "$work/cut.csv" | tr '\n' ,)" = "host1,"
check "link cut: the series reached its end ('End Test)" test "$(tail -n1 "$work/cut.csv")" = "'End Test"
check "link cut: host2's agent stops its I/O on its own within the deadline plus 2 s (${io_stop_ms:-never} ms)" \
  test "${io_stop_ms:-99999}" -lt 7000
check "link cut: host2's agent names the silent controller" wait_for "$work/agent2.log" "silent for .*declared dead" 10

ip link set "iomk2-$suffix" up
timeout 60 "$iomark" run --manager 10.77.2.2:1066 --key-file "$work/key" --target "$work/data" \
  --spec "4K random read" --qd 1 --time 1 --size 16M --results "$work/back.csv" >/dev/null 2>"$work/back.err"
check "link back: host2 serves a new series (status $?)" test "$(tail -n1 "$work/back.csv")" = "'End Test"
check "host1's agent ends on SIGTERM within 5 s" stop_cleanly "$agent_pid_1"
check "host2's agent ends on SIGTERM within 5 s" stop_cleanly "$agent_pid_2"
finish netns
