#!/usr/bin/env bash
# Numbers no measurement has, given to the commands that read results files: `report`,
# `results show` and `history import` refuse each with exit 3 and FILE:LINE, and the history
# stores nothing of it (docs/results-format.md, "Limits"). These once crashed the report
# (SIGSEGV on -inf), hung it (a constant -1e17), aborted it (JSON -1e400) and stored -inf.
# usage: hostile_numbers_test.sh IOMARK
set -uo pipefail
iomark=$1
agent=""
source "$(dirname "$0")/harness.sh"
command -v sqlite3 >/dev/null || { echo "SKIP: the sqlite3 shell is not installed (./dev installs it)"; exit 77; }

header="'Test Type,Test Description
0,x
'Version
1.1.0
'Results
'Target Type,Target Name,Access Specification Name,IOps,MBps (Decimal),Average Response Time,Maximum Response Time,Queue Depth,% CPU Utilization"
# case NAME LINE ROW...: a results.csv whose row on LINE holds the value.
write_csv() { local file=$1; shift; { echo "$header"; printf '%s\n' "$@"; } >"$file"; }
write_csv "$work/minus-inf.csv" "ALL,All,s,-inf,1,1,1,1,1"
write_csv "$work/nan-latency.csv" "ALL,All,s,100,1,nan,1,1,1"
write_csv "$work/inf-depth.csv" "ALL,All,s,100,1,1,1,inf,1"
write_csv "$work/constant.csv" "ALL,All,s,-1e17,1,1,1,1,1" "ALL,All,s,-1e17,1,1,1,2,1"
printf '{"format": "iomark-results", "format_version": 1,\n "runs": [-1e400]}\n' >"$work/overflow.json"

for file in minus-inf.csv:7 nan-latency.csv:7 inf-depth.csv:7 constant.csv:7 overflow.json:2; do
  name=${file%%:*} line=${file##*:}
  for command in "report $work/$name -o $work/report.html" "results show $work/$name" \
                 "history --history $work/history.sqlite import $work/$name"; do
    [[ $name == *.json && $command == history* ]] && continue  # import reads results.csv only
    [[ $name == *.json && $command == results* ]] && continue
    # shellcheck disable=SC2086 # the command is split into words on purpose
    timeout 60 "$iomark" $command >"$work/out" 2>"$work/err"
    got=$?
    check "$name: '${command%% *}' exits 3 (got $got)" test "$got" -eq 3
    check "$name: '${command%% *}' names $name:$line" grep -qF "$name:$line" "$work/err"
    check "$name: no report written" test ! -e "$work/report.html"
  done
done
check "the history holds no run of any refused file" \
  test "$(sqlite3 "$work/history.sqlite" 'SELECT count(*) FROM runs' 2>/dev/null || echo 0)" -eq 0
finish hostile_numbers
