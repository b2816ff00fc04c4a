"""Upload progress on a slow link, in headless Chromium against the release `movies` server: the edit screen's
Poster field sends a PNG of --size-kib over a link throttled to --mbits (Chromium's network conditions, through the
DevTools protocol), and the page records, in its own clock, every change of the field's `<progress>` value. Reports
the largest gap between two changes from the first to the last, and their count (issue 38: a change at least every
250 ms on a 2 Mbit/s link).

    Deployment/with-postgres.sh .venv/bin/python Benchmarks/uploads/progress.py [--mbits 2] [--size-kib 1024]
"""

import argparse
import os
import random
import statistics
import struct
import sys
import tempfile
import zlib

ROOT = os.path.dirname(os.path.dirname(os.path.dirname(os.path.abspath(__file__))))
sys.path.insert(0, os.path.join(ROOT, "BrowserTests"))

from selenium.webdriver.common.by import By  # noqa: E402

from conftest import make_browser, running_server, wait  # noqa: E402

# Records each change of the first <progress> in the Poster field's wrapper, and when the upload is done.
WATCH = """
var input = arguments[0];
window.__changes = [];
// The field's <progress> may be replaced as the server's patches re-render the field: watch the field's element
// (the input's closest ancestor holding a <progress> once there is one) and record each new value, whichever element
// shows it.
var scope = input.closest('form') || document.body;
var last = null;
var record = function () {
  var progress = scope.querySelector('progress');
  if (!progress) return;
  var value = parseInt(progress.getAttribute('value') || '0', 10);
  if (value === last) return;
  last = value;
  window.__changes.push([performance.now(), value, parseInt(progress.getAttribute('max') || '0', 10)]);
};
new MutationObserver(record).observe(scope, {subtree: true, childList: true, attributes: true,
                                             attributeFilter: ['value']});
"""


def png(size):
    """A valid PNG of about `size` bytes: random pixels in one IDAT (incompressible), so the bytes are what is sent."""
    side = max(8, int((size / 3) ** 0.5))
    rows = b"".join(b"\x00" + random.randbytes(side * 3) for _ in range(side))

    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    header = struct.pack(">IIBBBBB", side, side, 8, 2, 0, 0, 0)
    return b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", header) + chunk(b"IDAT", zlib.compress(rows, 0)) + chunk(b"IEND", b"")


def main():
    parser = argparse.ArgumentParser()
    parser.add_argument("--mbits", type=float, default=2.0)
    parser.add_argument("--size-kib", type=int, default=1024)
    parser.add_argument("--movie", type=int, default=1)
    args = parser.parse_args()
    folder = tempfile.mkdtemp(prefix="screenplay-progress-")
    path = os.path.join(folder, "poster.png")
    with open(path, "wb") as f:
        f.write(png(args.size_kib * 1024))
    size = os.path.getsize(path)
    with running_server() as server:
        browser = make_browser(javascript=True)
        try:
            server.sign_in(browser)  # the edit screen is behind the sign-in
            browser.get(server.page(f"/movies/{args.movie}/edit"))
            wait(browser).until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")
            field = browser.find_element(By.CSS_SELECTOR, 'input[type="file"]')
            browser.execute_script(WATCH, field)
            bytes_per_second = args.mbits * 1_000_000 / 8
            browser.execute_cdp_cmd("Network.enable", {})
            browser.execute_cdp_cmd("Network.emulateNetworkConditions", {
                "offline": False, "latency": 20, "downloadThroughput": bytes_per_second,
                "uploadThroughput": bytes_per_second})
            field.send_keys(path)
            wait_seconds = size / bytes_per_second * 3 + 30
            from selenium.webdriver.support.ui import WebDriverWait
            try:
                WebDriverWait(browser, wait_seconds).until(lambda b: any(
                    change[1] >= size for change in b.execute_script("return window.__changes")))
            finally:
                changes = browser.execute_script("return window.__changes")
        finally:
            browser.quit()
    times = [change[0] for change in changes]
    gaps = [b - a for a, b in zip(times, times[1:])]
    took = (times[-1] - times[0]) / 1000 if len(times) > 1 else 0
    print(f"{size:,} bytes at {args.mbits} Mbit/s: {len(changes)} progress changes over {took:.1f} s; "
          f"largest gap {max(gaps):.0f} ms, median {statistics.median(gaps):.0f} ms (goal: every gap <= 250 ms)")
    if not gaps or max(gaps) > 250:
        sys.exit(1)


if __name__ == "__main__":
    main()
