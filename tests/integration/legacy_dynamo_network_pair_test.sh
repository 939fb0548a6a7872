#!/usr/bin/env bash
# Two real Dynamo 1.1.0 processes (built from ../shared), dyn1 on 127.0.0.1 and dyn2 on
# 127.0.0.2, log in to `iomark run PLAN --legacy-dynamo` and run a network pair as IOmeter's
# GUI pairs them (docs/iometer-reference.md#wire-commands): the server worker on dyn1, its client on
# dyn2, both on the loopback NIC the Dynamos report, 64 KiB then 512 B sent by the client, 4
# transactions per connection. (No reply: with replies and Test Connection Rate, Dynamo 1.1.0 on
# Linux can hang in STOP, docs/iometer-interop.md says why.) The NETWORK rows must
# show traffic counted alike at both ends and the connections the setting implies. The same
# pair from --network-pair; then a pair of a Dynamo and an iomark agent is refused, naming both.
# usage: legacy_dynamo_network_pair_test.sh IOMARK IOMARK_AGENT DYNAMO PLAN.icf   (exit 77: no
# Dynamo)
set -uo pipefail
iomark=$1 agent=$2 dynamo=$3 plan=$4
if [[ ! -x $dynamo ]]; then
  echo "skipped: no Dynamo binary at $dynamo (needs ../shared/tools/build-dynamo and ../shared/third-party/iometer-1.1.0-dynamo)"
  exit 77
fi
source "$(dirname "$0")/harness.sh"

# Dynamo also lists the disks it sees; an empty mount table keeps it from probing ours.
: >"$work/mtab"

# start_controller NAME ARGS...: iomark run with Dynamo logins on 127.0.0.1:0; sets ctl_pid and
# dyn_port once it listens.
start_controller() {
  local name=$1
  shift
  : >"$work/$name.err"
  timeout 120 "$iomark" run "$@" --legacy-dynamo 127.0.0.1:0 --key-file "$work/key" --wait-timeout 30 \
    >"$work/$name.out" 2>"$work/$name.err" &
  ctl_pid=$!
  pids+=("$ctl_pid")
  wait_for "$work/$name.err" "Dynamo logins on 127.0.0.1:[0-9]+" 10 || { echo "controller: $(cat "$work/$name.err")"; return 1; }
  dyn_port=$(sed -n 's/.*Dynamo logins on 127.0.0.1:\([0-9]*\).*/\1/p' "$work/$name.err" | head -1)
}

# start_dynamo NAME ADDRESS: the real Dynamo logging in to the controller from ADDRESS.
start_dynamo() {
  MNTTAB=$work/mtab "$dynamo" -i 127.0.0.1 -p "$dyn_port" -m "$2" -n "$1" >"$work/$1.log" 2>&1 &
  pids+=($!)
}

# ---- 1. The plan: dyn1 serves, dyn2 connects ------------------------------------------------
start_controller pair "$plan" --wait-managers 2 --results "$work/results.csv" --json "$work/results.json" || exit 1
start_dynamo dyn1 127.0.0.1
start_dynamo dyn2 127.0.0.2
wait_exit "$ctl_pid" 90
check "pair: controller exits 0 (got $exit_status: $(tail -3 "$work/pair.err"))" test "$exit_status" -eq 0
csv=$work/results.csv
# NETWORK rows leave the access spec column empty: a run's spec is its ALL row's, which
# comes first. network END SPEC COLUMN: COLUMN of the server (srv) or client (cli) end's
# NETWORK row in the run of the access spec whose name starts with SPEC.
network_rows() {
  awk -F, '$1 == "ALL" {spec = $3} $1 == "NETWORK" {$3 = spec; print}' OFS=, "$csv"
}
network() {
  network_rows | awk -F, -v end="$1" -v spec="$2" -v col="$3" '
    $3 ~ "^" spec && $2 ~ (end == "srv" ? "^dyn1:" : "^dyn2:") {print $col}'
}
check "pair: two runs, each with the two ends' NETWORK rows, named as IOmeter does" \
  test "$(network_rows | awk -F, '{print $3 "|" $2}' | sort | tr '\n' ,)" = \
  "512 B sent by the client|dyn1:127.0.0.1 >> dyn2:127.0.0.1,512 B sent by the client|dyn2:127.0.0.1 >> dyn1:127.0.0.1,64 KiB sent by the client|dyn1:127.0.0.1 >> dyn2:127.0.0.1,64 KiB sent by the client|dyn2:127.0.0.1 >> dyn1:127.0.0.1,"
# Transactions in the window: Transactions per Second (16) x Total Raw Run Time (45) in the
# Dynamo's ticks / its timer resolution (54).
transactions() { network "$1" "$2" 0 | awk -F, '{printf "%.0f\n", $16 * $45 / $54}'; }
for spec in "64 KiB" "512 B"; do
  srv_t=$(transactions srv "$spec") cli_t=$(transactions cli "$spec")
  check "$spec: the server counted transactions ($srv_t)" test "${srv_t:-0}" -gt 0
  check "$spec: both ends counted the same transactions within 5% ($srv_t vs $cli_t)" \
    awk -v s="${srv_t:-0}" -v c="${cli_t:-0}" 'BEGIN {exit !(s > 0 && c >= 0.95 * s && c <= 1.05 * s)}'
  srv_c=$(network srv "$spec" 35) cli_c=$(network cli "$spec" 35)
  check "$spec: connections were counted at both ends ($srv_c, $cli_c)" test "${srv_c:-0}" -gt 0 -a "${cli_c:-0}" -gt 0
  # A window cuts at most one connection short at each edge.
  check "$spec: four transactions per connection ($srv_t transactions, $srv_c connections)" \
    awk -v t="${srv_t:-0}" -v c="${srv_c:-0}" 'BEGIN {slack = 4 * c / 100; if (slack < 8) slack = 8
      exit !(c > 0 && t >= 4 * c - slack && t <= 4 * c + slack)}'
  check "$spec: no errors at either end" test "$(network srv "$spec" 28)$(network cli "$spec" 28)" = 00
  measured "$spec: server end $(network srv "$spec" 13) MB/s, $(network srv "$spec" 16) transactions/s," \
    "$srv_t transactions in $srv_c connections; client end $(network cli "$spec" 13) MB/s, $cli_t transactions"
  # Each end records from its own RECORD_ON to its own RECORD_OFF, sent one Dynamo after the
  # other (tens of ms apart on a loaded host).
  check "$spec: the server received what the client sent, within 5%, and sent nothing" \
    awk -v r="$(network srv "$spec" 31)" -v s="$(network cli "$spec" 32)" -v w="$(network srv "$spec" 32)" \
      'BEGIN {exit !(r > 0 && r >= 0.95 * s && r <= 1.05 * s && w == 0)}'
done
check "Transactions per Connection column says 4" \
  test "$(awk -F, '$1 == "WORKER" {print $36}' "$csv" | sort -u)" = 4
check "JSON: both runs have the two network targets" \
  jq -e '[.runs[] | [.managers[].workers[].targets[] | select(.kind == "network")] | length] == [2, 2]' \
  "$work/results.json" >/dev/null

# ---- 2. The same pair from the command line ------------------------------------------------------
start_controller quick --wait-managers 2 --network-pair dyn1@127.0.0.1:dyn2@127.0.0.1 \
  --spec-line 65536,100,100,0,0,1,0,0 --time 1 --results "$work/quick.csv" || exit 1
start_dynamo dyn1 127.0.0.1
start_dynamo dyn2 127.0.0.2
wait_exit "$ctl_pid" 60
check "quick pair: controller exits 0 (got $exit_status: $(tail -3 "$work/quick.err"))" test "$exit_status" -eq 0
check "quick pair: both ends moved data" \
  test "$(awk -F, '$1 == "NETWORK" && $16 > 0 {print $2}' "$work/quick.csv" | sort | tr '\n' ,)" = \
  "dyn1:127.0.0.1 >> dyn2:127.0.0.1,dyn2:127.0.0.1 >> dyn1:127.0.0.1,"

# ---- 3. A Dynamo and an iomark agent cannot be ends of one pair --------------------------------
start_agent agentA || exit 1
start_controller mixed --manager "127.0.0.1:$port_agentA" \
  --network-pair dyn1@127.0.0.1:agentA@127.0.0.1 --spec-line 512,100,100,0,0,1,0,0 --time 1 --results "" || exit 1
start_dynamo dyn1 127.0.0.1
wait_exit "$ctl_pid" 60
check "mixed pair: refused (exit $exit_status)" test "$exit_status" -ne 0
check "mixed pair: the error names the Dynamo and the agent" \
  grep -q "'dyn1' is a Dynamo 1.1.0 and 'agentA' an iomark agent" "$work/mixed.err"

finish legacy_dynamo_network_pair
