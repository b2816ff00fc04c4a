"""The shared to-do list in real browsers: behind the sign-in, live across two users' sessions."""

import urllib.parse

from selenium.webdriver.common.by import By

from conftest import DEMO_NAME, DEMO_PASSWORD, wait


def path_of(browser):
    return urllib.parse.urlsplit(browser.current_url).path


def live(browser):
    return browser.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live"


def rows(browser):
    """The rows' titles, with " (done)" after a done one's."""
    titles = []
    for row in browser.find_elements(By.CSS_SELECTOR, "ul.items li.item"):
        title = row.find_element(By.CSS_SELECTOR, ".title").text
        titles.append(title + (" (done)" if "done" in row.get_attribute("class").split() else ""))
    return titles


def sign_in(browser, server):
    """Opens /todos signed out, is sent to the sign-in, signs in and is brought back to /todos, live."""
    browser.get(server.page("/todos"))
    wait(browser).until(lambda b: path_of(b) == "/signin")
    assert urllib.parse.parse_qs(urllib.parse.urlsplit(browser.current_url).query) == {"next": ["/todos"]}
    browser.find_element(By.CSS_SELECTOR, '[name="name"]').send_keys(DEMO_NAME)
    browser.find_element(By.CSS_SELECTOR, '[name="password"]').send_keys(DEMO_PASSWORD)
    browser.find_element(By.XPATH, "//button[normalize-space()='Sign in']").click()
    wait(browser).until(lambda b: path_of(b) == "/todos" and b.find_elements(By.CSS_SELECTOR, "section.todos"))
    wait(browser).until(live)
    assert browser.find_element(By.CSS_SELECTOR, ".account-bar").text.startswith(f"Signed in as {DEMO_NAME}")


def test_signed_in_users_see_each_others_changes_live(server, browsers):
    alice, bob = browsers
    sign_in(alice, server)
    sign_in(bob, server)
    assert rows(alice) == rows(bob) == []
    # Marks Bob's document: a reload or a navigation would drop it, a patch keeps it.
    bob.execute_script("window.todoMarker = 'kept'")

    field = alice.find_element(By.CSS_SELECTOR, '[name="title"]')
    field.send_keys("Buy milk")
    alice.find_element(By.XPATH, "//button[normalize-space()='Add']").click()
    wait(alice).until(lambda b: rows(b) == ["Buy milk"])
    wait(alice).until(lambda b: b.find_element(By.CSS_SELECTOR, '[name="title"]').get_attribute("value") == "")
    assert "added by demo" in alice.find_element(By.CSS_SELECTOR, "ul.items").text

    wait(bob).until(lambda b: rows(b) == ["Buy milk"])
    field = alice.find_element(By.CSS_SELECTOR, '[name="title"]')
    field.send_keys("Water the plants")
    alice.find_element(By.XPATH, "//button[normalize-space()='Add']").click()
    wait(bob).until(lambda b: rows(b) == ["Buy milk", "Water the plants"])

    # Done on Bob's first row reaches Alice's page.
    bob.find_element(By.CSS_SELECTOR, "ul.items li.item form button").click()
    wait(alice).until(lambda b: rows(b) == ["Buy milk (done)", "Water the plants"])

    # Clear done on Alice's page reaches Bob's.
    alice.find_element(By.XPATH, "//button[normalize-space()='Clear done']").click()
    wait(bob).until(lambda b: rows(b) == ["Water the plants"])
    wait(alice).until(lambda b: rows(b) == ["Water the plants"])
    assert bob.execute_script("return window.todoMarker") == "kept"
    assert path_of(bob) == "/todos"
