#!/usr/bin/env bash
# Several hosts on one machine: two network namespaces joined to this one by veth pairs
# (10.77.N.1 here, 10.77.N.2 inside), an agent listening in each, the controller dialling
# both from here. Needs root and iproute2; otherwise it says why and counts as skipped.
# Every address used is one this test creates; everything is removed at exit.
# usage: netns_test.sh IOMARK IOMARK_AGENT
set -uo pipefail
iomark=$1 agent=$2
if ((EUID != 0)) || ! command -v ip >/dev/null; then
  echo "netns: skipped: needs root and iproute2 to create network namespaces"
  exit 77
fi
work=$(mktemp -d)
suffix=$$
namespaces=() pids=()
cleanup() {
  for pid in "${pids[@]}"; do kill "$pid" 2>/dev/null; done
  for pid in "${pids[@]}"; do wait "$pid" 2>/dev/null; done
  for ns in "${namespaces[@]}"; do ip netns delete "$ns" 2>/dev/null; done
  for n in 1 2; do ip link delete "iomk$n-$suffix" 2>/dev/null; done
  rm -rf "$work"
}
trap cleanup EXIT
passed=0 failed=0
check() {
  local name=$1
  shift
  if "$@"; then passed=$((passed + 1)); else echo "FAIL $name"; failed=$((failed + 1)); fi
}

head -c 48 /dev/urandom | base64 >"$work/key" && chmod 600 "$work/key"
mkdir "$work/data"
managers=()
for n in 1 2; do
  ns=iomark-test-$n-$suffix
  here=iomk$n-$suffix there=iomk$n-p$suffix
  ip netns add "$ns" || { echo "netns: cannot create a namespace"; exit 1; }
  namespaces+=("$ns")
  ip link add "$here" type veth peer name "$there" && ip link set "$there" netns "$ns" || exit 1
  ip addr add "10.77.$n.1/24" dev "$here" && ip link set "$here" up
  ip netns exec "$ns" ip addr add "10.77.$n.2/24" dev "$there"
  ip netns exec "$ns" ip link set "$there" up
  ip netns exec "$ns" ip link set lo up
  ip netns exec "$ns" "$agent" --listen "10.77.$n.2:1066" -n "host$n" --key-file "$work/key" \
    --allow "$work/data" >"$work/agent$n.log" 2>&1 &
  pids+=($!)
  managers+=(--manager "10.77.$n.2:1066")
done
for _ in $(seq 1 50); do
  grep -q "listening" "$work/agent1.log" && grep -q "listening" "$work/agent2.log" && break
  sleep 0.1
done

timeout 120 "$iomark" run "${managers[@]}" --key-file "$work/key" --target "$work/data" --spec "4K random read" \
  --qd 1,4 --time 2 --size 16M --results "$work/results.csv" >"$work/run.out" 2>"$work/run.err"
status=$?
check "controller exits 0 (got $status: $(tail -2 "$work/run.err"))" test "$status" -eq 0
check "both hosts answered from their own addresses" grep -q "10.77.2.2:1066" "$work/run.err"
check "two MANAGER rows per run" test "$(awk -F, '$1 == "MANAGER"' "$work/results.csv" | wc -l)" = 4
check "ALL counts 2 managers" test "$(awk -F, '$1 == "ALL" {print $4}' "$work/results.csv" | sort -u)" = 2
check "agents saw the controller from the namespace link" grep -q "10.77.1.1" "$work/agent1.log"

# A host whose link goes down mid-run is declared dead within the deadline, not a hang.
( sleep 3; ip link set "iomk2-$suffix" down ) &
pids+=($!)
start=$(date +%s)
timeout 120 "$iomark" run "${managers[@]}" --key-file "$work/key" --target "$work/data" --qd 1 --time 30 \
  --size 16M --results "$work/cut.csv" >/dev/null 2>"$work/cut.err"
status=$?
elapsed=$(($(date +%s) - start))
check "link cut: the series fails (exit $status)" test "$status" -ne 0
check "link cut: named error for host2" grep -q "host2" "$work/cut.err"
check "link cut: detected within 20 s, not at the 30 s run end (${elapsed}s)" test "$elapsed" -lt 25
check "link cut: the run is marked Aborted test" test "$(tail -n1 "$work/cut.csv")" = "Aborted test"

echo "netns: $passed passed, $failed failed"
((failed == 0))
