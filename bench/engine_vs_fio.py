"""Runs iomark-agent and its peers with identical parameters and prints ratios (bench/engine-vs-fio).

Peers: fio with psync and pvsync2 (one syscall per I/O; QD 1 cases only, where they are the
bar to beat), libaio and io_uring; and, for the 4 KiB cases on a block device, the real
Dynamo 1.1.0 (--dynamo, built by ../shared/tools/build-dynamo) driven by iomark's own
controller (`iomark run PLAN.icf --legacy-dynamo`, --iomark) through a one-manager plan, in a
mount namespace where it sees only the target (as bench/legacy-agent-vs-dynamo does). iomark
runs with `--engine auto`, so the table also checks auto's choice, which it prints.

iomark pins worker i to CPU i by default; fio and Dynamo run wherever the scheduler puts them,
unless --pin-peers pins fio's job i (cpus_allowed, split) and Dynamo's process to the same CPUs:
then where a driver hands I/Os to a kernel thread (loop, ext4 on loop), or one virtual CPU is
slower than another for a while, both sides get the same placement, and the ratios compare
engines, not placements.

The QD 1 read case also runs bench/syscall_ceiling.cpp (--ceiling) on iomark's CPU: one pread
per I/O and nothing else, no timestamps and no statistics (reads only: a write's cost depends
on where its data comes from, so no write loop is like for like). It is no peer and never the
"best peer"; it shows how far above the kernel's own cost any tool can get on this target, and
how much of it iomark leaves.

CPU per I/O is the tool's own process (every thread, user + kernel time, from /proc/<pid>/stat),
sampled inside the recorded window (after ramp-up + 1 s, until 1 s before the end): that counts
io_uring's io-wq threads and iomark's, and stays meaningful on a shared machine, where whole-
system CPU would count the neighbours. Kernel threads outside the process (a loop device's
workers) count for no tool.
"""
import argparse
import csv
import io
import json
import os
import re
import stat
import statistics
import subprocess
import sys
import tempfile
import threading
import time

from bench_support import cpu_seconds, wait_for_line

LINE_4K_READ = "4096,100,100,100,0,1,0,0"
CASES = {
    # name: (spec line size,%size,%read,%random,delay,burst,align,reply ; fio rw ; rwmixread ; bs ; qd ; workers)
    "4k-randread-qd1": (LINE_4K_READ, "randread", 100, "4k", 1, 1),
    "database-qd1": ("8192,100,67,100,0,1,0,0", "randrw", 67, "8k", 1, 1),
    "4k-randwrite-qd1": ("4096,100,0,100,0,1,0,0", "randwrite", 0, "4k", 1, 1),
    "4k-randread-qd8": (LINE_4K_READ, "randread", 100, "4k", 8, 1),
    "4k-randread-qd32": (LINE_4K_READ, "randread", 100, "4k", 32, 1),
    # Writes carry incompressible data on both sides (iomark full-random, fio's default random
    # buffers): zram does less work for compressible data, which would flatter either tool.
    "database-qd32-2w": ("8192,100,67,100,0,1,0,0", "randrw", 67, "8k", 32, 2),
    "64k-seqread-qd8": ("65536,100,100,0,0,1,0,0", "read", 100, "64k", 8, 1),
}
QD1_ONLY_PEERS = ("fio-psync", "fio-pvsync2")
CEILING = "syscall-ceiling"

# --profile: perf's cpu-clock (the one event a virtual machine always has) at a rate off the
# kernel's tick, so that the samples do not beat with it.
PERF_FREQUENCY = 997
# Where a kernel sample's time goes, by symbol: the driver or file system under the target (for
# a tmpfs file, its page cache and the copy out of it); the system call's way in and out of the
# kernel, with the interrupts delivered on that way (a paravirtual guest takes them in
# pvm_irq_enable); everything else (block layer, VFS).
TARGET_CODE = re.compile(r"^(zram_|zs_|zcomp|lzo|lz4|zstd|copy_page|obj_|loop_|lo_|ext4_|iomap_|jbd2|shmem_|"
                         r"filemap_|xas_|_copy_to_iter|_copy_from_iter)")
KERNEL_CROSSING = re.compile(r"^(pvm_|__raw_callee_save_pvm|entry_|syscall_|do_syscall|__x64_sys_|exit_to_user|"
                             r"irqentry_|asm_|sysvec_|__sysvec_|irq_exit|__irq_exit)")
PROFILE_PARTS = ("driver/fs", "syscall in/out + irq", "rest of kernel", "C library", "tool's code", "off CPU")


def run_sampled(command, ramp, duration, stdout=subprocess.PIPE, perf_data=None):
    """Runs command; returns (stdout, the process's CPU seconds per second inside the window).
    With perf_data, `perf record` samples the process's threads through the same window."""
    process = subprocess.Popen(command, stdout=stdout, stderr=subprocess.PIPE, text=True)
    samples = {}

    def sample():
        try:
            time.sleep(ramp + 1)
            samples["start"] = (time.monotonic(), cpu_seconds(process.pid))
            # perf takes a while to attach and to write its data: a second of the window for it.
            window = max(duration - (3 if perf_data else 2), 1)
            if perf_data:
                # The tool's own process only: a run-local's calibration trials and start-up, and
                # other processes, stay out of the profile.
                recorded = subprocess.run(["perf", "record", "-q", "-e", "cpu-clock", "-F", str(PERF_FREQUENCY),
                                           "-p", str(process.pid), "-o", perf_data, "--", "sleep", str(window)],
                                          stdout=subprocess.DEVNULL, stderr=subprocess.PIPE, text=True)
                if recorded.returncode != 0:
                    print(f"[bench] perf record -p {process.pid} failed ({recorded.returncode}): "
                          f"{recorded.stderr.strip()[-500:]}", file=sys.stderr, flush=True)
            else:
                time.sleep(window)
            samples["end"] = (time.monotonic(), cpu_seconds(process.pid))
        except (FileNotFoundError, ProcessLookupError):
            pass

    sampler = threading.Thread(target=sample)
    sampler.start()
    stdout, stderr = process.communicate()
    sampler.join()
    if process.returncode != 0:
        sys.exit(f"command failed ({process.returncode}): {' '.join(command)}\n{stderr}")
    if "end" not in samples:
        sys.exit(f"the run ended before its window was sampled: {' '.join(command)}")
    (t0, c0), (t1, c1) = samples["start"], samples["end"]
    return stdout, (c1 - c0) / (t1 - t0)


def all_row_figures(results, cpu, who):
    """(IOPS, CPU-us per I/O, average latency in us) from the ALL row of an IOmeter results.csv."""
    with open(results) as text:
        for row in csv.reader(io.StringIO(text.read())):
            if row and row[0] == "ALL":
                iops, avg_ms = float(row[6]), float(row[17])
                return iops, cpu / iops * 1e6, avg_ms * 1000
    sys.exit(f"{who} wrote no ALL row")


def is_block_device(path):
    """A device node, not a file that merely lives under /dev (such as /dev/shm)."""
    return stat.S_ISBLK(os.stat(path).st_mode)


def run_iomark(agent, target, case, ramp, duration, choices, perf_data=None):
    line, _, _, _, qd, workers = case
    with tempfile.TemporaryDirectory() as scratch:
        results = os.path.join(scratch, "results.csv")
        command = [agent, "run-local", "--target", target, "--spec-line", line, "--qd", str(qd), "--workers",
                   str(workers), "--ramp", str(ramp), "--time", str(duration), "--data-pattern", "full-random",
                   "--results", results]
        if is_block_device(target):
            command.append("--allow-destructive")  # a device this bench made and fills itself
        stdout, cpu = run_sampled(command, ramp, duration, perf_data=perf_data)
        chosen = re.search(r"^engine Worker 1: (\S+)", stdout, re.MULTILINE)
        choices.add(chosen.group(1) if chosen else "?")
        return all_row_figures(results, cpu, "iomark")


def worker_cpus(workers):
    """The CPUs iomark's default pinning gives `workers` workers: worker i on CPU i."""
    return f"0-{workers - 1}" if workers > 1 else "0"


def run_fio(engine, target, case, ramp, duration, pin, perf_data=None):
    _, rw, mix, bs, qd, workers = case
    pinning = [f"--cpus_allowed={worker_cpus(workers)}", "--cpus_allowed_policy=split"] if pin else []
    command = ["fio", *pinning, "--name=bench", f"--filename={target}", f"--ioengine={engine}", "--direct=1", f"--rw={rw}",
               f"--rwmixread={mix}", f"--bs={bs}", f"--iodepth={qd}", f"--numjobs={workers}", "--thread",
               "--group_reporting", "--time_based", f"--runtime={duration}", f"--ramp_time={ramp}",
               "--norandommap", "--randrepeat=0", "--output-format=json"]
    output, cpu = run_sampled(command, ramp, duration, perf_data=perf_data)
    job = json.loads(output[output.index("{"):])["jobs"][0]
    iops = job["read"]["iops"] + job["write"]["iops"]
    ios = job["read"]["total_ios"] + job["write"]["total_ios"]
    lat_us = (job["read"]["lat_ns"]["mean"] * job["read"]["total_ios"] +
              job["write"]["lat_ns"]["mean"] * job["write"]["total_ios"]) / max(ios, 1) / 1e3
    return iops, cpu / iops * 1e6, lat_us


def run_ceiling(ceiling, target, case, ramp, duration, perf_data=None):
    """iomark-syscall-ceiling on CPU 0 (where iomark's worker 1 runs): one syscall per I/O, nothing else."""
    command = ["taskset", "-c", worker_cpus(1), ceiling, target, case[0].split(",")[0], str(ramp), str(duration)]
    output, cpu = run_sampled(command, ramp, duration, perf_data=perf_data)
    figures = json.loads(output)
    return figures["iops"], cpu / figures["iops"] * 1e6, figures["avg_us"]


def time_per_io(perf_data, figures):
    """Splits one profiled run's time per I/O (us; QD 1, one worker: 1/IOPS) by where perf's
    samples fell, in the shares of the process's CPU per I/O; what is left is time off the CPU
    (waiting for a device or a kernel thread)."""
    iops, cpu_us, _ = figures
    report = subprocess.run(["perf", "report", "-i", perf_data, "--no-children", "--sort", "dso,sym", "-q",
                             "--percent-limit", "0", "-t", "\t"], capture_output=True, text=True, check=True).stdout
    parts = dict.fromkeys(PROFILE_PARTS, 0.0)
    for line in report.splitlines():
        fields = [field.strip() for field in line.split("\t")]
        if len(fields) != 3 or not fields[0].endswith("%"):
            continue
        share, dso, symbol = float(fields[0][:-1]) / 100, fields[1], fields[2]
        name = symbol[4:]
        if symbol.startswith("[k]"):
            part = ("driver/fs" if TARGET_CODE.match(name) else
                    "syscall in/out + irq" if KERNEL_CROSSING.match(name) else "rest of kernel")
        else:
            part = "C library" if dso.startswith("libc.") else "tool's code"
        parts[part] += share * cpu_us
    parts["off CPU"] = max(1e6 / iops - cpu_us, 0.0)
    return 1e6 / iops, parts


def profile_case(name, case, profiled):
    """Runs each of `profiled` (tool -> runner taking perf_data) once more under perf and prints the split."""
    print(f"\n{name}: where the time per I/O goes (us; one more run each, perf -e cpu-clock -F {PERF_FREQUENCY} "
          "on the tool's process inside the window; samples taken on the way back from a system call land in "
          "the C library's wrapper)")
    print(f"{'tool':<16} {'per I/O':>8} " + " ".join(f"{part:>{len(part)}}" for part in PROFILE_PARTS))
    with tempfile.TemporaryDirectory() as scratch:
        for tool, run in profiled.items():
            perf_data = os.path.join(scratch, "perf.data")
            figures = run(case, perf_data)
            if not os.path.exists(perf_data):
                print(f"{tool:<16} perf recorded nothing (its error is on stderr)")
                continue
            total, parts = time_per_io(perf_data, figures)
            print(f"{tool:<16} {total:>8.2f} " + " ".join(f"{parts[part]:>{len(part)}.2f}" for part in PROFILE_PARTS))
            os.remove(perf_data)


def dynamo_plan(device, qd, ramp, duration):
    """A one-manager IOmeter 1.1.0 plan: Dynamo "dyn1", one worker, 4 KiB random reads at `qd` on `device`."""
    return "".join([
        "Version 1.1.0 \n",
        "'TEST SETUP ====================================================================\n",
        f"'Test Description\n\tengine-vs-fio\n'Run Time\n'\thours      minutes    seconds\n\t0          0          {duration}\n",
        f"'Ramp Up Time (s)\n\t{ramp}\n'Default Disk Workers to Spawn\n\t1\n'Default Network Workers to Spawn\n\t0\n",
        "'Record Results\n\tALL\n'Worker Cycling\n'\tstart      step       step type\n\t1          1          LINEAR\n",
        "'Disk Cycling\n'\tstart      step       step type\n\t1          1          LINEAR\n",
        f"'Queue Depth Cycling\n'\tstart      end        step       step type\n\t{qd}          {qd}          2          EXPONENTIAL\n",
        "'Test Type\n\tCYCLE_OUTSTANDING_IOS\n'END test setup\n",
        "'ACCESS SPECIFICATIONS =========================================================\n",
        "'Access specification name,default assignment\n\t4K random read,NONE\n",
        "'size,% of size,% reads,% random,delay,burst,align,reply\n\t4096,100,100,100,0,1,4096,0\n",
        "'END access specifications\n",
        "'MANAGER LIST ==================================================================\n",
        "'Manager ID, manager name\n\t1,dyn1\n'Manager network address\n\t\n",
        "'Worker\n\tWorker 1\n'Worker type\n\tDISK\n'Default target settings for worker\n",
        "'Number of outstanding IOs,test connection rate,transactions per connection,use fixed seed,fixed seed value\n"
        f"\t{qd},DISABLED,1,DISABLED,0\n",
        "'Disk maximum size,starting sector,Data pattern\n\t0,0,0\n'End default target settings for worker\n",
        "'Assigned access specs\n\t4K random read\n'End assigned access specs\n",
        f"'Target assignments\n'Target\n\t{device}\n'Target type\n\tDISK\n'End target\n'End target assignments\n",
        "'End worker\n'End manager\n'END manager list\nVersion 1.1.0 \n",
    ])


def run_dynamo(iomark, dynamo, target, case, ramp, duration, pin):
    """Dynamo 1.1.0 driven by `iomark run --legacy-dynamo`; its own process's CPU, IOPS and latency from results.csv."""
    _, _, _, _, qd, _ = case
    with tempfile.TemporaryDirectory() as scratch:
        plan, results, log = (os.path.join(scratch, name) for name in ("plan.icf", "results.csv", "controller.err"))
        with open(plan, "w") as out:
            out.write(dynamo_plan(target, qd, ramp, duration))
        empty = os.path.join(scratch, "empty")
        open(empty, "w").close()
        controller = subprocess.Popen([iomark, "run", plan, "--legacy-dynamo", "127.0.0.1:0", "--wait-managers", "1",
                                       "--wait-timeout", "60", "--insecure", "--results", results],
                                      stdout=subprocess.DEVNULL, stderr=open(log, "w"))
        try:
            listening = wait_for_line(log, r"Dynamo logins on 127\.0\.0\.1:(\d+)", 30, controller)
            if not listening:
                sys.exit("the controller did not listen: " + open(log).read())
            # Dynamo sees no other device or file system than the target: nothing else is touched.
            command = (["taskset", "-c", worker_cpus(case[5])] if pin else []) + ["unshare", "--mount", "--propagation", "private", "sh", "-c",
                       f"mount --bind {empty} /proc/partitions && MNTTAB={empty} exec {dynamo} -i 127.0.0.1 "
                       f"-p {listening.group(1)} -m 127.0.0.1 -n dyn1 -d {target}"]
            _, cpu = run_sampled(command, ramp, duration, stdout=subprocess.DEVNULL)
            controller.wait(timeout=60)
        finally:
            if controller.poll() is None:
                controller.kill()
                controller.wait()
        if controller.returncode != 0:
            sys.exit(f"the Dynamo series failed ({controller.returncode}): " + open(log).read()[-2000:])
        return all_row_figures(results, cpu, "the Dynamo series")


def dynamo_skip_reason(args, case):
    """Why Dynamo does not run this case, or None."""
    if not args.dynamo:
        return "no Dynamo (../shared/tools/build-dynamo missing)"
    if case[0] != LINE_4K_READ:
        return "4 KiB random-read cases only"
    if not is_block_device(args.target):
        return "block devices only (Dynamo would need an iobw.tst of its own)"
    return None


def verdict(name, ours, theirs, qd):
    """Whether a case meets the targets against the best peer: IOPS at least 1.1x, CPU per I/O
    at most 0.9x, and at queue depth 1 a latency no higher."""
    misses = []
    if ours[0] < 1.1 * theirs[0]:
        misses.append("IOPS < 1.1x")
    if ours[1] > 0.9 * theirs[1]:
        misses.append("CPU/IO > 0.9x")
    if qd == 1 and ours[2] > theirs[2]:
        misses.append("latency > 1x")
    return "meets the targets" if not misses else "below target: " + ", ".join(misses)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--target-note", default="")
    parser.add_argument("--time", type=int, default=10)
    parser.add_argument("--ramp", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--cases", default=",".join(CASES))
    parser.add_argument("--iomark", help="the iomark controller that drives Dynamo")
    parser.add_argument("--dynamo", help="a Dynamo 1.1.0 binary; empty: no Dynamo column")
    parser.add_argument("--ceiling", help="iomark-syscall-ceiling: the QD 1 read case also shows one pread per I/O "
                        "and nothing else, on iomark's CPU, the most IOPS that allows; empty: no ceiling row")
    parser.add_argument("--pin-peers", action="store_true",
                        help="pin fio's jobs and Dynamo to the CPUs iomark pins its workers to")
    parser.add_argument("--profile", action="store_true",
                        help="QD 1 cases: one more run of iomark, the best fio peer and the ceiling under perf, "
                        "printing where each one's time per I/O goes")
    args = parser.parse_args()
    fio_version = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
    peers = "pinned to the CPUs of iomark's workers" if args.pin_peers else "unpinned"
    print(f"target: {args.target_note or args.target}; {fio_version}; {args.time} s runs after {args.ramp} s "
          f"ramp-up; median of {args.rounds} alternating rounds; CPU = the tool's own process; "
          f"load average before: {os.getloadavg()[0]:.1f} on {os.cpu_count()} CPUs; peers "
          f"{peers}", flush=True)
    if not args.dynamo:
        print("dynamo: skipped (no Dynamo binary: ../shared/tools/build-dynamo is missing)", flush=True)
    header = f"{'case':<18} {'tool':<22} {'IOPS':>10} {'CPU-us/IO':>10} {'avg us':>8}"
    rows = []
    for name in args.cases.split(","):
        case = CASES[name]
        qd = case[4]
        choices = set()
        tools = {"iomark": lambda c, p=None: run_iomark(args.agent, args.target, c, args.ramp, args.time, choices, p)}
        for engine in ("psync", "pvsync2", "libaio", "io_uring"):
            if qd == 1 or f"fio-{engine}" not in QD1_ONLY_PEERS:
                tools[f"fio-{engine}"] = lambda c, p=None, e=engine: run_fio(e, args.target, c, args.ramp, args.time,
                                                                             args.pin_peers, p)
        dynamo_skipped = dynamo_skip_reason(args, case)
        if not dynamo_skipped:
            tools["dynamo"] = lambda c: run_dynamo(args.iomark, args.dynamo, args.target, c, args.ramp, args.time,
                                                  args.pin_peers)
        if args.ceiling and qd == 1 and case[5] == 1 and case[2] == 100:
            tools[CEILING] = lambda c, p=None: run_ceiling(args.ceiling, args.target, c, args.ramp, args.time, p)
        measured = {tool: [] for tool in tools}
        for _ in range(args.rounds):
            for tool, run in tools.items():
                measured[tool].append(run(case))
        medians = {tool: tuple(statistics.median(v[i] for v in values) for i in range(3))
                   for tool, values in measured.items()}
        print(f"\n{header}")
        for tool, (iops, cpu, lat) in medians.items():
            label = f"iomark({'/'.join(sorted(choices))})" if tool == "iomark" else tool
            print(f"{name:<18} {label:<22} {iops:>10.0f} {cpu:>10.2f} {lat:>8.1f}")
        if dynamo_skipped:
            print(f"{name:<18} {'dynamo':<22} {'skipped':>10} ({dynamo_skipped})")
        ours = medians["iomark"]
        for other in (t for t in medians if t != "iomark"):
            theirs = medians[other]
            if other == CEILING:
                print(f"{'':<18} iomark/{other}: IOPS x{ours[0] / theirs[0]:.2f} (the ceiling is no peer: one syscall "
                      f"per I/O and nothing else)")
                continue
            print(f"{'':<18} iomark/{other}: IOPS x{ours[0] / theirs[0]:.2f}, CPU/IO x{ours[1] / theirs[1]:.2f}, "
                  f"latency x{ours[2] / theirs[2]:.2f}")
        rows.append((name, qd, medians, "/".join(sorted(choices))))
        if args.profile and qd == 1 and case[5] == 1:
            best_fio = max((t for t in medians if t.startswith("fio-")), key=lambda t: medians[t][0])
            profile_case(name, case, {tool: tools[tool] for tool in ("iomark", best_fio, CEILING) if tool in tools})
        sys.stdout.flush()
    print(f"\nsummary (iomark vs the best peer by IOPS; load average after: {os.getloadavg()[0]:.1f})")
    for name, qd, medians, engine in rows:
        best = max((t for t in medians if t not in ("iomark", CEILING)), key=lambda t: medians[t][0])
        ours, theirs = medians["iomark"], medians[best]
        ceiling = ""
        if CEILING in medians:
            ceiling = (f"  (ceiling: {medians[CEILING][0] / theirs[0]:.2f}x {best}, "
                       f"iomark at {ours[0] / medians[CEILING][0]:.2f} of it)")
        print(f"  {name:<18} auto={engine:<10} vs {best:<12} IOPS x{ours[0] / theirs[0]:.2f}  "
              f"CPU/IO x{ours[1] / theirs[1]:.2f}  latency x{ours[2] / theirs[2]:.2f}  "
              f"{verdict(name, ours, theirs, qd)}{ceiling}")


if __name__ == "__main__":
    main()
