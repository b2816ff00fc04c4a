"""Fixtures for the browser tests: the release `movies` server on an ephemeral port and headless Chromium.

The server runs from `.build/release/movies` (override with MOVIES_BINARY) over a fresh SQLite file seeded from
the shipped catalog; it prints the URL it serves, which gives the bound port. Chromium and chromedriver come from
Debian (`/usr/bin/chromium`, `/usr/bin/chromedriver`).
"""

import contextlib
import html
import http.cookiejar
import json
import os
import re
import shutil
import subprocess
import tempfile
import threading
import time
import urllib.error
import urllib.parse
import urllib.request

import pytest
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.support.ui import WebDriverWait
from selenium import webdriver
from selenium.webdriver.chrome.service import Service

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT_SECONDS = 10
# The demo account the tests sign in with (Catalog/accounts.txt; the README gives the passwords).
DEMO_USER = "alice"
DEMO_PASSWORD = "screenplay-alice"
# Every server of the tests signs cookies with this key, so a sign-in outlives a restart of the server.
SIGNIN_SECRET = "browser-tests-signin-secret-0123456789"


class MovieServer:
    """A running `movies` process and how to reach it."""

    def __init__(self, process, url, output):
        self.process = process
        self.url = url.rstrip("/")
        self.output = output
        self.cookies = {}

    def wait_for_line(self, predicate, timeout):
        """The first line the server printed (log lines included) for which `predicate` holds, with the
        `time.monotonic()` it was read at, waiting up to `timeout` seconds for it: `(seconds, line)`, or None."""
        return self.output.wait_for(predicate, timeout)

    def get(self, path, signed_in=False):
        """GETs `path` and answers its body as text; with `signed_in`, as the demo account alice."""
        headers = {"Cookie": self.sign_in_cookie()} if signed_in else {}
        request = urllib.request.Request(self.page(path), headers=headers)
        with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
            return response.read().decode()

    def sign_in_cookie(self, name=DEMO_USER, password=DEMO_PASSWORD):
        """Signs in through the sign-in form over HTTP and answers the cookie (`screenplay_signin=…`) it set."""
        if (name, password) in self.cookies:
            return self.cookies[(name, password)]
        class NoRedirects(urllib.request.HTTPRedirectHandler):
            def redirect_request(self, *arguments):
                return None

        # A browser's cookies: the form's token is signed for the browser the page was rendered for.
        opener = urllib.request.build_opener(
            NoRedirects, urllib.request.HTTPCookieProcessor(http.cookiejar.CookieJar()))
        with opener.open(self.page("/signin"), timeout=WAIT_SECONDS) as response:
            page = response.read().decode()
        action = html.unescape(re.search(r'formaction="([^"]+/actions/signIn)"', page).group(1))
        token = html.unescape(re.search(r'name="csrf" value="([^"]+)"', page).group(1))
        form = urllib.parse.urlencode({"csrf": token, "name": name, "password": password}).encode()

        try:
            opener.open(urllib.request.Request(self.page(action), data=form), timeout=WAIT_SECONDS)
            raise AssertionError("signing in answered no redirect")
        except urllib.error.HTTPError as answer:
            cookie = answer.headers.get("Set-Cookie", "")
        assert cookie.startswith("screenplay_signin="), f"signing in as {name} set no cookie"
        self.cookies[(name, password)] = cookie.split(";")[0]
        return self.cookies[(name, password)]

    def sign_in(self, browser, name=DEMO_USER, password=DEMO_PASSWORD):
        """Gives `browser` the sign-in cookie of `name` for this server (signed in over HTTP, once per server)."""
        cookie = self.sign_in_cookie(name, password)
        browser.get(self.page("/public/images/icon.svg"))
        cookie_name, value = cookie.split("=", 1)
        browser.add_cookie({"name": cookie_name, "value": value, "path": "/", "httpOnly": True, "sameSite": "Lax"})

    def page(self, path):
        return self.url + path

    def create(self, fields):
        """POSTs a movie of `fields` through the JSON API and returns the created movie."""
        request = urllib.request.Request(
            self.page("/api/movies"), data=json.dumps(fields).encode(), method="POST",
            headers={"Content-Type": "application/json"})
        with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
            assert response.status == 201
            return json.load(response)

    def delete(self, movie_id):
        """DELETEs movie `movie_id` through the JSON API."""
        request = urllib.request.Request(self.page(f"/api/movies/{movie_id}"), method="DELETE")
        with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
            assert response.status == 204

    def patch(self, movie_id, fields):
        """PATCHes movie `movie_id` through the JSON API and returns the decoded answer."""
        request = urllib.request.Request(
            self.page(f"/api/movies/{movie_id}"),
            data=json.dumps(fields).encode(),
            method="PATCH",
            headers={"Content-Type": "application/merge-patch+json"},
        )
        with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
            assert response.status == 200
            return json.load(response)


class Output:
    """The lines a process printed so far, each with the `time.monotonic()` it was read at; a test can wait on them."""

    def __init__(self):
        self.lines = []
        self.changed = threading.Condition()

    def append(self, line):
        with self.changed:
            self.lines.append((time.monotonic(), line))
            self.changed.notify_all()

    def wait_for(self, predicate, timeout):
        deadline = time.monotonic() + timeout
        seen = 0
        with self.changed:
            while True:
                for stamped in self.lines[seen:]:
                    if predicate(stamped[1]):
                        return stamped
                seen = len(self.lines)
                left = deadline - time.monotonic()
                if left <= 0:
                    return None
                self.changed.wait(left)


@contextlib.contextmanager
def running_server(database=None, arguments=(), ready_timeout=30):
    """Starts `movies` on an ephemeral port over a fresh SQLite database (or `database`, a PostgreSQL URL), with
    `arguments` added, waiting `ready_timeout` seconds at most for it to serve; stops it and removes the database at
    the end."""
    binary = os.environ.get("MOVIES_BINARY", os.path.join(ROOT, ".build", "release", "movies"))
    if not os.access(binary, os.X_OK):
        raise RuntimeError(f"{binary} is missing: build it with `swift build -c release --product movies`")
    folder = tempfile.mkdtemp(prefix="screenplay-browser-")
    process = subprocess.Popen(
        [binary, "--port", "0", "--database", database or os.path.join(folder, "movies.sqlite"), "--root", ROOT,
         *arguments],
        stdout=subprocess.PIPE,
        stderr=subprocess.STDOUT,
        text=True,
        env={**os.environ, "SIGNIN_SECRET": SIGNIN_SECRET},
    )
    found = {}
    ready = threading.Event()
    output = Output()

    def read_output():
        # Reads until the process ends, so a full pipe never blocks the server; keeps every line for the tests.
        for line in process.stdout:
            output.append(line.rstrip("\n"))
            match = re.search(r"http://([^/\s]+):(\d+)/", line)
            if match and "url" not in found:
                found["url"] = f"http://127.0.0.1:{match.group(2)}/"
                ready.set()
        ready.set()

    threading.Thread(target=read_output, daemon=True).start()
    try:
        if not ready.wait(timeout=ready_timeout) or "url" not in found:
            raise RuntimeError(f"movies did not print its URL (exit status {process.poll()})")
        yield MovieServer(process, found["url"], output)
    finally:
        process.terminate()
        try:
            process.wait(timeout=10)
        except subprocess.TimeoutExpired:
            process.kill()
            process.wait()
        shutil.rmtree(folder, ignore_errors=True)


@pytest.fixture(scope="session")
def server():
    with running_server() as server:
        yield server


@pytest.fixture
def fresh_server():
    """A server of the test's own: its gauges and log count only what the test did."""
    with running_server() as server:
        yield server


def make_browser(javascript=True):
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,900", "--disable-extensions", "--no-first-run"):
        options.add_argument(argument)
    if not javascript:
        options.add_experimental_option("prefs", {"profile.managed_default_content_settings.javascript": 2})
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.set_page_load_timeout(30)
    return browser


@pytest.fixture
def browser():
    browser = make_browser(javascript=True)
    yield browser
    browser.quit()


@pytest.fixture
def browser_without_javascript():
    browser = make_browser(javascript=False)
    yield browser
    browser.quit()


class wait:
    """`WebDriverWait` that looks again while the browser swaps documents. A form post or a link replaces the document
    under a waiting lookup; chromedriver then answers with a stale reference or, for a node of the old document, with
    an "unknown error" ("Node with given id does not belong to the document"). Any other error still fails the wait."""

    def __init__(self, browser, timeout=WAIT_SECONDS):
        self.waiter = WebDriverWait(browser, timeout)

    def until(self, condition):
        def looking_again_across_documents(browser):
            try:
                return condition(browser)
            except StaleElementReferenceException:
                return False
            except WebDriverException as error:
                if "does not belong to the document" in (error.msg or ""):
                    return False
                raise

        return self.waiter.until(looking_again_across_documents)
