#!/usr/bin/env bash
# Network workers between two real agents on 127.0.0.1: a quick pair from
# --network-pair, the project's own plan with Test Connection Rate (4 transactions per
# connection: the counts of connections must say so), the corpus plan (one manager serving
# itself) where ../shared is present, and a client agent killed mid-run (a named error).
# usage: network_pair_test.sh IOMARK IOMARK_AGENT PLAN.icf [CORPUS_PLAN.icf]
set -uo pipefail
iomark=$1 agent=$2 plan=$3 corpus_plan=${4:-}
source "$(dirname "$0")/harness.sh"

start_agent srvA || exit 1
start_agent cliB || exit 1
managers=(--manager "127.0.0.1:$port_srvA" --manager "127.0.0.1:$port_cliB" --key-file "$work/key")
field() { awk -F, -v row="$2" -v col="$3" '$1 == row {print $col}' "$1"; }

# 1. A quick pair: 64 KiB, all reads (the server receives, the client sends).
timeout 60 "$iomark" run "${managers[@]}" --network-pair srvA@127.0.0.1:cliB@127.0.0.1 \
  --spec-line 65536,100,100,0,0,1,0,0 --time 2 --results "$work/quick.csv" >"$work/quick.out" 2>"$work/quick.err"
status=$?
csv=$work/quick.csv
check "quick pair: controller exits 0 (got $status: $(tail -2 "$work/quick.err"))" test "$status" -eq 0
check "quick pair: two NETWORK rows, named as IOmeter does" \
  test "$(field "$csv" NETWORK 2 | sort | tr '\n' ,)" = "cliB:127.0.0.1 >> srvA:127.0.0.1,srvA:127.0.0.1 >> cliB:127.0.0.1,"
check "quick pair: NETWORK rows have IOmeter's 80 fields plus iomark's data pattern" test "$(awk -F, '$1 == "NETWORK" && NF == 81' "$csv" | wc -l)" = 2
check "quick pair: both ends count reads only" \
  test "$(awk -F, '$1 == "NETWORK" && $33 > 0 && $34 == 0' "$csv" | wc -l)" = 2
check "quick pair: the client worker is named after its server" grep -q "^WORKER,Network srvA >> cliB (client)," "$csv"
read -r server_bytes client_bytes < <(awk -F, '$1 == "NETWORK" {b[$2 ~ /^srvA/ ? 0 : 1] = $31} END {print b[0], b[1]}' "$csv")
check "quick pair: the server received about what the client sent ($server_bytes vs $client_bytes)" \
  awk -v s="$server_bytes" -v c="$client_bytes" 'BEGIN {exit !(s > 0 && s >= 0.9 * c && s <= 1.1 * c)}'
check "quick pair: ALL counts 2 managers" test "$(field "$csv" ALL 4)" = 2
measured "quick pair: $(field "$csv" ALL 14 | head -1) MB/s read counted at both ends (wire: half that)"
check "quick pair without addresses: the controller picks them from the agents' interfaces" \
  "$iomark" run "${managers[@]}" --network-pair srvA:cliB --spec-line 512,100,100,0,0,1,0,0 --time 1 --results "" >/dev/null 2>&1

# 2. The project's plan: 512 B request + 512 B reply, 4 transactions per connection.
timeout 60 "$iomark" run "$plan" "${managers[@]}" --map srv=srvA --map cli=cliB --results "$work/plan.csv" \
  >"$work/plan.out" 2>"$work/plan.err"
status=$?
csv=$work/plan.csv
check "plan: controller exits 0 (got $status: $(tail -2 "$work/plan.err"))" test "$status" -eq 0
read -r transactions connections < <(awk -F, '$1 == "NETWORK" && $2 ~ /^srvA/ {print $16, $35}' "$csv")
check "plan: connections were counted ($connections)" test "${connections:-0}" -gt 10
check "plan: four transactions per connection (${transactions}/s vs ${connections} connections)" \
  awk -F, '$1 == "NETWORK" && $2 ~ /^srvA/ {t = $16 * ($45 / 1e9); slack = 4 * $35 / 100; if (slack < 8) slack = 8
    exit !(t >= 4 * $35 - slack && t <= 4 * $35 + slack)}' "$csv"
check "plan: Transactions per Connection column says 4" test "$(field "$csv" WORKER 36 | sort -u)" = 4
# (the window's edges may cut one transaction between its request and its reply)
check "plan: a reply makes two I/Os per transaction" \
  awk -F, '$1 == "NETWORK" && $2 ~ /^srvA/ {exit !(($33 - $34)^2 <= 1 && $33 > 0)}' "$csv"

# 3. The corpus plan: TESTMGR serves its own 127.0.0.1 (server and client on one agent).
if [[ -n $corpus_plan && -f $corpus_plan ]]; then
  timeout 60 "$iomark" run "$corpus_plan" --manager "127.0.0.1:$port_srvA" --key-file "$work/key" --time 2 \
    --results "$work/corpus.csv" >"$work/corpus.out" 2>"$work/corpus.err"
  status=$?
  check "corpus plan: controller exits 0 (got $status: $(tail -2 "$work/corpus.err"))" test "$status" -eq 0
  check "corpus plan: a server and its client, both on srvA" \
    test "$(field "$work/corpus.csv" NETWORK 2 | tr '\n' ,)" = "srvA:127.0.0.1 >> srvA:127.0.0.1,srvA:127.0.0.1 >> srvA:127.0.0.1,"
  check "corpus plan: 4 KiB reads moved" awk -F, '$1 == "ALL" {exit !($33 > 0)}' "$work/corpus.csv"
else
  echo "corpus plan: skipped: ${corpus_plan:-../shared/icf-corpus} is missing"
fi

# 4. The client's agent killed mid-run: a named error, the run recorded as failed.
"$iomark" run "${managers[@]}" --network-pair srvA@127.0.0.1:cliB@127.0.0.1 --spec-line 65536,100,100,0,0,1,0,0 \
  --time 8 --results "$work/kill.csv" >"$work/kill.out" 2>"$work/kill.err" &
controller=$!
pids+=("$controller")
wait_for "$work/kill.err" "^run 1/1" 30 && sleep 2
kill -KILL "$pid_cliB"
wait_exit "$controller" 30
check "peer killed: the controller ends with 1 (got $exit_status)" test "$exit_status" -eq 1
check "peer killed: the run is marked failed" grep -q "^ERROR: run 1 of 1" "$work/kill.csv"
check "peer killed: the error names the lost agent or the vanished peer" \
  grep -Eq "cliB|the peer 127.0.0.1 closed the connection mid-run" "$work/kill.csv"
check "srvA's agent ends on SIGTERM within 5 s" stop_cleanly "$pid_srvA"
finish network_pair
