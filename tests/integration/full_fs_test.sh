#!/usr/bin/env bash
# Test-file preparation meets a full file system: an 8 MiB tmpfs asked for a 16 MiB iobw.tst,
# on a remote agent and on the embedded one. Expected: a named error (the file, the space
# needed and the space free) at once, the run marked failed (ERROR: + Aborted test), no
# half-written file left, and the agent still serving (a file that fits then runs).
# The tmpfs lives in a private mount namespace that vanishes with the test: as root through
# `unshare -m`, otherwise through an unprivileged user namespace (`unshare -rm`); where
# neither is possible the test says why and is skipped.
# usage: full_fs_test.sh IOMARK IOMARK_AGENT
if [[ ${IOMARK_FULL_FS_INSIDE:-} != 1 ]]; then
  if ((EUID == 0)) && unshare -m true 2>/dev/null; then
    exec env IOMARK_FULL_FS_INSIDE=1 unshare -m --propagation private bash "$0" "$@"
  elif unshare -rm true 2>/dev/null; then
    exec env IOMARK_FULL_FS_INSIDE=1 unshare -rm bash "$0" "$@"
  fi
  echo "full_fs: skipped: mounting a small tmpfs needs root or unprivileged user namespaces (unshare -rm)"
  exit 77
fi
iomark=$1 agent=$2
source "$(dirname "$0")/harness.sh"

small=$work/small
mkdir "$small"
mount -t tmpfs -o size=8m iomark-full-fs-test "$small" || { echo "full_fs: cannot mount a tmpfs"; exit 1; }
trap 'full_fs_cleanup' EXIT
full_fs_cleanup() {
  stop_started
  umount "$small"
  harness_cleanup
}
start_agent alpha --allow "$small" || exit 1

t0=$(now_ms)
timeout 60 "$iomark" run --manager "127.0.0.1:$port_alpha" --key-file "$work/key" --target "$small" \
  --spec "4K random read" --qd 1,2 --time 1 --size 16M --results "$work/full.csv" --json "$work/full.json" \
  >"$work/full.out" 2>"$work/full.err"
status=$?
elapsed=$(($(now_ms) - t0))
measured "full file system (remote agent): the series ended after ${elapsed} ms with status $status"
check "remote: the series fails (status $status)" test "$status" -eq 1
check "remote: ended at once, not after a deadline (${elapsed} ms)" test "$elapsed" -lt 5000
check "remote: the error names the agent and the file" grep -q "agent 'alpha'.*$small/iobw.tst" "$work/full.err"
check "remote: the error gives the space free" grep -q "free" "$work/full.err"
check "remote: run 1 marked failed" grep -q "^ERROR: run 1 of 2 .*iobw.tst" "$work/full.csv"
check "remote: no results block" test "$(csv_count "$work/full.csv" "^'Results")" = 0
check "remote: Aborted test" test "$(tail -n1 "$work/full.csv")" = "Aborted test"
check "remote: JSON marks the failed run" grep -q '"position": 1' "$work/full.json"
check "remote: no half-written test file left" test ! -e "$small/iobw.tst"
check "remote: the agent still runs" kill -0 "$pid_alpha"

timeout 60 "$iomark" run --manager "127.0.0.1:$port_alpha" --key-file "$work/key" --target "$small" \
  --spec "4K random read" --qd 1 --time 1 --size 4M --results "$work/fits.csv" >/dev/null 2>"$work/fits.err"
check "remote: a test file that fits then runs (status $?)" test "$(tail -n1 "$work/fits.csv")" = "'End Test"
rm -f "$small/iobw.tst"

t0=$(now_ms)
timeout 60 "$iomark" run --target "$small" --spec "4K random read" --qd 1 --time 1 --size 16M \
  --results "$work/embedded.csv" >/dev/null 2>"$work/embedded.err"
status=$?
elapsed=$(($(now_ms) - t0))
measured "full file system (embedded agent): the series ended after ${elapsed} ms with status $status"
check "embedded: the series fails (status $status)" test "$status" -eq 1
check "embedded: the error names the file" grep -q "$small/iobw.tst" "$work/embedded.err"
check "embedded: run 1 marked failed" grep -q "^ERROR: run 1 of 1" "$work/embedded.csv"
check "embedded: no half-written test file left" test ! -e "$small/iobw.tst"

check "the agent ends on SIGTERM within 5 s" stop_cleanly "$pid_alpha"
finish full_fs
