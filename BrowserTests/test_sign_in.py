"""The demo's sign-in in a real browser: editing needs an account, the page says who is signed in, a wrong password
says so, and signing out ends it — with JavaScript and without."""

import pytest
from selenium.webdriver.common.by import By

from conftest import DEMO_PASSWORD, DEMO_USER, wait


def live(browser):
    return browser.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live"


def account_bar(browser):
    return browser.find_element(By.CSS_SELECTOR, ".account-bar").text.strip()


def sign_in_with_the_form(browser, name, password):
    browser.find_element(By.CSS_SELECTOR, '.field [name="name"]').send_keys(name)
    browser.find_element(By.CSS_SELECTOR, '.field [name="password"]').send_keys(password)
    browser.find_element(By.CSS_SELECTOR, ".sign-in button.primary").click()


@pytest.mark.parametrize("javascript", [True, False], ids=["javascript", "no-javascript"])
def test_editing_asks_for_a_sign_in_and_comes_back(browser, browser_without_javascript, fresh_server, javascript):
    browser = browser if javascript else browser_without_javascript
    server = fresh_server
    browser.get(server.page("/movies/3"))
    assert account_bar(browser) == "Sign in"
    browser.get(server.page("/movies/3/edit"))
    # Signed out: the sign-in screen, which remembers where the browser was going.
    wait(browser).until(lambda b: b.current_url.startswith(server.page("/signin?next=")))
    if javascript:
        wait(browser).until(live)
    sign_in_with_the_form(browser, DEMO_USER, "a wrong password")
    wait(browser).until(lambda b: "do not match an account" in b.find_element(By.CSS_SELECTOR, ".sign-in .status").text)
    assert browser.find_element(By.CSS_SELECTOR, '.field [name="password"]').get_attribute("value") == ""
    assert browser.current_url.startswith(server.page("/signin"))
    name = browser.find_element(By.CSS_SELECTOR, '.field [name="name"]')
    name.clear()
    sign_in_with_the_form(browser, DEMO_USER, DEMO_PASSWORD)
    wait(browser).until(lambda b: b.current_url == server.page("/movies/3/edit"))
    assert browser.find_elements(By.CSS_SELECTOR, ".edit-form")
    assert account_bar(browser) == f"Signed in as {DEMO_USER} · Sign out"
    # Every page says so, the list too.
    browser.get(server.page("/"))
    assert account_bar(browser) == f"Signed in as {DEMO_USER} · Sign out"
    # Signing out: the sign-out screen's button, then editing asks again.
    browser.find_element(By.CSS_SELECTOR, '.account-bar a[href="/signout"]').click()
    wait(browser).until(lambda b: b.current_url == server.page("/signout"))
    assert "You are signed in as alice." in browser.find_element(By.CSS_SELECTOR, ".sign-out").text
    browser.find_element(By.CSS_SELECTOR, ".sign-out button.primary").click()
    wait(browser).until(lambda b: b.current_url == server.page("/"))
    wait(browser).until(lambda b: account_bar(b) == "Sign in")
    browser.get(server.page("/movies/3/edit"))
    wait(browser).until(lambda b: b.current_url.startswith(server.page("/signin?next=")))
    cookies = {cookie["name"]: cookie for cookie in browser.get_cookies()}
    assert "screenplay_signin" not in cookies
