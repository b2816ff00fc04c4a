"""Takes the README's screenshots with headless Chromium: docs/screenshots/list.png, detail.png and edit.png.

Run from the repository root after `swift build -c release --product movies`:
    .venv/bin/python BrowserTests/screenshots.py
"""

import os

from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, WAIT_SECONDS, make_browser, running_server

IMAGES_LOADED = (
    "return Array.from(document.images).filter(function (img) {"
    "  var box = img.getBoundingClientRect(); return box.top < window.innerHeight && box.bottom > 0;"
    "}).every(function (img) { return img.complete && img.naturalWidth > 0; });"
)


def shoot(browser, url, path):
    if url:
        browser.get(url)
    WebDriverWait(browser, WAIT_SECONDS).until(lambda b: b.execute_script(IMAGES_LOADED))
    WebDriverWait(browser, WAIT_SECONDS).until(
        lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")
    # The connection bar fades out once live; shoot when it is gone.
    WebDriverWait(browser, WAIT_SECONDS).until(lambda b: b.execute_script(
        "return getComputedStyle(document.documentElement, '::before').backgroundColor === 'rgba(0, 0, 0, 0)'"))
    browser.save_screenshot(path)
    print("wrote", os.path.relpath(path, ROOT))


def main():
    folder = os.path.join(ROOT, "docs", "screenshots")
    os.makedirs(folder, exist_ok=True)
    with running_server() as server:
        browser = make_browser(javascript=True)
        try:
            browser.set_window_size(1280, 860)
            shoot(browser, server.page("/"), os.path.join(folder, "list.png"))
            shoot(browser, server.page("/movies/1"), os.path.join(folder, "detail.png"))
            # The edit form with a field the user made invalid: its error shows under it.
            server.sign_in(browser)
            browser.get(server.page("/movies/1/edit"))
            WebDriverWait(browser, WAIT_SECONDS).until(
                lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")
            year = browser.find_element(By.NAME, "year")
            year.clear()
            year.send_keys("3000")
            WebDriverWait(browser, WAIT_SECONDS).until(lambda b: b.find_elements(By.CSS_SELECTOR, ".field-error"))
            browser.find_element(By.NAME, "title").click()
            shoot(browser, None, os.path.join(folder, "edit.png"))
        finally:
            browser.quit()


if __name__ == "__main__":
    main()
