#!/usr/bin/env python3
"""Opens N event streams to HTTPBenchmarkServer, leaves them idle, and reports the server's CPU
use and thread count while they sit there; then broadcasts one event and times its delivery to all.

Usage: idle_streams.py --port 18080 --streams 10000 --pid <server pid> [--seconds 10] [--figures NAME]
  --figures NAME records the figures as NAME.* for Benchmarks/run.sh's JSON file (Benchmarks/figures.py).
"""
import argparse
import os
import resource
import selectors
import socket
import sys
import time


def cpu_seconds(pid):
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    ticks = os.sysconf("SC_CLK_TCK")
    return (int(fields[11]) + int(fields[12])) / ticks  # utime + stime


def status(pid, key):
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(key + ":"):
                return line.split(":", 1)[1].strip()
    return "?"


def read_until(selector, sockets, marker, deadline):
    """Reads every socket until its buffer holds `marker`; returns how many did."""
    buffers = {s.fileno(): b"" for s in sockets}
    waiting = {s.fileno() for s in sockets}
    while waiting and time.time() < deadline:
        for key, _ in selector.select(timeout=0.5):
            fd = key.fd
            if fd not in waiting:
                key.fileobj.recv(65536)
                continue
            data = key.fileobj.recv(65536)
            if not data:
                waiting.discard(fd)
                continue
            buffers[fd] += data
            if marker in buffers[fd]:
                waiting.discard(fd)
    return len(sockets) - len(waiting)


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--streams", type=int, default=10000)
    parser.add_argument("--pid", type=int, required=True)
    parser.add_argument("--seconds", type=float, default=10)
    parser.add_argument("--figures", metavar="NAME", help="record the figures as NAME.* (Benchmarks/figures.py)")
    args = parser.parse_args()
    figures = []

    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))

    selector = selectors.DefaultSelector()
    sockets = []
    start = time.time()
    request = b"GET /events HTTP/1.1\r\nHost: bench\r\nAccept: text/event-stream\r\n\r\n"
    for _ in range(args.streams):
        s = socket.create_connection(("127.0.0.1", args.port))
        s.sendall(request)
        s.setblocking(False)
        selector.register(s, selectors.EVENT_READ)
        sockets.append(s)
    connected = read_until(selector, sockets, b"data: connected", time.time() + 60)
    opening = time.time() - start
    print(f"streams open: {connected}/{args.streams} in {opening:.1f} s")
    figures += [("streams", args.streams, "streams"), ("open", connected, "streams"), ("opening", opening, "s")]

    time.sleep(1)
    cpu_before, wall_before = cpu_seconds(args.pid), time.time()
    time.sleep(args.seconds)
    cpu = cpu_seconds(args.pid) - cpu_before
    wall = time.time() - wall_before
    threads, rss = status(args.pid, "Threads"), status(args.pid, "VmRSS")
    print(f"idle server CPU over {wall:.0f} s: {100 * cpu / wall:.2f}% of one core "
          f"({cpu:.2f} CPU-seconds); threads: {threads}; RSS: {rss}")
    figures.append(("idle_cpu", 100 * cpu / wall, "% of one core"))
    if threads.isdigit():
        figures.append(("threads", int(threads), "threads"))
    if rss.split() and rss.split()[0].isdigit():
        figures.append(("rss", int(rss.split()[0]) / 1024, "MiB"))

    start = time.time()
    with socket.create_connection(("127.0.0.1", args.port)) as trigger:
        trigger.sendall(b"GET /broadcast HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
        trigger.recv(4096)
    delivered = read_until(selector, sockets, b"data: broadcast", time.time() + 60)
    broadcast = 1000 * (time.time() - start)
    print(f"broadcast delivered to {delivered}/{connected} streams in {broadcast:.0f} ms")
    figures += [("broadcast_delivered", delivered, "streams"), ("broadcast", broadcast, "ms")]
    if args.figures:
        sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
        from figures import record
        for name, value, unit in figures:
            record(f"{args.figures}.{name}", value, unit)

    for s in sockets:
        s.close()


if __name__ == "__main__":
    main()
