"""What --verify costs (bench/verify-cost): 4 KiB random 70 % read QD 32 on one target, iomark
plain, iomark --verify and fio plain and with --verify=crc32c, alternating, medians of rounds.

iomark --verify stamps a 32-byte header (offset, generation, crc32c) into every 4 KiB block it
writes and checks every block it reads against the journal; the target is filled with stamped
blocks first, so every read of the timed run is judged. fio --verify=crc32c
--verify_backlog=N stores a crc32c header in every block it writes and reads back, every N
writes, the blocks it wrote: those verify reads are extra I/O on top of the workload (fio counts
them as reads), and the workload's own random reads are not checked. The two do not check the
same thing: iomark checks the workload's reads, fio re-reads its writes.

CPU per I/O: the tool's process (every thread, user + kernel), sampled inside the window, as in
bench/engine-vs-fio, divided by the IOPS it reports.
"""
import argparse
import csv
import io
import json
import os
import statistics
import subprocess
import tempfile

from engine_vs_fio import run_sampled

LINE = "4096,100,70,100,0,1,4096,0"
QD = 32


def fill_stamped(agent, target, engine, journal):
    """A new journal and every block stamped once, so that every read of the timed run is judged:
    the plain runs in between wrote blocks without headers. Full-random data, as every timed run
    writes: zram stores it as is, so reads cost the same copy for every tool (compressible fill
    data would make iomark's reads pay for decompression that fio's do not)."""
    if os.path.exists(journal):
        os.remove(journal)
    subprocess.run([agent, "run-local", "-q", "--target", target, "--spec-line", "1048576,100,0,0,0,1,1048576,0",
                    "--qd", "4", "--time", "3", "--verify", "--verify-journal", journal, "--allow-destructive",
                    "--engine", engine, "--data-pattern", "full-random"], check=True, stdout=subprocess.DEVNULL)


def run_iomark(agent, target, engine, ramp, duration, journal):
    if journal:
        fill_stamped(agent, target, engine, journal)
    with tempfile.TemporaryDirectory() as scratch:
        results = os.path.join(scratch, "results.csv")
        command = [agent, "run-local", "--target", target, "--spec-line", LINE, "--qd", str(QD), "--engine", engine,
                   "--ramp", str(ramp), "--time", str(duration), "--data-pattern", "full-random",
                   "--results", results, "--allow-destructive"]
        if journal:
            command += ["--verify", "--verify-journal", journal]
        _, cpu = run_sampled(command, ramp, duration)
        with open(results) as text:
            for row in csv.reader(io.StringIO(text.read())):
                if row and row[0] == "ALL":
                    if int(row[27]) != 0:
                        raise SystemExit(f"iomark counted {row[27]} errors: {' '.join(command)}")
                    return float(row[6]), cpu / float(row[6]) * 1e6


def run_fio(target, engine, ramp, duration, verify):
    command = ["fio", "--name=bench", f"--filename={target}", f"--ioengine={engine}", "--direct=1", "--rw=randrw",
               "--rwmixread=70", "--bs=4k", f"--iodepth={QD}", "--thread", "--time_based", f"--runtime={duration}",
               f"--ramp_time={ramp}", "--randrepeat=0", "--output-format=json"]
    if verify:
        # Without verify_state_save=0 fio leaves a local-bench-0-verify.state in whatever directory
        # the bench was started from.
        command += ["--verify=crc32c", "--verify_backlog=1024", "--verify_fatal=1", "--verify_state_save=0"]
    else:
        command += ["--norandommap"]
    output, cpu = run_sampled(command, ramp, duration)
    job = json.loads(output[output.index("{"):])["jobs"][0]
    if job.get("error", 0) != 0:
        raise SystemExit(f"fio reported error {job['error']}: {' '.join(command)}")
    iops = job["read"]["iops"] + job["write"]["iops"]
    return iops, cpu / iops * 1e6


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--agent", required=True)
    parser.add_argument("--target", required=True)
    parser.add_argument("--journal", required=True, help="iomark's verify journal (a file the bench removes)")
    parser.add_argument("--engine", default="linux-aio", help="iomark's engine; fio gets the same (libaio, io_uring)")
    parser.add_argument("--time", type=int, default=10)
    parser.add_argument("--ramp", type=int, default=2)
    parser.add_argument("--rounds", type=int, default=3)
    args = parser.parse_args()
    fio_engine = {"linux-aio": "libaio", "io_uring": "io_uring"}.get(args.engine, "psync")
    fio_version = subprocess.run(["fio", "--version"], capture_output=True, text=True).stdout.strip()
    print(f"target {args.target}; 4 KiB random, 70 % read, QD {QD}; iomark --engine {args.engine}, fio "
          f"--ioengine={fio_engine} ({fio_version}); {args.time} s after {args.ramp} s ramp-up; median of "
          f"{args.rounds} alternating rounds; load average before: {os.getloadavg()[0]:.2f}", flush=True)
    tools = {
        "iomark": lambda: run_iomark(args.agent, args.target, args.engine, args.ramp, args.time, None),
        "iomark --verify": lambda: run_iomark(args.agent, args.target, args.engine, args.ramp, args.time, args.journal),
        "fio": lambda: run_fio(args.target, fio_engine, args.ramp, args.time, False),
        "fio --verify=crc32c": lambda: run_fio(args.target, fio_engine, args.ramp, args.time, True),
    }
    measured = {tool: [] for tool in tools}
    for _ in range(args.rounds):
        for tool, run in tools.items():
            measured[tool].append(run())
    medians = {tool: (statistics.median(v[0] for v in values), statistics.median(v[1] for v in values))
               for tool, values in measured.items()}
    print(f"\n| tool | IOPS | CPU µs per I/O |\n|---|---:|---:|")
    for tool, (iops, cpu) in medians.items():
        print(f"| {tool} | {iops:.0f} | {cpu:.2f} |")
    ours, plain, fio = medians["iomark --verify"], medians["iomark"], medians["fio --verify=crc32c"]
    print(f"\n--verify vs plain iomark: IOPS x{ours[0] / plain[0]:.2f}, CPU/IO x{ours[1] / plain[1]:.2f}")
    print(f"iomark --verify vs fio --verify=crc32c: IOPS x{ours[0] / fio[0]:.2f}, CPU/IO x{ours[1] / fio[1]:.2f} "
          f"(target IOPS >= 1.0x)")
    print(f"load average after: {os.getloadavg()[0]:.2f}")


if __name__ == "__main__":
    main()
