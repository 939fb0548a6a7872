#!/usr/bin/env python3
"""The controller's CPU per manager per update: 8 real Dynamo 1.1.0 processes (legacy wire,
each update ~0.9 MB per worker) next to 8 iomark agents (iomark.v1 samples), same shape.

Both runs: one worker per manager, 4 KiB random reads at queue depth 1 (no delay: Dynamo
1.1.0 with a 20 ms delay did no I/O here and never answered STOP) on a 32 MiB iobw.tst in a
temp directory, 1 s updates, a recording of --time s.
Dynamo sees only that directory (MNTTAB names a mount table holding it alone). Reported:
the controller's CPU while recording, in % of one core and in microseconds per manager per
update (CPU seconds / (managers x seconds)).
"""
import argparse
import os
import subprocess
import sys
import tempfile

from bench_support import stop_all, wait_for_line, write_key
from controller_scale import measure


def run_series(args, work, key, kind):
    """One series with MANAGERS managers of `kind` ("dynamo" or "agent"); returns CPU % of one core and seconds."""
    target = os.path.join(work, "target")
    log = os.path.join(work, f"{kind}-controller.err")
    command = [args.iomark, "run", "--wait-managers", str(args.managers), "--wait-timeout", "120",
               "--key-file", key, "--target", target, "--qd", "1", "--spec-line", "4096,100,100,100,0,1,0,0",
               "--ramp", "1", "--time", str(args.time), "--size", "32M",
               "--results", os.path.join(work, f"{kind}.csv")]
    command += ["--legacy-dynamo", "127.0.0.1:0"] if kind == "dynamo" else ["--listen", "127.0.0.1:0"]
    controller = subprocess.Popen(command, stdout=subprocess.PIPE, stderr=open(log, "w"), text=True)
    managers = []
    try:
        pattern = r"Dynamo logins on 127\.0\.0\.1:(\d+)" if kind == "dynamo" else r"agent\(s\) on 127\.0\.0\.1:(\d+)"
        listening = wait_for_line(log, pattern, 30, controller)
        if not listening:
            sys.exit("the controller did not listen: " + open(log).read())
        port = listening.group(1)
        for i in range(args.managers):
            name = f"{kind}{i:02d}"
            if kind == "dynamo":
                argv = [args.dynamo, "-i", "127.0.0.1", "-p", port, "-m", "127.0.0.1", "-n", name]
                env = dict(os.environ, MNTTAB=os.path.join(work, "mtab"))
            else:
                argv = [args.agent, "-i", f"127.0.0.1:{port}", "-n", name, "--key-file", key, "--allow", target]
                env = None
            managers.append(subprocess.Popen(argv, env=env, stdout=subprocess.DEVNULL,
                                             stderr=open(os.path.join(work, f"{name}.log"), "w")))
        if not wait_for_line(log, r"run 1/1", 120, controller):
            sys.exit("the series did not start: " + open(log).read()[-2000:])
        cpu_percent, _, seconds = measure(controller, 2, lambda: "done:" in open(log).read())
        controller.communicate(timeout=120)
    finally:
        stop_all(managers)
        if controller.poll() is None:
            controller.kill()
            controller.wait()
    if controller.returncode != 0:
        sys.exit(f"the {kind} series failed (exit {controller.returncode}): " + open(log).read()[-2000:])
    return cpu_percent, seconds


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iomark", required=True)
    parser.add_argument("--agent", required=True)
    parser.add_argument("--dynamo", required=True, help="a Dynamo 1.1.0 binary (../shared/tools/build-dynamo)")
    parser.add_argument("--managers", type=int, default=8)
    parser.add_argument("--time", type=int, default=30)
    args = parser.parse_args()

    work = tempfile.mkdtemp(prefix="iomark-legacy-scale-")
    key = os.path.join(work, "key")
    write_key(key)
    target = os.path.join(work, "target")
    os.mkdir(target)
    with open(os.path.join(target, "iobw.tst"), "wb") as out:
        out.write(os.urandom(32 << 20))
    fstype = subprocess.run(["stat", "-f", "-c", "%T", target], capture_output=True, text=True).stdout.strip()
    with open(os.path.join(work, "mtab"), "w") as out:
        out.write(f"iomark-bench {target} {fstype} rw 0 0\n")

    print(f"controller CPU per manager per update: {args.managers} managers x 1 worker, 1 s updates, "
          f"{args.time} s recording")
    results = {}
    for kind in ("dynamo", "agent"):
        cpu_percent, seconds = run_series(args, work, key, kind)
        per_update_us = 1e6 * (cpu_percent / 100.0) / args.managers  # CPU s per second / managers, 1 update/s
        results[kind] = per_update_us
        print(f"  {kind:6s}: controller CPU {cpu_percent:.2f}% of one core over {seconds:.0f} s "
              f"= {per_update_us:.0f} us per manager per update")
    print(f"  Dynamo / iomark agent: x{results['dynamo'] / max(results['agent'], 1e-9):.2f}")
    subprocess.run(["rm", "-rf", work])


if __name__ == "__main__":
    main()
