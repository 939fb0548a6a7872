"""iomark's data-reduction patterns against fio's on zram (bench/data-reduction).

4 KiB random writes at QD 32 on a zram device made fresh for every run: iomark-agent run-local
with compress:2, repeating and full-random, and fio with buffer_compress_percentage=50 (fio's
way to ask for 2:1), both on io_uring. Prints per case the median IOPS, CPU per I/O (the tool's
own process inside the recorded window, as bench/engine-vs-fio) and the ratio zram measured
(orig_data_size / compr_data_size from mm_stat, over the pages the run wrote), then iomark's
IOPS against fio's.
"""
import argparse
import errno
import csv
import io
import json
import os
import statistics
import subprocess
import sys
import tempfile
import time

from engine_vs_fio import run_sampled

SPEC_LINE = "4096,100,0,100,0,1,0,0"  # 4 KiB, 0 % read, 100 % random
IOMARK_PATTERNS = ("compress:2", "repeating", "full-random")
FIO_CASE = "fio-compress-50%"


class Zram:
    """A zram device of its own for one run, removed on exit whatever happens."""

    def __init__(self, size, algorithm):
        self.size, self.algorithm = size, algorithm

    def __enter__(self):
        with open("/sys/class/zram-control/hot_add") as hot_add:
            self.index = int(hot_add.read())
        try:
            if self.algorithm:
                self._set("comp_algorithm", self.algorithm)
            self._set("disksize", str(self.size))
        except OSError:
            self.__exit__()
            raise
        return f"/dev/zram{self.index}"

    def _set(self, name, value):
        with open(f"/sys/block/zram{self.index}/{name}", "w") as attribute:
            attribute.write(value)

    def ratio(self):
        with open(f"/sys/block/zram{self.index}/mm_stat") as stat:
            fields = [int(v) for v in stat.read().split()]
        orig, compr, same = fields[0], fields[1], fields[5]
        return orig / compr if compr else float("inf"), same

    def __exit__(self, *_):
        # udev may still hold the device for a moment after the tool closed it.
        for attempt in range(50):
            try:
                with open("/sys/class/zram-control/hot_remove", "w") as hot_remove:
                    hot_remove.write(str(self.index))
                return
            except OSError as error:
                if error.errno != errno.EBUSY or attempt == 49:
                    raise
                time.sleep(0.1)


def run_iomark(agent, device, pattern, ramp, duration):
    with tempfile.TemporaryDirectory() as scratch:
        results = os.path.join(scratch, "results.csv")
        command = [agent, "run-local", "--target", device, "--spec-line", SPEC_LINE, "--qd", "32", "--engine",
                   "io_uring", "--ramp", str(ramp), "--time", str(duration), "--data-pattern", pattern,
                   "--results", results]
        _, cpu = run_sampled(command, ramp, duration)
        with open(results) as text:
            for row in csv.reader(io.StringIO(text.read())):
                if row and row[0] == "ALL":
                    return float(row[6]), cpu / float(row[6]) * 1e6
    sys.exit("iomark wrote no ALL row")


def run_fio(device, ramp, duration):
    command = ["fio", "--name=bench", f"--filename={device}", "--ioengine=io_uring", "--direct=1", "--rw=randwrite",
               "--bs=4k", "--iodepth=32", "--buffer_compress_percentage=50", "--thread", "--time_based",
               f"--runtime={duration}", f"--ramp_time={ramp}", "--norandommap", "--randrepeat=0",
               "--output-format=json"]
    output, cpu = run_sampled(command, ramp, duration)
    iops = json.loads(output[output.index("{"):])["jobs"][0]["write"]["iops"]
    return iops, cpu / iops * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--time", type=int, default=10)
    parser.add_argument("--ramp", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    parser.add_argument("--size", type=int, default=1 << 30, help="bytes of each zram device")
    parser.add_argument("--algorithm", default="", help="zram comp_algorithm (default: the kernel's)")
    args = parser.parse_args()
    fio_version = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"4 KiB random write QD 32, io_uring, on a fresh {args.size >> 20} MiB zram per run "
          f"({args.algorithm or 'default algorithm'}); {fio_version}; {args.time} s after {args.ramp} s ramp-up; "
          f"median of {args.rounds} alternating rounds; load average before: {os.getloadavg()[0]:.1f} "
          f"on {os.cpu_count()} CPUs", flush=True)
    cases = list(IOMARK_PATTERNS) + [FIO_CASE]
    measured = {case: [] for case in cases}
    for _ in range(args.rounds):
        for case in cases:
            zram = Zram(args.size, args.algorithm)
            with zram as device:
                if case == FIO_CASE:
                    iops, cpu = run_fio(device, args.ramp, args.time)
                else:
                    iops, cpu = run_iomark(args.agent, device, case, args.ramp, args.time)
                ratio, same = zram.ratio()
            measured[case].append((iops, cpu, ratio, same))
    print(f"\n{'case':<18} {'IOPS':>10} {'CPU-us/IO':>10} {'zram ratio':>11} {'same pages':>11}")
    medians = {}
    for case in cases:
        medians[case] = tuple(statistics.median(run[i] for run in measured[case]) for i in range(4))
        iops, cpu, ratio, same = medians[case]
        print(f"{case:<18} {iops:>10.0f} {cpu:>10.2f} {ratio:>10.2f}:1 {same:>11.0f}")
    fio = medians[FIO_CASE]
    print(f"\niomark against fio buffer_compress_percentage=50 (target IOPS >= 1.0x at the same ratio); "
          f"load average after: {os.getloadavg()[0]:.1f}")
    for case in IOMARK_PATTERNS:
        ours = medians[case]
        print(f"  {case:<14} IOPS x{ours[0] / fio[0]:.2f}  CPU/IO x{ours[1] / fio[1]:.2f}  "
              f"zram ratio {ours[2]:.2f}:1 vs {fio[2]:.2f}:1")


if __name__ == "__main__":
    main()
