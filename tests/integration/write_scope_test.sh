#!/usr/bin/env bash
# The agent's write scope (docs/write-scope.md): a real iomark-agent allowed ONE file, and a
# controller asking for `/`, for another directory, for a new file beside the allowed one, and
# (through a second agent allowed a directory) for a symbolic link out of it. Every request is
# refused with exit 3 naming the agent, the path and the --allow list, and nothing outside the
# allowed paths gains or loses a byte: a tree of files is snapshotted (path, size, checksum)
# before and after, and no /iobw.tst appears. Then the allowed file runs, and only it changes.
# usage: write_scope_test.sh IOMARK IOMARK_AGENT
set -uo pipefail
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"

tree=$work/tree
mkdir -p "$tree/allowed" "$tree/other/deep" "$tree/scope"
head -c $((4 << 20)) /dev/urandom >"$tree/allowed/a.dat"
head -c 65536 /dev/urandom >"$tree/other/keep.bin"
head -c 4096 /dev/urandom >"$tree/other/deep/keep2.bin"
head -c 4096 /dev/urandom >"$tree/beside.bin"
ln -s "$tree/other" "$tree/scope/escape"
root_test_file_before=$([[ -e /iobw.tst ]] && echo present || echo absent)

# snapshot: every path under the tree but the allowed file, with its size and checksum.
snapshot() {
  (cd "$tree" && find . -path ./allowed/a.dat -prune -o -printf '%y %p %s\n' | sort &&
    find . -type f ! -path ./allowed/a.dat -exec sha256sum {} + | sort)
}
snapshot >"$work/before.txt"

launch_agent "$work/one.log" --listen 127.0.0.1:0 -n scoped --key-file "$work/key" --allow "$tree/allowed/a.dat" ||
  exit 1
port_one=$port
launch_agent "$work/dir.log" --listen 127.0.0.1:0 -n dirscoped --key-file "$work/key" --allow "$tree/scope" || exit 1
port_dir=$port

# refused NAME PORT TARGET: the run exits 3 and says who refused what and what is allowed.
refused() {
  local name=$1 port=$2 target=$3 out=$work/refused.$RANDOM
  timeout 60 "$iomark" run --manager "127.0.0.1:$port" --key-file "$work/key" --target "$target" \
    --spec Database --qd 1 --time 1 --size 8M --results "$out.csv" >"$out.out" 2>"$out.err"
  local status=$?
  check "$name: exit 3 (got $status: $(tail -2 "$out.err"))" test "$status" -eq 3
  check "$name: names the agent and the path" grep -q "refuses $target" "$out.err"
  check "$name: names the --allow list" grep -qF -- "--allow paths (" "$out.err"
}
refused "the root directory" "$port_one" /
refused "another directory" "$port_one" "$tree/other"
refused "a new file beside the allowed one" "$port_one" "$tree/allowed/new.dat"
refused "a file outside" "$port_one" "$tree/beside.bin"
# Lexically inside the scope, a link out when resolved: refused by the agent itself.
refused "a symbolic link out of an allowed directory" "$port_dir" "$tree/scope/escape"
refused "a test file through a link" "$port_dir" "$tree/scope/escape/deep"

snapshot >"$work/after.txt"
check "nothing outside the allowed file gained or lost a byte" cmp -s "$work/before.txt" "$work/after.txt"
diff "$work/before.txt" "$work/after.txt" | head -5
check "no /iobw.tst was made" test "$root_test_file_before" = present -o ! -e /iobw.tst
check "no test file in the allowed file's directory" test ! -e "$tree/allowed/iobw.tst"

# The allowed file runs; it is the only thing that changed.
sum_before=$(sha256sum <"$tree/allowed/a.dat")
timeout 60 "$iomark" run --manager "127.0.0.1:$port_one" --key-file "$work/key" --target "$tree/allowed/a.dat" \
  --spec "4K random write" --qd 1 --time 1 --results "$work/ok.csv" >"$work/ok.out" 2>"$work/ok.err"
status=$?
check "the allowed file runs (exit 0, got $status: $(tail -2 "$work/ok.err"))" test "$status" -eq 0
check "the allowed file was written" test "$(sha256sum <"$tree/allowed/a.dat")" != "$sum_before"
snapshot >"$work/after_run.txt"
check "still nothing else changed" cmp -s "$work/before.txt" "$work/after_run.txt"

echo "write_scope: $passed passed, $failed failed"
((failed == 0))
