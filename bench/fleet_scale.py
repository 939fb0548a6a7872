#!/usr/bin/env python3
"""One iomark controller driving a simulated fleet (iomark-sim-fleet: N protocol-exact agents in
one process, over loopback TCP with the key handshake) through a QD series, at several fleet
sizes; and fio's client driving real fio servers in the same shape, side by side.

Per fleet size it reports the controller's CPU (% of one core) while the runs record, its peak
RSS, how long the login storm took (every agent dialling at once until the controller had them
all), how many samples arrived and were lost, the MANAGER rows of each run in results.csv and
how long after the end of each run its results were in the file.
"""
import argparse
import datetime
import os
import re
import subprocess
import sys
import tempfile
import time

from bench_support import cpu_seconds, peak_rss_mib, stop_all, wait_for_line, write_key
from controller_scale import fio_client_server

POLL_S = 0.1


class ResultsBlocks:
    """The run blocks of a growing results.csv: (MANAGER rows, end-of-run wall time from its 'Time Stamp).

    Reads only what was appended since the last look: at 1,024 agents a run adds ~20 MB, and
    re-reading the whole file every poll would take more CPU than the controller it measures."""

    def __init__(self, path):
        self.path = path
        self.offset = 0
        self.partial = ""
        self.blocks = []
        self.managers, self.in_block, self.stamp_next = 0, False, False

    def update(self):
        try:
            with open(self.path) as text:
                text.seek(self.offset)
                appended = text.read()
                self.offset = text.tell()
        except FileNotFoundError:
            return self.blocks
        lines = (self.partial + appended).split("\n")
        self.partial = lines.pop()  # not ended yet
        for line in lines:
            if self.stamp_next:
                stamp = datetime.datetime.strptime(line.strip(), "%Y-%m-%d %H:%M:%S:%f")
                self.blocks.append((self.managers, stamp.timestamp()))
                self.in_block = self.stamp_next = False
            elif line.startswith("'Results"):
                self.managers, self.in_block = 0, True
            elif self.in_block and line.startswith("MANAGER,"):
                self.managers += 1
            elif self.in_block and line.startswith("'Time Stamp"):
                self.stamp_next = True
        return self.blocks


def fleet_series(args, agents, work):
    """One QD series on `agents` simulated agents; a dict of what was measured."""
    key = os.path.join(work, "key")
    target = os.path.join(work, "target.dat")
    csv = os.path.join(work, f"results-{agents}.csv")
    controller_log = os.path.join(work, f"controller-{agents}.err")
    fleet_log = os.path.join(work, f"fleet-{agents}.err")
    qds = args.qd.split(",")
    controller = subprocess.Popen(
        [args.iomark, "run", "--listen", "127.0.0.1:0", "--wait-managers", str(agents), "--wait-timeout", "120",
         "--key-file", key, "--target", target, "--engine", "null", "--workers", str(args.workers), "--qd", args.qd,
         "--spec-line", "512,100,100,100,0,1,0,0", "--ramp", str(args.ramp), "--time", str(args.time),
         "--results", csv],
        stdout=subprocess.PIPE, stderr=open(controller_log, "w"), text=True)
    fleet = None
    try:
        listening = wait_for_line(controller_log, r"agent\(s\) on 127\.0\.0\.1:(\d+)", 30, controller)
        if not listening:
            sys.exit("the controller did not listen: " + open(controller_log).read()[-2000:])
        storm_start = time.monotonic()
        fleet = subprocess.Popen([args.fleet, "-i", f"127.0.0.1:{listening.group(1)}", "-n", str(agents),
                                  "--key-file", key, "--histogram-buckets", str(args.buckets)],
                                 stdout=subprocess.DEVNULL, stderr=open(fleet_log, "w"))
        login_s = None
        run_started = {}  # run number -> monotonic time its "run k/N" line appeared
        written = {}      # run number -> wall time its block appeared in results.csv
        trace = []        # (monotonic, cpu seconds, peak RSS MiB)
        blocks = ResultsBlocks(csv)
        while controller.poll() is None:
            now = time.monotonic()
            try:
                trace.append((now, cpu_seconds(controller.pid), peak_rss_mib(controller.pid)))
            except FileNotFoundError:
                break
            log = open(controller_log).read()
            if login_s is None and len(re.findall(r"^manager '", log, re.M)) >= agents:
                login_s = now - storm_start
            for match in re.finditer(r"^run (\d+)/\d+:", log, re.M):
                run_started.setdefault(int(match.group(1)), now)
            for number in range(len(written) + 1, len(blocks.update()) + 1):
                written[number] = time.time()
            time.sleep(POLL_S)
        # A block that appeared between the last poll and the controller's exit (the last run's,
        # when the series ends quickly after it) was written no later than now: an upper bound.
        exit_seen = time.time()
        for number in range(len(written) + 1, len(blocks.update()) + 1):
            written[number] = exit_seen
        output, _ = controller.communicate(timeout=60)
    finally:
        if fleet is not None:
            stop_all([fleet])
        if controller.poll() is None:
            controller.kill()
            controller.wait()

    def cpu_between(start, end):
        inside = [(t, cpu) for t, cpu, _ in trace if start <= t <= end]
        if len(inside) < 2:
            return None
        return 100.0 * (inside[-1][1] - inside[0][1]) / (inside[-1][0] - inside[0][0])

    # Recording: from 1 s after the ramp-up of each run to its planned end.
    recording = [cpu_between(started + args.ramp + 1, started + args.ramp + args.time)
                 for started in run_started.values()]
    recording = [cpu for cpu in recording if cpu is not None]
    blocks = blocks.update()
    samples = re.search(r"samples: (\d+) received, (\d+) lost", output)
    fleet_text = open(fleet_log).read()
    refused = re.search(r"(\d+) refused", fleet_text)
    return {
        "agents": agents,
        "status": controller.returncode,
        "login_s": login_s,
        "refused": int(refused.group(1)) if refused else None,
        "cpu_recording": max(recording) if recording else None,
        "cpu_recording_mean": sum(recording) / len(recording) if recording else None,
        "peak_rss": max((rss for _, _, rss in trace), default=0.0),
        "received": int(samples.group(1)) if samples else None,
        "lost": int(samples.group(2)) if samples else None,
        "manager_rows": [managers for managers, _ in blocks],
        "write_delays": [written[i + 1] - stamp for i, (_, stamp) in enumerate(blocks) if i + 1 in written],
        "runs": len(qds),
        "log": controller_log,
    }


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iomark", required=True)
    parser.add_argument("--fleet", required=True, help="the iomark-sim-fleet executable")
    parser.add_argument("--agents", default="64,256,1024", help="fleet sizes, comma-separated")
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--qd", default="1,2,4", help="the series' queue depths: one run each")
    parser.add_argument("--time", type=int, default=20, help="seconds each run records")
    parser.add_argument("--ramp", type=int, default=2)
    parser.add_argument("--buckets", type=int, default=8, help="non-empty latency buckets per target per sample")
    parser.add_argument("--max-cpu-percent", type=float, default=25.0, help="at the largest fleet")
    parser.add_argument("--max-rss-mib", type=float, default=300.0, help="at the largest fleet")
    parser.add_argument("--max-login-s", type=float, default=10.0)
    parser.add_argument("--max-write-s", type=float, default=2.0)
    parser.add_argument("--fio-agents", type=int, default=64, help="fio client/server shape (0: skip)")
    parser.add_argument("--fio-time", type=int, default=30)
    parser.add_argument("--fio-delay-ms", type=int, default=20, help="fio's rate: one I/O per this many ms per job")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="iomark-fleet-")
    write_key(os.path.join(work, "key"))
    with open(os.path.join(work, "target.dat"), "wb") as out:
        out.truncate(1 << 20)
    print(f"[bench] load before: {open('/proc/loadavg').read().strip()}", file=sys.stderr)
    sizes = [int(size) for size in args.agents.split(",")]
    measured = []
    for agents in sizes:
        print(f"[bench] {agents} simulated agents x {args.workers} workers, QD {args.qd}, {args.time} s runs",
              file=sys.stderr)
        measured.append(fleet_series(args, agents, work))

    def fmt(value, pattern):
        return "-" if value is None else pattern.format(value)

    print(f"fleet scale: simulated agents x {args.workers} workers x 1 target, 1 s samples, {args.buckets} latency "
          f"buckets per target, QD series {args.qd} ({args.time} s runs, {args.ramp} s ramp-up)")
    print(f"  {'agents':>6}  {'login s':>7}  {'refused':>7}  {'CPU % max run':>13}  {'CPU % mean':>10}  "
          f"{'peak RSS MiB':>12}  {'samples':>8}  {'lost':>4}  {'MANAGER rows/run':>16}  {'csv written s after end':>24}")
    for m in measured:
        print(f"  {m['agents']:>6}  {fmt(m['login_s'], '{:.2f}'):>7}  {fmt(m['refused'], '{}'):>7}  "
              f"{fmt(m['cpu_recording'], '{:.1f}'):>13}  {fmt(m['cpu_recording_mean'], '{:.1f}'):>10}  "
              f"{m['peak_rss']:>12.1f}  {fmt(m['received'], '{}'):>8}  {fmt(m['lost'], '{}'):>4}  "
              f"{'/'.join(map(str, m['manager_rows'])):>16}  {' '.join(f'{d:.2f}' for d in m['write_delays']):>24}")
    for before, after in zip(measured, measured[1:]):
        if before["cpu_recording_mean"] and after["cpu_recording_mean"]:
            print(f"  {before['agents']} -> {after['agents']} agents (x{after['agents'] / before['agents']:.0f}): "
                  f"CPU x{after['cpu_recording_mean'] / before['cpu_recording_mean']:.2f}, "
                  f"RSS x{after['peak_rss'] / max(before['peak_rss'], 1e-9):.2f}")
    largest = measured[-1]
    checks = {
        "series completed (exit 0)": largest["status"] == 0,
        f"CPU while recording <= {args.max_cpu_percent}%": (largest["cpu_recording"] or 1e9) <= args.max_cpu_percent,
        f"peak RSS <= {args.max_rss_mib} MiB": largest["peak_rss"] <= args.max_rss_mib,
        "0 samples lost": largest["lost"] == 0,
        f"{largest['agents']} MANAGER rows in each of {largest['runs']} runs":
            largest["manager_rows"] == [largest["agents"]] * largest["runs"],
        f"results written <= {args.max_write_s} s after each run":
            len(largest["write_delays"]) == largest["runs"] and max(largest["write_delays"]) <= args.max_write_s,
        f"login storm of {largest['agents']} within {args.max_login_s} s, none refused":
            (largest["login_s"] or 1e9) <= args.max_login_s and largest["refused"] == 0,
    }
    for name, ok in checks.items():
        print(f"  {largest['agents']} agents: {name}: {'ok' if ok else 'NOT MET'}")

    fio_ok = True
    if args.fio_agents > 0:
        small = next((m for m in measured if m["agents"] == args.fio_agents), None)
        fio_args = argparse.Namespace(agents=args.fio_agents, workers=args.workers, delay_ms=args.fio_delay_ms,
                                      time=args.fio_time)
        fio_cpu, fio_peak, fio_seconds, fio_status = fio_client_server(fio_args, work)
        if fio_status != 0:
            print(f"  fio client/server failed (exit {fio_status})")
        else:
            print(f"  fio client, {args.fio_agents} fio servers x {args.workers} jobs, 1 s status: CPU {fio_cpu:.2f}% "
                  f"over {fio_seconds:.0f} s, peak RSS {fio_peak:.1f} MiB")
            if small and small["cpu_recording_mean"] is not None:
                cpu_ratio = small["cpu_recording_mean"] / max(fio_cpu, 1e-9)
                rss_ratio = small["peak_rss"] / max(fio_peak, 1e-9)
                fio_ok = cpu_ratio <= 1.0 and rss_ratio <= 1.0
                print(f"  iomark controller / fio client at {args.fio_agents} x {args.workers}: CPU x{cpu_ratio:.2f}, "
                      f"RSS x{rss_ratio:.2f} (targets <= 1.0) {'ok' if fio_ok else 'NOT MET'}")
    print(f"[bench] load after: {open('/proc/loadavg').read().strip()}", file=sys.stderr)
    subprocess.run(["rm", "-rf", work])
    sys.exit(0 if all(checks.values()) and fio_ok else 1)


if __name__ == "__main__":
    main()
