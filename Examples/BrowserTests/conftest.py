"""Fixtures for the to-do app's browser tests: `todos` on an ephemeral port and headless Chromium.

The server is `Examples/.build/debug/todos` (override with TODOS_BINARY), started with `--port 0` from a scratch
folder (its templates and accounts are the target's resources); the URL it prints gives the bound port. Chromium and
chromedriver come from Debian (`/usr/bin/chromium`, `/usr/bin/chromedriver`), Selenium and pytest from the
repository's `.venv`.
"""

import contextlib
import os
import re
import subprocess
import tempfile
import threading

import pytest
from selenium import webdriver
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.chrome.service import Service
from selenium.webdriver.support.ui import WebDriverWait

EXAMPLES = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
CHROMIUM = os.environ.get("CHROMIUM", "/usr/bin/chromium")
CHROMEDRIVER = os.environ.get("CHROMEDRIVER", "/usr/bin/chromedriver")
WAIT_SECONDS = 10
# The demo account of Sources/TodoApp/accounts.txt, as Examples/README.md gives it.
DEMO_NAME = "demo"
DEMO_PASSWORD = "try-the-todos"


class TodoServer:
    """A running `todos` process: its URL and what it printed."""

    def __init__(self, process, url, lines):
        self.process = process
        self.url = url.rstrip("/")
        self.lines = lines

    def page(self, path):
        return self.url + path


@contextlib.contextmanager
def running_server():
    """Starts `todos` on an ephemeral port from a folder of its own; stops it (SIGTERM to its pid) at the end."""
    binary = os.environ.get("TODOS_BINARY", os.path.join(EXAMPLES, ".build", "debug", "todos"))
    if not os.access(binary, os.X_OK):
        raise RuntimeError(f"{binary} is missing: swift build --package-path Examples --product todos")
    with tempfile.TemporaryDirectory(prefix="todos-browser-") as folder:
        process = subprocess.Popen(
            [binary, "--port", "0", "--no-access-log"], cwd=folder, stdout=subprocess.PIPE,
            stderr=subprocess.STDOUT, text=True)
        found, lines, ready = {}, [], threading.Event()

        def read_output():
            # Reads until the process ends, so that a full pipe never blocks the server.
            for line in process.stdout:
                lines.append(line.rstrip("\n"))
                match = re.search(r"serving http://[^/\s]+:(\d+)/", line)
                if match and "url" not in found:
                    found["url"] = f"http://127.0.0.1:{match.group(1)}/"
                    ready.set()
            ready.set()

        threading.Thread(target=read_output, daemon=True).start()
        try:
            if not ready.wait(timeout=30) or "url" not in found:
                raise RuntimeError(f"todos did not print its URL (exit status {process.poll()}): {lines}")
            yield TodoServer(process, found["url"], lines)
        finally:
            process.terminate()
            try:
                process.wait(timeout=10)
            except subprocess.TimeoutExpired:
                process.kill()
                process.wait()


@pytest.fixture
def server():
    """A server of the test's own: an empty list."""
    with running_server() as server:
        yield server


def make_browser():
    options = webdriver.ChromeOptions()
    options.binary_location = CHROMIUM
    for argument in ("--headless=new", "--no-sandbox", "--disable-dev-shm-usage", "--disable-gpu",
                     "--window-size=1280,900", "--disable-extensions", "--no-first-run"):
        options.add_argument(argument)
    browser = webdriver.Chrome(service=Service(CHROMEDRIVER), options=options)
    browser.set_page_load_timeout(30)
    return browser


@pytest.fixture
def browsers():
    """Two browsers, each with its own cookies: two users' sessions."""
    opened = []
    try:
        opened = [make_browser(), make_browser()]
        yield opened
    finally:
        for browser in opened:
            browser.quit()


class wait:
    """`WebDriverWait` that looks again while the browser swaps documents (a form post or a navigation replaces the
    document under a waiting lookup: a stale reference, or "does not belong to the document")."""

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
