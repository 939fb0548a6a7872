#!/usr/bin/env python3
"""One iomark controller driving many real iomark-agent processes over loopback TCP.

The agents log in like dynamo (-i), each runs WORKERS workers on the null engine with a
delay between I/Os (so 1,000 worker threads do not starve a 2-core machine), and every
agent pushes one sample per second. Reported: the controller's CPU (% of one core) while
the run records, its peak RSS, and whether every sample arrived (the agents number them,
the controller counts gaps).
"""
import argparse
import os
import re
import shutil
import subprocess
import sys
import tempfile
import time

from bench_support import cpu_seconds, free_port, peak_rss_mib, stop_all, wait_for_line, write_key


def measure(process, settle_s, until):
    """CPU % of one core and peak RSS of `process` from `settle_s` after now until until() or exit."""
    time.sleep(settle_s)
    start_wall, start_cpu = time.monotonic(), cpu_seconds(process.pid)
    last_wall, last_cpu, peak = start_wall, start_cpu, 0.0
    while process.poll() is None and not until():
        try:
            wall, cpu = time.monotonic(), cpu_seconds(process.pid)
            peak = max(peak, peak_rss_mib(process.pid))
            last_wall, last_cpu = wall, cpu
        except FileNotFoundError:
            break
        time.sleep(1)
    return 100.0 * (last_cpu - start_cpu) / max(last_wall - start_wall, 1e-9), peak, last_wall - start_wall


def fio_client_server(args, work):
    """The same shape with fio: one `fio --client` driving AGENTS `fio --server`s, each with
    WORKERS null-engine threads at the same rate, status pushed every second."""
    job = os.path.join(work, "job.fio")
    with open(job, "w") as out:
        out.write("[global]\nioengine=null\nthread=1\nsize=1m\nrw=randread\nbs=512\n"
                  f"rate_iops={1000 // max(args.delay_ms, 1)}\ntime_based=1\nruntime={args.time}\n"
                  f"[w]\nnumjobs={args.workers}\n")
    servers, client_args = [], []
    try:
        for i in range(args.agents):
            port = free_port()
            servers.append(subprocess.Popen(["fio", f"--server=ip:127.0.0.1,{port}"], stdout=subprocess.DEVNULL,
                                            stderr=subprocess.DEVNULL))
            client_args += [f"--client=ip:127.0.0.1,{port}", job]
        time.sleep(2)
        client = subprocess.Popen(["fio", "--status-interval=1", "--output-format=json"] + client_args,
                                  stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, "fio.err"), "w"))
        cpu, peak, seconds = measure(client, min(5, args.time / 4), lambda: False)
        client.wait(timeout=120)
        return cpu, peak, seconds, client.returncode
    finally:
        stop_all(servers)


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iomark", required=True)
    parser.add_argument("--agent", required=True)
    parser.add_argument("--agents", type=int, default=64)
    parser.add_argument("--workers", type=int, default=16)
    parser.add_argument("--time", type=int, default=120)
    parser.add_argument("--delay-ms", type=int, default=20, help="pause after each I/O of every worker")
    parser.add_argument("--max-cpu-percent", type=float, default=5.0)
    parser.add_argument("--max-rss-mib", type=float, default=150.0)
    parser.add_argument("--no-fio", action="store_true", help="skip the fio client/server comparison")
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="iomark-scale-")
    key = os.path.join(work, "key")
    write_key(key)
    target = os.path.join(work, "target.dat")
    with open(target, "wb") as out:
        out.truncate(1 << 20)
    controller_log = os.path.join(work, "controller.err")
    agents = []
    controller = subprocess.Popen(
        [args.iomark, "run", "--listen", "127.0.0.1:0", "--wait-managers", str(args.agents), "--wait-timeout", "180",
         "--key-file", key, "--target", target, "--engine", "null", "--workers", str(args.workers), "--qd", "1",
         "--spec-line", f"512,100,100,100,{args.delay_ms},1,0,0", "--ramp", "0", "--time", str(args.time),
         "--results", os.path.join(work, "results.csv")],
        stdout=subprocess.PIPE, stderr=open(controller_log, "w"), text=True)
    try:
        listening = wait_for_line(controller_log, r"agent\(s\) on 127\.0\.0\.1:(\d+)", 30, controller)
        if not listening:
            sys.exit("the controller did not listen: " + open(controller_log).read())
        port = listening.group(1)
        print(f"[bench] controller pid {controller.pid} on port {port}; starting {args.agents} agents", file=sys.stderr)
        for i in range(args.agents):
            agents.append(subprocess.Popen(
                [args.agent, "-i", f"127.0.0.1:{port}", "-n", f"agent{i:02d}", "--key-file", key, "--allow", target],
                stdout=subprocess.DEVNULL, stderr=open(os.path.join(work, f"agent{i:02d}.log"), "w")))
        if not wait_for_line(controller_log, r"run 1/1", 180, controller):
            sys.exit("the series did not start: " + open(controller_log).read()[-2000:])
        # Skip the first seconds of the run (assignment, start-up), then measure until the end.
        cpu_percent, peak, seconds = measure(controller, min(5, args.time / 4),
                                             lambda: "done:" in open(controller_log).read())
        output, _ = controller.communicate(timeout=120)
    finally:
        stop_all(agents)
        if controller.poll() is None:
            controller.kill()
            controller.wait()

    samples = re.search(r"samples: (\d+) received, (\d+) lost", output)
    if controller.returncode != 0 or not samples:
        sys.exit(f"the controller failed (exit {controller.returncode}):\n{output}\n" + open(controller_log).read()[-2000:])
    received, lost = int(samples.group(1)), int(samples.group(2))
    expected = args.agents * args.time
    print(f"controller scale: {args.agents} agents x {args.workers} workers (null engine, {args.delay_ms} ms delay), "
          f"1 s samples, {args.time} s run")
    print(f"  controller CPU while recording: {cpu_percent:.2f}% of one core over {seconds:.0f} s "
          f"(target <= {args.max_cpu_percent}%) {'ok' if cpu_percent <= args.max_cpu_percent else 'OVER'}")
    print(f"  controller peak RSS: {peak:.1f} MiB (target <= {args.max_rss_mib} MiB) "
          f"{'ok' if peak <= args.max_rss_mib else 'OVER'}")
    print(f"  samples: {received} received (about {expected} expected: agents x seconds), {lost} lost "
          f"{'ok' if lost == 0 and received >= expected * 0.95 else 'LOST'}")
    if not args.no_fio and shutil.which("fio"):
        fio_cpu, fio_peak, fio_seconds, fio_status = fio_client_server(args, work)
        if fio_status == 0:
            print(f"  fio 3 client/server, same shape: client CPU {fio_cpu:.2f}% over {fio_seconds:.0f} s, "
                  f"peak RSS {fio_peak:.1f} MiB")
            print(f"  iomark / fio: CPU x{cpu_percent / max(fio_cpu, 1e-9):.2f}, RSS x{peak / max(fio_peak, 1e-9):.2f}")
        else:
            print(f"  fio client/server failed (exit {fio_status}): " + open(os.path.join(work, "fio.err")).read()[-500:])
    ok = cpu_percent <= args.max_cpu_percent and peak <= args.max_rss_mib and lost == 0 and received >= expected * 0.95
    subprocess.run(["rm", "-rf", work])
    sys.exit(0 if ok else 1)


if __name__ == "__main__":
    main()
