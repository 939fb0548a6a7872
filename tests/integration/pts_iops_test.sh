#!/usr/bin/env bash
# `iomark pts iops` on two managers against a device whose speed the test sets: a zram device
# the test makes, its reads throttled to R = 4000 IOPS and its writes to W = 2000 IOPS for a
# cgroup (throttled_device.sh) that both agents run in, so the two together share each limit.
# The matrix is cut to 4 KiB and 8 KiB by 100/0 and 0/100 (4 cells a round, 2 s each, QD 4,
# libaio), preconditioned once, at most 8 rounds.
# Every round sees the same limits, so the 4 KiB write IOPS must be steady in round 5 (the
# first full window); the table's read cells must be R and its write cells W, within 8 % (the
# throttle's 100 ms slices, as in the steady-state test), from the ALL row merged over both
# managers; the JSON keeps the matrix, the steady window and both managers' preconditioned
# target; the report holds the table.
# The device and the cgroup are removed at exit, even on failure; the agents are stopped by PID.
# Root, /sys/class/zram-control and a cgroup I/O controller needed; skipped with the reason
# otherwise.
# usage: pts_iops_test.sh IOMARK IOMARK_AGENT
iomark=$1 agent=$2
source "$(dirname "$0")/throttled_device.sh"
throttled_require pts_iops
source "$(dirname "$0")/harness.sh"

reads=4000 writes=2000
tolerance=0.08

throttled_setup iomark-pts
throttle "$reads" "$writes"

agent_in_cgroup "$agent" agentA
agent_in_cgroup "$agent" agentB

timeout 300 "$iomark" pts iops --manager "127.0.0.1:$port_agentA" --manager "127.0.0.1:$port_agentB" \
  --key-file "$work/key" --target "$device" --block-sizes 4K,8K --mixes 100/0,0/100 --qd 4 --engine libaio \
  --time 2 --max-rounds 8 --precondition-passes 1 --results "" --json "$work/pts.json" --report "$work/pts.html" \
  >"$work/run.out" 2>"$work/run.err"
status=$?
check "the series exits 0 (status $status: $(tail -2 "$work/run.err"))" test "$status" -eq 0
sed -n '/^preconditioned/,$p' "$work/run.out" | sed 's/^/measured: /'
grep '^round ' "$work/run.err" | sed 's/^/measured: /'

python3 - "$work/pts.json" "$reads" "$writes" "$tolerance" "$device" >"$work/verdict" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
reads, writes, tolerance, device = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4]), sys.argv[5]
def say(ok, what):
    print(("ok " if ok else "FAIL ") + what)
pts = doc.get("pts_iops", {})
say(pts.get("read_percents") == [100, 0] and pts.get("block_bytes") == [4096, 8192], f"the matrix is kept: {pts}")
pre = doc.get("precondition", {})
say(pre.get("passes") == 1 and pre.get("block_bytes") == 131072, f"one pass of 128 KiB writes is kept: {pre}")
say(sorted(pre.get("targets", [])) == [f"agentA: {device}", f"agentB: {device}"],
    f"both managers preconditioned the device: {pre.get('targets')}")
steady = doc.get("steady_state", {})
rounds = len(steady.get("rounds", []))
say(steady.get("steady") is True and rounds == 5, f"steady in round 5 ({rounds} rounds, steady {steady.get('steady')})")
runs = doc["runs"]
say(len(runs) == 4 * rounds, f"4 runs a round ({len(runs)} runs)")
names = ["PTS 4 KiB 100/0", "PTS 8 KiB 100/0", "PTS 4 KiB 0/100", "PTS 8 KiB 0/100"]
for position, run in enumerate(runs):
    cell = position % 4
    spec = run["specs"][0]["name"] if run.get("specs") else None
    say(spec == names[cell], f"run {position + 1} is the cell {names[cell]} ({spec})")
    say(len(run.get("managers", [])) == 2, f"run {position + 1}: both managers took part")
    wanted = reads if cell < 2 else writes
    iops = run["summary"]["iops"]
    say(abs(iops - wanted) <= wanted * tolerance, f"run {position + 1} ({names[cell]}): {iops:.0f} IOPS is {wanted:.0f} within 8 %")
tracked = [run["summary"]["iops"] for position, run in enumerate(runs) if position % 4 == 2]
say(all(abs(a - b) < 1e-6 * max(a, 1) for a, b in zip(tracked, steady.get("rounds", []))),
    "the rounds judged are the 4 KiB write runs")
PY
while read -r verdict what; do
  check "$what" test "$verdict" = ok
done <"$work/verdict"
check "the verdict was read" test -s "$work/verdict"
check "the console prints the table over the window" grep -q "^PTS IOPS, average of rounds 1-5 (the steady-state window):" "$work/run.out"
check "the console says what was preconditioned" grep -q "^preconditioned: every target written whole 1 time" "$work/run.out"
check "the report holds the PTS table" grep -q "PTS IOPS" "$work/pts.html"
finish pts_iops
