#!/usr/bin/env bash
# The run history survives a controller killed mid-series: two real agents on 127.0.0.1, a
# six-run series recording into --history, SIGKILL once two runs are in the database. The
# file must then open, pass SQLite's integrity check and hold every run that completed
# (and nothing of the run in progress); a later series records into the same file.
# usage: history_kill_test.sh IOMARK IOMARK_AGENT
set -uo pipefail
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"
command -v sqlite3 >/dev/null || { echo "SKIP: the sqlite3 shell is not installed (./dev installs it)"; exit 77; }

start_agent agentA || exit 1
start_agent agentB || exit 1
db=$work/history.sqlite
managers=(--manager "127.0.0.1:$port_agentA" --manager "127.0.0.1:$port_agentB" --key-file "$work/key")

# completed_runs: what `iomark history list` counts as recorded and ok (0 while the file is new).
completed_runs() { "$iomark" history --history "$db" list 2>/dev/null | grep -c ' ok$'; }

"$iomark" run "${managers[@]}" --target "$work/data" --spec "4K random read" --qd 1,2,4,8,16,32 --time 1 \
  --size 16M --results "" --history "$db" >"$work/run.out" 2>"$work/run.err" &
controller=$!
pids+=("$controller")
end=$(($(now_ms) + 60000))
while (($(completed_runs) < 2)) && (($(now_ms) < end)) && kill -0 "$controller" 2>/dev/null; do sleep 0.05; done
seen=$(completed_runs)
kill -KILL "$controller"
wait "$controller" 2>/dev/null
check "two runs were recorded before the kill (saw $seen)" test "$seen" -ge 2
check "the controller was killed mid-series (run 6 not recorded)" test "$seen" -lt 6

check "the database passes SQLite's integrity check" test "$(sqlite3 "$db" 'PRAGMA integrity_check')" = ok
"$iomark" history list --history "$db" >"$work/list.out" 2>"$work/list.err"
check "history list reads the file after the kill ($(cat "$work/list.err"))" test $? -eq 0
after=$(grep -c ' ok$' "$work/list.out")
check "every run seen before the kill is still there ($seen before, $after after)" test "$after" -ge "$seen"
check "only completed runs: no run in progress left half-written" test "$after" -lt 6
check "the runs are positions 1..$after of one series" \
  test "$(sqlite3 "$db" 'SELECT group_concat(position) FROM (SELECT position FROM runs ORDER BY position)')" = \
  "$(seq -s, 1 "$after")"
check "no half-written hosts: two per run" \
  test "$(sqlite3 "$db" 'SELECT count(*) FROM run_hosts')" = $((after * 2))
"$iomark" history --history "$db" show 1 >"$work/show.out" 2>&1
check "show names both agents with their inventory" \
  grep -Eq '^agentA +Linux' "$work/show.out"
check "show has the manager figures" grep -Eq '^agentB +1 +[0-9]+' "$work/show.out"

# The file takes later series, and compare judges runs across them.
again() {
  timeout 120 "$iomark" run "${managers[@]}" --target "$work/data" --spec "4K random read" --qd 1 --time 1 \
    --size 16M --results "" --history "$db" >"$work/again.out" 2>"$work/again.err"
}
again
check "a later series records into the same file" grep -q "1 run(s) recorded in the history" "$work/again.out"
last=$(sqlite3 "$db" 'SELECT max(id) FROM runs')
"$iomark" history --history "$db" compare 1 "$last" >"$work/compare.out" 2>&1
check "compare of two lone QD 1 runs: no repeats to judge by (each is not the other's repeat)" \
  grep -q "^IOPS .*no repeated runs to judge by" "$work/compare.out"
again
last=$(sqlite3 "$db" 'SELECT max(id) FROM runs')
"$iomark" history --history "$db" compare 1 "$last" >"$work/compare.out" 2>&1
check "compare runs 1 and $last: one more QD 1 run counts as a repeat" \
  grep -q "2 run(s) with this spec, QD and hosts (run $last not counted)" "$work/compare.out"
check "compare prints the IOPS delta, the variation and a verdict" \
  grep -Eq '^IOPS .* [+-]?[0-9]+\.[0-9]+ +[0-9]+\.[0-9]+ +(within|exceeds) run-to-run variation' "$work/compare.out"
cat "$work/compare.out"
"$iomark" history --history "$work/missing.sqlite" list >/dev/null 2>"$work/missing.err"
check "list on a missing database: exit 3, named, and no file left behind" \
  test $? -eq 3 -a ! -e "$work/missing.sqlite" -a -n "$(grep -F "$work/missing.sqlite" "$work/missing.err")"
finish history_kill
