"""Runs iomark-agent and fio with identical parameters and prints ratios (bench/engine-vs-fio).

CPU is measured the same way for every tool: whole-system busy time from /proc/stat, sampled
inside the recorded window (after ramp-up + 1 s, until 1 s before the end), so work io_uring
hands to kernel threads is counted.
"""
import argparse
import csv
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import threading
import time

CASES = {
    # name: (spec line size,%size,%read,%random,delay,burst,align,reply ; fio rw ; rwmixread ; bs ; qd ; workers)
    "4k-randread-qd1": ("4096,100,100,100,0,1,0,0", "randread", 100, "4k", 1, 1),
    "4k-randread-qd8": ("4096,100,100,100,0,1,0,0", "randread", 100, "4k", 8, 1),
    "4k-randread-qd32": ("4096,100,100,100,0,1,0,0", "randread", 100, "4k", 32, 1),
    # Writes carry incompressible data on both sides (iomark full-random, fio's default random
    # buffers): zram does less work for compressible data, which would flatter either tool.
    "database-qd32-2w": ("8192,100,67,100,0,1,0,0", "randrw", 67, "8k", 32, 2),
    "64k-seqread-qd8": ("65536,100,100,0,0,1,0,0", "read", 100, "64k", 8, 1),
}


def busy_jiffies():
    with open("/proc/stat") as stat:
        for line in stat:
            if line.startswith("cpu "):
                values = [int(v) for v in line.split()[1:]]
                idle = values[3] + (values[4] if len(values) > 4 else 0)
                return sum(values[:8]) - idle
    raise RuntimeError("no cpu line in /proc/stat")


def run_sampled(command, ramp, duration):
    """Runs command; returns (stdout, busy CPU seconds per second inside the window)."""
    samples = {}

    def sample():
        time.sleep(ramp + 1)
        samples["start"] = (time.monotonic(), busy_jiffies())
        time.sleep(max(duration - 2, 1))
        samples["end"] = (time.monotonic(), busy_jiffies())

    sampler = threading.Thread(target=sample)
    sampler.start()
    result = subprocess.run(command, capture_output=True, text=True)
    sampler.join()
    if result.returncode != 0:
        sys.exit(f"command failed ({result.returncode}): {' '.join(command)}\n{result.stderr}")
    (t0, j0), (t1, j1) = samples["start"], samples["end"]
    return result.stdout, (j1 - j0) / os.sysconf("SC_CLK_TCK") / (t1 - t0)


def run_iomark(agent, target, case, ramp, duration):
    line, _, _, _, qd, workers = case
    with tempfile.TemporaryDirectory() as scratch:
        results = os.path.join(scratch, "results.csv")
        command = [agent, "run-local", "--target", target, "--spec-line", line, "--qd", str(qd), "--workers",
                   str(workers), "--ramp", str(ramp), "--time", str(duration), "--data-pattern", "full-random",
                   "--results", results]
        _, cpu = run_sampled(command, ramp, duration)
        with open(results) as text:
            for row in csv.reader(io.StringIO(text.read())):
                if row and row[0] == "ALL":
                    iops, avg_ms = float(row[6]), float(row[17])
                    return iops, cpu / iops * 1e6, avg_ms
    sys.exit("iomark wrote no ALL row")


def run_fio(engine, target, case, ramp, duration):
    _, rw, mix, bs, qd, workers = case
    command = ["fio", "--name=bench", f"--filename={target}", f"--ioengine={engine}", "--direct=1", f"--rw={rw}",
               f"--rwmixread={mix}", f"--bs={bs}", f"--iodepth={qd}", f"--numjobs={workers}", "--thread",
               "--group_reporting", "--time_based", f"--runtime={duration}", f"--ramp_time={ramp}",
               "--norandommap", "--randrepeat=0", "--output-format=json"]
    output, cpu = run_sampled(command, ramp, duration)
    job = json.loads(output[output.index("{"):])["jobs"][0]
    iops = job["read"]["iops"] + job["write"]["iops"]
    ios = job["read"]["total_ios"] + job["write"]["total_ios"]
    lat = (job["read"]["lat_ns"]["mean"] * job["read"]["total_ios"] +
           job["write"]["lat_ns"]["mean"] * job["write"]["total_ios"]) / max(ios, 1) / 1e6
    return iops, cpu / iops * 1e6, lat


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--target-note", default="")
    parser.add_argument("--time", type=int, default=10)
    parser.add_argument("--ramp", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", default=",".join(CASES))
    args = parser.parse_args()
    fio_version = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"target: {args.target_note or args.target}; {fio_version}; {args.time} s runs after {args.ramp} s "
          f"ramp-up; median of {args.rounds} alternating rounds; CPU = whole system", flush=True)
    tools = {
        "iomark": lambda c: run_iomark(args.agent, args.target, c, args.ramp, args.time),
        "fio-io_uring": lambda c: run_fio("io_uring", args.target, c, args.ramp, args.time),
        "fio-libaio": lambda c: run_fio("libaio", args.target, c, args.ramp, args.time),
    }
    header = (f"{'case':<18} {'tool':<13} {'IOPS':>10} {'CPU-us/IO':>10} {'avg ms':>8}")
    rows = []
    for name in args.cases.split(","):
        case = CASES[name]
        measured = {tool: [] for tool in tools}
        for _ in range(args.rounds):
            for tool, run in tools.items():
                measured[tool].append(run(case))
        medians = {tool: tuple(statistics.median(v[i] for v in values) for i in range(3))
                   for tool, values in measured.items()}
        print(f"\n{header}")
        for tool, (iops, cpu, lat) in medians.items():
            print(f"{name:<18} {tool:<13} {iops:>10.0f} {cpu:>10.2f} {lat:>8.3f}")
        ours = medians["iomark"]
        for other in ("fio-io_uring", "fio-libaio"):
            theirs = medians[other]
            print(f"{'':<18} iomark/{other}: IOPS x{ours[0] / theirs[0]:.2f}, CPU/IO x{ours[1] / theirs[1]:.2f}, "
                  f"latency x{ours[2] / theirs[2]:.2f}")
        rows.append((name, medians))
        sys.stdout.flush()
    print("\nsummary (iomark vs the better fio engine by IOPS)")
    for name, medians in rows:
        best = max(("fio-io_uring", "fio-libaio"), key=lambda t: medians[t][0])
        ours, theirs = medians["iomark"], medians[best]
        print(f"  {name:<18} vs {best:<13} IOPS x{ours[0] / theirs[0]:.2f}  CPU/IO x{ours[1] / theirs[1]:.2f}  "
              f"latency x{ours[2] / theirs[2]:.2f}")


if __name__ == "__main__":
    main()
