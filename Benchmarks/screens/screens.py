#!/usr/bin/env python3
"""Live-screen measurements against a running `movies` server, from one epoll event loop.

  fanout   N detail screens of one movie, each with its event stream; PATCH the rating through the API and time,
           for every stream, the arrival of the patch carrying the new value. Reports p50/p99/max, how many of N
           received it, the server's RSS (idle sessions, then sessions with streams), the patch's bytes on the wire
           and this client's own CPU time. A PATCH of the next movie first warms the fresh server's request path.
           The timed part runs in fanout_wait.c (compiled with `cc` on first use), which inherits the stream sockets:
           a C epoll loop costs the shared cores a few µs a stream where this Python loop cost about 7.
           --shared K: K screens a stream instead of a stream per screen: N/K shared streams (`GET /streams`), K screens
           attached to each (`POST /streams/<id>/screens`); every screen's own patch event on its stream is one
           arrival, so the figures are over N screens either way. --preload P: first P page loads of the movie that
           never open or attach a stream (a crawler, closed tabs), the server left to settle, then the fan-out;
           with --preload-changes C, C changes of the movie's rating come between them.
           --record FILE appends one line of figures (for run.sh's medians over rounds).
           --figures NAME (fanout, changes, action) records the figures printed, named NAME.*, for the JSON file of
           Benchmarks/run.sh (Benchmarks/figures.py; only while BENCH_FIGURES names a file).
  instances  Several `movies` instances on one PostgreSQL database (--instance NAME=PORT:PID:STREAMS, repeated):
           STREAMS detail screens of one movie with their event streams on each, one PATCH of the rating sent to
           --write (default the first), and for every stream on every instance the time from sending it to the
           arrival of the new value; the writer's screens get the change from it directly, the others' through
           PostgreSQL's NOTIFY. One fanout_wait reads every instance's streams. Per instance: p50/p99, its CPU, and
           from its /metrics the commit-to-delivery time of this change (movies_change_delivery_seconds) and the
           notifications it heard; PostgreSQL's CPU with --postgres-pid. A PATCH of the next movie first warms the
           writer and every listener. --record FILE appends a JSON line.
  idle     N detail screens with their event streams, then left alone for --seconds (heartbeats every 15 s):
           the server's CPU over the idle time, its threads, RSS per screen+stream, and whether every stream is
           still open and heard its heartbeats.
  changes  N detail screens of one movie (no streams), then --changes PATCHes of its rating, each left to reach every
           screen (the server's CPU settled) before the next: the server's RSS before and after, per screen. Each
           screen keeps its last 32 events for a reconnecting page, so this is what a screen of a movie that changes
           comes to hold.
  action   One screen: POST .../actions/refresh from script (X-Requested-With: fetch) and time the first patch on
           its stream; the refresh's patches' bytes on the wire.
  pages    Waits for the server to answer (up to --timeout seconds), then --pages sequential GETs of the movie's
           detail page on one keep-alive connection, each a session that stays; fails on any other status than 200.
           For the valgrind scripts (profile.sh, memory.sh).
  live     N live screens of the movie (--streams) on shared streams of --shared, held until the server settles:
           for the heap's peak under DHAT (memory.sh).
  scale    N screens (--streams) over shared streams of --shared (10 by default), 99% on --movie and 1% on the next:
           the server's RSS a screen, its CPU idle for --seconds (heartbeats), then a change of the 1%'s movie and
           one of the 99%'s, each timed to the last delivery (scale.sh runs it at 100,000).

No thread per connection: every socket is non-blocking and registered with one epoll set.

Usage: screens.py fanout --port P --pid SERVER_PID --streams 1000 [--shared 10] [--preload 10000]
       screens.py instances --instance a=P:PID:1000 --instance b=P:PID:1000 --instance c=P:PID:1000 --write a
       screens.py idle --port P --pid SERVER_PID --streams 10000 --seconds 60
       screens.py changes --port P --pid SERVER_PID --streams 10000 --changes 40
       screens.py action --port P --iterations 500
       screens.py pages --port P --pages 300 --timeout 120
       screens.py scale --port P --pid SERVER_PID --streams 100000 --shared 10 --seconds 35
"""
import argparse
import collections
import hashlib
import html
import http.client
import json
import os
import re
import resource
import select
import socket
import statistics
import subprocess
import sys
import tempfile
import time
import urllib.parse

SID = re.compile(rb'<html[^>]* data-screen="([^"]+)"')
CSRF = re.compile(rb'name="csrf" value="([^"]+)"')
# Wire protocol v2's attributes on <html>: what a tab names when it attaches its screen to a shared stream.
SCREEN_ID = re.compile(rb'<html[^>]* data-screen="([^"]+)"')
SCREEN_URL = re.compile(rb'<html[^>]* data-screen-url="([^"]+)"')
LAST_EVENT_ID = re.compile(rb'<html[^>]* data-last-event-id="([^"]*)"')
RENDER = re.compile(rb'<html[^>]* data-render="([^"]*)"')
# The browser every request comes from, as its identity cookie: a page's token is signed for the browser it was
# rendered for, and the live screen is built from it when the page attaches (or posts).
BROWSER_COOKIE = "Cookie: screenplay_browser=benchBrowserAAAAAAAAAA\r\n"
STREAM_ID = re.compile(rb'event: stream\ndata: \{"stream":"([^"]+)"')

# One screen as its page shows it: its path stem (/screens/<sid>), the CSRF token, the screen id, its URL and the
# last event id and render digest it was rendered with.
Screen = collections.namedtuple("Screen", "path csrf id url last render")


def proc_status(pid, field):
    """A number from /proc/PID/status (VmRSS in KiB, Threads)."""
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith(field + ":"):
                return int(line.split()[1])
    return 0


def rss_kib(pid):
    return proc_status(pid, "VmRSS")


def server_cpu(pid):
    """The server's user + system CPU seconds so far (clock-tick resolution, 10 ms)."""
    with open(f"/proc/{pid}/stat") as f:
        fields = f.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")


def server_thread_cpu(pid):
    """The CPU seconds the server's live threads have run, from each thread's schedstat (nanoseconds): precise
    where /proc/PID/stat counts 10 ms ticks, which is the whole of a 1,000-screen fan-out. A thread that exits in
    between takes its time with it; the threads of a fan-out (the feed's, the pool's, the HTTP ones) stay."""
    total = 0
    for name in os.listdir(f"/proc/{pid}/task"):
        try:
            with open(f"/proc/{pid}/task/{name}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # exited meanwhile
    return total / 1e9


def record_figures(prefix, figures):
    """--figures PREFIX: each (name, value, unit) recorded as PREFIX.name through Benchmarks/figures.py."""
    if not prefix:
        return
    sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
    from figures import record
    for name, value, unit in figures:
        record(f"{prefix}.{name}", value, unit)


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def client_cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


class Loop:
    """One epoll set; sockets carry a buffer each."""

    def __init__(self):
        self.epoll = select.epoll()
        self.sockets = {}
        self.buffers = {}

    def connect(self, port):
        s = socket.socket(socket.AF_INET, socket.SOCK_STREAM)
        s.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        s.connect(("127.0.0.1", port))  # loopback: the handshake completes at once
        s.setblocking(False)
        fd = s.fileno()
        self.sockets[fd] = s
        self.buffers[fd] = bytearray()
        self.epoll.register(fd, select.EPOLLIN)
        return s

    def poll(self, timeout):
        """Reads whatever arrived; returns [(fd, arrival time)] for sockets that received bytes."""
        ready = []
        for fd, _ in self.epoll.poll(timeout, 16384):
            now = time.perf_counter()
            try:
                data = self.sockets[fd].recv(262144)
            except BlockingIOError:
                continue
            if not data:
                self.epoll.unregister(fd)
                ready.append((fd, None))
                continue
            self.buffers[fd] += data
            ready.append((fd, now))
        return ready

    def close_all(self):
        for s in self.sockets.values():
            s.close()
        self.epoll.close()


def http_response_complete(buffer):
    """The length of one complete Content-Length response at the start of buffer, or 0."""
    end = buffer.find(b"\r\n\r\n")
    if end < 0:
        return 0
    match = re.search(rb"(?i)\r\ncontent-length: *(\d+)", bytes(buffer[:end]))
    length = int(match.group(1)) if match else 0
    total = end + 4 + length
    return total if len(buffer) >= total else 0


def open_screens(loop, port, count, path, connections=32):
    """GETs `path` count times over `connections` keep-alive connections; returns [Screen]."""
    request = f"GET {path} HTTP/1.1\r\nHost: bench\r\n{BROWSER_COOKIE}\r\n".encode()
    sockets = [loop.connect(port) for _ in range(min(connections, count))]
    screens, sent = [], 0
    for s in sockets:
        s.send(request)
        sent += 1
    while len(screens) < count:
        for fd, _ in loop.poll(5):
            buffer = loop.buffers[fd]
            while (length := http_response_complete(buffer)):
                page = bytes(buffer[:length])
                del buffer[:length]
                sid, csrf = SID.search(page), CSRF.search(page)
                if not page.startswith(b"HTTP/1.1 200") or not sid or not csrf:
                    sys.exit(f"unexpected page: {page[:200]!r}")
                found = [pattern.search(page) for pattern in (SCREEN_ID, SCREEN_URL, LAST_EVENT_ID, RENDER)]
                screen_id, url, last, render = (html.unescape(m.group(1).decode()) if m else None for m in found)
                screens.append(Screen("/screens/" + sid.group(1).decode(), html.unescape(csrf.group(1).decode()),
                                      screen_id, url, last, render))
                if sent < count:
                    loop.sockets[fd].send(request)
                    sent += 1
    for s in sockets:
        loop.epoll.unregister(s.fileno())
        del loop.sockets[s.fileno()], loop.buffers[s.fileno()]
        s.close()
    return screens


def open_streams(loop, port, screens, deadline=120):
    """One stream a screen, as a browser with one tab has: a shared stream for each, the screen attached to it;
    returns the stream sockets once each screen is attached."""
    return open_shared_streams(loop, port, screens, 1, deadline=deadline)[0]


def open_shared_streams(loop, port, screens, per_stream, connections=32, deadline=120):
    """Opens one shared stream (`GET /streams`) for every `per_stream` screens and attaches them
    (`POST /streams/<id>/screens`, each answered 204) over `connections` keep-alive connections; returns the stream
    sockets and, for each, the ids of the screens attached to it."""
    if any(screen.id is None for screen in screens):
        sys.exit("the page has no data-screen: this server does not speak the wire protocol")
    groups = [screens[i:i + per_stream] for i in range(0, len(screens), per_stream)]
    streams = []
    for _ in groups:
        s = loop.connect(port)
        s.send(f"GET /streams HTTP/1.1\r\nHost: bench\r\n{BROWSER_COOKIE}Accept: text/event-stream\r\n\r\n".encode())
        streams.append(s)
    names = {}
    end = time.time() + deadline
    while len(names) < len(streams) and time.time() < end:
        for fd, _ in loop.poll(1):
            buffer = loop.buffers[fd]
            if fd in names or b"\r\n\r\n" not in buffer:
                continue
            if not buffer.startswith(b"HTTP/1.1 200"):
                sys.exit(f"shared stream refused: {bytes(buffer[:200])!r}")
            name = STREAM_ID.search(buffer)
            if name:
                names[fd] = name.group(1).decode()
    if len(names) < len(streams):
        sys.exit(f"{len(streams) - len(names)} shared streams did not name themselves")
    for s in streams:
        loop.buffers[s.fileno()].clear()

    def attach_request(stream, screen):
        body = urllib.parse.urlencode({"screen": screen.id, "csrf": screen.csrf, "url": screen.url,
                                       "last": screen.last or "0", "version": "2", "render": screen.render or ""}).encode()
        return (f"POST /streams/{stream}/screens HTTP/1.1\r\nHost: bench\r\n{BROWSER_COOKIE}"
                f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
    requests = [attach_request(names[s.fileno()], screen) for s, group in zip(streams, groups) for screen in group]
    posters = [loop.connect(port) for _ in range(min(connections, len(requests)))]
    sent = answered = 0
    for s in posters:
        s.send(requests[sent])
        sent += 1
    while answered < len(requests):
        if time.time() > end:
            sys.exit(f"{len(requests) - answered} attach requests unanswered")
        for fd, _ in loop.poll(1):
            buffer = loop.buffers[fd]
            if fd in names:
                continue  # a shared stream: what it carries now is read and dropped after the attaches
            while (length := http_response_complete(buffer)):
                reply = bytes(buffer[:length])
                del buffer[:length]
                if not reply.startswith(b"HTTP/1.1 204"):
                    sys.exit(f"attach refused: {reply[:300]!r}")
                answered += 1
                if sent < len(requests):
                    loop.sockets[fd].send(requests[sent])
                    sent += 1
    for s in posters:
        loop.epoll.unregister(s.fileno())
        del loop.sockets[s.fileno()], loop.buffers[s.fileno()]
        s.close()
    return streams, [[screen.id for screen in group] for group in groups]


def discard_opening(loop, streams):
    """Reads and drops what the streams received so far (their opening events), leaving empty buffers."""
    for s in streams:
        try:
            while s.recv(262144):
                pass
        except BlockingIOError:
            pass
        loop.buffers[s.fileno()].clear()


def request_once(port, raw):
    """Sends one request on a fresh blocking connection and returns the response head."""
    with socket.create_connection(("127.0.0.1", port)) as s:
        s.sendall(raw)
        return s.recv(65536)


def event_bytes(buffer, marker):
    """The bytes of the SSE event holding `marker` (with whatever chunk framing the server put around it)."""
    at = buffer.find(marker)
    start = buffer.rfind(b"event:", 0, at)
    end = buffer.find(b"\n\n", at)
    # Chunked transfer encoding puts a size line before the event and CRLF after it.
    line = buffer.rfind(b"\r\n", 0, start - 2)
    framed = buffer[line + 2 if line >= 0 else 0:end + 4] if buffer[start - 2:start] == b"\r\n" else buffer[start:end + 2]
    return bytes(framed), bytes(buffer[start:end + 2])


def patch_request(movie, rating):
    body = json.dumps({"rating": rating}).encode()
    return (f"PATCH /api/movies/{movie} HTTP/1.1\r\nHost: bench\r\nContent-Type: application/merge-patch+json\r\n"
            f"Content-Length: {len(body)}\r\nConnection: close\r\n\r\n").encode() + body


def build_fanout_wait():
    """Compiles fanout_wait.c (next to this file) into the temporary folder, under a name made from its contents (so
    an edited or another checkout's source gets its own build); returns the program's path."""
    source = os.path.join(os.path.dirname(os.path.abspath(__file__)), "fanout_wait.c")
    with open(source, "rb") as f:
        digest = hashlib.sha256(f.read()).hexdigest()[:16]
    binary = os.path.join(tempfile.gettempdir(), f"screenplay-fanout-wait-{os.getuid()}-{digest}")
    if not os.path.exists(binary):
        subprocess.run(["cc", "-O2", "-o", binary + ".part", source], check=True)
        os.replace(binary + ".part", binary)
    return binary


def timed_change(args, movie, rating, marker, streams, attached):
    """PATCHes `movie` to `rating` and times the arrival of `marker` on every stream, each carrying the screens of
    its `attached` group, in fanout_wait (C, one epoll loop over the inherited sockets: see that file). Answers the
    PATCH's status line, fanout_wait's CPU seconds, the extra arrivals, each screen's milliseconds (-1: none), the
    server's CPU seconds from the PATCH to the last arrival, and what the first stream received."""
    waiter_binary = build_fanout_wait()
    with tempfile.TemporaryDirectory() as scratch:
        patch_path, first_path = os.path.join(scratch, "patch"), os.path.join(scratch, "first")
        with open(patch_path, "wb") as f:
            f.write(patch_request(movie, rating))
        fds = [s.fileno() for s in streams]
        waiter = subprocess.Popen([waiter_binary, str(args.port), marker.decode(), patch_path, first_path, str(args.timeout)],
                                  stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=fds, text=True)
        # A shared stream carries one patch event per attached screen: the waiter counts that many arrivals on it.
        waiter.stdin.write("".join(f"{fd} {len(group)}\n" for fd, group in zip(fds, attached)) + "\n")
        waiter.stdin.flush()
        if waiter.stdout.readline().strip() != "ready":
            sys.exit("fanout_wait did not start")
        if args.callgrind:  # count the server's instructions from here to the last arrival (profile.sh --fanout)
            subprocess.run(["callgrind_control", "--instr=on", str(args.pid)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        server_before = server_thread_cpu(args.pid)
        waiter.stdin.write("go\n")
        waiter.stdin.flush()
        reply = waiter.stdout.readline().strip()
        cpu_patch = float(waiter.stdout.readline().split()[1])
        extra = int(waiter.stdout.readline().split()[1])
        times = [float(value) for value in waiter.stdout.read().split()]
        waiter.wait()
        server_patch = server_thread_cpu(args.pid) - server_before
        if args.callgrind:
            subprocess.run(["callgrind_control", "--dump=fanout", str(args.pid)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
            subprocess.run(["callgrind_control", "--instr=off", str(args.pid)], check=True,
                           stdout=subprocess.DEVNULL, stderr=subprocess.DEVNULL)
        with open(first_path, "rb") as f:
            first_stream = f.read()
    return reply, cpu_patch, extra, times, server_patch, first_stream


def fanout(args):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    loop = Loop()
    cpu_start = client_cpu()
    preload_rss = None
    if args.preload:
        # Page loads that never open or attach a stream (a crawler, tabs closed at once): their screens stay until
        # the session cap ends them, the least recently active first, and are no part of the timed figures.
        rss_before_preload = rss_kib(args.pid)
        started = time.perf_counter()
        open_screens(loop, args.port, args.preload, f"/movies/{args.movie}")
        preloaded = time.perf_counter() - started
        wait_until_settled(args.pid)
        # --preload-changes: changes of the movie before the fan-out's screens open, as on a server where the held
        # screens have seen changes already (each then keeps one catch-up queued, and a change only replaces its value).
        for index in range(args.preload_changes):
            reply = request_once(args.port, patch_request(args.movie, 5.5 + index % 2))
            if not reply.startswith(b"HTTP/1.1 200"):
                sys.exit(f"PATCH failed: {reply[:200]!r}")
            wait_until_settled(args.pid)
        preload_rss = (rss_before_preload, rss_kib(args.pid), preloaded)
    rss_start = rss_kib(args.pid)
    started = time.perf_counter()
    screens = open_screens(loop, args.port, args.streams, f"/movies/{args.movie}")
    created = time.perf_counter() - started
    time.sleep(0.5)
    rss_sessions = rss_kib(args.pid)
    started = time.perf_counter()
    if args.shared:
        streams, attached = open_shared_streams(loop, args.port, screens, args.shared)
    else:
        streams, attached = open_streams(loop, args.port, screens), [[screen.id] for screen in screens]
    connected = time.perf_counter() - started
    time.sleep(0.5)
    discard_opening(loop, streams)  # the stream's opening (a heartbeat or a reset) is not the patch
    rss_streams = rss_kib(args.pid)

    # A PATCH of another movie first: the request path's one-time costs in a fresh process (the JSON coding's first
    # type look-ups, the statements' first preparation: about a millisecond) are not what every change pays.
    warm = request_once(args.port, patch_request(args.movie + 1, 5.0))
    if not warm.startswith(b"HTTP/1.1 200"):
        sys.exit(f"warm-up PATCH of movie {args.movie + 1} failed: {warm[:200]!r}")
    time.sleep(0.2)  # let the server finish with it; no screen here shows movie 2, so the streams hear nothing of it

    current = json.loads(request_once(args.port, f"GET /api/movies/{args.movie} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n\r\n".encode()).split(b"\r\n\r\n", 1)[1])["rating"]
    rating = 3.1 if current != 3.1 else 8.6
    marker = f">{rating}</span>".encode()
    reply, cpu_patch, extra, times, server_patch, first_stream = timed_change(
        args, args.movie, rating, marker, streams, attached)
    if not reply.startswith("reply HTTP/1.1 200"):
        sys.exit(f"PATCH failed: {reply!r}")
    ms = [t for t in times if t >= 0]
    wire, event = event_bytes(first_stream, marker) if marker in first_stream else (b"", b"")
    n = len(screens)
    if args.shared:
        # The first stream's bytes: one patch event with the new value for each screen attached to it, no other.
        events = [block for block in first_stream.replace(b"\r\n", b"\n").split(b"\n\n") if marker in block]
        named = sorted(re.search(rb"\nid: ([^\n]+)\.\d+", b"\n" + block).group(1).decode() for block in events)
        checked = "as it should" if named == sorted(attached[0]) else f"NOT the screens attached: {named}"
        print(f"fan-out N={n} (wire protocol v2): {n / created:.0f} screens/s opened ({created:.1f} s), {len(streams)} "
              f"shared streams of {args.shared} screens opened and attached in {connected:.1f} s")
        print(f"  first stream: {len(events)} events with the new value for its {len(attached[0])} screens, {checked}")
    else:
        print(f"fan-out N={n}: {n / created:.0f} screens/s opened ({created:.1f} s), {n} streams in {connected:.1f} s")
    if preload_rss:
        before, after, seconds = preload_rss
        changed = args.preload_changes
        print(f"  after {args.preload} page loads without a stream ({seconds:.1f} s)"
              + (f" and {changed} change{'s' if changed != 1 else ''} of the movie" if changed else "")
              + f": RSS {before / 1024:.1f} -> {after / 1024:.1f} MiB, {proc_status(args.pid, 'Threads')} threads")
    print(f"  patch received by {len(ms)}/{n} {'screens' if args.shared else 'streams'}; "
          + (f"first {min(ms):.1f} ms, p50 {percentile(ms, 0.5):.1f} ms, p99 {percentile(ms, 0.99):.1f} ms, max {max(ms):.1f} ms" if ms else "none")
          + (f"; {extra} more events with it than screens" if extra else ""))
    print(f"  server CPU from the PATCH to the last arrival: {1000 * server_patch:.1f} ms "
          f"({1e6 * server_patch / n:.1f} µs per screen; its threads' schedstat)")
    print(f"  server RSS: {rss_start / 1024:.1f} MiB before, {rss_sessions / 1024:.1f} MiB with {n} idle sessions "
          f"({(rss_sessions - rss_start) / n:.1f} KiB per session), {rss_streams / 1024:.1f} MiB with their streams "
          f"({(rss_streams - rss_start) / n:.1f} KiB per screen+stream)")
    print(f"  rating patch: {len(event)} bytes of event, {len(wire)} bytes on the wire with chunk framing")
    print(f"  client CPU: {client_cpu() - cpu_start:.2f} s to open the screens and streams (Python), "
          f"{cpu_patch * 1000:.1f} ms while the patch fanned out ({1e6 * cpu_patch / n:.1f} µs per screen, fanout_wait)")
    print(f"  event: {event!r}")
    loop.close_all()
    record_figures(args.figures, [("screens", n, "screens"), ("received", len(ms), "screens")] + ([
        ("first", min(ms), "ms"), ("p50", percentile(ms, 0.5), "ms"), ("p99", percentile(ms, 0.99), "ms"),
        ("max", max(ms), "ms")] if ms else []) + [
        ("server_cpu", 1000 * server_patch, "ms"), ("server_cpu_per_screen", 1e6 * server_patch / n, "µs"),
        ("rss_before", rss_start / 1024, "MiB"), ("rss_idle_sessions", rss_sessions / 1024, "MiB"),
        ("idle_session", (rss_sessions - rss_start) / n, "KiB"), ("rss_with_streams", rss_streams / 1024, "MiB"),
        ("screen_and_stream", (rss_streams - rss_start) / n, "KiB"), ("patch_event", len(event), "bytes"),
        ("patch_on_the_wire", len(wire), "bytes"), ("client_cpu_per_screen", 1e6 * cpu_patch / n, "µs")])
    if args.record:
        with open(args.record, "a") as f:
            f.write(" ".join(str(v) for v in (
                args.label, n, len(streams), len(ms), percentile(ms, 0.5) if ms else -1, percentile(ms, 0.99) if ms else -1,
                max(ms) if ms else -1, round(1e6 * server_patch / n, 2), round(rss_streams / 1024, 1),
                round(rss_start / 1024, 1))) + "\n")
    if args.expect_all and (len(ms) != n or extra or (args.shared and named != sorted(attached[0]))):
        sys.exit(1)


def fetch(port, path):
    """GET path on a fresh connection; the body as text (the whole of it, unlike request_once)."""
    connection = http.client.HTTPConnection("127.0.0.1", port, timeout=10)
    try:
        connection.request("GET", path)
        response = connection.getresponse()
        body = response.read().decode()
        if response.status != 200:
            sys.exit(f"GET {path} on port {port} answered {response.status}")
        return body
    finally:
        connection.close()


def store_metrics(port):
    """From an instance's /metrics: the notifications received and the commit-to-delivery histogram's sum and count
    (`movies_change_delivery_seconds`, from a write's commit to its change handed to every screen of the movie)."""
    values = {}
    for line in fetch(port, "/metrics").splitlines():
        if line and not line.startswith("#"):
            name, _, value = line.rpartition(" ")
            values[name] = float(value)
    return (values.get("movies_store_notifications_total", 0), values.get("movies_change_delivery_seconds_sum", 0),
            values.get("movies_change_delivery_seconds_count", 0))


def process_tree_cpu(pid):
    """The CPU seconds of process `pid` and its children (PostgreSQL's postmaster and backends, one thread each),
    from each one's schedstat (nanoseconds)."""
    total = 0
    for name in os.listdir("/proc"):
        if not name.isdigit():
            continue
        try:
            with open(f"/proc/{name}/stat") as f:
                parent = int(f.read().rsplit(")", 1)[1].split()[1])
            if int(name) != pid and parent != pid:
                continue
            with open(f"/proc/{name}/schedstat") as f:
                total += int(f.read().split()[0])
        except (OSError, ValueError, IndexError):
            pass  # exited meanwhile
    return total / 1e9


def instances(args):
    """Several instances on one database: screens and streams on each, one PATCH to the writer, every stream timed."""
    resource.setrlimit(resource.RLIMIT_NOFILE, (resource.getrlimit(resource.RLIMIT_NOFILE)[1],) * 2)
    nodes = []  # (name, port, pid, streams)
    for text in args.instance:
        name, _, rest = text.partition("=")
        port, pid, count = (int(v) for v in rest.split(":"))
        nodes.append((name, port, pid, count))
    writer = next((node for node in nodes if node[0] == (args.write or nodes[0][0])), None)
    if writer is None:
        sys.exit(f"--write {args.write}: no such --instance")
    loop = Loop()
    cpu_start = client_cpu()
    streams_of = {}
    for name, port, pid, count in nodes:
        if not count:
            continue
        started = time.perf_counter()
        screens = open_screens(loop, port, count, f"/movies/{args.movie}")
        strays = [s.path for s in screens if not s.path.startswith(f"/screens/{name}.")]
        if strays:
            sys.exit(f"instance {name} made screens named for another: {strays[:3]}")
        streams_of[name] = open_streams(loop, port, screens)
        print(f"instance {name} (port {port}): {count} screens and streams opened in {time.perf_counter() - started:.1f} s")
    time.sleep(0.5)
    for streams in streams_of.values():
        discard_opening(loop, streams)

    # A PATCH of another movie first, on the writer: its request path's first costs, and on every other instance the
    # listener's first notification and read of a movie, are not what every change pays. Then wait until each has
    # heard it.
    before = {name: store_metrics(port)[0] for name, port, _, _ in nodes}
    other = json.loads(fetch(writer[1], f"/api/movies/{args.movie + 1}"))["rating"]
    warm = request_once(writer[1], patch_request(args.movie + 1, 5.0 if other != 5.0 else 6.0))
    if not warm.startswith(b"HTTP/1.1 200"):
        sys.exit(f"warm-up PATCH of movie {args.movie + 1} failed: {warm[:200]!r}")
    deadline = time.time() + 10
    while any(store_metrics(port)[0] <= before[name] for name, port, _, _ in nodes):
        if time.time() > deadline:
            sys.exit("an instance did not hear the warm-up PATCH's notification within 10 s")
        time.sleep(0.05)
    time.sleep(0.2)

    current = json.loads(fetch(writer[1], f"/api/movies/{args.movie}"))["rating"]
    rating = 3.1 if current != 3.1 else 8.6
    marker = f">{rating}</span>".encode()
    order = [(name, s) for name, _, _, _ in nodes for s in streams_of.get(name, [])]
    metrics_before = {name: store_metrics(port) for name, port, _, _ in nodes}
    waiter_binary = build_fanout_wait()
    with tempfile.TemporaryDirectory() as scratch:
        patch_path, first_path = os.path.join(scratch, "patch"), os.path.join(scratch, "first")
        with open(patch_path, "wb") as f:
            f.write(patch_request(args.movie, rating))
        fds = [s.fileno() for _, s in order]
        # One reader for every instance's streams: the PATCH goes to the writer's port only.
        waiter = subprocess.Popen([waiter_binary, str(writer[1]), marker.decode(), patch_path, first_path,
                                   str(args.timeout)], stdin=subprocess.PIPE, stdout=subprocess.PIPE, pass_fds=fds,
                                  text=True)
        waiter.stdin.write("".join(f"{fd}\n" for fd in fds) + "\n")
        waiter.stdin.flush()
        if waiter.stdout.readline().strip() != "ready":
            sys.exit("fanout_wait did not start")
        server_before = {name: server_thread_cpu(pid) for name, _, pid, _ in nodes}
        postgres_before = process_tree_cpu(args.postgres_pid) if args.postgres_pid else 0
        waiter.stdin.write("go\n")
        waiter.stdin.flush()
        reply = waiter.stdout.readline().strip()
        cpu_patch = float(waiter.stdout.readline().split()[1])
        extra = int(waiter.stdout.readline().split()[1])
        times = [float(line.split()[0]) for line in waiter.stdout.read().splitlines() if line.strip()]
        waiter.wait()
        server_patch = {name: server_thread_cpu(pid) - server_before[name] for name, _, pid, _ in nodes}
        postgres_patch = process_tree_cpu(args.postgres_pid) - postgres_before if args.postgres_pid else 0
    if not reply.startswith("reply HTTP/1.1 200"):
        sys.exit(f"PATCH failed: {reply!r}")
    time.sleep(0.2)  # the delivery's completion is counted once every screen was handed the change
    metrics_after = {name: store_metrics(port) for name, port, _, _ in nodes}

    record = {"label": args.label, "writer": writer[0], "extra": extra, "client_cpu_ms": round(1000 * cpu_patch, 2),
              "postgres_cpu_ms": round(1000 * postgres_patch, 2), "instances": {}}
    groups = [("all", [t for t in times])] if len(streams_of) > 1 else []
    for name, _, _, _ in nodes:
        if name in streams_of:
            groups.append((name, [t for (n, _), t in zip(order, times) if n == name]))
    total = len(order)
    print(f"one PATCH of movie {args.movie}'s rating to instance {writer[0]}; {total} streams on "
          + ", ".join(f"{name} ({len(streams_of[name])})" for name in streams_of))
    for group, values in groups:
        got = [t for t in values if t >= 0]
        row = {"streams": len(values), "received": len(got)}
        if got:
            row.update(first=min(got), p50=percentile(got, 0.5), p99=percentile(got, 0.99), max=max(got))
        line = (f"  {group:<4} received by {len(got)}/{len(values)}"
                + (f"; first {row['first']:.1f} ms, p50 {row['p50']:.1f} ms, p99 {row['p99']:.1f} ms, "
                   f"max {row['max']:.1f} ms" if got else ""))
        if group != "all":
            notified = metrics_after[group][0] - metrics_before[group][0]
            deliveries = metrics_after[group][2] - metrics_before[group][2]
            delivery = metrics_after[group][1] - metrics_before[group][1]
            row.update(server_cpu_ms=round(1000 * server_patch[group], 2), notifications=notified,
                       deliveries=deliveries, delivery_ms=round(1000 * delivery, 3) if deliveries == 1 else None)
            line += (f"; server CPU {1000 * server_patch[group]:.1f} ms; commit to every screen handed the change "
                     + (f"{1000 * delivery:.2f} ms" if deliveries == 1 else f"({deliveries:.0f} deliveries)")
                     + f" (movies_change_delivery_seconds), {notified:.0f} notification(s) heard")
        record["instances"][group] = row
        print(line)
    for name, _, _, _ in nodes:
        if name not in streams_of:
            notified = metrics_after[name][0] - metrics_before[name][0]
            print(f"  {name}: no screens; server CPU {1000 * server_patch[name]:.1f} ms, {notified:.0f} notification(s)")
            record["instances"][name] = {"streams": 0, "server_cpu_ms": round(1000 * server_patch[name], 2)}
    print(f"  PostgreSQL CPU (every backend) from the PATCH to the last arrival: {1000 * postgres_patch:.1f} ms; "
          f"client CPU {client_cpu() - cpu_start:.2f} s opening, {1000 * cpu_patch:.1f} ms while the patch fanned out"
          + (f"; {extra} more events with the new value than streams" if extra else ""))
    loop.close_all()
    if args.record:
        with open(args.record, "a") as f:
            f.write(json.dumps(record) + "\n")
    if args.expect_all and (sum(1 for t in times if t >= 0) != total or extra):
        sys.exit(1)


def idle(args):
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    loop = Loop()
    rss_start = rss_kib(args.pid)
    screens = open_screens(loop, args.port, args.streams, f"/movies/{args.movie}")
    streams = open_streams(loop, args.port, screens)
    n = len(streams)
    time.sleep(1)
    discard_opening(loop, streams)  # what a stream sends on opening is not a heartbeat
    rss_open = rss_kib(args.pid)
    server_before, wall_before, client_before = server_cpu(args.pid), time.perf_counter(), client_cpu()
    closed = set()
    samples = []
    end = time.time() + args.seconds
    next_sample = time.time() + 5
    while time.time() < end:
        for fd, at in loop.poll(1):
            if at is None:
                closed.add(fd)
        if time.time() >= next_sample:
            samples.append((time.perf_counter() - wall_before, server_cpu(args.pid) - server_before))
            next_sample += 5
    wall = time.perf_counter() - wall_before
    busy = server_cpu(args.pid) - server_before
    heard = sum(1 for s in streams if b":" in loop.buffers[s.fileno()])
    beats = sum(loop.buffers[s.fileno()].count(b"\n\n") for s in streams)
    print(f"idle N={n}: {n} screens with open streams, left alone for {wall:.0f} s")
    print(f"  server CPU: {busy:.2f} s over {wall:.0f} s = {100 * busy / wall:.2f}% of one core"
          f" ({1e6 * busy / max(beats, 1):.0f} µs per heartbeat sent, {beats} heartbeats)")
    print("  per 5 s: " + ", ".join(f"{100 * (c2 - c1) / (t2 - t1):.2f}%"
                                    for (t1, c1), (t2, c2) in zip([(0.0, 0.0)] + samples, samples)))
    print(f"  server threads: {proc_status(args.pid, 'Threads')}; RSS {rss_start / 1024:.1f} MiB before, {rss_open / 1024:.1f} MiB"
          f" with the screens and streams ({(rss_open - rss_start) / n:.1f} KiB per screen+stream),"
          f" {rss_kib(args.pid) / 1024:.1f} MiB at the end")
    print(f"  streams: {n - len(closed)}/{n} still open, {heard}/{n} heard a heartbeat;"
          f" client CPU {client_cpu() - client_before:.2f} s while idle")
    loop.close_all()
    if closed or heard != n:
        sys.exit(1)


def scale(args):
    """--streams screens live on one server over shared streams of --shared screens each (a browser's tabs share one
    stream), 99% showing movie 1 and 1% movie 2: memory, CPU while idle through the heartbeats, and two changes, one
    each screen watches and one 1% watch, timed to the last delivery."""
    soft, hard = resource.getrlimit(resource.RLIMIT_NOFILE)
    resource.setrlimit(resource.RLIMIT_NOFILE, (hard, hard))
    per_stream = args.shared or 10
    if args.streams // per_stream + 100 > hard:
        sys.exit(f"{args.streams} screens at {per_stream} a stream need {args.streams // per_stream} sockets; this "
                 f"process may open {hard}: raise --shared")
    loop = Loop()
    rss_start = rss_kib(args.pid)
    few = max(per_stream, args.streams // 100 // per_stream * per_stream)
    started = time.perf_counter()
    screens_many = open_screens(loop, args.port, args.streams - few, f"/movies/{args.movie}")
    screens_few = open_screens(loop, args.port, few, f"/movies/{args.movie + 1}")
    rendered = time.perf_counter() - started
    started = time.perf_counter()
    streams_many, attached_many = open_shared_streams(loop, args.port, screens_many, per_stream, deadline=600)
    streams_few, attached_few = open_shared_streams(loop, args.port, screens_few, per_stream, deadline=600)
    attached = time.perf_counter() - started
    n, streams = args.streams, streams_many + streams_few
    time.sleep(1)
    discard_opening(loop, streams)
    wait_until_settled(args.pid)
    rss_live = rss_kib(args.pid)
    print(f"scale: {n} screens live ({n - few} on movie {args.movie}, {few} on movie {args.movie + 1}) over "
          f"{len(streams)} shared streams of {per_stream}: pages rendered in {rendered:.1f} s, streams opened and "
          f"screens attached (each built live from its page's token) in {attached:.1f} s")
    print(f"  server RSS {rss_start / 1024:.1f} MiB before, {rss_live / 1024:.1f} MiB with them: "
          f"{(rss_live - rss_start) / n:.2f} KiB ({1024 * (rss_live - rss_start) / n:,.0f} bytes) a screen with its "
          f"share of a stream; {proc_status(args.pid, 'Threads')} threads")

    # Idle: nothing but the heartbeats every stream gets.
    server_before, wall_before = server_cpu(args.pid), time.perf_counter()
    closed = set()
    end = time.time() + args.seconds
    while time.time() < end:
        for fd, at in loop.poll(1):
            if at is None:
                closed.add(fd)
    wall = time.perf_counter() - wall_before
    busy = server_cpu(args.pid) - server_before
    beats = sum(loop.buffers[s.fileno()].count(b"\n\n") for s in streams)
    discard_opening(loop, streams)
    print(f"  idle {wall:.0f} s: server CPU {busy:.2f} s = {100 * busy / wall:.2f}% of one core, {beats} heartbeats; "
          f"{len(streams) - len(closed)}/{len(streams)} streams open")

    figures = [("screens", n, "screens"), ("rss_before", rss_start / 1024, "MiB"), ("rss_live", rss_live / 1024, "MiB"),
               ("bytes_per_screen", 1024 * (rss_live - rss_start) / n, "bytes"),
               ("idle_cpu", 100 * busy / wall, "% of a core")]
    failed = bool(closed)
    for label, movie, group, groups in (("1%", args.movie + 1, streams_few, attached_few),
                                        ("all", args.movie, streams_many, attached_many)):
        current = json.loads(request_once(args.port, f"GET /api/movies/{movie} HTTP/1.1\r\nHost: bench\r\n"
                                          f"Connection: close\r\n\r\n".encode()).split(b"\r\n\r\n", 1)[1])["rating"]
        rating = 3.1 if current != 3.1 else 8.6
        marker = f">{rating}</span>".encode()
        reply, _, extra, times, server_patch, _ = timed_change(args, movie, rating, marker, group, groups)
        if not reply.startswith("reply HTTP/1.1 200"):
            sys.exit(f"PATCH failed: {reply!r}")
        ms = [t for t in times if t >= 0]
        expected = sum(len(g) for g in groups)
        print(f"  a change {label} watch (movie {movie}, {expected} screens): {len(ms)}/{expected} received; "
              + (f"p50 {percentile(ms, 0.5):.0f} ms, p99 {percentile(ms, 0.99):.0f} ms, last {max(ms):.0f} ms" if ms
                 else "none")
              + f"; server CPU {1000 * server_patch:.0f} ms ({1e6 * server_patch / max(expected, 1):.1f} µs a screen)"
              + (f"; {extra} more events than screens" if extra else ""))
        name = "few" if label == "1%" else "all"
        figures += [(f"{name}.received", len(ms), "screens"), (f"{name}.server_cpu", 1000 * server_patch, "ms")]
        if ms:
            figures += [(f"{name}.p99", percentile(ms, 0.99), "ms"), (f"{name}.last", max(ms), "ms")]
        failed = failed or len(ms) != expected or bool(extra)
        wait_until_settled(args.pid)
    print(f"  server RSS at the end: {rss_kib(args.pid) / 1024:.1f} MiB")
    loop.close_all()
    record_figures(args.figures, figures)
    if args.expect_all and failed:
        sys.exit(1)


def action(args):
    loop = Loop()
    [screen] = open_screens(loop, args.port, 1, f"/movies/{args.movie}", connections=1)
    [stream] = open_streams(loop, args.port, [screen])
    sid, csrf = screen.path, screen.csrf
    time.sleep(0.3)
    try:
        stream.recv(262144)
    except BlockingIOError:
        pass
    post_socket = loop.connect(args.port)
    body = urllib.parse.urlencode({"csrf": csrf}).encode()
    post = (f"POST {sid}/actions/refresh HTTP/1.1\r\nHost: bench\r\n{BROWSER_COOKIE}X-Requested-With: fetch\r\n"
            f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n").encode() + body
    sfd, pfd = stream.fileno(), post_socket.fileno()
    times, wire_sizes, events = [], 0, b""
    cpu = client_cpu()
    for i in range(args.iterations):
        loop.buffers[sfd].clear()
        loop.buffers[pfd].clear()
        sent = time.perf_counter()
        post_socket.send(post)
        first, replied = None, False
        # A refresh shows "Refreshing…", then the re-read movie hides the status again: usually two patches, one when
        # the re-read lands within the same scheduler turn. The iteration ends when the status is hidden again.
        while b"hidden></p>" not in loop.buffers[sfd] or not replied:
            for fd, at in loop.poll(2):
                if fd == sfd and first is None and b"\n\n" in loop.buffers[sfd]:
                    first = at - sent
                if fd == pfd and b"\r\n\r\n" in loop.buffers[pfd]:
                    if not loop.buffers[pfd].startswith(b"HTTP/1.1 204"):
                        sys.exit(f"action failed: {bytes(loop.buffers[pfd])!r}")
                    replied = True
            if time.perf_counter() - sent > 5:
                sys.exit(f"no complete refresh after 5 s: {bytes(loop.buffers[sfd])!r}")
        times.append(1000 * first)
        if i == 0:
            raw = bytes(loop.buffers[sfd])
            wire_sizes = len(raw)
            events = raw
    print(f"action round trip over {args.iterations}: p50 {statistics.median(times):.3f} ms, "
          f"p99 {percentile(times, 0.99):.3f} ms, max {max(times):.3f} ms (client CPU {client_cpu() - cpu:.2f} s)")
    print(f"  refresh patches: {wire_sizes} bytes on the wire for its {events.count(b'event: patch')} events")
    print(f"  events: {events!r}")
    loop.close_all()
    record_figures(args.figures, [("p50", statistics.median(times), "ms"), ("p99", percentile(times, 0.99), "ms"),
                                  ("max", max(times), "ms"), ("refresh_patches_on_the_wire", wire_sizes, "bytes")])


def wait_until_settled(pid, quiet=0.001, interval=0.05, timeout=60):
    """Waits until the server's threads ran less than `quiet` CPU seconds in `interval`: its work is done."""
    deadline = time.time() + timeout
    before = server_thread_cpu(pid)
    while time.time() < deadline:
        time.sleep(interval)
        now = server_thread_cpu(pid)
        if now - before < quiet:
            return
        before = now
    sys.exit(f"the server was still busy after {timeout:.0f} s")


def changes(args):
    loop = Loop()
    open_screens(loop, args.port, args.streams, f"/movies/{args.movie}")
    loop.close_all()
    wait_until_settled(args.pid)
    before = rss_kib(args.pid)
    for index in range(args.changes):
        reply = request_once(args.port, patch_request(args.movie, round(1 + index % 80 / 10, 1)))
        if not reply.startswith(b"HTTP/1.1 200"):
            sys.exit(f"PATCH failed: {reply[:200]!r}")
        wait_until_settled(args.pid)
    after = rss_kib(args.pid)
    print(f"  {args.streams} screens: RSS {before / 1024:.1f} MiB; after {args.changes} changes of the movie "
          f"{after / 1024:.1f} MiB: +{(after - before) / 1024:.1f} MiB, "
          f"{(after - before) * 1024 / args.streams:,.0f} bytes a screen")
    record_figures(args.figures, [("screens", args.streams, "screens"), ("changes", args.changes, "changes"),
                                  ("rss_before", before / 1024, "MiB"), ("rss_after", after / 1024, "MiB"),
                                  ("growth", (after - before) / 1024, "MiB"), ("growth_per_screen", (after - before) * 1024 / args.streams, "bytes")])


def wait_for_server(args):
    """Waits up to --timeout seconds for the server to answer; returns the keep-alive connection that asked."""
    deadline = time.time() + args.timeout
    while True:
        try:
            connection = http.client.HTTPConnection("127.0.0.1", args.port, timeout=60)
            connection.request("GET", "/healthz")
            connection.getresponse().read()
            return connection
        except OSError:
            if time.time() > deadline:
                sys.exit(f"the server did not answer on port {args.port} within {args.timeout:.0f} s")
            time.sleep(0.2)


def pages(args):
    path = args.path or f"/movies/{args.movie}"
    connection = wait_for_server(args)
    for _ in range(args.pages):
        connection.request("GET", path)
        response = connection.getresponse()
        response.read()
        if response.status != 200:
            sys.exit(f"GET {path} answered {response.status}")
    connection.close()


def live(args):
    """--streams live screens of the movie, attached to shared streams of --shared (10 by default), held until the
    server's work has settled; then the script exits and they end. For memory.sh: the server's heap peaks with
    them."""
    wait_for_server(args).close()
    loop = Loop()
    screens = open_screens(loop, args.port, args.streams, f"/movies/{args.movie}")
    streams, _ = open_shared_streams(loop, args.port, screens, args.shared or 10, deadline=args.timeout)
    wait_until_settled(args.pid, interval=0.5, timeout=args.timeout)
    print(f"live: {len(screens)} screens on {len(streams)} shared streams")
    loop.close_all()


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("mode", choices=["fanout", "instances", "idle", "changes", "action", "pages", "scale", "live"])
    parser.add_argument("--port", type=int)
    parser.add_argument("--pid", type=int, default=0)
    parser.add_argument("--movie", type=int, default=1)
    parser.add_argument("--streams", type=int, default=1000)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--pages", type=int, default=300, help="pages: how many detail pages to load")
    parser.add_argument("--path", help="pages: the path to load instead of the movie's detail page")
    parser.add_argument("--timeout", type=float, default=30)
    parser.add_argument("--expect-all", action="store_true")
    parser.add_argument("--changes", type=int, default=40, help="changes: how many rating changes to make")
    parser.add_argument("--seconds", type=float, default=60, help="idle: how long to leave the streams alone")
    parser.add_argument("--shared", type=int, default=0,
                        help="fanout: screens per shared stream; 0: a stream of its own per screen")
    parser.add_argument("--preload", type=int, default=0,
                        help="fanout: page loads of the movie that never attach a stream, before the fan-out's screens")
    parser.add_argument("--preload-changes", type=int, default=0,
                        help="fanout: rating changes of the movie after the --preload page loads, before the fan-out")
    parser.add_argument("--record", help="fanout: append a line of figures to this file")
    parser.add_argument("--label", default="fanout", help="fanout: the first word of the --record line")
    parser.add_argument("--figures", metavar="NAME",
                        help="fanout, changes, action: record the figures as NAME.* for Benchmarks/run.sh's JSON")
    parser.add_argument("--instance", action="append", default=[], metavar="NAME=PORT:PID:STREAMS",
                        help="instances: one instance, its server's pid and how many screens and streams to open on it")
    parser.add_argument("--write", help="instances: the instance the PATCH goes to (default: the first)")
    parser.add_argument("--postgres-pid", type=int, default=0,
                        help="instances: the postmaster's pid, for PostgreSQL's CPU during the fan-out")
    parser.add_argument("--callgrind", action="store_true",
                        help="fanout: switch callgrind's instrumentation on just before the PATCH, dump after")
    args = parser.parse_args()
    if args.mode == "instances" and not args.instance:
        parser.error("instances needs --instance NAME=PORT:PID:STREAMS")
    if args.mode != "instances" and args.port is None:
        parser.error("--port is required")
    {"fanout": fanout, "instances": instances, "idle": idle, "changes": changes, "action": action, "pages": pages,
     "scale": scale, "live": live}[args.mode](args)


if __name__ == "__main__":
    main()
