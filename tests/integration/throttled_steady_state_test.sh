#!/usr/bin/env bash
# --steady-state against a device whose speed the test sets: a zram device it makes, its reads
# throttled to a number of IOPS by the block I/O controller of a cgroup it makes (cgroup v1
# blkio.throttle.read_iops_device, or cgroup v2 io.max riops=), with `iomark run` (embedded
# agent, 4 KiB random reads at QD 4, 2 s per round) started inside that cgroup.
# - steady: reads held at 2000 IOPS; the series is declared steady after round 5 (the first
#   round with a full window of 5) and every round's IOPS is the throttle's, within 8 %.
# - cliff: the same series, the throttle lowered from 2000 to 500 IOPS once round cliff_after
#   (3) is judged. No window that holds a pre-cliff round may be called steady: the series
#   must not stop before round cliff_after + 5 (the first window of only post-cliff rounds),
#   or it ends not steady after --max-rounds. The rounds before the cliff run at 2000 and
#   those from the second round after it at 500 (the first may hold a few pre-cliff I/Os).
# The device and the cgroup are removed at exit, even on failure; the runs are stopped by PID.
# Root, /sys/class/zram-control and a cgroup I/O controller needed; skipped with the reason
# otherwise.
# usage: throttled_steady_state_test.sh IOMARK
iomark=$1
skip() { echo "throttled_steady_state: skipped: $*"; exit 77; }
if ((EUID != 0)) || [[ ! -w /sys/class/zram-control/hot_add ]]; then
  skip "needs root and /sys/class/zram-control (modprobe zram) to make a zram device"
fi
# The I/O controller: cgroup v1's blkio (its throttle files), else cgroup v2's io at the root of
# a unified hierarchy mounted on /sys/fs/cgroup.
if [[ -w /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device ]]; then
  cgroup_version=1 cgroup_parent=/sys/fs/cgroup/blkio
elif [[ -r /sys/fs/cgroup/cgroup.controllers ]] && grep -qw io /sys/fs/cgroup/cgroup.controllers; then
  cgroup_version=2 cgroup_parent=/sys/fs/cgroup
else
  skip "needs a cgroup I/O controller: cgroup v1 /sys/fs/cgroup/blkio/blkio.throttle.read_iops_device or" \
    "cgroup v2 with io in /sys/fs/cgroup/cgroup.controllers"
fi
source "$(dirname "$0")/harness.sh"

high=2000 low=500   # read IOPS before and after the cliff
cliff_after=3       # the cliff comes once this round is judged (at most 4: round 5 could end it)
cliff_rounds=12     # --max-rounds of the cliff series: the earliest steady round is cliff_after + 5
# A round's IOPS against the throttle. blk-throttle lets a slice's worth of I/Os (100 ms of
# the limit) through at once, then none until the next slice, and the recording window opens
# when the last I/O issued before it completes (IOmeter's rule), i.e. at the next burst: a
# round counts whole bursts (200 I/Os at 2000 IOPS) over a window up to 100 ms shorter than
# its 2 s: reads throttled to 2000 IOPS measured 1894 to 2101 IOPS per round on a 2-core test
# machine (1 s rounds: 1920 to 2218, why rounds are 2 s). Unthrottled, the same zram device
# did 236,000 IOPS there, and the cliff is a fall of 75 %: 8 % still tells them apart.
tolerance=0.08
run_time=2

zram_index= cgroup= enabled_io=
remove_zram() {
  [[ -n $zram_index ]] || return 0
  echo "$zram_index" >/sys/class/zram-control/hot_remove 2>/dev/null ||
    { echo 1 >"/sys/block/zram$zram_index/reset" && echo "$zram_index" >/sys/class/zram-control/hot_remove; }
  zram_index=
}
remove_cgroup() {
  [[ -n $cgroup ]] || return 0
  # Empty once its processes are reaped (stop_started ran before); a moment for the kernel.
  for _ in $(seq 1 50); do rmdir "$cgroup" 2>/dev/null && break; sleep 0.1; done
  [[ -d $cgroup ]] && echo "throttled_steady_state: could not remove $cgroup" >&2
  [[ -n $enabled_io ]] && echo "-io" >"$cgroup_parent/cgroup.subtree_control" 2>/dev/null
  cgroup=
}
trap 'stop_started; remove_cgroup; remove_zram; harness_cleanup' EXIT
# Stopped by SIGTERM or SIGINT (ctest, ^C), the EXIT trap still removes the device and cgroup.
trap 'exit 143' TERM
trap 'exit 130' INT

# A 256 MiB zram device, never written: its reads cost no more than a page of zeroes.
zram_index=$(cat /sys/class/zram-control/hot_add) || { echo "FAIL zram hot_add"; exit 1; }
device=/dev/zram$zram_index
echo 256M >"/sys/block/zram$zram_index/disksize" || { echo "FAIL sizing $device"; exit 1; }
for _ in $(seq 1 50); do [[ -b $device ]] && break; sleep 0.1; done
majmin=$(cat "/sys/block/zram$zram_index/dev")

cgroup=$cgroup_parent/iomark-steady-$$
if ((cgroup_version == 2)) && ! grep -qw io "$cgroup_parent/cgroup.subtree_control"; then
  echo "+io" >"$cgroup_parent/cgroup.subtree_control" 2>/dev/null ||
    { cgroup=; skip "cannot enable the io controller for children of $cgroup_parent (cgroup.subtree_control)"; }
  enabled_io=1
fi
mkdir "$cgroup" || { cgroup=; echo "FAIL mkdir $cgroup"; exit 1; }
# throttle IOPS: reads of the device limited to IOPS for the processes of the cgroup.
throttle() {
  if ((cgroup_version == 1)); then
    echo "$majmin $1" >"$cgroup/blkio.throttle.read_iops_device"
  else
    echo "$majmin riops=$1" >"$cgroup/io.max"
  fi
}
echo "cgroup v$cgroup_version $cgroup, $device ($majmin)"

# start_series NAME MAX_ROUNDS: `iomark run` in the background, inside the cgroup (the shell
# joins it, then becomes iomark); sets series_pid. The round lines go to $work/NAME.err.
start_series() {
  sh -c 'echo $$ >"$1" || exit 125; shift; exec "$@"' sh "$cgroup/cgroup.procs" \
    "$iomark" run --target "$device" --spec "4K random read" --qd 4 --engine libaio --time "$run_time" \
    --steady-state iops --max-rounds "$2" --results "" --json "$work/$1.json" \
    >"$work/$1.out" 2>"$work/$1.err" &
  series_pid=$!
  pids+=("$series_pid")
}
# steady NAME FIELD: a field of the JSON's steady_state object (rounds as a space-separated list).
steady() {
  python3 - "$work/$1.json" "$2" <<'EOF'
import json, sys
s = json.load(open(sys.argv[1]))["steady_state"]
v = s[sys.argv[2]]
print(" ".join(f"{x:.0f}" for x in v) if isinstance(v, list) else str(v).lower())
EOF
}
# rounds_within LO HI WANTED: every round from LO to HI (1-based) is within tolerance of WANTED.
rounds_within() {
  awk -v lo="$1" -v hi="$2" -v w="$3" -v f="$tolerance" -v r="$rounds" 'BEGIN {
    n = split(r, y, " "); if (n < hi) exit 1
    for (i = lo; i <= hi; i++) { d = y[i] - w; if (d < 0) d = -d; if (d > w * f) exit 1 }
  }'
}

# ---- a steady device --------------------------------------------------------------------
throttle "$high"
start_series steady 10
check "steady: the run is in the cgroup" wait_for "$cgroup/cgroup.procs" "^$series_pid\$" 5
wait_exit "$series_pid" 60
status=$exit_status
check "steady: the series exits 0 (status $status: $(tail -1 "$work/steady.err"))" test "$status" -eq 0
rounds=$(steady steady rounds)
measured "steady at $high IOPS: rounds (IOPS) $rounds; $(grep '^steady state' "$work/steady.out")"
check "steady: declared steady" test "$(steady steady steady)" = true
check "steady: after exactly 5 rounds" test "$(wc -w <<<"$rounds")" -eq 5
check "steady: the window is rounds 1-5" test "$(steady steady window_first)" = 0
check "steady: every round within 8 % of $high IOPS" rounds_within 1 5 "$high"

# ---- a device falling off a cliff -------------------------------------------------------
throttle "$high"
start_series cliff "$cliff_rounds"
if wait_for "$work/cliff.err" "^round $cliff_after/" 30; then
  throttle "$low"
  # How many rounds were judged when the throttle fell: those ran wholly before the cliff.
  before=$(grep -c '^round [0-9]*/' "$work/cliff.err")
  measured "cliff: throttle $high -> $low IOPS after round $before"
else
  before=
  echo "FAIL cliff: round $cliff_after never judged: $(tail -2 "$work/cliff.err")"
  failed=$((failed + 1))
fi
wait_exit "$series_pid" 60
status=$exit_status
check "cliff: the series exits 0 (status $status: $(tail -1 "$work/cliff.err"))" test "$status" -eq 0
if [[ -n $before ]]; then
  rounds=$(steady cliff rounds)
  count=$(wc -w <<<"$rounds")
  verdict=$(steady cliff steady)
  measured "cliff: rounds (IOPS) $rounds; $(grep '^steady state' "$work/cliff.out")"
  grep '^round ' "$work/cliff.err"
  check "cliff: the throttle fell before round 5 could end the series (after round $before)" test "$before" -le 4
  check "cliff: rounds 1-$before within 8 % of $high IOPS" rounds_within 1 "$before" "$high"
  check "cliff: rounds $((before + 2))-$count within 8 % of $low IOPS" rounds_within $((before + 2)) "$count" "$low"
  # The series stops at the first steady round: stopping before round before + 5 means a window
  # holding a pre-cliff round was called steady.
  if [[ $verdict == true ]]; then
    check "cliff: steady only in round $count, after a full window past the cliff (> round $((before + 4)))" \
      test "$count" -gt $((before + 4))
  else
    check "cliff: not steady, after all $cliff_rounds rounds" test "$count" -eq "$cliff_rounds"
  fi
fi
finish throttled_steady_state
