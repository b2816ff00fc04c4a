"""Accessibility of the demo's pages: axe-core in headless Chromium finds no "serious" or "critical" violation.

axe v4.4.3 comes from the PyPI package `axe-core-python` (its bundled `axe_core_python/axe.min.js`; `make deps-test`
installs it). Each test loads a page, waits until it is live, injects axe and runs every rule it has, colour
contrast included, on the whole document: the light list and edit pages, the dark detail page (`html.status-light`),
the edit page with a field in its error state, and the status pill and layout notice in both colour schemes.
"""

import importlib.resources
import json

import pytest
from selenium.common.exceptions import StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import WAIT_SECONDS, wait

FAILING_IMPACTS = ("serious", "critical")
AXE_SOURCE = (importlib.resources.files("axe_core_python") / "axe.min.js").read_text(encoding="utf-8")

# Runs axe on the whole document and hands back its violations (only the fields the report needs).
RUN_AXE = """
var done = arguments[arguments.length - 1];
axe.run(document, {resultTypes: ['violations']}).then(function (results) {
  done({violations: results.violations.map(function (v) {
    return {id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map(function (n) {
      return {target: n.target, impact: n.impact, summary: n.failureSummary};
    })};
  })});
}, function (error) { done({error: String(error && error.stack || error)}); });
"""


def until(browser, condition):
    """Waits for `condition`, looking again while a patch replaces the element under a lookup."""
    return wait(browser).until(condition)


def open_live(browser, url):
    browser.get(url)
    until(browser, lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")
    # Transitions (the connection bar, a card's hover) settled, so axe reads the colours at rest.
    until(browser, lambda b: b.execute_script(
        "return document.getAnimations ? document.getAnimations().length === 0 : true"))


def axe_violations(browser):
    """The violations axe reports for the current document, after injecting axe once per document."""
    if not browser.execute_script("return typeof window.axe === 'object'"):
        browser.execute_script(AXE_SOURCE)
    browser.set_script_timeout(60)
    result = browser.execute_async_script(RUN_AXE)
    assert "error" not in result, f"axe failed: {result.get('error')}"
    return result["violations"]


def assert_accessible(browser, page):
    violations = axe_violations(browser)
    failing = [v for v in violations if v["impact"] in FAILING_IMPACTS]
    if failing:
        lines = [f"{page}: {len(failing)} serious or critical accessibility violation(s):"]
        for violation in failing:
            lines.append(f"- {violation['id']} ({violation['impact']}): {violation['help']}")
            for node in violation["nodes"]:
                summary = " ".join((node["summary"] or "").split())
                lines.append(f"    {json.dumps(node['target'])}: {summary}")
        pytest.fail("\n".join(lines), pytrace=False)


def scheme(browser):
    return browser.find_element(By.TAG_NAME, "html").get_attribute("class")


def show_status_states(browser):
    """Makes the page's status pill (plain and `.error`) and the layout's notice visible with sample text, as the
    server shows them (a search without a match, a failed read, a stale item), so that their colours are checked."""
    browser.execute_script(
        "var notice = document.querySelector('.notice');"
        "if (notice) notice.textContent = 'That item is no longer there; the list shows what is current.';"
        "var status = document.querySelector('.status');"
        "if (status) {"
        "  status.hidden = false; status.textContent = 'Refreshing…';"
        "  var failed = status.cloneNode(true); failed.removeAttribute('id'); failed.removeAttribute('data-outlet');"
        "  failed.classList.add('error'); failed.textContent = 'The movie could not be read right now.';"
        "  status.parentNode.insertBefore(failed, status.nextSibling);"
        "}")


def test_list_page(browser, server):
    open_live(browser, server.page("/"))
    assert "status-light" not in scheme(browser)
    assert browser.find_elements(By.CSS_SELECTOR, ".movie-card")
    assert_accessible(browser, "list page /")


def test_list_page_without_a_match(browser, server):
    open_live(browser, server.page("/?q=zzzzzz"))
    until(browser, lambda b: b.find_element(By.CSS_SELECTOR, ".movie-list .status").is_displayed())
    assert_accessible(browser, "list page /?q=zzzzzz (its status shown)")


def test_detail_page_dark(browser, server):
    open_live(browser, server.page("/movies/1"))
    assert "status-light" in scheme(browser), "the detail page is the dark one"
    assert_accessible(browser, "detail page /movies/1 (dark)")


@pytest.mark.parametrize("path", ["/", "/movies/1"])
def test_status_pill_and_notice(browser, server, path):
    open_live(browser, server.page(path))
    show_status_states(browser)
    assert_accessible(browser, f"{path} with its status pill, an error status and the notice shown")


def test_sign_in_page_with_a_wrong_password(browser, server):
    open_live(browser, server.page("/signin"))
    browser.find_element(By.CSS_SELECTOR, '.field [name="name"]').send_keys("alice")
    browser.find_element(By.CSS_SELECTOR, '.field [name="password"]').send_keys("not the password")
    browser.find_element(By.CSS_SELECTOR, "button.primary").click()
    until(browser, lambda b: b.find_element(By.CSS_SELECTOR, ".sign-in .status").is_displayed())
    assert_accessible(browser, "sign-in page /signin with a wrong password's status shown")


def test_edit_page(browser, server):
    server.sign_in(browser)
    open_live(browser, server.page("/movies/1/edit"))
    assert "status-light" not in scheme(browser)
    assert browser.find_elements(By.CSS_SELECTOR, ".field label")
    assert_accessible(browser, "edit page /movies/1/edit")


def test_edit_page_with_an_invalid_field(browser, server):
    server.sign_in(browser)
    open_live(browser, server.page("/movies/2/edit"))
    year = browser.find_element(By.CSS_SELECTOR, '.field [name="year"]')
    year.click()
    year.send_keys(Keys.CONTROL, "a")
    year.send_keys("3000")
    until(browser, lambda b: b.find_elements(By.CSS_SELECTOR, ".field-error"))
    until(browser, lambda b: b.execute_script(
        "return document.getAnimations ? document.getAnimations().length === 0 : true"))
    assert browser.execute_script(
        "return document.querySelector('.field-error').closest('.field').querySelector('input').name") == "year"
    assert_accessible(browser, "edit page /movies/2/edit with Year 3000 (its error shown)")
