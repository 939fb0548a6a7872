#!/usr/bin/env bash
# A real iomark-agent reports in its inventory what `auto` measured. Before any run
# `iomark agents` says no choice was measured; after a QD 1 and a QD 4 series with the default
# engine (auto) on a test file, it lists that file with the engines that read there and the
# choice per depth and read size with its reason, in the table and in --json.
# usage: agents_inventory_test.sh IOMARK IOMARK_AGENT
set -uo pipefail
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"

start_agent agentA || exit 1
manager=(--manager "127.0.0.1:$port_agentA" --key-file "$work/key")

timeout 60 "$iomark" agents "${manager[@]}" >"$work/before.out" 2>"$work/before.err"
status=$?
check "agents exits 0 before a run (got $status: $(tail -2 "$work/before.err"))" test "$status" -eq 0
check "the manager is listed with its engines" grep -Eq "^manager 'agentA' .*CPUs" "$work/before.out"
check "engines line names sync" grep -Eq "^  engines: .*sync" "$work/before.out"
check "no choice measured before a run" grep -q "engine choices: none measured yet" "$work/before.out"

timeout 120 "$iomark" run "${manager[@]}" --target "$work/data" --spec "4K random read" --qd 1,4 --time 1 --size 8M \
  --results "$work/results.csv" >"$work/run.out" 2>"$work/run.err"
status=$?
check "the auto series exits 0 (got $status: $(tail -2 "$work/run.err"))" test "$status" -eq 0

timeout 60 "$iomark" agents "${manager[@]}" --json "$work/agents.json" >"$work/after.out" 2>"$work/after.err"
status=$?
check "agents exits 0 after the run (got $status: $(tail -2 "$work/after.err"))" test "$status" -eq 0
test_file=$(readlink -f "$work/data")/iobw.tst
check "the table lists the test file at QD 1" grep -Eq "^    $test_file +[a-z_, -]*sync[a-z_, -]* +1 +4 KiB +[a-z_-]+ +[a-z_-]+.* at depth 1: " "$work/after.out"
check "the table lists the test file at QD 4" grep -Eq "^    $test_file .* +4 +4 KiB +[a-z_-]+ +.* at depth 4: " "$work/after.out"
json_check() { python3 -c "import json, sys; d = json.load(open(sys.argv[1])); sys.exit(0 if ($1) else 1)" "$work/agents.json"; }
check "JSON names the manager" json_check "d['managers'][0]['name'] == 'agentA'"
check "JSON has one measured target, the test file" \
  json_check "[t['path'] for t in d['managers'][0]['target_engines']] == ['$test_file']"
check "JSON choices at depths 1 and 4, 4 KiB reads" \
  json_check "[(c['queue_depth'], c['block_bytes']) for c in d['managers'][0]['target_engines'][0]['choices']] == [(1, 4096), (4, 4096)]"
check "JSON: each chosen engine read there and its reason starts with it" \
  json_check "all(c['engine'] in t['usable_engines'] and c['reason'].startswith(c['engine']) for t in d['managers'][0]['target_engines'] for c in t['choices'])"
check "JSON: sync is usable on a file" json_check "'sync' in d['managers'][0]['target_engines'][0]['usable_engines']"

timeout 60 "$iomark" agents "${manager[@]}" --json - >"$work/stdout.json" 2>/dev/null
check "--json - prints only JSON" python3 -c "import json, sys; json.load(open(sys.argv[1]))" "$work/stdout.json"

finish agents_inventory
