"""A move from the list to a movie, timed in headless Chromium against the release `movies` server: in place (a click
on the link, with and without the link's prefetch) against a full page load of the same screen.

Each sample opens the list, waits until it is live, then moves to `/movies/{n}` (n = 1…rounds, the three ways in
turn) and records, in the page's own clock: from the click (the click event's timeStamp) to the first frame that
shows the new screen (two animation frames after the swap), and to the new screen live (`data-connection="live"`).
A full load is timed from its navigation start (performance.timeOrigin, so the old page's unload is not counted,
which favours it) to its first contentful paint and to live.

    Deployment/with-postgres.sh .venv/bin/python Benchmarks/navigation.py [--rounds 20] [--json out.json]
"""

import argparse
import json
import os
import statistics
import sys
import time

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
sys.path.insert(0, os.path.join(ROOT, "BrowserTests"))

from selenium.webdriver.common.action_chains import ActionChains  # noqa: E402
from selenium.webdriver.common.by import By  # noqa: E402

from conftest import make_browser, running_server, wait  # noqa: E402

# In the list's document: times the next move in place. Answers through window.__move.
ARM_IN_PLACE = """
window.__move = null;
var root = document.documentElement, from = root.getAttribute('data-screen');
var clicked = null, swapped = null, painted = null, lived = null;
var done = function () {
  if (painted !== null && lived !== null) window.__move = {paint: painted - clicked, live: lived - clicked};
};
document.addEventListener('click', function (event) { clicked = event.timeStamp; }, {capture: true, once: true});
new MutationObserver(function () {
  if (swapped === null && root.getAttribute('data-screen') !== from) {
    swapped = performance.now();
    requestAnimationFrame(function () { requestAnimationFrame(function () { painted = performance.now(); done(); }); });
  }
  // Live: the new screen attached to the stream (the old one was live when the click came).
  if (swapped !== null && lived === null && root.getAttribute('data-connection') === 'live') {
    lived = performance.now();
    done();
  }
}).observe(root, {attributes: true});
"""

# In every new document, before its scripts: when it goes live, in its own clock (from navigation start).
ON_NEW_DOCUMENT = """
new MutationObserver(function () {
  var root = document.documentElement;
  if (!window.__live && root && root.getAttribute('data-connection') === 'live') window.__live = performance.now();
}).observe(document, {attributes: true, subtree: true, attributeFilter: ['data-connection']});
"""


def live(browser):
    wait(browser).until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")


def open_list(browser, server):
    browser.get(server.page("/"))
    live(browser)


def in_place(browser, server, movie, prefetch):
    open_list(browser, server)
    browser.execute_script(ARM_IN_PLACE)
    link = browser.find_element(By.CSS_SELECTOR, f'a[href="/movies/{movie}"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    if prefetch:
        ActionChains(browser).move_to_element(link).perform()
        time.sleep(0.4)  # the 100 ms rest, and the prefetch's answer
    else:
        # The pointer comes from elsewhere and clicks at once: no prefetch has begun.
        ActionChains(browser).move_to_element(browser.find_element(By.TAG_NAME, "h1")).perform()
    link.click()
    wait(browser).until(lambda b: b.execute_script("return window.__move"))
    return browser.execute_script("return window.__move")


def full_load(browser, server, movie):
    open_list(browser, server)
    browser.get(server.page(f"/movies/{movie}"))
    live(browser)
    wait(browser).until(lambda b: b.execute_script("return window.__live"))
    return browser.execute_script(
        "var paint = performance.getEntriesByName('first-contentful-paint')[0];"
        "return {paint: paint ? paint.startTime : null, live: window.__live};")


def summary(samples):
    def of(key):
        values = sorted(sample[key] for sample in samples if sample[key] is not None)
        return {"median": round(statistics.median(values), 1),
                "p90": round(values[min(len(values) - 1, int(len(values) * 0.9))], 1), "n": len(values)}
    return {"paint_ms": of("paint"), "live_ms": of("live")}


def main():
    parser = argparse.ArgumentParser(description=__doc__.split("\n\n")[0])
    parser.add_argument("--rounds", type=int, default=20)
    parser.add_argument("--json")
    options = parser.parse_args()
    samples = {"in place": [], "in place, prefetched": [], "full page load": []}
    with running_server() as server:
        browser = make_browser()
        try:
            browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": ON_NEW_DOCUMENT})
            # A first round of each way warms the server and the browser's caches; it is not counted.
            in_place(browser, server, 21, False)
            full_load(browser, server, 21)
            for round_ in range(options.rounds):
                movie = 1 + round_ % 20
                samples["in place"].append(in_place(browser, server, movie, False))
                samples["in place, prefetched"].append(in_place(browser, server, movie, True))
                samples["full page load"].append(full_load(browser, server, movie))
        finally:
            browser.quit()
    result = {way: summary(values) for way, values in samples.items()}
    print(f"{'list → movie':24} {'first paint (ms)':>22} {'live (ms)':>22}")
    for way, figures in result.items():
        paint, live_ = figures["paint_ms"], figures["live_ms"]
        print(f"{way:24} {paint['median']:>10} (p90 {paint['p90']:>6}) {live_['median']:>10} (p90 {live_['p90']:>6})")
    if options.json:
        with open(options.json, "w") as file:
            json.dump(result, file, indent=2)


if __name__ == "__main__":
    main()
