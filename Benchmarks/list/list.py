#!/usr/bin/env python3
"""The movie list over a large catalog (issue 37's numbers), against release builds of `movies`.

Starts two servers on fresh SQLite databases: one seeded with `movies generate-catalog COUNT` (100,000 by default),
one with 20 movies. Against them, from one client process:

  first page       `GET /` of the large list: its bytes, its movie rows, its time (median of --pages GETs).
  memory           the server's RSS (settled) before and after opening one live list screen (its page, a shared
                   stream, the screen attached), on the large server and on the small one: the difference of the
                   two deltas is what a long list costs a screen; then four more screens on the large server.
  change unseen    with one screen attached, a rating PATCH of the movie that sorts last (out of every window):
                   the bytes the stream receives in the next second (heartbeats aside); then a PATCH of the first
                   movie, which must arrive (the stream works).
  CSV              `GET /movies.csv`: the time to its first byte, its size and time, and the server's RSS sampled
                   while it streams, against the settled RSS before.
  range fetch      --fetches `POST /screens/{sid}/rows` at random places: the time from sending each to its 204,
                   which the server answers after reading the 100 rows by range and building the window's patch
                   (server time plus a loopback round trip); p50 / p99 / max.

Every process it starts is stopped by its pid. Python's standard library and Benchmarks/screens/screens.py.

Usage: list.py --bin .build/release/movies [--count 100000] [--port 18110] [--fetches 500]
"""
import argparse
import os
import random
import re
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse
import urllib.request

HERE = os.path.dirname(os.path.abspath(__file__))
ROOT = os.path.dirname(os.path.dirname(HERE))
sys.path.insert(0, os.path.join(HERE, "..", "screens"))
import screens  # noqa: E402

# A list page has no form with a csrf field: its token is on <html>.
screens.CSRF = re.compile(rb'<html[^>]* data-csrf="([^"]+)"')
TABLE_ID = re.compile(rb'<ul[^>]* id="([^"]+)"[^>]* data-table-window=')
TABLE_ID_AFTER = re.compile(rb'<ul[^>]* data-table-window="[^"]*"[^>]* id="([^"]+)"')


def start(binary, folder, name, catalog, port):
    database = os.path.join(folder, f"{name}.sqlite")
    process = subprocess.Popen(
        [binary, "--root", ROOT, "--port", str(port), "--database", database, "--catalog", catalog,
         "--log-level", "error", "--no-access-log"], stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
    end = time.time() + 180
    while time.time() < end:
        try:
            with urllib.request.urlopen(f"http://127.0.0.1:{port}/healthz", timeout=2) as response:
                if response.status == 200:
                    return process
        except OSError:
            time.sleep(0.2)
    process.kill()
    sys.exit(f"the {name} server did not start")


def settled_rss(pid):
    screens.wait_until_settled(pid)
    time.sleep(0.5)
    return screens.rss_kib(pid)


def get(port, path):
    request = urllib.request.Request(f"http://127.0.0.1:{port}{path}", headers={"Cookie": screens.BROWSER_COOKIE[8:].strip()})
    with urllib.request.urlopen(request, timeout=60) as response:
        return response.read()


def patch(port, movie, rating):
    request = urllib.request.Request(
        f"http://127.0.0.1:{port}/api/movies/{movie}", data=f'{{"rating": {rating}}}'.encode(), method="PATCH",
        headers={"Content-Type": "application/json"})
    with urllib.request.urlopen(request, timeout=30) as response:
        assert response.status == 200


def open_live_lists(port, count):
    loop = screens.Loop()
    opened = screens.open_screens(loop, port, count, "/")
    streams, _ = screens.open_shared_streams(loop, port, opened, 1)
    time.sleep(0.5)
    screens.discard_opening(loop, streams)
    return loop, opened, streams


def stream_bytes(loop, streams, seconds):
    """The bytes of events other than heartbeats the streams receive within `seconds`."""
    end = time.time() + seconds
    received = 0
    while time.time() < end:
        for fd, _ in loop.poll(0.1):
            data = bytes(loop.buffers[fd])
            loop.buffers[fd].clear()
            received += sum(len(block) for block in data.split(b"\n\n") if block.strip() and not block.startswith(b":"))
    return received


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--bin", default=os.path.join(ROOT, ".build", "release", "movies"))
    parser.add_argument("--count", type=int, default=100_000)
    parser.add_argument("--port", type=int, default=18110)
    parser.add_argument("--pages", type=int, default=9)
    parser.add_argument("--fetches", type=int, default=500)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="screenplay-list-bench-")
    large_catalog = os.path.join(folder, "large.json")
    small_catalog = os.path.join(folder, "small.json")
    with open(large_catalog, "wb") as output:
        subprocess.run([args.bin, "generate-catalog", str(args.count)], stdout=output, check=True)
    with open(small_catalog, "wb") as output:
        subprocess.run([args.bin, "generate-catalog", "20"], stdout=output, check=True)
    large = small = None
    print(f"load average at the start: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
    try:
        started = time.perf_counter()
        large = start(args.bin, folder, "large", large_catalog, args.port)
        print(f"start-up with {args.count:,} movies (seeding a new database): {time.perf_counter() - started:.1f} s")
        small = start(args.bin, folder, "small", small_catalog, args.port + 1)

        # First page.
        times, page = [], b""
        for _ in range(args.pages):
            began = time.perf_counter()
            page = get(args.port, "/")
            times.append((time.perf_counter() - began) * 1000)
        rows = page.count(b'class="movie-card"')
        print(f"first page: {len(page) / 1024:.1f} KiB, {rows} movie rows, GET / median {statistics.median(times):.1f} ms "
              f"(max {max(times):.1f})")
        last_page = get(args.port, f"/?page={(args.count + 99) // 100}")
        last_movie = int(re.findall(rb'href="/movies/(\d+)"', last_page)[-1])
        first_movie = int(re.findall(rb'href="/movies/(\d+)"', page)[0])

        # Memory: one screen on each server, then four more on the large one.
        small_before = settled_rss(small.pid)
        small_loop, _, small_streams = open_live_lists(args.port + 1, 1)
        small_delta = settled_rss(small.pid) - small_before
        large_before = settled_rss(large.pid)
        loop, opened, streams = open_live_lists(args.port, 1)
        large_delta = settled_rss(large.pid) - large_before
        print(f"one live list screen: +{large_delta / 1024:.2f} MiB with {args.count:,} movies, "
              f"+{small_delta / 1024:.2f} MiB with 20: difference {(large_delta - small_delta) / 1024:.2f} MiB")
        more_loop, _, more_streams = open_live_lists(args.port, 4)
        five_delta = settled_rss(large.pid) - large_before
        print(f"five live list screens: +{five_delta / 1024:.2f} MiB")

        # A change nobody sees, then one everybody sees.
        screens.discard_opening(loop, streams)
        patch(args.port, last_movie, 0.1)
        unseen = stream_bytes(loop, streams, 1.0)
        patch(args.port, first_movie, 0.2)
        seen = stream_bytes(loop, streams, 1.0)
        print(f"a change to the last movie (out of view): {unseen} bytes on the stream; to the first: {seen} bytes")

        # Range fetches.
        screen = opened[0]
        table = TABLE_ID.search(page) or TABLE_ID_AFTER.search(page)
        if not table:
            sys.exit("the list's table has no id")
        connection = socket.create_connection(("127.0.0.1", args.port))
        connection.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        latencies = []
        buffer = bytearray()
        for _ in range(args.fetches):
            first = random.randrange(0, args.count)
            body = urllib.parse.urlencode({"csrf": screen.csrf, "table": table.group(1).decode(), "first": first}).encode()
            request = (f"POST {screen.path}/rows HTTP/1.1\r\nHost: bench\r\n{screens.BROWSER_COOKIE}"
                       f"Origin: http://bench\r\nContent-Type: application/x-www-form-urlencoded\r\n"
                       f"Content-Length: {len(body)}\r\n\r\n").encode() + body
            began = time.perf_counter()
            connection.sendall(request)
            while not (length := screens.http_response_complete(buffer)):
                buffer += connection.recv(65536)
            latencies.append((time.perf_counter() - began) * 1000)
            reply = bytes(buffer[:length])
            del buffer[:length]
            if not reply.startswith(b"HTTP/1.1 204"):
                sys.exit(f"rows refused: {reply[:300]!r}")
            screens.discard_opening(loop, streams)
        latencies.sort()
        print(f"range fetch of 100 rows, {args.fetches} at random places: p50 {screens.percentile(latencies, 0.5):.2f} ms, "
              f"p99 {screens.percentile(latencies, 0.99):.2f} ms, max {latencies[-1]:.2f} ms")
        connection.close()
        # The catalog as CSV: first byte, and the server's RSS while it streams, against the settled RSS before.
        for each in (more_loop,):
            each.close_all()
        idle = settled_rss(large.pid)
        csv = socket.create_connection(("127.0.0.1", args.port))
        began = time.perf_counter()
        csv.sendall(b"GET /movies.csv HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n")
        first_byte = None
        received = 0
        peak = idle
        samples = 0
        while True:
            data = csv.recv(65536)
            if not data:
                break
            if first_byte is None:
                first_byte = (time.perf_counter() - began) * 1000
            received += len(data)
            samples += 1
            if samples % 16 == 0:
                peak = max(peak, screens.rss_kib(large.pid))
        total = time.perf_counter() - began
        csv.close()
        print(f"CSV of {args.count:,} movies: {received / 1048576:.1f} MiB in {total:.2f} s, first byte after "
              f"{first_byte:.1f} ms; RSS at most +{(peak - idle) / 1024:.2f} MiB over the settled {idle / 1024:.1f} MiB")
        print(f"load average at the end: {' '.join(f'{value:.2f}' for value in os.getloadavg())}")
        for each in (loop, small_loop):
            each.close_all()
    finally:
        for process in (large, small):
            if process:
                process.terminate()
                process.wait()


if __name__ == "__main__":
    main()
