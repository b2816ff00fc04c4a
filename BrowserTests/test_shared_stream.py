"""Wire protocol v2 in a real browser: twelve tabs share one event stream (Chromium opens at most six HTTP/1.1
connections per origin, so one stream per tab would leave the seventh tab loading forever).

Each test runs twice: with a SharedWorker owning the stream, and with SharedWorker removed before any page script
runs, so the tabs elect a leader with a Web Lock and relay over a BroadcastChannel.
"""

import re
import time
from concurrent.futures import ThreadPoolExecutor

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import WAIT_SECONDS
from test_movie_flows import wait

MOVIES = range(1, 12)
PATHS = ["/"] + [f"/movies/{movie}" for movie in MOVIES]

# Records, in the page, when each watched element first shows its expected text (Date.now(), the clock Python's
# time.time() reads too) and how many times such an element was put into the page: a patch applied twice shows
# as two. Watching in the page measures the delivery, not how long Selenium takes to visit twelve tabs.
ARM = """
var watches = arguments[0];
window.arrivals = {}; window.insertions = {};
function matches(node, selector) {
  return node.nodeType === 1 && (node.matches(selector) || !!node.querySelector(selector));
}
function look(records) {
  Object.keys(watches).forEach(function (key) {
    var selector = watches[key][0], text = watches[key][1];
    (records || []).forEach(function (record) {
      Array.prototype.forEach.call(record.addedNodes, function (node) {
        if (matches(node, selector)) window.insertions[key] = (window.insertions[key] || 0) + 1;
      });
    });
    var node = document.querySelector(selector);
    if (!window.arrivals[key] && node && node.textContent.trim() === text) window.arrivals[key] = Date.now();
  });
}
if (window.ratingObserver) window.ratingObserver.disconnect();
window.ratingObserver = new MutationObserver(look);
window.ratingObserver.observe(document.documentElement, {subtree: true, childList: true, characterData: true});
return Object.keys(watches).map(function (key) {
  var node = document.querySelector(watches[key][0]);
  return node ? node.textContent.trim() : null;
});
"""


class Tab:
    def __init__(self, handle, path):
        self.handle = handle
        self.path = path
        self.session = None

    def watches(self, ratings):
        """What this tab shows of `ratings` (movie id → rating text): the list shows every movie, a detail page its
        own."""
        if self.path == "/":
            return {str(movie): (f'a[href="/movies/{movie}"] .rating', "★ " + text)
                    for movie, text in ratings.items()}
        movie = int(self.path.rsplit("/", 1)[1])
        return {str(movie): (".rating-value", ratings[movie])} if movie in ratings else {}


def html(browser, attribute):
    return browser.find_element(By.TAG_NAME, "html").get_attribute(attribute)


def connection_is(state):
    return lambda browser: html(browser, "data-connection") == state


def open_tabs(browser, server, without_shared_worker):
    tabs = []
    for index, path in enumerate(PATHS):
        if index:
            browser.switch_to.new_window("tab")
        if without_shared_worker:
            # Per target: every tab needs it before its first document.
            browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.SharedWorker;"})
        browser.get(server.page(path))
        tab = Tab(browser.current_window_handle, path)
        # The page loaded: the list with its cards, a detail page with its title.
        selector = ".movie-card" if path == "/" else "h1.title"
        wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, selector)))
        tab.session = html(browser, "data-screen")
        assert tab.session and html(browser, "data-wire") == "2"
        browser.execute_script("window.sameDocument = true;")
        tabs.append(tab)
    return tabs


def all_live(browser, tabs):
    for tab in tabs:
        browser.switch_to.window(tab.handle)
        wait(browser).until(connection_is("live"))


def owners(browser, tabs):
    found = []
    for tab in tabs:
        browser.switch_to.window(tab.handle)
        found.append(html(browser, "data-stream-owner"))
    return found


def open_streams(server):
    text = server.get("/metrics")
    return int(re.search(r"^screenplay_event_streams_open (\d+)$", text, re.M).group(1))


def wait_for_open_streams(server, count):
    deadline = time.monotonic() + WAIT_SECONDS
    while (seen := open_streams(server)) != count and time.monotonic() < deadline:
        time.sleep(0.1)
    assert seen == count, f"screenplay_event_streams_open {seen}, expected {count}"


def ratings_from(base):
    """New ratings for movies 1…11 (movie id → the text a page shows), none of which the catalog had."""
    return {movie: f"{base + movie / 10:.1f}" for movie in MOVIES}


def arm(browser, tabs, ratings):
    for tab in tabs:
        browser.switch_to.window(tab.handle)
        before = browser.execute_script(ARM, tab.watches(ratings))
        assert not set(before) & {text for _, text in tab.watches(ratings).values()}, f"{tab.path} shows {before}"


def patch_ratings(server, ratings, spacing=0.0):
    """PATCHes every rating of `ratings`, `spacing` seconds apart; answers when each was sent (time.time() in ms)."""
    sent = {}
    for movie, text in ratings.items():
        sent[movie] = time.time() * 1000
        assert server.patch(movie, {"rating": float(text)})["rating"] == float(text)
        time.sleep(spacing)
    return sent


def check_arrivals(browser, tabs, ratings, sent, within_ms):
    """Every tab shows its new ratings, each within `within_ms` of `sent[movie]`, put in the page once (not applied
    twice), in the same document (no reload)."""
    for tab in tabs:
        browser.switch_to.window(tab.handle)
        keys = set(tab.watches(ratings))
        wait(browser).until(lambda b: set(b.execute_script("return Object.keys(window.arrivals)")) >= keys)
        arrivals = browser.execute_script("return window.arrivals")
        insertions = browser.execute_script("return window.insertions")
        for key in keys:
            late = arrivals[key] - sent[int(key)]
            assert late <= within_ms, f"{tab.path}: movie {key}'s rating came {late:.0f} ms late (at most {within_ms})"
            assert insertions.get(key) == 1, f"{tab.path}: movie {key}'s rating was put in {insertions.get(key)} times"
        assert browser.execute_script("return window.sameDocument === true"), f"{tab.path} reloaded"


def rate_every_movie(browser, server, tabs, base, within_ms=1000):
    """PATCHes the ratings of movies 1…11: each reaches every tab showing it within `within_ms` of its PATCH."""
    ratings = ratings_from(base)
    arm(browser, tabs, ratings)
    check_arrivals(browser, tabs, ratings, patch_ratings(server, ratings), within_ms)


def refresh_answers_and_its_patch_arrives(browser, tab):
    browser.switch_to.window(tab.handle)
    browser.execute_script(
        "window.sawRefreshing = false;"
        "new MutationObserver(function () {"
        "  if (document.body.textContent.indexOf('Refreshing') >= 0) window.sawRefreshing = true;"
        "}).observe(document.documentElement, {subtree: true, childList: true, characterData: true});"
    )
    browser.find_element(By.CSS_SELECTOR, "button.refresh").click()
    wait(browser).until(lambda b: b.execute_script("return window.sawRefreshing"))
    wait(browser).until(lambda b: "Refreshing" not in b.find_element(By.CSS_SELECTOR, ".movie-detail").text)
    statuses = browser.execute_script(
        "return performance.getEntriesByType('resource')"
        ".filter(function (e) { return /\\/actions\\/refresh$/.test(e.name); })"
        ".map(function (e) { return e.responseStatus; });"
    )
    assert statuses == [204]
    assert browser.execute_script("return window.sameDocument === true")


def record_connection_states(browser, tabs):
    """From now on each tab keeps every data-connection state its <html> takes."""
    for tab in tabs:
        browser.switch_to.window(tab.handle)
        browser.execute_script(
            "window.connectionStates = [];"
            "new MutationObserver(function () {"
            "  window.connectionStates.push(document.documentElement.getAttribute('data-connection'));"
            "}).observe(document.documentElement, {attributes: true, attributeFilter: ['data-connection']});"
        )


def connection_states(browser, tab):
    browser.switch_to.window(tab.handle)
    return browser.execute_script("return window.connectionStates")


def close_tab(browser, tabs, tab):
    """Closes `tab`; answers when, as `(time.time() in ms, time.monotonic())` taken just before."""
    browser.switch_to.window(tab.handle)
    closed_at = (time.time() * 1000, time.monotonic())
    browser.close()
    tabs.remove(tab)
    browser.switch_to.window(tabs[0].handle)
    return closed_at


def session_ended_closed(server, tab, closed_at, within=5):
    """The server logged the end of `tab`'s session, reason closed, within `within` seconds of the close."""
    found = server.wait_for_line(
        lambda line: "session.ended" in line and f"session={tab.session}" in line.split() and "reason=closed" in line,
        max(0, closed_at[1] + within - time.monotonic()),
    )
    assert found, f"no `session.ended session={tab.session} reason=closed` within {within} s of closing {tab.path}"
    assert found[0] - closed_at[1] <= within


@pytest.mark.parametrize("owner", ["shared-worker", "web-locks"])
def test_twelve_tabs_share_one_stream(browser, fresh_server, owner):
    server = fresh_server
    without_shared_worker = owner == "web-locks"
    tabs = open_tabs(browser, server, without_shared_worker)
    all_live(browser, tabs)
    if without_shared_worker:
        # The first tab took the lock; the others hear its stream.
        assert owners(browser, tabs) == ["leader"] + ["follower"] * (len(tabs) - 1)
    else:
        assert owners(browser, tabs) == ["worker"] * len(tabs)
    wait_for_open_streams(server, 1)

    rate_every_movie(browser, server, tabs, base=1)
    refresh_answers_and_its_patch_arrives(browser, tabs[11])

    # The first tab owns the stream: the leader, or with a SharedWorker the tab the worker started for. Close it
    # with PATCHes right behind: the others keep the stream (or regain it from the next leader), and the changes
    # made while it changed hands arrive once each, within 2 s of the close.
    first, others = tabs[0], tabs[1:]
    ratings = ratings_from(3)
    arm(browser, others, ratings)
    record_connection_states(browser, others)
    with ThreadPoolExecutor(1) as pool:
        patching = pool.submit(patch_ratings, server, ratings, 0.02)
        closed_at = close_tab(browser, tabs, first)
        patching.result()
    check_arrivals(browser, tabs, ratings, dict.fromkeys(MOVIES, closed_at[0]), within_ms=2000)
    all_live(browser, tabs)
    for tab in tabs:
        states = connection_states(browser, tab)
        if without_shared_worker:
            assert states and states[-1] == "live", f"{tab.path}: {states}"
        else:
            assert set(states) <= {"live"}, f"{tab.path} left live: {states}"
    if without_shared_worker:
        assert owners(browser, tabs).count("leader") == 1
    wait_for_open_streams(server, 1)
    session_ended_closed(server, first, closed_at)

    rate_every_movie(browser, server, tabs, base=5)

    # Any other tab: its screen's session ends as it closes, and the rest carry on.
    middle = tabs[4]
    closed_at = close_tab(browser, tabs, middle)
    session_ended_closed(server, middle, closed_at)
    all_live(browser, tabs)
    rate_every_movie(browser, server, tabs, base=7)
