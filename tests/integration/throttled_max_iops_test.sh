#!/usr/bin/env bash
# --find-max-iops on two managers against a device with a known knee: a zram device the test
# makes, its reads throttled to C = 4000 IOPS for a cgroup (throttled_device.sh) that both
# agents run in, so the two together share the ceiling. Each agent drives the device with one
# worker, 4 KiB random reads, libaio, 1 s ramp, 4 s runs.
# Closed loop the throttle gives C at any depth, so by Little's law the average response time
# is the outstanding I/Os of both managers over C: QD q per manager, 2q / C = q/2 ms. Within
# avg <= 3 ms the knee is C, reached at QD 4 (2 ms); QD 8 (4 ms) breaks the bound, and no rate
# at QD 8 gives more than C. The search must choose a run within 5 % of C, at QD 4 or less,
# with the figures of the ALL row merged over both managers.
# The device and the cgroup are removed at exit, even on failure; the agents are stopped by PID.
# Root, /sys/class/zram-control and a cgroup I/O controller needed; skipped with the reason
# otherwise.
# usage: throttled_max_iops_test.sh IOMARK IOMARK_AGENT
iomark=$1 agent=$2
source "$(dirname "$0")/throttled_device.sh"
throttled_require throttled_max_iops
source "$(dirname "$0")/harness.sh"

ceiling=4000
bound_ms=3
# A 4 s window counts whole 100 ms slices of the throttle (40 or 41 of them): 2.5 % apart.
knee_tolerance=0.05

throttled_setup iomark-max-iops
throttle "$ceiling"

agent_in_cgroup "$agent" agentA
agent_in_cgroup "$agent" agentB

timeout 300 "$iomark" run --manager "127.0.0.1:$port_agentA" --manager "127.0.0.1:$port_agentB" \
  --key-file "$work/key" --target "$device" --spec "4K random read" --engine libaio --ramp 1 --time 4 \
  --find-max-iops "avg<=${bound_ms}ms" --results "" --json "$work/search.json" >"$work/run.out" 2>"$work/run.err"
status=$?
check "the search exits 0 (status $status: $(tail -2 "$work/run.err"))" test "$status" -eq 0
sed -n '/^latency against IOPS/,$p' "$work/run.out" | sed 's/^/measured: /'

# The search's record and, for every step, the run's ALL and MANAGER figures.
python3 - "$work/search.json" "$ceiling" "$bound_ms" "$knee_tolerance" >"$work/verdict" 2>&1 <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
ceiling, bound, tolerance = float(sys.argv[2]), float(sys.argv[3]), float(sys.argv[4])
search = doc["max_iops_search"]
runs = doc["runs"]
def say(ok, what):
    print(("ok " if ok else "FAIL ") + what)
say(search["figure"] == "avg" and search["limit_ms"] == bound, f"the bound is avg <= {bound} ms")
say(search["finished"], "the search ended by its own rule")
say(len(search["steps"]) == len(runs), f"one run per step ({len(search['steps'])} steps, {len(runs)} runs)")
for step, run in zip(search["steps"], runs):
    all_row = run["summary"]
    say(abs(step["iops"] - all_row["iops"]) <= 1e-6 * all_row["iops"] and
        abs(step["latency_ms"] - all_row["average_response_ms"]) <= 1e-9 + 1e-6 * all_row["average_response_ms"],
        f"run {step['run']}: the step's figures are the ALL row's")
    managers = run.get("managers", [])
    say(len(managers) == 2, f"run {step['run']}: both managers took part ({len(managers)})")
chosen = search["chosen"]
say(chosen is not None, "a run was chosen")
if chosen is not None:
    best = search["steps"][chosen]
    say(best["within"] and best["latency_ms"] <= bound, f"the chosen run keeps the bound ({best['latency_ms']:.3f} ms)")
    say(abs(best["iops"] - ceiling) <= ceiling * tolerance,
        f"the chosen run's {best['iops']:.0f} IOPS is within {tolerance:.0%} of the knee {ceiling:.0f}")
    say(best["outstanding_ios"] <= 4, f"at QD {best['outstanding_ios']}, no deeper than 4 (2 ms by Little's law)")
broken = [s for s in search["steps"] if s["rate_iops"] is None and not s["within"]]
say(len(broken) == 1 and broken[0]["outstanding_ios"] == 8, "the depth phase broke the bound at QD 8 (4 ms)")
PY
while read -r verdict what; do
  check "$what" test "$verdict" = ok
done <"$work/verdict"
check "the verdict was read" test -s "$work/verdict"
finish throttled_max_iops
