"""What the benchmarks share: reading a process's CPU, memory and descriptors from /proc,
waiting for a log line, a free loopback port, a key file, and stopping what they started."""
import os
import re
import signal
import socket
import subprocess
import time

TICKS = os.sysconf("SC_CLK_TCK")


def _stat_fields(pid):
    with open(f"/proc/{pid}/stat") as stat:
        return stat.read().rsplit(")", 1)[1].split()


def cpu_seconds(pid):
    fields = _stat_fields(pid)
    return (int(fields[11]) + int(fields[12])) / TICKS  # utime + stime


def _status_kib(pid, key):
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith(key):
                return int(line.split()[1])
    return 0


def peak_rss_mib(pid):
    return _status_kib(pid, "VmHWM:") / 1024


def process_tree(pid):
    """pid and all its descendants (fio's server forks one process per job it runs)."""
    children = {}
    for entry in os.listdir("/proc"):
        if entry.isdigit():
            try:
                parent = int(_stat_fields(entry)[1])
            except (FileNotFoundError, ProcessLookupError, IndexError):
                continue
            children.setdefault(parent, []).append(int(entry))
    tree, pending = [], [pid]
    while pending:
        current = pending.pop()
        tree.append(current)
        pending.extend(children.get(current, []))
    return tree


def tree_rss_and_fds(pid):
    """Resident MiB and open descriptors of a process and its descendants; None once it is gone."""
    rss_kib, fds = 0, 0
    for member in process_tree(pid):
        try:
            rss_kib += _status_kib(member, "VmRSS:")
            fds += len(os.listdir(f"/proc/{member}/fd"))
        except (FileNotFoundError, ProcessLookupError):
            if member == pid:
                return None
    return rss_kib / 1024, fds


def wait_for_line(path, pattern, timeout, process):
    """The first match of pattern in the log at path, or None on timeout or when process ends."""
    deadline = time.monotonic() + timeout
    while time.monotonic() < deadline:
        with open(path) as log:
            match = re.search(pattern, log.read())
        if match:
            return match
        if process.poll() is not None:
            return None
        time.sleep(0.1)
    return None


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def write_key(path):
    with open(os.open(path, os.O_WRONLY | os.O_CREAT, 0o600), "w") as out:
        out.write(os.urandom(36).hex() + "\n")


def stop_all(processes, grace_s=10):
    """SIGTERM every process we started, then SIGKILL what is still there after grace_s."""
    for process in processes:
        if process.poll() is None:
            process.send_signal(signal.SIGTERM)
    for process in processes:
        try:
            process.wait(timeout=grace_s)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
