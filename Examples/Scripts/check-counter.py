#!/usr/bin/env python3
"""Runs the README's Counter program, as built, and checks it over HTTP.

    Examples/Scripts/check-counter.py [path/to/Counter]   # default Examples/.build/debug/Counter

Starts it on a free port with `--root Examples/Sources/Counter` (the README's code finds `Templates/Counter.html`
under the current folder or `--root`: its main.swift has no way to name its own resources), fetches `/counter`,
checks the count label and the Add button, posts the `add` action as the page's form does (its action URL and
CSRF token read from the page, without JavaScript, with the cookies a browser keeps: `303` to the screen the post
built from the page's token), sees the count become 1, then
stops the program by its pid with SIGTERM and checks that it stopped cleanly.
"""

import html
import http.cookiejar
import pathlib
import re
import subprocess
import sys
import time
import urllib.parse
import urllib.request

EXAMPLES = pathlib.Path(__file__).resolve().parents[1]
# A browser's cookies: the page's token is signed for the browser the page was rendered for (its cookie).
BROWSER = urllib.request.build_opener(urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))


def fail(message, output=""):
    sys.exit(f"check-counter: {message}\n{output}")


def fetch(url, form=None):
    data = urllib.parse.urlencode(form).encode() if form is not None else None
    with BROWSER.open(urllib.request.Request(url, data=data), timeout=10) as response:
        return response.status, response.geturl(), response.read().decode()


def main():
    binary = pathlib.Path(sys.argv[1]) if len(sys.argv) > 1 else EXAMPLES / ".build" / "debug" / "Counter"
    if not binary.exists():
        fail(f"{binary} is not built: swift build --package-path Examples --product Counter")
    process = subprocess.Popen(
        [str(binary), "--port", "0", "--root", str(EXAMPLES / "Sources" / "Counter"), "--no-access-log"],
        stdout=subprocess.PIPE, stderr=subprocess.STDOUT, text=True, cwd="/")
    try:
        # The banner names the port: "counter: serving http://localhost:PORT/ (Ctrl-C to stop)".
        deadline, banner, port = time.monotonic() + 30, "", None
        while port is None and time.monotonic() < deadline:
            line = process.stdout.readline()
            if not line:
                fail(f"Counter exited ({process.wait()}) before serving", banner)
            banner += line
            match = re.search(r"serving http://[^:]+:(\d+)/", line)
            port = match and int(match.group(1))
        if port is None:
            fail("no banner within 30 s", banner)
        base = f"http://127.0.0.1:{port}"

        status, _, page = fetch(base + "/counter")
        if status != 200 or not re.search(r'<p id="[^"]+" data-outlet="countLabel">0</p>', page):
            fail(f"GET /counter ({status}) has no count label showing 0", page)
        button = re.search(r'<form id="[^"]+" method="post" action="([^"]+/actions/add)">.*?'
                           r'<button[^>]*type="submit"[^>]*>Add</button>', page)
        if not button:
            fail("GET /counter has no Add button posting the action add", page)
        csrf = re.search(r'data-csrf="([^"]+)"', page)
        if not csrf:
            fail("the page has no data-csrf token", page)

        # A plain form post, as without JavaScript: 303 to the screen's URL naming its session (/counter?screen=…),
        # the same session, now counting 1.
        status, landed, page = fetch(base + html.unescape(button.group(1)), {"csrf": html.unescape(csrf.group(1))})
        at = urllib.parse.urlsplit(landed)
        if (status != 200 or at.path != "/counter" or "screen" not in urllib.parse.parse_qs(at.query)
                or not re.search(r'data-outlet="countLabel">1</p>', page)):
            fail(f"after Add ({status}, at {landed}) the count is not 1", page)
        print(f"check-counter: GET /counter shows 0 and Add; POST {urllib.parse.urlsplit(button.group(1)).path} "
              f"→ {urllib.parse.urlsplit(landed).path} shows 1")
    finally:
        process.terminate()  # SIGTERM, to this pid only
        try:
            code = process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            fail("Counter did not stop within 10 s of SIGTERM")
    rest = process.stdout.read()
    if code != 0 or "stopping" not in rest:
        fail(f"Counter exited with {code} after SIGTERM", rest)
    print("check-counter: stopped cleanly on SIGTERM")


if __name__ == "__main__":
    main()
