"""Mixed load against a running movies server: page GETs, actions, PATCHes and event streams opening and closing.

Samples the server's resident memory every few seconds and, at the end, checks that memory stayed flat (the last
third of the run grew less than a set margin over the middle third) and that every acknowledged PATCH is what the
API and the database now hold. Prints its figures; exits non-zero on a failed check.
"""
import argparse
import html
import http.client
import json
import random
import re
import threading
import time
import urllib.parse

parser = argparse.ArgumentParser()
parser.add_argument("--port", type=int, required=True)
parser.add_argument("--pid", type=int, required=True)
parser.add_argument("--seconds", type=float, default=300)
parser.add_argument("--margin", type=float, default=0.15, help="allowed growth of memory, as a fraction")
parser.add_argument("--stream-clients", type=int, default=4, help="threads opening pages and their event streams")
args = parser.parse_args()

deadline = time.time() + args.seconds
counts = {"pages": 0, "actions": 0, "patches": 0, "streams": 0, "errors": 0}
counts_lock = threading.Lock()
acknowledged = {}  # movie id -> last rating the server acknowledged
ack_lock = threading.Lock()


error_kinds = {}  # what went wrong -> how many times, printed at the end


def bump(name):
    with counts_lock:
        counts[name] += 1


def fail(what):
    """Counts an error and remembers what it was (an unexpected status, or the exception's type and message)."""
    with counts_lock:
        counts["errors"] += 1
        error_kinds[what] = error_kinds.get(what, 0) + 1


def failure(error):
    return f"{type(error).__name__}: {error}"


def connect():
    return http.client.HTTPConnection("127.0.0.1", args.port, timeout=10)


def rss_kib():
    with open(f"/proc/{args.pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0


# The browser every page comes from (its identity cookie): a page's token is signed for it, and its posts and attaches
# build the live screen from that token.
BROWSER = {"Cookie": "screenplay_browser=soakBrowserAAAAAAAAAAA"}


def movie_ids():
    connection = connect()
    connection.request("GET", "/api/movies")
    return [movie["id"] for movie in json.loads(connection.getresponse().read())["movies"]]


def pages_and_actions():
    while time.time() < deadline:
        try:
            connection = connect()
            target = random.choice(["/", "/movies/1", "/movies/2", "/movies/3", "/nope"])
            connection.request("GET", target, headers=BROWSER)
            page = connection.getresponse().read().decode()
            bump("pages")
            token = re.search(r'name="csrf" value="([^"]+)"', page)
            action = re.search(r'action="(/screens/[^"]+/actions/refresh)"', page)
            if token and action:
                body = urllib.parse.urlencode({"csrf": html.unescape(token.group(1))})
                connection = connect()
                connection.request("POST", action.group(1), body, {
                    "Content-Type": "application/x-www-form-urlencoded", "X-Requested-With": "fetch", **BROWSER})
                status = connection.getresponse().status
                if status in (204, 303):
                    bump("actions")
                else:
                    fail(f"POST refresh answered {status}")
        except Exception as error:
            fail(f"page or action: {failure(error)}")


def patches(movie):
    # One writer per movie, so the last acknowledged rating is the one the store must hold. It goes on until the
    # last stream has ended: a stream opened just before the deadline waits for the next change of its movie.
    while time.time() < deadline or not streams_ended.is_set():
        rating = round(random.uniform(0, 10), 1)
        try:
            connection = connect()
            connection.request("PATCH", f"/api/movies/{movie}", json.dumps({"rating": rating}),
                               {"Content-Type": "application/json"})
            response = connection.getresponse()
            response.read()
            if response.status == 200:
                with ack_lock:
                    acknowledged[movie] = rating
                bump("patches")
            else:
                fail(f"PATCH answered {response.status}")
        except Exception as error:
            fail(f"PATCH: {failure(error)}")


def streams():
    while time.time() < deadline:
        step = "page"
        try:
            connection = connect()
            connection.request("GET", "/movies/1", headers=BROWSER)
            page = connection.getresponse().read().decode()
            names = {name: re.search(rf'<html[^>]* data-{name}="([^"]*)"', page) for name in
                     ("screen", "csrf", "screen-url", "last-event-id")}
            if not all(names.values()):
                fail("GET /movies/1 without the wire's attributes on <html>")
                continue
            step = "stream head"
            stream = connect()
            stream.request("GET", "/streams", headers={"Accept": "text/event-stream", **BROWSER})
            response = stream.getresponse()
            step = "first event"
            greeting = response.fp.read1(1024).decode() if hasattr(response.fp, "read1") else ""
            named = re.search(r'"stream":"([^"]+)"', greeting)
            if not named:
                fail("GET /streams without its stream event")
                stream.close()
                continue
            step = "attach"
            form = urllib.parse.urlencode({
                "screen": names["screen"].group(1), "csrf": html.unescape(names["csrf"].group(1)),
                "url": html.unescape(names["screen-url"].group(1)), "last": names["last-event-id"].group(1),
                "version": "2"})
            connection.request("POST", f"/streams/{named.group(1)}/screens", body=form,
                               headers={"Content-Type": "application/x-www-form-urlencoded", **BROWSER})
            attached = connection.getresponse()
            attached.read()
            if attached.status != 204:
                fail(f"attach answered {attached.status}")
            connection.close()
            connection = stream
            time.sleep(random.uniform(0.05, 0.5))
            connection.close()  # Hang up mid-stream: the server must free it.
            bump("streams")
        except Exception as error:
            fail(f"stream ({step}): {failure(error)}")


streams_ended = threading.Event()
ids = movie_ids()
threads = [threading.Thread(target=pages_and_actions) for _ in range(4)]
threads += [threading.Thread(target=patches, args=(movie,)) for movie in ids[:4]]
stream_threads = [threading.Thread(target=streams) for _ in range(args.stream_clients)]
start = time.time()
for thread in threads + stream_threads:
    thread.start()
samples = []
while time.time() < deadline:
    samples.append((time.time() - start, rss_kib()))
    time.sleep(min(5, max(0.5, args.seconds / 30)))
for thread in stream_threads:
    thread.join()
streams_ended.set()
for thread in threads:
    thread.join()
samples.append((time.time() - start, rss_kib()))

lost = []
for movie, rating in acknowledged.items():
    connection = connect()
    connection.request("GET", f"/api/movies/{movie}")
    stored = json.loads(connection.getresponse().read())["rating"]
    if stored != rating:
        lost.append((movie, rating, stored))

third = max(1, len(samples) // 3)
middle = max(kib for _, kib in samples[third:2 * third] or samples)
last = max(kib for _, kib in samples[2 * third:] or samples)
growth = (last - middle) / middle if middle else 0
elapsed = time.time() - start
print(f"soak: {elapsed:.0f}s; pages {counts['pages']}, actions {counts['actions']}, patches {counts['patches']}, "
      f"streams opened and dropped {counts['streams']}, errors {counts['errors']}")
for what, times in sorted(error_kinds.items(), key=lambda item: -item[1]):
    print(f"soak: error x{times}: {what}")
print(f"soak: RSS first {samples[0][1]} KiB, peak of middle third {middle} KiB, peak of last third {last} KiB "
      f"(growth {growth * 100:.1f}%)")
print(f"soak: acknowledged PATCHes checked {len(acknowledged)} movies, lost {len(lost)} {lost if lost else ''}")
if lost or growth > args.margin:
    raise SystemExit("soak: FAILED")
print("soak: OK")
