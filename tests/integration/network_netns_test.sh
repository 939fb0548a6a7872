#!/usr/bin/env bash
# Network workers between two "hosts": network namespaces A and B, each with an agent whose
# control link is a veth pair to this namespace (10.78.N.1 here, 10.78.N.2 inside), and a
# data link the test makes between them (veth A 10.79.0.1/24 <-> B 10.79.0.2/24). The
# controller pairs them without being told the addresses (the shared subnet), data flows
# over the data link only, and when that link is cut mid-run (no FIN ever comes) the server
# names the silent peer within its 5 s stall limit. Needs root and iproute2; otherwise it
# says why and counts as skipped. Every link and namespace is removed by name at exit.
# usage: network_netns_test.sh IOMARK IOMARK_AGENT
set -uo pipefail
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"
netns_require network_netns
suffix=$$

managers=()
for n in 1 2; do
  add_namespace "iomark-net-$n-$suffix" "iomn$n-$suffix" "iomn$n-p$suffix" "10.78.$n.1/24" "10.78.$n.2/24" ||
    { echo "network_netns: cannot create namespace $n"; exit 1; }
done
ns_a=${namespaces[0]} ns_b=${namespaces[1]}
# The data link, straight from A to B.
ip link add "iomd-$suffix" netns "$ns_a" type veth peer name "iomd-p$suffix" netns "$ns_b" || exit 1
ip netns exec "$ns_a" ip addr add 10.79.0.1/24 dev "iomd-$suffix"
ip netns exec "$ns_b" ip addr add 10.79.0.2/24 dev "iomd-p$suffix"
ip netns exec "$ns_a" ip link set "iomd-$suffix" up
ip netns exec "$ns_b" ip link set "iomd-p$suffix" up

for n in 1 2; do
  ip netns exec "${namespaces[n - 1]}" "$agent" --listen "10.78.$n.2:1066" -n "host$n" --key-file "$work/key" \
    --allow "$work/data" >"$work/agent$n.log" 2>&1 &
  pids+=($!)
  printf -v "agent_pid_$n" '%s' "$!"
  managers+=(--manager "10.78.$n.2:1066")
done
for n in 1 2; do
  if ! wait_for "$work/agent$n.log" "listening on 10.78.$n.2:1066" 10; then
    echo "network_netns: the agent in namespace $n did not start: $(cat "$work/agent$n.log")"
    exit 1
  fi
done
rx_bytes() { ip netns exec "$ns_b" cat "/sys/class/net/iomd-p$suffix/statistics/rx_bytes"; }

before=$(rx_bytes)
timeout 60 "$iomark" run "${managers[@]}" --key-file "$work/key" --network-pair host2:host1 \
  --spec-line 65536,100,100,0,0,1,0,0 --time 2 --results "$work/results.csv" >"$work/run.out" 2>"$work/run.err"
status=$?
csv=$work/results.csv
check "controller exits 0 (got $status: $(tail -2 "$work/run.err"))" test "$status" -eq 0
check "the pair found the shared subnet on its own" \
  test "$(awk -F, '$1 == "NETWORK" {print $2}' "$csv" | sort | tr '\n' ,)" = \
  "host1:10.79.0.1 >> host2:10.79.0.2,host2:10.79.0.2 >> host1:10.79.0.1,"
received=$(awk -F, '$1 == "NETWORK" && $2 ~ /^host2/ {print $31}' "$csv")
moved=$(($(rx_bytes) - before))
check "the data went over the data link ($moved bytes on it, $received counted)" \
  awk -v m="$moved" -v r="${received:-0}" 'BEGIN {exit !(r > 0 && m >= r)}'
measured "veth pair: $(awk -F, '$1 == "NETWORK" && $2 ~ /^host2/ {print $14}' "$csv") MB/s received by host2"

# The data link cut mid-run: no FIN, no RST; the server's stall limit names the peer.
"$iomark" run "${managers[@]}" --key-file "$work/key" --network-pair host2:host1 \
  --spec-line 65536,100,100,0,0,1,0,0 --time 15 --results "$work/cut.csv" >"$work/cut.out" 2>"$work/cut.err" &
controller=$!
pids+=("$controller")
wait_for "$work/cut.err" "^run 1/1" 30 && sleep 2
t0=$(now_ms)
ip netns exec "$ns_a" ip link set "iomd-$suffix" down
wait_exit "$controller" 30
detected=$(($(now_ms) - t0))
measured "data link cut: the run failed ${detected} ms after the cut (stall limit 5000 ms)"
check "link cut: the controller ends with 1 (got $exit_status)" test "$exit_status" -eq 1
# Both ends stall (the client's sends fill the socket buffer): whichever the controller hears
# first names its own target and the silent peer.
check "link cut: the error names the silent peer and the target" \
  grep -Eq "target host([12]):10.79.0.[12] >> host[12]:10.79.0.[12]: no data moved to or from the peer 10.79.0.[12] for 5 s" \
  "$work/cut.csv"
check "link cut: detected within the stall limit plus 3 s" test "$detected" -lt 8000
check "host1's agent ends on SIGTERM within 5 s" stop_cleanly "$agent_pid_1"
check "host2's agent ends on SIGTERM within 5 s" stop_cleanly "$agent_pid_2"
finish network_netns
