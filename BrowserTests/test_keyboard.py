"""Keyboard and assistive-technology users move through lists as mouse users scroll them: in the windowed movie list,
End and Home reach the last and first movie of a catalog far longer than the page's window (asking the server for the
rows), PageDown moves a screenful; without JavaScript each page of the list still tells each movie's place among all;
in a collection view (the movie's "More like this" strip), the arrow keys move between cells."""

import os
import subprocess
import tempfile

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import ROOT, running_server, wait

COUNT = 3000


@pytest.fixture(scope="module")
def long_list_server():
    binary = os.environ.get("MOVIES_BINARY", os.path.join(ROOT, ".build", "release", "movies"))
    folder = tempfile.mkdtemp(prefix="screenplay-keyboard-")
    catalog = os.path.join(folder, "catalog.json")
    with open(catalog, "wb") as output:
        subprocess.run([binary, "generate-catalog", str(COUNT)], stdout=output, check=True)
    with running_server(arguments=("--catalog", catalog), ready_timeout=60) as server:
        yield server


def live(browser):
    return browser.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live"


def focused_card(browser):
    """The aria-posinset of the movie card holding the focus, or None."""
    return browser.execute_script(
        "var card = document.activeElement && document.activeElement.closest('.movie-card');"
        "return card ? card.getAttribute('aria-posinset') : null;")


def test_end_and_home_reach_the_last_and_first_movie_of_a_long_list(browser, long_list_server):
    browser.get(long_list_server.page("/"))
    wait(browser).until(live)
    first_link = browser.find_element(By.CSS_SELECTOR, ".movie-card a")
    browser.execute_script("arguments[0].focus()", first_link)
    assert focused_card(browser) == "1"

    browser.switch_to.active_element.send_keys(Keys.END)
    wait(browser).until(lambda b: focused_card(b) == str(COUNT))
    assert browser.execute_script("return document.querySelectorAll('.movie-card').length") <= 200
    last = browser.switch_to.active_element
    assert last.is_displayed()

    last.send_keys(Keys.HOME)
    wait(browser).until(lambda b: focused_card(b) == "1")
    assert browser.execute_script("return window.scrollY") < 400

    browser.switch_to.active_element.send_keys(Keys.PAGE_DOWN)
    wait(browser).until(lambda b: int(focused_card(b) or "0") > 1)
    assert browser.execute_script("return window.scrollY") > 200


def test_the_arrow_keys_move_between_the_cells_of_a_collection_view(browser, server):
    browser.get(server.page("/movies/1"))
    wait(browser).until(live)
    strip = browser.find_element(By.CSS_SELECTOR, "ul[data-collection]")
    assert strip.get_attribute("data-collection") == "strip"
    assert browser.execute_script("return getComputedStyle(arguments[0]).display", strip) == "grid"
    links = strip.find_elements(By.CSS_SELECTOR, "a")
    assert len(links) >= 3
    # A strip is one line: every cell at the same height.
    tops = {round(link.rect["y"]) for link in links}
    assert len(tops) == 1
    browser.execute_script("arguments[0].focus()", links[0])

    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert browser.switch_to.active_element == links[1]
    browser.switch_to.active_element.send_keys(Keys.ARROW_RIGHT)
    assert browser.switch_to.active_element == links[2]
    browser.switch_to.active_element.send_keys(Keys.ARROW_LEFT)
    assert browser.switch_to.active_element == links[1]
    # Up from a one-line strip leads nowhere: the focus stays.
    browser.switch_to.active_element.send_keys(Keys.ARROW_UP)
    assert browser.switch_to.active_element == links[1]


def test_without_javascript_each_movie_of_a_page_tells_its_place_among_all(browser_without_javascript,
                                                                          long_list_server):
    browser = browser_without_javascript
    browser.get(long_list_server.page("/?page=3"))
    cards = browser.find_elements(By.CSS_SELECTOR, ".movie-card")
    assert 0 < len(cards) <= 200
    places = [int(card.get_attribute("aria-posinset")) for card in cards]
    assert places == list(range(places[0], places[0] + len(cards)))
    assert places[0] > 1
    assert {card.get_attribute("aria-setsize") for card in cards} == {str(COUNT)}
