#!/usr/bin/env python3
"""Soak: one iomark controller and AGENTS iomark-agent processes (logged in like dynamo over
loopback TCP) cycle outstanding I/Os on one shared file, run after run, for DURATION seconds,
writing results.csv, results.json and the time-series side file as a user would.
Every INTERVAL seconds the resident memory and open descriptors of the controller and of each
agent are read from /proc; at the end the report says whether both stayed flat once the first
QD cycle had warmed everything up. fio's client/server then runs the same shape (one client,
AGENTS servers, the same QD cycle as stonewalled jobs) for the same time, measured the same way.

Flat means: the highest RSS in the last third of the samples exceeds the highest RSS in the
first third (after warm-up) by no more than --max-growth-mib, and the descriptors in the last
third never exceed those of the first third. A per-run leak of a few KiB over ~100 runs, or one
descriptor per run, shows up as growth.
"""
import argparse
import csv
import json
import os
import shutil
import subprocess
import sys
import tempfile
import threading
import time

from bench_support import free_port, stop_all, tree_rss_and_fds, wait_for_line, write_key

SECONDS_BETWEEN_RUNS = 0.7  # assignment, start and final results, measured on loopback


class Sampler(threading.Thread):
    """Reads RSS and descriptors of named process trees every interval until stopped."""

    def __init__(self, processes, interval, progress):
        super().__init__(daemon=True)
        self.processes, self.interval, self.progress = processes, interval, progress
        self.samples = []  # (seconds since start, {name: (rss MiB, fds)})
        self.stopped = threading.Event()

    def run(self):
        start = time.monotonic()
        while not self.stopped.is_set():
            reading = {}
            for name, process in self.processes.items():
                figures = tree_rss_and_fds(process.pid)
                if figures is not None:
                    reading[name] = figures
            elapsed = time.monotonic() - start
            self.samples.append((elapsed, reading))
            self.progress(elapsed, reading)
            self.stopped.wait(self.interval)


def flatness(samples, name, warm_up_s, max_growth_mib):
    """(verdict, first-third RSS, last-third RSS, first-third fds, last-third fds) of one process."""
    series = [reading[name] for elapsed, reading in samples if elapsed >= warm_up_s and name in reading]
    if len(series) < 3:
        return "too few samples", 0, 0, 0, 0
    third = max(1, len(series) // 3)
    first, last = series[:third], series[-third:]
    first_rss, last_rss = max(r for r, _ in first), max(r for r, _ in last)
    first_fds, last_fds = max(f for _, f in first), max(f for _, f in last)
    flat = last_rss - first_rss <= max_growth_mib and last_fds <= first_fds
    return ("flat" if flat else "GROWING"), first_rss, last_rss, first_fds, last_fds


def report(title, samples, names, warm_up_s, args):
    print(title)
    print(f"  {'process':<14} {'RSS first 1/3':>14} {'RSS last 1/3':>13} {'growth':>8} "
          f"{'fds first':>10} {'fds last':>9}  verdict")
    all_flat = True
    for name in names:
        verdict, first_rss, last_rss, first_fds, last_fds = flatness(samples, name, warm_up_s, args.max_growth_mib)
        all_flat &= verdict == "flat"
        print(f"  {name:<14} {first_rss:>10.1f} MiB {last_rss:>9.1f} MiB {last_rss - first_rss:>+7.1f}M "
              f"{first_fds:>10} {last_fds:>9}  {verdict}")
    # The course over time, one line per tenth of the run, for the eye.
    step = max(1, len(samples) // 10)
    print("  over time (s: RSS MiB / fds):")
    for elapsed, reading in samples[::step]:
        cells = "  ".join(f"{name} {reading[name][0]:.1f}/{reading[name][1]}" for name in names if name in reading)
        print(f"    {elapsed:6.0f}  {cells}")
    return all_flat


def progress_line(label, duration):
    def show(elapsed, reading):
        cells = " ".join(f"{name}={rss:.1f}M/{fds}fd" for name, (rss, fds) in reading.items())
        print(f"[soak] {label} {elapsed:4.0f}/{duration} s  {cells}", file=sys.stderr, flush=True)
    return show


def sample_until_exit(watched, processes, label, args):
    """Samples processes every interval until watched ends; the samples."""
    sampler = Sampler(processes, args.interval, progress_line(label, args.duration))
    sampler.start()
    try:
        watched.wait(timeout=args.duration * 2 + 120)
    finally:
        sampler.stopped.set()
        sampler.join()
        if watched.poll() is None:
            watched.kill()
            watched.wait()
    return sampler.samples


def soak_iomark(args, work, target, depths):
    key = os.path.join(work, "key")
    write_key(key)
    results = os.path.join(work, "results.csv")
    controller_log = os.path.join(work, "controller.err")
    runs = len(depths)
    command = [args.iomark, "run", "--listen", "127.0.0.1:0", "--wait-managers", str(args.agents),
               "--wait-timeout", "60", "--key-file", key, "--target", target, "--spec", args.spec,
               "--workers", str(args.workers), "--qd", ",".join(map(str, depths)), "--ramp", str(args.ramp),
               "--time", str(args.run_time), "--results", results, "--json", os.path.join(work, "results.json"),
               "--timeseries", os.path.join(work, "instresults.csv")]
    if args.engine:
        command += ["--engine", args.engine]
    controller = subprocess.Popen(command, stdout=subprocess.DEVNULL, stderr=open(controller_log, "w"))
    agents = []
    try:
        listening = wait_for_line(controller_log, r"agent\(s\) on 127\.0\.0\.1:(\d+)", 30, controller)
        if not listening:
            sys.exit("the controller did not listen: " + open(controller_log).read())
        for i in range(args.agents):
            agents.append(subprocess.Popen(
                [args.agent, "-i", f"127.0.0.1:{listening.group(1)}", "-n", f"agent{i}", "--key-file", key,
                 "--allow", target],
                stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, f"agent{i}.log"), "w")))
        if not wait_for_line(controller_log, r"run 1/", 60, controller):
            sys.exit("the series did not start: " + open(controller_log).read()[-2000:])
        processes = {"controller": controller} | {f"agent{i}": agent for i, agent in enumerate(agents)}
        samples = sample_until_exit(controller, processes, "iomark", args)
    finally:
        stop_all(agents)
        if controller.poll() is None:
            controller.kill()
            controller.wait()
    if controller.returncode != 0:
        sys.exit(f"the controller failed (exit {controller.returncode}):\n" + open(controller_log).read()[-3000:])
    with open(results, newline="") as csv_file:
        recorded = sum(1 for row in csv.reader(csv_file) if row[:1] == ["ALL"])
    with open(os.path.join(work, "results.json")) as json_file:
        document = json.load(json_file)
    if len(document["runs"]) != recorded or document["outcome"] != "completed":
        sys.exit(f"results.json holds {len(document['runs'])} runs ({document['outcome']}), results.csv {recorded}")
    return samples, list(processes), recorded, runs


def soak_fio(args, work, target, depths):
    job = os.path.join(work, "soak.fio")
    with open(job, "w") as out:
        out.write(f"[global]\nioengine=libaio\ndirect=1\nfilename={target}\nsize={args.size_mib}m\n"
                  f"bs={args.block_size}\nrw=randrw\nrwmixread={args.read_percent}\nnumjobs={args.workers}\n"
                  f"group_reporting=1\ntime_based=1\nruntime={args.run_time}\nramp_time={args.ramp}\n")
        for index, depth in enumerate(depths):
            out.write(f"[run{index}-qd{depth}]\nstonewall\niodepth={depth}\n")
    servers, client_args = [], []
    try:
        for _ in range(args.agents):
            port = free_port()
            servers.append(subprocess.Popen(["fio", f"--server=ip:127.0.0.1,{port}"],
                                            stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL))
            client_args += [f"--client=ip:127.0.0.1,{port}", job]
        time.sleep(2)
        client_log = os.path.join(work, "fio.err")
        client = subprocess.Popen(["fio", "--output-format=json"] + client_args,
                                  stdout=subprocess.DEVNULL, stderr=open(client_log, "w"))
        processes = {"fio client": client} | {f"fio server{i}": server for i, server in enumerate(servers)}
        samples = sample_until_exit(client, processes, "fio", args)
        return samples, list(processes), client.returncode
    finally:
        stop_all(servers)


def main():
    parser = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    parser.add_argument("--iomark", required=True)
    parser.add_argument("--agent", required=True)
    parser.add_argument("--agents", type=int, default=4)
    parser.add_argument("--workers", type=int, default=2, help="workers per agent")
    parser.add_argument("--duration", type=int, default=600, help="seconds of QD cycling (whole cycles)")
    parser.add_argument("--qd", default="1,2,4,8,16,32,64", help="one QD cycle; it repeats to fill the duration")
    parser.add_argument("--run-time", type=int, default=4)
    parser.add_argument("--ramp", type=int, default=1)
    parser.add_argument("--interval", type=float, default=5, help="seconds between /proc readings")
    parser.add_argument("--size-mib", type=int, default=256, help="size of the shared test file")
    parser.add_argument("--engine", default="", help="iomark engine (default: the agent probes)")
    parser.add_argument("--max-growth-mib", type=float, default=4.0)
    parser.add_argument("--dir", default="/var/tmp", help="where the work directory and test file go")
    parser.add_argument("--no-fio", action="store_true")
    args = parser.parse_args()
    # The Database pattern, as fio will run it too.
    args.spec, args.block_size, args.read_percent = "Database", "8k", 67

    cycle = [int(depth) for depth in args.qd.split(",")]
    cycle_seconds = len(cycle) * (args.run_time + args.ramp + SECONDS_BETWEEN_RUNS)
    cycles = max(2, round(args.duration / cycle_seconds))
    depths = cycle * cycles
    work = tempfile.mkdtemp(prefix="iomark-soak-", dir=args.dir)
    try:
        target = os.path.join(work, "soak.dat")
        with open(target, "wb") as out:
            block = os.urandom(1 << 20)
            for _ in range(args.size_mib):
                out.write(block)
        print(f"[soak] {args.agents} agents x {args.workers} workers, {args.spec}, QD cycle {args.qd} x {cycles} "
              f"= {len(depths)} runs of {args.ramp}+{args.run_time} s on {target}", file=sys.stderr)
        samples, names, recorded, runs = soak_iomark(args, work, target, depths)
        # Warm-up: the first QD cycle (buffers grow to the deepest queue once).
        warm_up = cycle_seconds
        print(f"soak: {args.agents} agents x {args.workers} workers, {args.spec} pattern, QD {args.qd} cycled "
              f"{cycles} times ({len(depths)} runs, {samples[-1][0]:.0f} s), /proc read every {args.interval:g} s, "
              f"first cycle ({warm_up:.0f} s) is warm-up")
        iomark_flat = report("iomark controller and agents:", samples, names, warm_up, args)
        print(f"  runs recorded in results.csv and results.json: {recorded} of {runs} "
              f"{'ok' if recorded == runs else 'MISSING'}")
        ok = iomark_flat and recorded == runs
        if not args.no_fio and shutil.which("fio"):
            fio_samples, fio_names, status = soak_fio(args, work, target, depths)
            if status == 0:
                report("fio client/server, same shape (libaio, O_DIRECT):", fio_samples, fio_names, warm_up, args)
                print("  (a fio server forks a process per job: its tree's memory and descriptors move as jobs "
                      "start and end; the verdicts above are for reading, not for this bench's exit status)")
                peak = lambda s, name: max((r[name][0] for _, r in s if name in r), default=0)
                agent_peak = max(peak(samples, n) for n in names[1:])
                server_peak = max(peak(fio_samples, n) for n in fio_names[1:])
                print(f"  iomark / fio peak RSS: controller / client x{peak(samples, 'controller') / max(peak(fio_samples, 'fio client'), 1e-9):.2f}, "
                      f"agent / server x{agent_peak / max(server_peak, 1e-9):.2f}")
            else:
                print(f"  fio client/server failed (exit {status}): "
                      + open(os.path.join(work, "fio.err")).read()[-500:])
        sys.exit(0 if ok else 1)
    finally:
        shutil.rmtree(work, ignore_errors=True)


if __name__ == "__main__":
    main()
