"""Live navigation in a real browser: moving between the demo's screens in place, over the tab's one event stream.

A link, the server's navigation (the detail's Back) and the browser's Back and Forward swap the document's content
without loading a new document (a value put on `window` survives, and the Navigation Timing entry is the first
page's); the old screen is closed on the server; the new one goes live on the same stream; Back restores the
list's scroll and an unsaved draft; focus lands on the new screen's heading. With JavaScript off, the same links
and buttons are plain page loads and form posts.
"""

import contextlib
import json
import os
import re
import shutil
import tempfile
import urllib.request

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support import expected_conditions as EC

from conftest import WAIT_SECONDS, running_server, wait
from test_accessibility import FAILING_IMPACTS, axe_violations
from test_forms import free_port
from test_shared_stream import open_streams, wait_for_open_streams

# What tells one document from another: a marker on `window` and the Navigation Timing entry of its load.
MARK = """
window.__marker = arguments[0];
var entry = performance.getEntriesByType('navigation')[0];
return [performance.getEntriesByType('navigation').length, entry.startTime, entry.name];
"""
SAME_DOCUMENT = """
var entries = performance.getEntriesByType('navigation');
return [window.__marker || null, entries.length, entries[0].startTime, entries[0].name];
"""


def html(browser, attribute):
    return browser.find_element(By.TAG_NAME, "html").get_attribute(attribute)


def live(browser):
    wait(browser).until(lambda b: html(b, "data-connection") == "live")


def open_live(browser, server, path):
    browser.get(server.page(path))
    live(browser)
    return html(browser, "data-screen")


def mark(browser, value="kept"):
    count, start, name = browser.execute_script(MARK, value)
    assert count == 1
    return [value, count, start, name]


def in_the_same_document(browser, marked):
    assert browser.execute_script(SAME_DOCUMENT) == marked, "the document was reloaded"


def click_link(browser, href):
    link = browser.find_element(By.CSS_SELECTOR, f'a[href="{href}"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    link.click()


def screen_changed(browser, before):
    wait(browser).until(lambda b: html(b, "data-screen") not in (None, before))
    live(browser)
    return html(browser, "data-screen")


def ended(server, session, within=WAIT_SECONDS):
    """The server logged the end of `session`: closed by the page that left it, or navigated away by the server."""
    return server.wait_for_line(
        lambda line: "session.ended" in line and f"session={session}" in line.split()
        and ("reason=closed" in line or "reason=navigated" in line),
        within)


def api_movie(server, movie_id):
    with urllib.request.urlopen(server.page(f"/api/movies/{movie_id}"), timeout=WAIT_SECONDS) as response:
        return json.load(response)


def focused(browser):
    return browser.execute_script(
        "var a = document.activeElement; return [a.tagName, a.textContent.trim(), !!a.closest('main')];")


@pytest.mark.parametrize("owner", ["shared-worker", "web-locks"])
def test_a_link_opens_the_movie_in_place_on_the_same_stream(browser, fresh_server, owner):
    server = fresh_server
    if owner == "web-locks":
        # Without a SharedWorker the tab holding the Web Lock owns the stream: it keeps it across the moves.
        browser.execute_cdp_cmd("Page.addScriptToEvaluateOnNewDocument", {"source": "delete window.SharedWorker;"})
    list_screen = open_live(browser, server, "/")
    assert html(browser, "data-stream-owner") == ("leader" if owner == "web-locks" else "worker")
    marked = mark(browser)
    wait_for_open_streams(server, 1)

    click_link(browser, "/movies/3")
    wait(browser).until(EC.url_to_be(server.page("/movies/3")))
    movie_screen = screen_changed(browser, list_screen)
    title = browser.find_element(By.CSS_SELECTOR, "h1").text
    assert title and title in browser.title
    in_the_same_document(browser, marked)
    # Focus is on the new screen's heading, and the live region names it.
    assert focused(browser) == ["H1", title, True]
    wait(browser).until(lambda b: title in b.find_element(By.CSS_SELECTOR, "[data-announcer]").get_attribute(
        "textContent"))
    # The list's screen was closed; the movie's is live on the one stream the tab had.
    assert ended(server, list_screen), f"the list's session {list_screen} was not closed"
    assert open_streams(server) == 1
    server.patch(3, {"rating": 8.7})
    wait(browser).until(lambda b: b.find_element(By.CSS_SELECTOR, ".rating-value").text == "8.7")
    in_the_same_document(browser, marked)

    # Three more moves (the page's Back, a link, the page's Back), each in place, and still one stream.
    for move in (lambda: browser.find_element(By.CSS_SELECTOR, "button.back").click(),
                 lambda: click_link(browser, "/movies/4"),
                 lambda: browser.find_element(By.CSS_SELECTOR, "button.back").click()):
        before = html(browser, "data-screen")
        move()
        screen_changed(browser, before)
        assert ended(server, before)
    in_the_same_document(browser, marked)
    assert open_streams(server) == 1
    assert movie_screen != html(browser, "data-screen")
    assert html(browser, "data-stream-owner") == ("leader" if owner == "web-locks" else "worker")


def test_back_restores_the_list_scrolled_and_live_forward_returns_and_the_pages_back_is_history_back(
        browser, fresh_server):
    server = fresh_server
    list_screen = open_live(browser, server, "/")
    marked = mark(browser)
    link = browser.find_element(By.CSS_SELECTOR, 'a[href="/movies/20"]')
    browser.execute_script("arguments[0].scrollIntoView({block: 'center'});", link)
    scrolled = browser.execute_script("return window.scrollY")
    assert scrolled > 300, "the list is long enough to scroll"
    length = browser.execute_script("return history.length")
    link.click()
    movie_screen = screen_changed(browser, list_screen)
    assert browser.execute_script("return history.length") == length + 1, "a link adds one history entry"

    browser.back()
    wait(browser).until(EC.url_to_be(server.page("/")))
    back_screen = screen_changed(browser, movie_screen)
    assert back_screen != list_screen, "the list is a fresh screen, not a stale copy"
    wait(browser).until(lambda b: abs(b.execute_script("return window.scrollY") - scrolled) <= 60)
    in_the_same_document(browser, marked)
    server.patch(20, {"rating": 2.3})
    wait(browser).until(lambda b: b.find_element(By.CSS_SELECTOR, 'a[href="/movies/20"] .rating').text == "★ 2.3")

    browser.forward()
    wait(browser).until(EC.url_to_be(server.page("/movies/20")))
    screen_changed(browser, back_screen)
    assert browser.find_element(By.CSS_SELECTOR, ".rating-value").text == "2.3"

    # The page's Back after arriving by a link is the browser's Back: no new entry, and Forward returns.
    before = html(browser, "data-screen")
    browser.find_element(By.CSS_SELECTOR, "button.back").click()
    wait(browser).until(EC.url_to_be(server.page("/")))
    screen_changed(browser, before)
    assert browser.execute_script("return history.length") == length + 1
    wait(browser).until(lambda b: abs(b.execute_script("return window.scrollY") - scrolled) <= 60)
    before = html(browser, "data-screen")
    browser.forward()
    wait(browser).until(EC.url_to_be(server.page("/movies/20")))
    before = screen_changed(browser, before)
    in_the_same_document(browser, marked)

    # list → movie → Back → another movie: one stream for the tab.
    browser.back()
    before = screen_changed(browser, before)
    click_link(browser, "/movies/5")
    screen_changed(browser, before)
    assert open_streams(server) == 1
    in_the_same_document(browser, marked)


def test_the_pages_back_on_a_movie_opened_directly_shows_the_list(browser, fresh_server):
    server = fresh_server
    movie_screen = open_live(browser, server, "/movies/2")
    marked = mark(browser)
    length = browser.execute_script("return history.length")
    browser.find_element(By.CSS_SELECTOR, "button.back").click()
    wait(browser).until(EC.url_to_be(server.page("/")))
    screen_changed(browser, movie_screen)
    assert browser.execute_script("return history.length") == length + 1
    assert focused(browser)[0] == "H1"
    in_the_same_document(browser, marked)


def test_a_draft_survives_following_a_link_and_coming_back_and_nothing_is_saved(browser, fresh_server):
    server = fresh_server
    saved_title = api_movie(server, 2)["title"]
    server.sign_in(browser)
    edit_screen = open_live(browser, server, "/movies/2/edit")
    marked = mark(browser)
    field = browser.find_element(By.CSS_SELECTOR, "input[name=title]")
    field.send_keys(Keys.END, " (half typed")
    draft = field.get_attribute("value")
    assert draft == saved_title + " (half typed"
    click_link(browser, "/")
    list_screen = screen_changed(browser, edit_screen)
    browser.back()
    wait(browser).until(EC.url_to_be(server.page("/movies/2/edit")))
    screen_changed(browser, list_screen)
    wait(browser).until(lambda b: b.find_element(By.CSS_SELECTOR, "input[name=title]").get_attribute("value") == draft)
    in_the_same_document(browser, marked)
    assert api_movie(server, 2)["title"] == saved_title


def test_ctrl_click_opens_a_new_tab_and_leaves_the_page_alone(browser, fresh_server):
    server = fresh_server
    list_screen = open_live(browser, server, "/")
    marked = mark(browser)
    handles = len(browser.window_handles)
    link = browser.find_element(By.CSS_SELECTOR, 'a[href="/movies/6"]')
    ActionChains(browser).key_down(Keys.CONTROL).click(link).key_up(Keys.CONTROL).perform()
    wait(browser).until(lambda b: len(b.window_handles) == handles + 1)
    assert browser.current_url == server.page("/")
    assert html(browser, "data-screen") == list_screen
    in_the_same_document(browser, marked)


def test_no_serious_accessibility_violation_after_a_navigation(browser, fresh_server):
    server = fresh_server
    list_screen = open_live(browser, server, "/")
    click_link(browser, "/movies/7")
    screen_changed(browser, list_screen)
    wait(browser).until(lambda b: b.execute_script(
        "return document.getAnimations ? document.getAnimations().length === 0 : true"))
    serious = [v for v in axe_violations(browser) if v["impact"] in FAILING_IMPACTS]
    assert not serious, json.dumps(serious, indent=2)


def test_without_javascript_links_and_back_are_page_loads(browser_without_javascript, fresh_server):
    browser, server = browser_without_javascript, fresh_server
    browser.get(server.page("/"))
    click_link(browser, "/movies/3")
    wait(browser).until(EC.url_to_be(server.page("/movies/3")))
    assert browser.find_element(By.CSS_SELECTOR, "h1").text
    browser.find_element(By.CSS_SELECTOR, "button.back").click()
    wait(browser).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".movie-card"))
    assert re.search(r"/(screens/[^/]+)?$", browser.current_url)


def test_edit_and_save_move_in_place_and_save_lands_on_the_fresh_movie(browser, fresh_server):
    server = fresh_server
    server.sign_in(browser)
    movie_screen = open_live(browser, server, "/movies/4")
    marked = mark(browser)
    length = browser.execute_script("return history.length")
    click_link(browser, "/movies/4/edit")
    wait(browser).until(EC.url_to_be(server.page("/movies/4/edit")))
    edit_screen = screen_changed(browser, movie_screen)
    assert focused(browser)[0] == "H1"
    field = browser.find_element(By.CSS_SELECTOR, "input[name=title]")
    field.send_keys(Keys.END, " Returns")
    title = field.get_attribute("value")
    browser.find_element(By.CSS_SELECTOR, "button[data-action=save], button.primary").click()
    wait(browser).until(EC.url_to_be(server.page("/movies/4")))
    screen_changed(browser, edit_screen)
    wait(browser).until(lambda b: b.find_element(By.CSS_SELECTOR, "h1").text == title)
    assert api_movie(server, 4)["title"] == title
    # Save went back to the movie's entry (the one behind the edit screen's) rather than adding a third.
    assert browser.execute_script("return history.length") == length + 1
    in_the_same_document(browser, marked)


def test_the_search_form_moves_in_place(browser, fresh_server):
    server = fresh_server
    list_screen = open_live(browser, server, "/")
    marked = mark(browser)
    cards = len(browser.find_elements(By.CSS_SELECTOR, ".movie-card"))
    length = browser.execute_script("return history.length")
    browser.find_element(By.CSS_SELECTOR, "input[name=q]").send_keys("drama")
    browser.find_element(By.CSS_SELECTOR, "form[role=search] button[type=submit]").click()
    wait(browser).until(EC.url_to_be(server.page("/?q=drama")))
    screen_changed(browser, list_screen)
    found = len(browser.find_elements(By.CSS_SELECTOR, ".movie-card"))
    assert 0 < found < cards
    assert browser.find_element(By.CSS_SELECTOR, "input[name=q]").get_attribute("value") == "drama"
    assert browser.execute_script("return history.length") <= length + 1
    in_the_same_document(browser, marked)


def test_back_after_a_restart_of_the_server_shows_a_live_list(browser):
    folder = tempfile.mkdtemp(prefix="screenplay-navigation-")
    database = os.path.join(folder, "movies.sqlite")
    port = str(free_port())
    try:
        with contextlib.ExitStack() as first:
            server = first.enter_context(running_server(database, ["--port", port]))
            list_screen = open_live(browser, server, "/")
            marked = mark(browser)
            click_link(browser, "/movies/6")
            movie_screen = screen_changed(browser, list_screen)
        with running_server(database, ["--port", port]) as server:
            # The stream comes back to the new server; Back fetches the list from it, live again.
            browser.back()
            wait(browser, 30).until(EC.url_to_be(server.page("/")))
            wait(browser, 30).until(lambda b: html(b, "data-screen") not in (None, movie_screen, list_screen)
                                    and html(b, "data-connection") == "live")
            assert browser.find_elements(By.CSS_SELECTOR, ".movie-card")
            in_the_same_document(browser, marked)
            server.patch(6, {"rating": 1.7})
            wait(browser).until(
                lambda b: b.find_element(By.CSS_SELECTOR, 'a[href="/movies/6"] .rating').text == "★ 1.7")
    finally:
        shutil.rmtree(folder, ignore_errors=True)
