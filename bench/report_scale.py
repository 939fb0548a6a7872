"""A report of many runs x managers: an IOmeter 1.1.0 results.csv of RUNS runs on
MANAGERS managers is made from the rows of a fixture, `iomark report` turns it into HTML, and
headless chromium loads it and takes a screenshot (layout and paint of every chart), ROUNDS
times, as it does an empty page. Prints the times (the best counts: the machine's other load
only ever adds), the load average and the size; fails when the report is over 5 MB or the best
chromium time is over 5 s."""
import argparse
import os
import subprocess
import sys
import tempfile
import time

LIMIT_BYTES = 5 * 1000 * 1000
LIMIT_SECONDS = 5.0


def results_csv(fixture, runs, managers, specs):
    """The fixture's series header, then RUNS results blocks of an ALL row and MANAGERS MANAGER
    rows: IOPS rising with the queue depth, each manager an equal share."""
    lines = open(fixture).read().splitlines()
    header_at = next(i for i, line in enumerate(lines) if line.startswith("'Target Type"))
    header = lines[header_at]
    columns = [name.lstrip("'") for name in header.split(",")]
    column = {name: i for i, name in enumerate(columns)}
    all_row = next(line for line in lines if line.startswith("ALL,")).split(",")
    manager_row = next(line for line in lines if line.startswith("MANAGER,")).split(",")
    head = lines[:lines.index("'Results")]
    out = head[:]
    per_spec = runs // specs
    for run in range(runs):
        spec = f"spec {run // per_spec + 1} of {specs}"
        depth = run % per_spec + 1
        iops = 1000.0 * depth / (1 + depth / 32)
        rows = []
        for kind, template, name, share in [("ALL", all_row, "All", 1.0)] + [
                ("MANAGER", manager_row, f"array-{m + 1}", 1.0 / managers) for m in range(managers)]:
            row = template[:]
            row[column["Target Type"]] = kind
            row[column["Target Name"]] = name
            row[column["Access Specification Name"]] = spec
            row[column["IOps"]] = f"{iops * share:.6f}"
            row[column["Read IOps"]] = f"{iops * share:.6f}"
            row[column["MBps (Decimal)"]] = f"{iops * share * 4096 / 1e6:.6f}"
            row[column["Average Response Time"]] = f"{depth / iops * 1000 * managers:.6f}"
            row[column["Queue Depth"]] = str(depth)
            if kind == "ALL":
                row[column["# Managers"]] = str(managers)
            rows.append(",".join(row))
        out += ["'Results", header] + rows + ["'Time Stamp", "2026-11-25 12:00:00:000"]
    out.append("'End Test")
    return "\n".join(out) + "\n"


def chromium_seconds(browser, page, screenshot):
    with tempfile.TemporaryDirectory() as profile:
        started = time.monotonic()
        subprocess.run([browser, "--headless", "--no-sandbox", "--disable-gpu", "--disable-quic", "--no-first-run",
                        "--disable-background-networking", "--disable-component-update", "--disable-sync",
                        f"--user-data-dir={profile}", f"--screenshot={screenshot}", "--window-size=1400,2400",
                        f"file://{page}"], check=True, capture_output=True, timeout=120)
        return time.monotonic() - started


def main():
    parser = argparse.ArgumentParser(description=__doc__)
    parser.add_argument("--iomark", required=True)
    parser.add_argument("--fixture", required=True)
    parser.add_argument("--browser", default="chromium")
    parser.add_argument("--runs", type=int, default=1000)
    parser.add_argument("--managers", type=int, default=8)
    parser.add_argument("--specs", type=int, default=10)
    parser.add_argument("--rounds", type=int, default=3)
    options = parser.parse_args()
    with tempfile.TemporaryDirectory() as work:
        csv = os.path.join(work, "results.csv")
        with open(csv, "w") as out:
            out.write(results_csv(options.fixture, options.runs, options.managers, options.specs))
        html = os.path.join(work, "report.html")
        started = time.monotonic()
        made = subprocess.run([options.iomark, "report", csv, "-o", html], check=True, capture_output=True, text=True)
        report_seconds = time.monotonic() - started
        size = os.path.getsize(html)
        empty = os.path.join(work, "empty.html")
        with open(empty, "w") as out:
            out.write("<!DOCTYPE html><html><body></body></html>\n")
        baselines, renders = [], []
        for _ in range(options.rounds):
            baselines.append(chromium_seconds(options.browser, empty, os.path.join(work, "empty.png")))
            renders.append(chromium_seconds(options.browser, html, os.path.join(work, "report.png")))
        rendered = min(renders)
        print(f"input: {options.runs} runs x {options.managers} managers, {options.specs} specs, "
              f"{os.path.getsize(csv)} bytes of results.csv")
        print(f"iomark report: {report_seconds:.2f} s ({made.stdout.strip()})")
        print(f"report size: {size} bytes ({size / LIMIT_BYTES:.0%} of the 5 MB limit)")
        print(f"chromium start + load + layout + screenshot: best {rendered:.2f} s of "
              f"{', '.join(f'{t:.2f}' for t in renders)} (an empty page: best {min(baselines):.2f} s of "
              f"{', '.join(f'{t:.2f}' for t in baselines)}; limit {LIMIT_SECONDS:.0f} s)")
        print(f"load average: {' '.join(f'{x:.2f}' for x in os.getloadavg())}")
        ok = size < LIMIT_BYTES and rendered < LIMIT_SECONDS
        print("PASS" if ok else "FAIL")
        return 0 if ok else 1


if __name__ == "__main__":
    sys.exit(main())
