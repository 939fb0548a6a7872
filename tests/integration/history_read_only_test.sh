#!/usr/bin/env bash
# Read commands never write (docs/history.md): `history list/show/compare` and `report --runs`
# open the database read-only and refuse, with exit 3 and the file named, whatever is not an
# iomark history, leaving it byte-identical; a database another process holds locked is
# exit 4 after a bounded wait. `history import` (a writer) refuses a foreign file unchanged.
# usage: history_read_only_test.sh IOMARK DATA_DIR
set -uo pipefail
iomark=$1 data=$2
agent=""
source "$(dirname "$0")/harness.sh"
command -v sqlite3 >/dev/null || { echo "SKIP: the sqlite3 shell is not installed (./dev installs it)"; exit 77; }

# expect_refused NAME FILE EXIT PATTERN: every read command on FILE exits EXIT, names FILE and
# matches PATTERN on stderr; FILE keeps every byte and gains no -wal/-shm/-journal beside it.
expect_refused() {
  local name=$1 file=$2 code=$3 pattern=$4
  cp -p "$file" "$work/before"
  local command
  for command in "history --history $file list" "history --history $file show 1" \
                 "history --history $file compare 1 2" "history list --db $file" \
                 "report --runs 1 --history $file -o $work/report.html" "history --history $file import $data/iomark_110_results.csv"; do
    # shellcheck disable=SC2086 # the command is split into words on purpose
    "$iomark" $command >"$work/out" 2>"$work/err"
    local got=$?
    check "$name: '$command' exits $code (got $got)" test "$got" -eq "$code"
    check "$name: '$command' names the file" grep -qF -- "$file" "$work/err"
    check "$name: '$command' says why ($pattern)" grep -Eq -- "$pattern" "$work/err"
    check "$name: '$command' leaves the file byte-identical" cmp -s "$file" "$work/before"
    check "$name: '$command' leaves no journal beside it" \
      test ! -e "$file-wal" -a ! -e "$file-shm" -a ! -e "$file-journal"
  done
  check "$name: no report was written" test ! -e "$work/report.html"
}

foreign=$work/foreign.sqlite
sqlite3 "$foreign" "CREATE TABLE customers (name TEXT); INSERT INTO customers VALUES ('ada');"
expect_refused "another program's database" "$foreign" 3 "not an iomark history"

empty=$work/empty.sqlite
: >"$empty"
# An empty file is a new history to a writer: leave import out of this case.
cp "$empty" "$work/before"
for command in "history --history $empty list" "history --history $empty show 1" \
               "report --runs 1 --history $empty -o $work/report.html"; do
  # shellcheck disable=SC2086
  "$iomark" $command >"$work/out" 2>"$work/err"
  got=$?
  check "0-byte file: '$command' exits 3 (got $got)" test "$got" -eq 3
  check "0-byte file: '$command' names the file and its size" grep -qF "$empty: an empty file (0 bytes)" "$work/err"
  check "0-byte file: '$command' leaves it at 0 bytes" test ! -s "$empty" -a ! -e "$empty-wal"
done

# A real history, imported, then given a user_version iomark never wrote.
history=$work/history.sqlite
"$iomark" history --history "$history" import "$data/iomark_110_results.csv" >"$work/out" 2>"$work/err"
check "import creates a history (exit $?)" grep -q "imported" "$work/out"
"$iomark" history --history "$history" list >"$work/list.out" 2>&1
check "list reads the history" grep -Eq '^[0-9]+ runs?$' "$work/list.out"
sqlite3 "$history" "PRAGMA journal_mode = DELETE" >/dev/null  # one file, so cmp sees everything
for version in -1 -400 -2147483648 0 99; do
  sqlite3 "$history" "PRAGMA user_version = $version"
  if ((version == 99)); then
    expect_refused "user_version $version" "$history" 3 "schema version 99; this iomark knows versions 1 to"
  else
    expect_refused "user_version $version" "$history" 3 "not an iomark history \\(SQLite user_version $version\\)"
  fi
done

# Locked: a sqlite3 shell holds an exclusive lock for 30 s (stopped by its PID below).
sqlite3 "$history" "PRAGMA user_version = 2"
fifo=$work/lock.fifo
mkfifo "$fifo"
sqlite3 "$history" <"$fifo" >/dev/null 2>&1 &
holder=$!
pids+=("$holder")
exec 9>"$fifo"
echo "PRAGMA locking_mode = EXCLUSIVE; BEGIN EXCLUSIVE; SELECT count(*) FROM runs;" >&9
end=$(($(now_ms) + 10000))
until ! sqlite3 "$history" "SELECT 1" >/dev/null 2>&1 || (($(now_ms) > end)); do sleep 0.05; done
start=$(now_ms)
"$iomark" history --history "$history" list >"$work/out" 2>"$work/err"
got=$?
measured "history list on a locked database gave up after $(($(now_ms) - start)) ms"
check "locked: list exits 4 (got $got)" test "$got" -eq 4
check "locked: list says the database is locked" grep -q "locked" "$work/err"
check "locked: list names the file" grep -qF "$history" "$work/err"
exec 9>&-
kill "$holder" 2>/dev/null
wait "$holder" 2>/dev/null
finish history_read_only
