#!/usr/bin/env python3
"""Input round trip: a keystroke's post to the patch it causes, against a running `movies` server.

As a browser tab does (wire protocol v2): GET / for the list page (its <html> names the screen, its CSRF token and
the last event it shows), open the shared stream `GET /streams` (its first event `stream` names it), attach the
screen to it (`POST /streams/{id}/screens`: screen, csrf, url=/, last), then --iterations times POST
/screens/{sid}/input (csrf, name=q, value, seq, event=change; X-Requested-With: fetch) with search values taken in
turn from --values, and time from just before the post is sent to the arrival of the `patch` event it causes on the
stream. Every value filters the list differently from the one before it (checked first, with a GET of /?q=value
each), so each post causes one patch; the other events (the `url` each search also sends, heartbeats) are skipped.
An iteration ends once its patch, its `url` event and the post's 204 have all arrived, so no event of one post is
taken for the next's. --warmup posts first, untimed.

Prints p50, p99 and max in ms (and this client's CPU time); while BENCH_FIGURES names a file (Benchmarks/run.sh,
`make bench`), also records them as input.p50, input.p99 and input.max (Benchmarks/figures.py). One process, two
sockets (the stream's and a keep-alive one for the posts), select(); Python's standard library only.

Usage: roundtrip.py --port P [--iterations 500] [--warmup 10] [--values "dr,co,th,sa,"]
"""
import argparse
import html
import os
import re
import resource
import select
import socket
import statistics
import sys
import time
import urllib.parse

# The browser every request comes from, as its identity cookie: a page's token is signed for it, and the live screen
# is built from the token when the page attaches.
BROWSER = "Cookie: screenplay_browser=roundtripBrowserAAAAAA\r\n"

sys.path.insert(0, os.path.join(os.path.dirname(os.path.abspath(__file__)), ".."))
from figures import record  # noqa: E402

TIMEOUT = 5.0


def percentile(values, fraction):
    ordered = sorted(values)
    return ordered[min(len(ordered) - 1, int(round(fraction * (len(ordered) - 1))))]


def client_cpu():
    usage = resource.getrusage(resource.RUSAGE_SELF)
    return usage.ru_utime + usage.ru_stime


def request_once(port, method, path, body=b"", headers=()):
    """One request on a connection of its own (Connection: close): (status, head, body)."""
    with socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT) as s:
        head = f"{method} {path} HTTP/1.1\r\nHost: bench\r\nConnection: close\r\n{BROWSER}"
        for name, value in headers:
            head += f"{name}: {value}\r\n"
        if body or method == "POST":
            head += f"Content-Length: {len(body)}\r\n"
        s.sendall(head.encode() + b"\r\n" + body)
        raw = b""
        while chunk := s.recv(65536):
            raw += chunk
    head, _, rest = raw.partition(b"\r\n\r\n")
    status = int(head.split(b" ", 2)[1])
    if b"transfer-encoding: chunked" in head.lower():
        rest = Dechunker().feed(rest)
    return status, head, rest


def form(fields):
    return urllib.parse.urlencode(fields).encode()


def list_ids(port, query):
    """The movies the list page shows for `query`, in order."""
    status, _, body = request_once(port, "GET", "/?q=" + urllib.parse.quote(query))
    if status != 200:
        sys.exit(f"GET /?q={query} answered {status}")
    listing = body.decode().split('class="movie-grid"', 1)[-1]
    return re.findall(r'href="/movies/(\d+)"', listing)


class Dechunker:
    """Incremental decoder of an HTTP/1.1 chunked body: feed() the bytes read, get the payload they complete."""

    def __init__(self):
        self.raw = b""
        self.left = 0  # payload bytes still due in the current chunk
        self.crlf = False  # the CRLF after a chunk's payload is still due

    def feed(self, data):
        self.raw += data
        out = b""
        while True:
            if self.left:
                take = self.raw[:self.left]
                out += take
                self.raw = self.raw[len(take):]
                self.left -= len(take)
                if self.left:
                    return out
                self.crlf = True
            if self.crlf:
                if len(self.raw) < 2:
                    return out
                self.raw = self.raw[2:]
                self.crlf = False
            line, found, rest = self.raw.partition(b"\r\n")
            if not found:
                return out
            size = int(line.split(b";", 1)[0], 16)
            if size == 0:
                sys.exit("the event stream ended")
            self.raw = rest
            self.left = size


class EventStream:
    """The shared stream's socket, read into server-sent events: (name, id, data) tuples."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.socket.sendall(f"GET /streams HTTP/1.1\r\nHost: bench\r\n{BROWSER}Accept: text/event-stream\r\n\r\n".encode())
        raw = b""
        while b"\r\n\r\n" not in raw:
            chunk = self.socket.recv(65536)
            if not chunk:
                sys.exit("GET /streams: the connection closed")
            raw += chunk
        head, _, rest = raw.partition(b"\r\n\r\n")
        if not head.startswith(b"HTTP/1.1 200") or b"text/event-stream" not in head:
            sys.exit(f"GET /streams is not an event stream: {head!r}")
        self.chunked = b"transfer-encoding: chunked" in head.lower()
        self.dechunker = Dechunker()
        self.text = b""
        self.events = []
        self.socket.setblocking(False)
        self.take(rest)

    def fileno(self):
        return self.socket.fileno()

    def take(self, data):
        self.text += self.dechunker.feed(data) if self.chunked else data
        while b"\n\n" in self.text:
            block, self.text = self.text.split(b"\n\n", 1)
            name, event_id, data_lines = "message", None, []
            for line in block.decode().split("\n"):
                if line.startswith(":"):
                    continue  # a comment: the heartbeat
                field, _, value = line.partition(":")
                value = value[1:] if value.startswith(" ") else value
                if field == "event":
                    name = value
                elif field == "id":
                    event_id = value
                elif field == "data":
                    data_lines.append(value)
            if data_lines or name != "message":
                self.events.append((name, event_id, "\n".join(data_lines)))

    def receive(self):
        """Reads what has arrived (non-blocking) into the queue of completed events."""
        try:
            while chunk := self.socket.recv(262144):
                self.take(chunk)
                if len(chunk) < 262144:
                    return
            sys.exit("the event stream closed")
        except BlockingIOError:
            pass

    def read(self):
        """The events completed so far, taken, after reading what has arrived."""
        self.receive()
        events, self.events = self.events, []
        return events

    def next_event(self, timeout=TIMEOUT):
        deadline = time.monotonic() + timeout
        while not self.events:
            left = deadline - time.monotonic()
            if left <= 0 or not select.select([self.socket], [], [], left)[0]:
                sys.exit("no event on the stream within the timeout")
            self.receive()
        return self.events.pop(0)


class Poster:
    """A keep-alive connection for the input posts; reads each 204 answer."""

    def __init__(self, port):
        self.socket = socket.create_connection(("127.0.0.1", port), timeout=TIMEOUT)
        self.socket.setsockopt(socket.IPPROTO_TCP, socket.TCP_NODELAY, 1)
        self.socket.setblocking(False)
        self.raw = b""

    def fileno(self):
        return self.socket.fileno()

    def send(self, data):
        self.socket.setblocking(True)
        self.socket.sendall(data)
        self.socket.setblocking(False)

    def answered(self):
        """Reads what has arrived; answers True once a whole response is in (taken), exits on any status but 204."""
        try:
            while chunk := self.socket.recv(65536):
                self.raw += chunk
                if len(chunk) < 65536:
                    break
            else:
                sys.exit("the post connection closed")
        except BlockingIOError:
            pass
        head, found, rest = self.raw.partition(b"\r\n\r\n")
        if not found:
            return False
        if not head.startswith(b"HTTP/1.1 204"):
            sys.exit(f"input post answered: {self.raw[:300]!r}")
        match = re.search(rb"(?i)\r\ncontent-length: *(\d+)", head)
        length = int(match.group(1)) if match else 0
        if len(rest) < length:
            return False
        self.raw = rest[length:]
        return True


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--port", type=int, required=True)
    parser.add_argument("--iterations", type=int, default=500)
    parser.add_argument("--warmup", type=int, default=10)
    parser.add_argument("--values", default="dr,co,th,sa,",
                        help="search values posted in turn, comma-separated (an empty one: the whole list)")
    args = parser.parse_args()
    values = args.values.split(",")

    # Each value must filter the list differently from the one before it (and the last from the first, since they
    # repeat), or its post would cause no patch.
    shown = {value: list_ids(args.port, value) for value in dict.fromkeys(values)}
    for before, after in zip(values, values[1:] + values[:1]):
        if shown[before] == shown[after]:
            sys.exit(f"the searches {before!r} and {after!r} show the same movies: the post of {after!r} would "
                     f"cause no patch; choose other --values")

    status, _, body = request_once(args.port, "GET", "/")
    if status != 200:
        sys.exit(f"GET / answered {status}")
    root = re.search(rb"<html\b[^>]*>", body).group(0).decode()
    attributes = {name: html.unescape(value) for name, value in re.findall(r'([\w-]+)="([^"]*)"', root)}
    sid, csrf = attributes["data-screen"], attributes["data-csrf"]
    last = attributes.get("data-last-event-id", "0")

    stream = EventStream(args.port)
    name, _, data = stream.next_event()
    match = re.search(r'"stream"\s*:\s*"([^"]+)"', data)
    if name != "stream" or not match:
        sys.exit(f"the stream's first event does not name it: {name} {data!r}")
    status, head, _ = request_once(
        args.port, "POST", f"/streams/{urllib.parse.quote(match.group(1))}/screens",
        form({"screen": sid, "csrf": csrf, "url": "/", "last": last}),
        headers=[("Content-Type", "application/x-www-form-urlencoded"), ("X-Requested-With", "fetch")])
    if status != 204:
        sys.exit(f"attaching the screen answered {status}: {head!r}")
    time.sleep(0.2)
    stream.read()  # whatever attaching sent (nothing, for a page that is current)

    poster = Poster(args.port)
    path = f"/screens/{urllib.parse.quote(sid)}/input"
    times, extra_patches, seq = [], 0, 0
    cpu = None
    for index in range(args.warmup + args.iterations):
        if index == args.warmup:
            cpu = client_cpu()
        seq += 1
        value = values[index % len(values)]
        body = form({"csrf": csrf, "name": "q", "value": value, "seq": seq, "event": "change"})
        post = (f"POST {path} HTTP/1.1\r\nHost: bench\r\n{BROWSER}X-Requested-With: fetch\r\n"
                f"Content-Type: application/x-www-form-urlencoded\r\nContent-Length: {len(body)}\r\n\r\n"
                ).encode() + body
        expected_url = "/" if not value else None  # a search's url is /?q=…, however the server encodes it
        patch_at, replied, url_seen = None, False, False
        sent = time.perf_counter()
        poster.send(post)
        while patch_at is None or not replied or not url_seen:
            ready, _, _ = select.select([stream, poster], [], [], TIMEOUT)
            now = time.perf_counter()
            if not ready:
                sys.exit(f"post {seq} ({value!r}): after {TIMEOUT:.0f} s patch={patch_at is not None} "
                         f"answered={replied} url={url_seen}")
            if stream in ready:
                for name, _, data in stream.read():
                    if name == "patch":
                        if patch_at is None:
                            patch_at = now
                        else:
                            extra_patches += 1
                    elif name == "url" and (data == expected_url if expected_url else data.startswith("/?q=")):
                        url_seen = True
                    elif name in ("reset", "error"):
                        sys.exit(f"the stream sent {name}: {data[:300]!r}")
            if poster in ready and poster.answered():
                replied = True
        if index >= args.warmup:
            times.append(1000 * (patch_at - sent))
    cpu = client_cpu() - cpu

    p50, p99, worst = statistics.median(times), percentile(times, 0.99), max(times)
    print(f"input round trip over {len(times)} posts ({args.warmup} untimed first; values {values!r} in turn): "
          f"p50 {p50:.3f} ms, p99 {p99:.3f} ms, max {worst:.3f} ms (client CPU {cpu:.2f} s)")
    if extra_patches:
        print(f"  note: {extra_patches} post(s) caused more than one patch; the first of each was timed")
    record("input.p50", p50, "ms")
    record("input.p99", p99, "ms")
    record("input.max", worst, "ms")


if __name__ == "__main__":
    main()
