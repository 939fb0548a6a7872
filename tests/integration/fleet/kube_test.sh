#!/usr/bin/env bash
# deploy/kubernetes under `podman kube play`: the controller Job's pod and five agent pods
# (the StatefulSet's four, each on its own claim, and the DaemonSet's one on a host
# directory) on a podman network of this test's own. The agents dial the controller by its
# Service name, the Job runs a short quick series on every agent's /data and writes
# results.csv, JSON, the HTML report and the history to its results claim; /metrics answers
# while it runs. kube_pods.py says what stands in for the cluster (a Service, a Secret).
# usage: kube_test.sh IMAGE    (./dev fleet-test builds the image first)
set -uo pipefail
image=${1:?usage: kube_test.sh IMAGE}
here=$(cd "$(dirname "$0")" && pwd)
manifests=$here/../../../deploy/kubernetes
source "$here/podman_env.sh"

net=iomark-kube-$$ subnet=10.90.$((RANDOM % 200 + 20)).0/24
controller_ip=${subnet%.0/24}.10
node=node1
agents_expected=5
make_network "$net" "$subnet" || { echo "FAIL cannot make the podman network $net"; exit 1; }

# The key, as the kubelet mounts the Secret: a file mode 0440 of group 10066.
mkdir -p "$fleet_work/key"
head -c 32 /dev/urandom | base64 >"$fleet_work/key/key"
chgrp 10066 "$fleet_work/key/key" && chmod 0440 "$fleet_work/key/key"

pods=$(python3 "$here/kube_pods.py" "$manifests" "$fleet_work/play" --image "$image" \
  --key-dir "$fleet_work/key" --controller-ip "$controller_ip" --node "$node" \
  --hostpath-root "$fleet_work/hostpath" \
  --controller-arg=--wait-managers=$agents_expected --controller-arg=--wait-timeout=180 \
  --controller-arg=--size=64M --controller-arg=--qd=1,4 --controller-arg=--ramp=0 \
  --controller-arg=--time=3) || { echo "FAIL kube_pods.py"; exit 1; }
# A host directory stands for the node's /var/lib/iomark, made as the kubelet makes a
# DirectoryOrCreate hostPath: root's, mode 0755 (the DaemonSet's init container gives it to 10066).
log "agent pods: $pods"
check "the manifests give at least 4 agent pods" test "$(wc -w <<<"$pods")" -ge 4

on_exit podman kube down "$fleet_work/play/agents.yaml"
on_exit podman kube down "$fleet_work/play/controller.yaml"
on_exit podman volume rm -f iomark-results
for pod in $pods; do on_exit podman volume rm -f "data-$pod"; done

started=$SECONDS
podman kube play --network "$net" --ip "$controller_ip" "$fleet_work/play/controller.yaml" >"$fleet_work/play-controller.out" 2>&1
check "podman kube play starts the controller Job's pod" test $? -eq 0
podman kube play --network "$net" "$fleet_work/play/agents.yaml" >"$fleet_work/play-agents.out" 2>&1
check "podman kube play starts the agent pods" test $? -eq 0 || cat "$fleet_work/play-agents.out"

# /metrics on 9108 while the series runs (the Service's scrape port).
metrics=0
for _ in $(seq 1 600); do
  if curl -fsS --max-time 1 "http://$controller_ip:9108/metrics" >"$fleet_work/metrics.txt" 2>/dev/null &&
    grep -q '^iomark_' "$fleet_work/metrics.txt"; then
    metrics=1
    break
  fi
  [[ $(podman inspect --format '{{.State.Running}}' iomark-series-controller 2>/dev/null) == true ]] || break
  sleep 0.2
done
check "the controller serves iomark_* metrics on :9108 while it runs" test "$metrics" = 1

status=$(timeout 300 podman wait iomark-series-controller)
log "the controller Job's pod ended with $status after $((SECONDS - started)) s"
podman logs iomark-series-controller >"$fleet_work/controller.log" 2>&1
check "the controller exits 0 (got $status)" test "$status" = 0 || tail -20 "$fleet_work/controller.log"

results=$(podman volume inspect --format '{{.Mountpoint}}' iomark-results)
csv=$results/results.csv
check "results.csv is on the results claim" test -s "$csv"
check "results.json, report.html and history.sqlite are on it too" \
  test -s "$results/results.json" -a -s "$results/report.html" -a -s "$results/history.sqlite"
check "they belong to the image's user 10066" test "$(stat -c %u "$csv")" = 10066
names=$(awk -F, '$1 == "MANAGER" {print $2}' "$csv" | sort -u | tr '\n' ' ')
log "managers in results.csv: $names"
for pod in $pods; do
  expected=$pod
  [[ $pod == iomark-agent-node-* ]] && expected=$node
  check "results.csv has agent $expected" grep -qw -- "$expected" <<<"$names"
done
check "results.csv counts $agents_expected managers in every ALL row" \
  test "$(awk -F, '$1 == "ALL" {print $4}' "$csv" | sort -u)" = "$agents_expected"
check "two runs (QD 1 and 4), each with I/O and no errors" \
  test "$(awk -F, '$1 == "ALL" && $7 > 0 && $28 == 0' "$csv" | wc -l)" = 2
check "every claim holds its agent's iobw.tst" \
  test "$(for pod in $pods; do [[ $pod == *pvc* ]] && ls "$(podman volume inspect --format '{{.Mountpoint}}' "data-$pod")/iobw.tst"; done 2>/dev/null | wc -l)" = 4
check "the node-local directory holds the DaemonSet agent's iobw.tst" \
  test -f "$fleet_work/hostpath/iomark-agent-node-$node/data/iobw.tst"

# The agents: user 10066 with no capabilities, nothing listening, still up after the Job.
for pod in $pods; do
  c=$pod-agent
  check "$c runs" test "$(podman inspect --format '{{.State.Running}}' "$c")" = true
  check "$c runs as 10066 with no capabilities" \
    test "$(podman exec "$c" sh -c 'id -u; grep ^CapEff /proc/1/status' | tr -s '\t\n' ' ')" = "10066 CapEff: 0000000000000000 "
  # /proc/net/tcp{,6} state 0A is LISTEN.
  check "$c listens on no port" \
    test "$(podman exec "$c" sh -c 'cat /proc/net/tcp /proc/net/tcp6 2>/dev/null' | awk '$4 == "0A"' | wc -l)" = 0
done
podman logs "iomark-agent-pvc-0-agent" >"$fleet_work/agent.log" 2>&1
agent_log_shows_runs() { grep -q 'authenticated' "$1" && grep -q 'I/O started' "$1"; }
check "an agent's log (kubectl logs) shows its session and its runs" agent_log_shows_runs "$fleet_work/agent.log" ||
  tail -5 "$fleet_work/agent.log"
log "kube test took $((SECONDS - started)) s"
finish
