#!/usr/bin/env python3
"""Compares two benchmark runs' figures (the JSON files `make bench` writes, see Benchmarks/figures.py).

Usage: Benchmarks/compare.py OLD.json NEW.json [--threshold PERCENT] [--changed]
       Benchmarks/compare.py Benchmarks/results/20261202T101500Z-0bf287f.json Benchmarks/results/latest.json

Prints both runs' revision, date, machine and load, then one line per figure: the old value, the new one, the change
and the change in per cent. A change of at least --threshold per cent (10 by default: single runs of the same build
move about that much on a shared two-core machine) is marked with `*`; whether it is better or worse depends on the
figure (requests/s up is better, ms or bytes up is worse). --changed prints only the marked figures. Figures that
only one run has are listed after the others. Python's standard library only.
"""
import argparse
import json
import signal
import sys


def load(path):
    try:
        with open(path) as f:
            run = json.load(f)
    except (OSError, ValueError) as error:
        sys.exit(f"compare.py: cannot read {path}: {error}")
    if not isinstance(run, dict) or not isinstance(run.get("figures"), list):
        sys.exit(f"compare.py: {path} has no figures (is it a file `make bench` wrote?)")
    return run


def describe(label, path, run):
    git = run.get("git") or {}
    machine = run.get("machine") or {}
    load = (run.get("load_average") or {}).get("start")
    revision = (git.get("revision") or "unknown")[:12] + (" (uncommitted changes)" if git.get("dirty") else "")
    cpu = f"{machine.get('cpus', '?')} × {machine.get('cpu', 'unknown CPU')}"
    print(f"{label}: {path}")
    print(f"     {revision}, {run.get('started') or '?'} to {run.get('finished') or '?'}; {cpu}, "
          f"kernel {machine.get('kernel', '?')}" + (f"; load average at the start {load[0]:.2f}" if load else ""))


def number(value, sign=False):
    plus = "+" if sign else ""
    if isinstance(value, int) or float(value).is_integer() or abs(value) >= 1000:
        return f"{value:{plus},.0f}" if float(value).is_integer() else f"{value:{plus},.1f}"
    return f"{value:{plus}.4g}"


def main():
    parser = argparse.ArgumentParser(description="Compare two benchmark runs' figures.")
    parser.add_argument("old")
    parser.add_argument("new")
    parser.add_argument("--threshold", type=float, default=10, help="mark changes of at least this many per cent")
    parser.add_argument("--changed", action="store_true", help="print only the marked figures")
    args = parser.parse_args()
    signal.signal(signal.SIGPIPE, signal.SIG_DFL)  # quietly, when piped into head
    old, new = load(args.old), load(args.new)
    describe("old", args.old, old)
    describe("new", args.new, new)
    machines = [(run.get("machine") or {}) for run in (old, new)]
    if any(machines[0].get(key) != machines[1].get(key) for key in ("cpu", "cpus", "kernel")):
        print("     the two runs are from different machines or kernels: compare ratios, not absolute figures")
    print()

    before = {f["name"]: f for f in old["figures"]}
    after = {f["name"]: f for f in new["figures"]}
    names = [f["name"] for f in new["figures"] if f["name"] in before]
    width = max([len(name) for name in names] + [6])
    print(f"{'figure':<{width}}  {'old':>12}  {'new':>12}  {'change':>12}  {'%':>8}  unit")
    marked = 0
    for name in names:
        a, b = before[name], after[name]
        unit = b.get("unit", "")
        if a.get("unit", "") != unit:
            print(f"{name:<{width}}  {number(a['value']):>12}  {number(b['value']):>12}  {'':>12}  {'':>8}  "
                  f"{a.get('unit')} → {unit}: not compared")
            continue
        change = b["value"] - a["value"]
        if a["value"]:
            percent = 100 * change / abs(a["value"])
            shown = f"{percent:+.1f}"
        else:
            percent = 0 if change == 0 else float("inf")
            shown = "" if change == 0 else "new ≠ 0"
        mark = abs(percent) >= args.threshold
        marked += mark
        if args.changed and not mark:
            continue
        print(f"{name:<{width}}  {number(a['value']):>12}  {number(b['value']):>12}  {number(change, sign=True):>12}  "
              f"{shown:>8}  {unit}{'  *' if mark else ''}")
    only_old = [name for name in before if name not in after]
    only_new = [name for name in after if name not in before]
    print(f"\n{len(names)} figures in both runs, {marked} changed by {args.threshold:g}% or more (marked *)")
    if only_old:
        print("only in the old run: " + ", ".join(only_old))
    if only_new:
        print("only in the new run: " + ", ".join(only_new))


if __name__ == "__main__":
    main()
