"""The movie list as a windowed TableView over a catalog of 100,000 movies (`movies generate-catalog`): scrolling to
the end shows the last movie while the page never holds more than ~200 rows, the list's size is told through ARIA, a
movie moving above the viewport leaves what the user sees where it was, and without JavaScript the list pages with
plain links."""

import os
import subprocess
import tempfile

import pytest
from selenium.webdriver.common.by import By

from conftest import ROOT, running_server, wait

COUNT = int(os.environ.get("TABLE_VIEW_MOVIES", "100000"))
# A window of 100 rows, its two spacers, and room for a patch on its way.
MOST_ROWS = 200


@pytest.fixture(scope="module")
def large_server():
    binary = os.environ.get("MOVIES_BINARY", os.path.join(ROOT, ".build", "release", "movies"))
    folder = tempfile.mkdtemp(prefix="screenplay-large-")
    catalog = os.path.join(folder, "large.json")
    with open(catalog, "wb") as output:
        subprocess.run([binary, "generate-catalog", str(COUNT)], stdout=output, check=True)
    # Seeding a new database from the catalog comes first: the server serves within 60 s of its start.
    with running_server(arguments=("--catalog", catalog), ready_timeout=60) as server:
        yield server


def rows_in_page(browser):
    return browser.execute_script("return document.querySelectorAll('ul[data-table-window] > li').length")


def bottom_rows(browser):
    return browser.execute_script(
        "return document.querySelector('ul[data-table-window] > [data-spacer=\"bottom\"]').getAttribute('data-rows')")


def first_visible(browser):
    """The key and screen position of the first movie row at the top of the viewport."""
    return browser.execute_script(
        "var rows = document.querySelectorAll('ul[data-table-window] > li[data-key]');"
        "for (var i = 0; i < rows.length; i++) { var r = rows[i].getBoundingClientRect();"
        "  if (r.bottom > 0) return [rows[i].getAttribute('data-key'), r.top]; }"
        "return null;")


def open_list(browser, server):
    browser.get(server.page("/"))
    wait(browser).until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")
    wait(browser).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".movie-card"))


def test_scrolling_to_the_end_of_the_list_shows_the_last_movie_with_a_small_page(browser, large_server):
    open_list(browser, large_server)
    assert rows_in_page(browser) <= MOST_ROWS
    first = browser.find_element(By.CSS_SELECTOR, ".movie-card")
    assert first.get_attribute("aria-setsize") == str(COUNT)
    assert first.get_attribute("aria-posinset") == "1"
    assert browser.find_element(By.CSS_SELECTOR, "ul[data-table-window]").get_attribute("aria-label") == "Movies"

    def at_the_end(b):
        assert rows_in_page(b) <= MOST_ROWS
        b.execute_script("window.scrollTo(0, document.documentElement.scrollHeight)")
        return bottom_rows(b) == "0"

    wait(browser).until(at_the_end)
    last = browser.find_elements(By.CSS_SELECTOR, ".movie-card")[-1]
    wait(browser).until(lambda b: last.get_attribute("aria-posinset") == str(COUNT))
    assert last.is_displayed()
    assert last.find_element(By.CSS_SELECTOR, "a").get_attribute("href").startswith(large_server.page("/movies/"))
    assert rows_in_page(browser) <= MOST_ROWS


def test_a_movie_moving_above_the_viewport_leaves_what_the_user_sees_in_place(browser, large_server):
    open_list(browser, large_server)
    # Into the list: a few screens down, past the first window.
    for _ in range(6):
        browser.execute_script("window.scrollBy(0, window.innerHeight * 2)")
        wait(browser).until(lambda b: first_visible(b) is not None)
    wait(browser).until(lambda b: b.execute_script("return document.querySelectorAll('[data-key]').length") > 50)
    key, top = first_visible(browser)
    # A movie far below the viewport is retitled to come first: it leaves from below and arrives above.
    last_key = browser.execute_script(
        "var rows = document.querySelectorAll('ul[data-table-window] > li[data-key]');"
        "return rows[rows.length - 1].getAttribute('data-key');")
    large_server.patch(int(last_key), {"title": "AAA Moved To The Top"})
    wait(browser).until(lambda b: b.execute_script(
        f"return !document.querySelector('[data-key=\"{last_key}\"]')"))
    again = browser.execute_script(
        f"var row = document.querySelector('[data-key=\"{key}\"]'); return row && row.getBoundingClientRect().top;")
    assert again is not None
    assert abs(again - top) <= 5


def test_without_javascript_the_list_pages_with_plain_links(browser_without_javascript, large_server):
    browser = browser_without_javascript
    browser.get(large_server.page("/"))
    first_page = [row.get_attribute("data-key") for row in browser.find_elements(By.CSS_SELECTOR, ".movie-card")]
    assert 0 < len(first_page) <= MOST_ROWS
    assert not browser.find_element(By.CSS_SELECTOR, "a[rel=prev]").is_displayed()
    following = browser.find_element(By.CSS_SELECTOR, "a[rel=next]")
    assert "Next" in following.text
    following.click()
    wait(browser).until(lambda b: b.current_url.endswith("?page=2"))
    second_page = [row.get_attribute("data-key") for row in browser.find_elements(By.CSS_SELECTOR, ".movie-card")]
    assert second_page and not set(second_page) & set(first_page)
    previous = browser.find_element(By.CSS_SELECTOR, "a[rel=prev]")
    assert "Previous" in previous.text
    previous.click()
    wait(browser).until(lambda b: b.current_url.endswith("/") or b.current_url.endswith("?page=1"))
    assert [row.get_attribute("data-key") for row in browser.find_elements(By.CSS_SELECTOR, ".movie-card")] == first_page


def test_back_to_the_list_shows_the_same_movies_by_identity(browser, large_server):
    open_list(browser, large_server)
    for _ in range(5):
        browser.execute_script("window.scrollBy(0, window.innerHeight * 2)")
        wait(browser).until(lambda b: first_visible(b) is not None)
    wait(browser).until(lambda b: b.execute_script("return document.querySelectorAll('[data-key]').length") > 50)
    key, top = first_visible(browser)
    # The history entry keeps the first visible movie (once the page has settled on it).
    wait(browser).until(lambda b: b.execute_script(
        "var s = history.state && history.state.screenplayTables; return s && s[0] && s[0].key") == key)
    browser.execute_script(f"location.href = document.querySelector('[data-key=\"{key}\"] a').href")
    wait(browser).until(lambda b: b.current_url.endswith(f"/movies/{key}"))
    browser.back()
    wait(browser).until(lambda b: b.current_url == large_server.page("/"))
    wait(browser).until(lambda b: (first_visible(b) or [None])[0] == key)
    _, again = first_visible(browser)
    assert abs(again - top) <= 5


def new_movie(title):
    return {"title": title, "year": 2024, "runtimeMinutes": 90, "rating": 7.0, "overview": "Made by a test."}


def setsize(browser):
    return browser.execute_script(
        "var row = document.querySelector('.movie-card'); return row && row.getAttribute('aria-setsize');")


def test_movies_created_and_deleted_through_the_api_come_and_go_in_place(browser, large_server):
    open_list(browser, large_server)
    # At the top: a movie created to come first ("!" sorts before every title) appears as the first row, and goes
    # when deleted.
    created = large_server.create(new_movie("! Created By The API"))
    wait(browser).until(lambda b: "! Created By The API" in b.find_elements(By.CSS_SELECTOR, ".movie-card")[0].text)
    wait(browser).until(lambda b: setsize(b) == str(COUNT + 1))
    large_server.delete(created["id"])
    wait(browser).until(lambda b: "! Created By The API" not in b.find_element(By.TAG_NAME, "body").text)
    wait(browser).until(lambda b: setsize(b) == str(COUNT))

    # Into the list: a movie created above the viewport, and deleted again, moves nothing in view.
    for _ in range(6):
        browser.execute_script("window.scrollBy(0, window.innerHeight * 2)")
        wait(browser).until(lambda b: first_visible(b) is not None)
    wait(browser).until(lambda b: b.execute_script("return document.querySelectorAll('[data-key]').length") > 50)
    key, top = first_visible(browser)

    def in_place(b):
        now = b.execute_script(
            f"var row = document.querySelector('[data-key=\"{key}\"]'); return row && row.getBoundingClientRect().top;")
        return now is not None and abs(now - top) <= 5

    above = large_server.create(new_movie("! Created Above"))
    wait(browser).until(lambda b: setsize(b) == str(COUNT + 1))
    assert in_place(browser)
    large_server.delete(above["id"])
    wait(browser).until(lambda b: setsize(b) == str(COUNT))
    assert in_place(browser)
    assert rows_in_page(browser) <= MOST_ROWS
