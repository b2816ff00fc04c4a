#!/usr/bin/env python3
"""What a unit of work asks of the allocator and of reference counting, from a callgrind dump.

Reads a dump that `profile.sh --keep DIR` left (`DIR/callgrind.out.pages`, or `.fanout`) and prints, per unit
(page or screen): the calls to malloc, free, the Swift runtime's object allocation and deallocation, and its
retains and releases; then the retains and releases by the module of the function that made them, and the
functions that made the most. Callgrind records calls exactly, so these counts repeat from run to run, as the
instruction counts do; a change that removes allocations or reference counting shows here by name.

With --callers TEXT: instead, the functions that call any function whose name (mangled, as callgrind records it)
contains TEXT, with the calls per unit, and which function they call.

Usage: Benchmarks/screens/census.py DUMP [--units 300] [--top 30] [--callers TEXT]
Needs: python3, and `swift demangle` (the toolchain) for readable names (mangled names are printed without it).
"""

import argparse
import collections
import re
import shutil
import subprocess
import sys

ALLOCATION = ["malloc", "free", "swift_allocObject", "swift_deallocClassInstance", "swift_slowAlloc",
              "swift_slowDealloc"]
REFERENCE_COUNTING = ["swift_retain", "swift_release", "swift_bridgeObjectRetain", "swift_bridgeObjectRelease",
                      "swift_unknownObjectRetain", "swift_unknownObjectRelease", "swift_retain_n",
                      "swift_release_n", "swift_unownedRetain", "swift_unownedRelease", "swift_unownedRetainStrong"]
MODULES = ["Reactive", "Screenplay", "MovieApp", "ViewKit", "HTTPServer", "Primitives"]

NAMED = re.compile(r"^c?fn=\((\d+)\)(?: (.*))?$")


def read_calls(path):
    """Calls by (caller, callee), summed over the dump's contexts (callgrind compresses names to numbers after
    their first appearance; `fn=` opens a caller's records, `cfn=` names the callee of the `calls=` line after it).
    """
    names = {}
    caller = callee = None
    calls = collections.Counter()
    with open(path, errors="replace") as dump:
        for line in dump:
            if line.startswith("fn=") or line.startswith("cfn="):
                match = NAMED.match(line.rstrip("\n"))
                if not match:
                    continue
                number, name = match.groups()
                if name:
                    names[number] = name
                if line.startswith("fn="):
                    caller = names.get(number)
                else:
                    callee = names.get(number)
            elif line.startswith("calls=") and callee is not None:
                calls[(caller, callee)] += int(line[6:].split()[0])
                callee = None
    return calls


def demangler(names):
    """Readable names for `names`, through one `swift demangle` process; the names themselves without it."""
    names = list(names)
    tool = shutil.which("swift")
    if not tool or not names:
        return {name: name for name in names}
    # A recursion marker (`'2`) is callgrind's, not the symbol's.
    bare = [name.split("'")[0] for name in names]
    result = subprocess.run([tool, "demangle", "--compact"], input="\n".join(bare) + "\n", capture_output=True,
                            text=True)
    lines = result.stdout.splitlines()
    if result.returncode != 0 or len(lines) != len(names):
        return {name: name for name in names}
    return dict(zip(names, lines))


def module_of(readable):
    for module in MODULES:
        if module + "." in readable:
            return module
    return "runtime and standard library"


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n")[0])
    parser.add_argument("dump")
    parser.add_argument("--units", type=int, default=300, help="pages (or screens) the dump counts (default 300)")
    parser.add_argument("--top", type=int, default=30, help="how many functions to list")
    parser.add_argument("--callers", metavar="TEXT", help="list the callers of the functions whose names hold TEXT")
    args = parser.parse_args()

    calls = read_calls(args.dump)
    if not calls:
        sys.exit(f"{args.dump}: no calls recorded (is it a callgrind dump?)")
    if args.callers:
        found = collections.Counter({pair: count for pair, count in calls.items() if args.callers in pair[1]})
        readable = demangler({name for pair in found for name in pair if name is not None})
        for (caller, callee), count in found.most_common(args.top):
            print(f"{count / args.units:8.1f}  {readable.get(caller, caller)[:110]}\n          -> {readable[callee][:110]}")
        return
    by_callee = collections.Counter()
    counting_callers = collections.Counter()
    for (caller, callee), count in calls.items():
        by_callee[callee] += count
        # A bridged retain or release calls the native one: count the outer call only.
        if callee in REFERENCE_COUNTING and caller is not None and caller.split("'")[0] not in REFERENCE_COUNTING:
            counting_callers[caller] += count

    per = float(args.units)
    print(f"per unit ({args.units} units in the dump):")
    for name in ALLOCATION + REFERENCE_COUNTING:
        if by_callee[name]:
            print(f"  {name:28} {by_callee[name] / per:10.1f}")
    total = sum(counting_callers.values())
    print(f"  {'retains and releases made':28} {total / per:10.1f}  (a bridged one calling a native one counted once)")

    readable = demangler(counting_callers)
    modules = collections.Counter()
    for caller, count in counting_callers.items():
        modules[module_of(readable[caller])] += count
    print("\nretains and releases by the caller's module, per unit:")
    for module, count in modules.most_common():
        print(f"  {module:28} {count / per:10.1f}")
    print(f"\nthe {args.top} functions making the most, per unit:")
    for caller, count in counting_callers.most_common(args.top):
        print(f"  {count / per:8.1f}  {readable[caller][:160]}")


if __name__ == "__main__":
    main()
