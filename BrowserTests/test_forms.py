"""Forms in a real browser: the edit screen (`/movies/{id}/edit`) and the list's search field.

What the user types reaches the screen as input events while they type, a patch never undoes typing, an action
posts its form and shows its pending state until its `ack`, the forms work without JavaScript, and typed text
outlives a restart of the server.
"""

import contextlib
import os
import re
import shutil
import socket
import tempfile
import time

import pytest
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import WAIT_SECONDS, running_server, wait

LATENCY_MS = 300
TITLE_40 = "The quick brown fox jumps over lazy dogs"
assert len(TITLE_40) == 40


@pytest.fixture(scope="module")
def slow_server():
    """A development server that holds every post and event back 300 ms, as for a distant user."""
    with running_server(arguments=["--dev", "--dev-latency", str(LATENCY_MS)]) as server:
        yield server


@pytest.fixture(scope="module")
def forms_server():
    """A server of this module's own: its edits do not reach the other modules' movies."""
    with running_server() as server:
        yield server


def html(browser, attribute):
    return browser.find_element(By.TAG_NAME, "html").get_attribute(attribute)


def live(browser):
    return html(browser, "data-connection") == "live"


def open_live(browser, url):
    browser.get(url)
    wait(browser).until(live)


def control(browser, name):
    return browser.find_element(By.CSS_SELECTOR, f'.field [name="{name}"]')


def value_of(browser, name):
    return browser.execute_script(
        "var c = document.querySelector('.field [name=\"' + arguments[0] + '\"]'); return c ? c.value : null;", name)


def caret(browser):
    """The focused element's name and its selection."""
    return browser.execute_script(
        "var e = document.activeElement;"
        "return [e && e.name, e && e.selectionStart, e && e.selectionEnd];")


def error_of(browser, name):
    """The error message the field named `name` shows, or None."""
    return browser.execute_script(
        "var c = document.querySelector('.field [name=\"' + arguments[0] + '\"]');"
        "var p = c && c.closest('.field').querySelector('.field-error');"
        "return p ? p.textContent : null;", name)


def posts(browser, pattern):
    """The posts (answered so far) whose URL matches the JavaScript regular expression `pattern`: [url, status]."""
    return browser.execute_script(
        "var pattern = new RegExp(arguments[0]);"
        "return performance.getEntriesByType('resource')"
        ".filter(function (e) { return pattern.test(e.name); })"
        ".map(function (e) { return [e.name, e.responseStatus]; });", pattern)


def quiet(browser, pattern=r"/screens/[^/]+/(input|actions/)", seconds=1.0):
    """Waits until no post matching `pattern` was answered for `seconds` (the client's posts have all gone)."""
    deadline = time.monotonic() + WAIT_SECONDS
    count = -1
    since = time.monotonic()
    while time.monotonic() < deadline:
        now = len(posts(browser, pattern))
        if now != count:
            count, since = now, time.monotonic()
        elif time.monotonic() - since >= seconds:
            return
        time.sleep(0.1)
    raise AssertionError("the page kept posting")


def title_on_detail(browser):
    return browser.find_element(By.CSS_SELECTOR, "h1.title").text


def test_typing_at_full_speed_loses_nothing_and_keeps_the_caret(browser, slow_server):
    server = slow_server
    server.sign_in(browser)
    open_live(browser, server.page("/movies/1/edit"))
    # Records whether a patch reached the title's field while it had the focus.
    browser.execute_script(
        "window.patchedWhileFocused = 0;"
        "var field = document.querySelector('.field [name=title]').closest('.field');"
        "new MutationObserver(function () {"
        "  if (document.activeElement && document.activeElement.name === 'title') window.patchedWhileFocused++;"
        "}).observe(field, {subtree: true, childList: true, attributes: true});")
    title = control(browser, "title")
    title.click()
    title.send_keys(Keys.CONTROL, "a")
    title.send_keys(Keys.BACKSPACE)
    # The empty title goes out (debounced 150 ms); the error it causes arrives while the new title is typed.
    time.sleep(0.2)
    title.send_keys(TITLE_40)
    wait(browser).until(lambda b: b.execute_script("return window.patchedWhileFocused") > 0)
    quiet(browser)
    wait(browser).until(lambda b: error_of(b, "title") is None)
    assert value_of(browser, "title") == TITLE_40
    assert caret(browser) == ["title", 40, 40]
    # Every input post was accepted.
    assert all(status == 204 for _, status in posts(browser, "/input$"))

    # The server has the text: Save (the form posts it too) and the detail page shows it; so does a new edit page.
    browser.find_element(By.CSS_SELECTOR, "button.primary").click()
    wait(browser).until(lambda b: b.current_url == server.page("/movies/1"))
    wait(browser).until(lambda b: title_on_detail(b) == TITLE_40)
    server.sign_in(browser)
    browser.get(server.page("/movies/1/edit"))
    assert value_of(browser, "title") == TITLE_40


def test_search_filters_as_you_type_and_the_url_follows(browser, forms_server):
    server = forms_server
    open_live(browser, server.page("/"))
    everything = len(browser.find_elements(By.CSS_SELECTOR, ".movie-card"))
    assert everything >= 20
    field = control(browser, "q")
    field.click()
    field.send_keys("salt")
    wait(browser).until(lambda b: b.current_url == server.page("/?q=salt"))
    wait(browser).until(lambda b: 0 < len(b.find_elements(By.CSS_SELECTOR, ".movie-card")) < everything)
    titles = [card.text.lower() for card in browser.find_elements(By.CSS_SELECTOR, ".movie-card")]
    assert all("salt" in text for text in titles), titles
    assert value_of(browser, "q") == "salt"
    assert caret(browser) == ["q", 4, 4]
    assert html(browser, "data-screen-url") == "/?q=salt"

    # The URL is the screen's: a reload shows the same search.
    browser.refresh()
    wait(browser).until(live)
    assert value_of(browser, "q") == "salt"
    assert len(browser.find_elements(By.CSS_SELECTOR, ".movie-card")) == len(titles)

    # Clearing the search shows every movie again, at the bare URL.
    field = control(browser, "q")
    field.click()
    field.send_keys(Keys.CONTROL, "a")
    field.send_keys(Keys.BACKSPACE)
    wait(browser).until(lambda b: b.current_url == server.page("/"))
    wait(browser).until(lambda b: len(b.find_elements(By.CSS_SELECTOR, ".movie-card")) == everything)


def test_a_save_shows_live_on_another_tab(browser, forms_server):
    server = forms_server
    open_live(browser, server.page("/movies/5"))
    detail = browser.current_window_handle
    before = title_on_detail(browser)
    browser.switch_to.new_window("tab")
    server.sign_in(browser)
    open_live(browser, server.page("/movies/5/edit"))
    title = control(browser, "title")
    title.click()
    title.send_keys(Keys.END, " (restored)")
    browser.find_element(By.CSS_SELECTOR, "button.primary").click()
    wait(browser).until(lambda b: b.current_url == server.page("/movies/5"))
    assert title_on_detail(browser) == before + " (restored)"
    browser.switch_to.window(detail)
    browser.execute_script("window.notReloaded = true;")
    wait(browser).until(lambda b: title_on_detail(b) == before + " (restored)")
    assert browser.execute_script("return window.notReloaded === true")


def test_an_invalid_year_shows_its_error_only_once_changed(browser, forms_server):
    server = forms_server
    server.sign_in(browser)
    open_live(browser, server.page("/movies/6/edit"))
    assert browser.find_elements(By.CSS_SELECTOR, ".field-error") == []
    assert control(browser, "year").get_attribute("aria-invalid") is None
    year = control(browser, "year")
    original = year.get_attribute("value")
    year.click()
    year.send_keys(Keys.CONTROL, "a")
    year.send_keys("3000")
    wait(browser).until(lambda b: error_of(b, "year") == "The year must be a whole number from 1870 to 2100.")
    year = control(browser, "year")
    assert year.get_attribute("aria-invalid") == "true"
    described = year.get_attribute("aria-describedby")
    assert browser.find_element(By.ID, described).text == error_of(browser, "year")
    # Only the changed field shows an error; the typed value stays.
    assert len(browser.find_elements(By.CSS_SELECTOR, ".field-error")) == 1
    assert value_of(browser, "year") == "3000"

    # Save refuses, says why, and leaves the form as typed.
    browser.find_element(By.CSS_SELECTOR, "button.primary").click()
    wait(browser).until(lambda b: "not saved" in b.find_element(By.CSS_SELECTOR, ".form-status").text)
    assert browser.current_url == server.page("/movies/6/edit")
    assert value_of(browser, "year") == "3000"
    assert server.get("/api/movies/6").count(f'"year":{original}') == 1


def test_the_save_button_is_pending_until_its_answer(browser, slow_server):
    server = slow_server
    server.sign_in(browser)
    open_live(browser, server.page("/movies/7/edit"))
    year = control(browser, "year")
    year.click()
    year.send_keys(Keys.CONTROL, "a")
    year.send_keys("1800")
    wait(browser).until(lambda b: error_of(b, "year") is not None)
    quiet(browser)
    # Times, on the page's clock, at which the status appeared and the pending marks went.
    browser.execute_script(
        "window.marks = {};"
        "new MutationObserver(function () {"
        "  var status = document.querySelector('.form-status');"
        "  if (!window.marks.status && status && status.textContent.indexOf('not saved') >= 0)"
        "    window.marks.status = performance.now();"
        "  var save = document.querySelector('button.primary');"
        "  if (window.marks.busy && !window.marks.idle && save && !save.hasAttribute('data-pending'))"
        "    window.marks.idle = performance.now();"
        "  if (!window.marks.busy && save && save.getAttribute('aria-busy') === 'true')"
        "    window.marks.busy = performance.now();"
        "}).observe(document.body, {subtree: true, childList: true, attributes: true, characterData: true});")
    before = len(posts(browser, "/actions/save$"))
    save = browser.find_element(By.CSS_SELECTOR, "button.primary")
    save.click()
    state = browser.execute_script(
        "var save = document.querySelector('button.primary'), form = save.form;"
        "return [save.getAttribute('aria-busy'), save.hasAttribute('data-pending'),"
        "        form.getAttribute('aria-busy'), form.hasAttribute('data-pending')];")
    assert state == ["true", True, "true", True]
    # A second submit meanwhile posts nothing.
    save.click()
    wait(browser).until(lambda b: b.execute_script("return !!window.marks.idle"))
    marks = browser.execute_script("return window.marks")
    assert marks["status"] <= marks["idle"]
    # The held-back post and event took their time: the mark stayed at least that long.
    assert marks["idle"] - marks["busy"] >= LATENCY_MS
    quiet(browser)
    assert len(posts(browser, "/actions/save$")) == before + 1
    assert browser.find_elements(By.CSS_SELECTOR, "[data-pending], [aria-busy]") == []

    # A valid save is pending until it navigates.
    year = control(browser, "year")
    year.click()
    year.send_keys(Keys.CONTROL, "a")
    year.send_keys("1990")
    wait(browser).until(lambda b: error_of(b, "year") is None)
    browser.find_element(By.CSS_SELECTOR, "button.primary").click()
    assert browser.execute_script("return document.querySelector('button.primary').getAttribute('aria-busy')") == "true"
    wait(browser).until(lambda b: b.current_url == server.page("/movies/7"))


def test_without_javascript_the_form_posts_back_to_its_screen(browser_without_javascript, forms_server):
    browser, server = browser_without_javascript, forms_server
    server.sign_in(browser)
    browser.get(server.page("/movies/8/edit"))
    assert html(browser, "data-connection") is None
    sid = html(browser, "data-screen")
    title = control(browser, "title")
    title.send_keys(Keys.CONTROL, "a")
    title.send_keys("Typed without a script")
    year = control(browser, "year")
    year.send_keys(Keys.CONTROL, "a")
    year.send_keys("3000")
    assert browser.find_elements(By.CSS_SELECTOR, ".field-error") == []
    browser.find_element(By.CSS_SELECTOR, "button.primary").click()
    # 303 to the screen's own URL naming the same screen session, its typed values kept and its errors shown.
    wait(browser).until(lambda b: b.current_url == server.page(f"/movies/8/edit?screen={sid}"))
    assert error_of(browser, "year") == "The year must be a whole number from 1870 to 2100."
    assert value_of(browser, "title") == "Typed without a script"
    assert value_of(browser, "year") == "3000"
    assert error_of(browser, "title") is None
    assert "not saved" in browser.find_element(By.CSS_SELECTOR, ".form-status").text
    # Reloading that address shows the same screen.
    browser.refresh()
    assert html(browser, "data-screen") == sid
    assert value_of(browser, "year") == "3000"

    year = control(browser, "year")
    year.send_keys(Keys.CONTROL, "a")
    year.send_keys("2001")
    browser.find_element(By.CSS_SELECTOR, "button.primary").click()
    wait(browser).until(lambda b: b.current_url == server.page("/movies/8"))
    assert title_on_detail(browser) == "Typed without a script"


def test_the_page_of_a_session_shows_its_screen_url(browser, forms_server):
    # Where a form the browser posted itself (the script's post failed) comes back to: the script puts the
    # screen's URL back in the address bar, so a reload after the session ended opens the same screen.
    # A page GET keeps no screen: the session page exists once the page is live (here in a first tab).
    server = forms_server
    server.sign_in(browser)
    open_live(browser, server.page("/movies/10/edit"))
    sid = html(browser, "data-screen")
    browser.switch_to.new_window("tab")
    open_live(browser, server.page(f"/screens/{sid}"))
    assert html(browser, "data-screen") == sid
    assert browser.current_url == server.page("/movies/10/edit")


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


def test_typed_text_outlives_a_restart_of_the_server(browser):
    folder = tempfile.mkdtemp(prefix="screenplay-forms-")
    database = os.path.join(folder, "movies.sqlite")
    port = str(free_port())
    try:
        with contextlib.ExitStack() as first:
            server = first.enter_context(running_server(database, ["--port", port]))
            server.sign_in(browser)
            open_live(browser, server.page("/movies/9/edit"))
            browser.execute_script("window.notReloaded = true;")
            before = html(browser, "data-screen")
            original = value_of(browser, "title")
            title = control(browser, "title")
            title.click()
            title.send_keys(Keys.END, " — unsaved")
            quiet(browser)
        # The server is gone: what is typed now cannot reach it.
        title.send_keys(" and offline")
        typed = original + " — unsaved and offline"
        time.sleep(0.5)
        wait(browser).until(lambda b: not live(b))
        with running_server(database, ["--port", port]) as server:
            # The page's stream comes back; the new server builds the page's screen from its token (signed with the
            # key kept in the database), under the same id.
            wait(browser, 30).until(live)
            assert html(browser, "data-screen") == before
            assert browser.execute_script("return window.notReloaded === true")
            assert value_of(browser, "title") == typed
            assert caret(browser) == ["title", len(typed), len(typed)]
            quiet(browser)
            browser.find_element(By.CSS_SELECTOR, "button.primary").click()
            wait(browser).until(lambda b: b.current_url == server.page("/movies/9"))
            assert title_on_detail(browser) == typed
    finally:
        shutil.rmtree(folder, ignore_errors=True)
