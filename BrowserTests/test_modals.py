"""The edit screen's Delete in a real browser: a confirmation alert presented as a native modal `<dialog>`.

Delete opens the dialog without a reload (a value on `window` survives), shown with `showModal()`, named after the
movie, holding Cancel and a destructive Delete; focus moves inside and Tab and Shift+Tab stay there; Escape and
Cancel close it, delete nothing and give focus back to the Delete control; axe finds no serious violation with it
open; confirming deletes the movie and lands on the list in place. Without JavaScript, Delete leads to a
confirmation page of its own URL whose Cancel goes back to the edit screen and whose Delete posts and lands on the
list; asking alone deletes nothing.
"""

import json
import urllib.error

import pytest
from selenium.webdriver.common.action_chains import ActionChains
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys

from conftest import wait
from test_accessibility import FAILING_IMPACTS, axe_violations
from test_navigation import api_movie, in_the_same_document, mark, open_live

DIALOG = "dialog[data-modal]"

# The dialog's state as the page sees it: whether one is open as a modal, its accessible name's source text, the
# names of its buttons, and whether focus is inside it.
DIALOG_STATE = """
var dialog = document.querySelector(arguments[0]);
if (!dialog) return null;
var label = document.getElementById(dialog.getAttribute('aria-labelledby') || '');
return {
  modal: dialog.open && dialog.matches(':modal'),
  label: label ? label.textContent.trim() : (dialog.getAttribute('aria-label') || ''),
  buttons: Array.from(dialog.querySelectorAll('button')).map(function (b) { return b.textContent.trim(); }),
  focusInside: dialog.contains(document.activeElement),
};
"""

# Where focus is: inside the dialog, on an element of the page behind, or nowhere in the document.
FOCUS = """
var active = document.activeElement, dialog = document.querySelector(arguments[0]);
if (!active || active === document.body) return 'none';
if (dialog && dialog.contains(active)) return 'dialog';
return 'page:' + active.tagName + ':' + active.textContent.trim();
"""


def dialog_state(browser):
    return browser.execute_script(DIALOG_STATE, DIALOG)


def delete_control(browser):
    return browser.find_element(By.CSS_SELECTOR, ".danger-zone button")


def open_the_alert(browser):
    control = delete_control(browser)
    assert control.accessible_name == "Delete"
    control.click()
    wait(browser).until(lambda b: (dialog_state(b) or {}).get("modal"))
    return dialog_state(browser)


def closed_with_focus_on_delete(browser):
    wait(browser).until(lambda b: dialog_state(b) is None)
    wait(browser).until(lambda b: b.execute_script(FOCUS, DIALOG) == "page:BUTTON:Delete")
    return True


def test_delete_opens_a_native_modal_alert_that_keeps_focus_and_escape_gives_it_back(browser, fresh_server):
    server = fresh_server
    title = api_movie(server, 3)["title"]
    server.sign_in(browser)
    open_live(browser, server, "/movies/3/edit")
    marked = mark(browser)
    state = open_the_alert(browser)
    in_the_same_document(browser, marked)
    assert "Delete" in state["label"] and title in state["label"]
    assert state["buttons"] == ["Cancel", "Delete"]
    assert state["focusInside"]
    dialog = browser.find_element(By.CSS_SELECTOR, DIALOG)
    assert "Delete" in dialog.accessible_name
    assert dialog.get_attribute("role") == "alertdialog"
    # The page behind is inert: its controls are not reached by Tab, nor by Shift+Tab.
    for key in [Keys.TAB] * 5 + [Keys.SHIFT + Keys.TAB] * 5:
        if key == Keys.TAB:
            ActionChains(browser).send_keys(Keys.TAB).perform()
        else:
            ActionChains(browser).key_down(Keys.SHIFT).send_keys(Keys.TAB).key_up(Keys.SHIFT).perform()
        assert browser.execute_script(FOCUS, DIALOG) == "dialog"
    ActionChains(browser).send_keys(Keys.ESCAPE).perform()
    assert closed_with_focus_on_delete(browser)
    assert browser.current_url == server.page("/movies/3/edit")
    assert api_movie(server, 3)["title"] == title
    in_the_same_document(browser, marked)

    # Cancel does the same as Escape; the screen is live again afterwards.
    open_the_alert(browser)
    browser.find_element(By.CSS_SELECTOR, f"{DIALOG} button.sp-cancel").click()
    assert closed_with_focus_on_delete(browser)
    assert api_movie(server, 3)["title"] == title
    in_the_same_document(browser, marked)


def test_no_serious_accessibility_violation_with_the_alert_open(browser, fresh_server):
    server = fresh_server
    server.sign_in(browser)
    open_live(browser, server, "/movies/4/edit")
    open_the_alert(browser)
    serious = [v for v in axe_violations(browser) if v["impact"] in FAILING_IMPACTS]
    assert not serious, json.dumps(serious, indent=2)


def test_confirming_deletes_the_movie_and_lands_on_the_list_in_place(browser, fresh_server):
    server = fresh_server
    title = api_movie(server, 5)["title"]
    server.sign_in(browser)
    open_live(browser, server, "/movies/5/edit")
    marked = mark(browser)
    open_the_alert(browser)
    browser.find_element(By.CSS_SELECTOR, f"{DIALOG} button.sp-destructive").click()
    wait(browser).until(lambda b: b.current_url in (server.page("/"), server.page("/movies")))
    in_the_same_document(browser, marked)
    wait(browser).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".movie-card"))
    assert not browser.find_elements(By.CSS_SELECTOR, 'a[href="/movies/5"]')
    assert title not in browser.find_element(By.TAG_NAME, "main").text
    with pytest.raises(urllib.error.HTTPError) as gone:
        api_movie(server, 5)
    assert gone.value.code == 404


def test_another_tab_showing_the_deleted_movie_stops_naming_it(browser, fresh_server):
    server = fresh_server
    title = api_movie(server, 9)["title"]
    server.sign_in(browser)
    open_live(browser, server, "/movies/9")
    detail = browser.current_window_handle
    browser.switch_to.new_window("tab")
    open_live(browser, server, "/movies/9/edit")
    open_the_alert(browser)
    browser.find_element(By.CSS_SELECTOR, f"{DIALOG} button.sp-destructive").click()
    wait(browser).until(lambda b: b.current_url == server.page("/"))
    browser.switch_to.window(detail)
    wait(browser).until(lambda b: b.current_url == server.page("/")
                        or title not in b.find_element(By.TAG_NAME, "h1").text)


def test_without_javascript_delete_is_a_confirmation_page_and_asking_deletes_nothing(
        browser_without_javascript, fresh_server):
    browser, server = browser_without_javascript, fresh_server
    title = api_movie(server, 6)["title"]
    server.sign_in(browser)
    browser.get(server.page("/movies/6/edit"))
    sid = browser.find_element(By.TAG_NAME, "html").get_attribute("data-screen")
    delete_control(browser).click()
    # A page of its own URL: the edit screen's, naming its session and the presented alert.
    wait(browser).until(lambda b: b.current_url == server.page(f"/movies/6/edit?screen={sid}&modal=1"))
    dialog = browser.find_element(By.CSS_SELECTOR, DIALOG)
    assert dialog.is_displayed()
    buttons = [b for b in browser.find_elements(By.TAG_NAME, "button") if b.is_displayed()]
    assert [b.text for b in buttons] == ["Cancel", "Delete"], "the confirmation page offers Cancel and Delete alone"
    assert "Delete" in dialog.accessible_name
    assert not browser.find_element(By.CSS_SELECTOR, "input[name=title]").is_displayed()
    assert api_movie(server, 6)["title"] == title, "asking alone deletes nothing"
    # Reloading the confirmation page shows it again.
    browser.refresh()
    assert browser.find_element(By.CSS_SELECTOR, DIALOG).is_displayed()

    browser.find_element(By.CSS_SELECTOR, f"{DIALOG} button.sp-cancel").click()
    wait(browser).until(lambda b: b.current_url == server.page(f"/movies/6/edit?screen={sid}"))
    assert not browser.find_elements(By.CSS_SELECTOR, DIALOG)
    assert browser.find_element(By.CSS_SELECTOR, "input[name=title]").is_displayed()
    assert api_movie(server, 6)["title"] == title


def test_without_javascript_confirming_posts_and_lands_on_the_list(browser_without_javascript, fresh_server):
    browser, server = browser_without_javascript, fresh_server
    server.sign_in(browser)
    browser.get(server.page("/movies/7/edit"))
    delete_control(browser).click()
    wait(browser).until(lambda b: b.find_elements(By.CSS_SELECTOR, DIALOG))
    browser.find_element(By.CSS_SELECTOR, f"{DIALOG} button.sp-destructive").click()
    wait(browser).until(lambda b: b.current_url in (server.page("/"), server.page("/movies")))
    with pytest.raises(urllib.error.HTTPError) as gone:
        api_movie(server, 7)
    assert gone.value.code == 404
