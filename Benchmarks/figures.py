#!/usr/bin/env python3
"""The benchmarks' figures as JSON, so that a later run can be compared with this one (Benchmarks/compare.py).

While Benchmarks/run.sh runs (`make bench`), the environment variable BENCH_FIGURES names a scratch file. The scripts
append one line to it for each figure they print: from Python through `record(name, value, unit)`, from the shell
through `figures.py add`. At the end `figures.py write DIR` gathers those lines, with the machine, the git revision
and the dates, into DIR/<date>-<revision>.json and a copy DIR/latest.json. Without BENCH_FIGURES nothing is
recorded and the scripts print what they always printed. Python's standard library only.

  figures.py begin [ARGUMENTS...]   start the record: the time, the load average, the revision, the run's arguments
  figures.py add NAME VALUE UNIT    one figure; a VALUE that is not a number is left out, with a warning
  figures.py scan reactive|viewkit  copy standard input to standard output, recording the figures of the Reactive or
                                    ViewKit micro-benchmark's lines (their executables print text only)
  figures.py write DIR              write the JSON file and DIR/latest.json, and print the file's path

The JSON file:
  {"format": "screenplay-benchmarks/1", "started": "...Z", "finished": "...Z", "arguments": [...],
   "git": {"revision": "<40 hex digits>", "dirty": false}, "machine": {...}, "load_average": {"start": [...],
   "end": [...]}, "figures": [{"name": "fanout.1000.p99", "value": 17.5, "unit": "ms"}, ...]}
"""
import datetime
import json
import math
import os
import platform
import re
import shutil
import subprocess
import sys

FORMAT = "screenplay-benchmarks/1"
ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def record(name, value, unit):
    """Appends one figure to the file BENCH_FIGURES names; does nothing without it, or for a value that is no number."""
    path = os.environ.get("BENCH_FIGURES")
    if not path:
        return
    if isinstance(value, bool) or not isinstance(value, (int, float)) or not math.isfinite(value):
        print(f"figures: {name} left out, not a number: {value!r}", file=sys.stderr)
        return
    if isinstance(value, float):
        value = round(value, 4)
    with open(path, "a") as f:
        f.write(json.dumps({"figure": {"name": name, "value": value, "unit": unit}}, ensure_ascii=False) + "\n")


def now():
    return datetime.datetime.now(datetime.timezone.utc).strftime("%Y-%m-%dT%H:%M:%SZ")


def output(command, timeout=20):
    """The first line a command prints (standard output, else standard error), or None."""
    try:
        done = subprocess.run(command, capture_output=True, text=True, timeout=timeout, cwd=ROOT)
    except (OSError, subprocess.SubprocessError):
        return None
    text = (done.stdout.strip() or done.stderr.strip()) if done.returncode == 0 else ""
    return text.splitlines()[0].strip() if text else None


def machine():
    info = {"cpus": os.cpu_count(), "architecture": platform.machine(), "kernel": platform.release()}
    try:
        with open("/proc/cpuinfo") as f:
            for line in f:
                if line.startswith("model name"):
                    info["cpu"] = line.split(":", 1)[1].strip()
                    break
    except OSError:
        pass
    try:
        lscpu = subprocess.run(["lscpu"], capture_output=True, text=True, timeout=10).stdout
        fields = dict(line.split(":", 1) for line in lscpu.splitlines() if ":" in line)
        for key, name in (("CPU family", "cpu_family"), ("Model", "cpu_model"), ("Thread(s) per core", "threads_per_core"),
                          ("Hypervisor vendor", "hypervisor")):
            if key in fields:
                info[name] = fields[key].strip()
    except (OSError, subprocess.SubprocessError):
        pass
    try:
        with open("/proc/meminfo") as f:
            kib = int(next(line for line in f if line.startswith("MemTotal")).split()[1])
        info["memory_gib"] = round(kib / 1024 / 1024, 1)
    except (OSError, StopIteration, ValueError):
        pass
    try:
        with open("/etc/os-release") as f:
            release = dict(line.rstrip("\n").split("=", 1) for line in f if "=" in line)
        info["os"] = release.get("PRETTY_NAME", "").strip('"') or None
    except OSError:
        pass
    nginx = shutil.which("nginx") or ("/usr/sbin/nginx" if os.access("/usr/sbin/nginx", os.X_OK) else None)
    info["tools"] = {
        "swift": output([os.environ.get("SWIFT", "swift"), "--version"]),
        "nginx": output([nginx, "-v"]) if nginx else None,
        "libmicrohttpd": output(["dpkg-query", "-W", "-f", "${Version}", "libmicrohttpd-dev"]),
        "python": platform.python_version(),
    }
    return info


def git():
    revision = output(["git", "rev-parse", "HEAD"])
    status = None
    try:
        done = subprocess.run(["git", "status", "--porcelain", "--untracked-files=no"], capture_output=True,
                              text=True, timeout=20, cwd=ROOT)
        status = done.stdout if done.returncode == 0 else None
    except (OSError, subprocess.SubprocessError):
        pass
    return {"revision": revision, "dirty": bool(status.strip()) if status is not None else None}


def scratch():
    path = os.environ.get("BENCH_FIGURES")
    if not path:
        sys.exit("figures.py: BENCH_FIGURES is not set")
    return path


def begin(arguments):
    meta = {"started": now(), "arguments": arguments, "git": git(), "machine": machine(),
            "load_average": [round(v, 2) for v in os.getloadavg()]}
    with open(scratch(), "a") as f:
        f.write(json.dumps({"begin": meta}, ensure_ascii=False) + "\n")


def add(name, value, unit):
    if not os.environ.get("BENCH_FIGURES"):
        return
    try:
        number = float(value)
    except ValueError:
        print(f"figures: {name} left out, not a number: {value!r}", file=sys.stderr)
        return
    record(name, int(number) if number.is_integer() and "." not in value else number, unit)


# The micro-benchmarks' lines, by how they start: the figure's name, and one name per unit printed after the colon.
MICRO = {
    "reactive": [
        ("onNext through map", "reactive.chain_on_next", {}),
        ("subscribe + dispose", "reactive.subscribe_dispose", {}),
        ("BehaviorRelay.accept", "reactive.relay_accept_1000_subscribers", {}),
        ("Driver element hopped", "reactive.driver_hop", {}),
    ],
    "viewkit": [
        ("template instantiation", "viewkit.instantiate", {"trees/s": "trees", "views/s": "views"}),
        ("full-page render", "viewkit.render", {"pages/s": "pages", "views/s": "views", "MB/s": "bytes"}),
        ("instantiate + fill + render", "viewkit.build_and_render", {"pages/s": "pages", "µs/page": "time"}),
    ],
}
VALUE = re.compile(r"(\d+(?:\.\d+)?) (µs/page|trees/s|views/s|pages/s|MB/s|ns|µs)\b")


def scan(kind):
    for line in sys.stdin:
        sys.stdout.write(line)
        sys.stdout.flush()
        text = line.strip()
        for start, name, by_unit in MICRO[kind]:
            if text.startswith(start) and ":" in text:
                for value, unit in VALUE.findall(text.rsplit(":", 1)[1]):
                    if by_unit:
                        if unit in by_unit:
                            record(f"{name}.{by_unit[unit]}", float(value), unit)
                    else:  # one time per operation, in ns or µs
                        record(name, float(value), unit)
                break


def write(directory):
    meta, figures = {}, {}
    with open(scratch()) as f:
        for line in f:
            line = line.strip()
            if not line:
                continue
            entry = json.loads(line)
            if "begin" in entry:
                meta = entry["begin"]
            elif "figure" in entry:
                figure = entry["figure"]
                if figure["name"] in figures:
                    print(f"figures: {figure['name']} recorded twice; the last value is kept", file=sys.stderr)
                    del figures[figure["name"]]
                figures[figure["name"]] = figure
    if not meta:
        meta = {"started": None, "arguments": None, "git": git(), "machine": machine(), "load_average": None}
    result = {
        "format": FORMAT,
        "started": meta["started"],
        "finished": now(),
        "arguments": meta["arguments"],
        "git": meta["git"],
        "machine": meta["machine"],
        "load_average": {"start": meta["load_average"], "end": [round(v, 2) for v in os.getloadavg()]},
        "figures": list(figures.values()),
    }
    os.makedirs(directory, exist_ok=True)
    stamp = result["finished"].replace("-", "").replace(":", "")
    revision = (result["git"]["revision"] or "unknown")[:7]
    path = os.path.join(directory, f"{stamp}-{revision}.json")
    text = json.dumps(result, indent=2, ensure_ascii=False) + "\n"
    for target in (path, os.path.join(directory, "latest.json")):
        with open(target + ".tmp", "w") as f:
            f.write(text)
        os.replace(target + ".tmp", target)
    print(f"== {len(figures)} figures written to {path} (and latest.json beside it); "
          f"compare two runs with Benchmarks/compare.py OLD.json NEW.json")


def main():
    if len(sys.argv) >= 2 and sys.argv[1] == "begin":
        begin(sys.argv[2:])
    elif len(sys.argv) == 5 and sys.argv[1] == "add":
        add(*sys.argv[2:])
    elif len(sys.argv) == 3 and sys.argv[1] == "scan" and sys.argv[2] in MICRO:
        scan(sys.argv[2])
    elif len(sys.argv) == 3 and sys.argv[1] == "write":
        write(sys.argv[2])
    else:
        sys.exit(__doc__.split("\n\n")[2])


if __name__ == "__main__":
    main()
