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
# otherwise. The device, the cgroup and the throttle are throttled_device.sh's.
# usage: throttled_steady_state_test.sh IOMARK
iomark=$1
source "$(dirname "$0")/throttled_device.sh"
throttled_require throttled_steady_state
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

throttled_setup iomark-steady

# start_series NAME MAX_ROUNDS: `iomark run` in the background, inside the cgroup (the shell
# joins it, then becomes iomark); sets series_pid. The round lines go to $work/NAME.err.
start_series() {
  start_in_cgroup "$work/$1.out" "$work/$1.err" \
    "$iomark" run --target "$device" --spec "4K random read" --qd 4 --engine libaio --time "$run_time" \
    --steady-state iops --max-rounds "$2" --results "" --json "$work/$1.json"
  series_pid=$started_pid
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
