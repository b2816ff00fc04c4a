"""The demo app in a real browser: the list → detail → back flow, with and without JavaScript."""

from selenium.common.exceptions import NoAlertPresentException, StaleElementReferenceException, WebDriverException
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC
from selenium.webdriver.support.ui import WebDriverWait

from conftest import WAIT_SECONDS, wait


def screen_of(browser):
    """The page's screen session: each GET of a screen opens a new one."""
    return browser.find_element(By.TAG_NAME, "html").get_attribute("data-screen")


def a_new_screen_since(before):
    """A document of another session than `before`'s: the form post was answered and its redirect followed."""
    return lambda browser: screen_of(browser) not in (None, before)


def text_of(browser, selector):
    return browser.find_element(By.CSS_SELECTOR, selector).text


def poster_loaded(browser):
    return browser.execute_script(
        "var img = document.querySelector('img.poster');"
        "return !!img && img.complete && img.naturalWidth > 0 && !img.src.endsWith('poster-placeholder.svg');"
    )


def open_detail_from_list(browser, server, movie_id):
    """Opens the list and follows the link of movie `movie_id`; checks the detail page's poster and bar."""
    browser.get(server.page("/"))
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, ".movie-card")))
    assert len(browser.find_elements(By.CSS_SELECTOR, ".movie-card")) >= 20
    browser.find_element(By.CSS_SELECTOR, f'a[href="/movies/{movie_id}"]').click()
    wait(browser).until(EC.url_to_be(server.page(f"/movies/{movie_id}")))
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, "h1.title")))
    wait(browser).until(poster_loaded)
    # The seed's binder hides the navigation bar in viewWillAppear.
    assert not browser.find_element(By.CSS_SELECTOR, ".navigation-bar").is_displayed()


def test_list_detail_refresh_live_rating_and_back_with_javascript(browser, server):
    open_detail_from_list(browser, server, 1)
    title = text_of(browser, "h1.title")
    assert title == "The Lighthouse Accountant"
    wait(browser).until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")

    # A reload would lose this marker, and the observer records the refreshing state as it passes.
    browser.execute_script(
        "window.screenplayMarker = 'kept';"
        "window.sawRefreshing = false;"
        "new MutationObserver(function () {"
        "  if (document.body.textContent.indexOf('Refreshing') >= 0) window.sawRefreshing = true;"
        "}).observe(document.body, {subtree: true, childList: true, characterData: true});"
    )
    browser.find_element(By.CSS_SELECTOR, "button.refresh").click()
    wait(browser).until(lambda b: b.execute_script("return window.sawRefreshing"))
    wait(browser).until(lambda b: "Refreshing" not in text_of(b, ".movie-detail"))
    assert browser.execute_script("return window.screenplayMarker") == "kept"
    assert text_of(browser, "h1.title") == title

    server.patch(1, {"rating": 9.1})
    wait(browser).until(lambda b: text_of(b, ".rating-value") == "9.1")
    assert browser.execute_script("return window.screenplayMarker") == "kept"

    browser.find_element(By.CSS_SELECTOR, "button.back").click()
    wait(browser).until(EC.url_to_be(server.page("/")))
    wait(browser).until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".navigation-bar")))
    rating = browser.find_element(By.CSS_SELECTOR, 'a[href="/movies/1"] .rating').text
    assert rating == "★ 9.1"


def test_the_same_flow_works_through_the_forms_without_javascript(browser_without_javascript, server):
    browser = browser_without_javascript
    open_detail_from_list(browser, server, 2)
    assert text_of(browser, "h1.title") == "Salt & Signal"
    # No script ran, so no event stream was opened.
    assert browser.find_element(By.TAG_NAME, "html").get_attribute("data-connection") is None

    # Refresh posts the form; the server answers 303 to the screen's own URL naming the same screen session, which
    # the browser GETs: a new document showing the same screen.
    screen = screen_of(browser)
    sid = browser.find_element(By.TAG_NAME, "html").get_attribute("data-screen")
    browser.find_element(By.CSS_SELECTOR, "button.refresh").click()
    wait(browser).until(EC.url_to_be(server.page("/movies/2?screen=" + sid)))
    wait(browser).until(lambda b: text_of(b, "h1.title") == "Salt & Signal")
    assert screen_of(browser) == screen

    # Without a script nothing arrives live; the next Refresh shows the change, in the same session.
    server.patch(2, {"rating": 3.3})
    browser.find_element(By.CSS_SELECTOR, "button.refresh").click()
    wait(browser).until(lambda b: text_of(b, ".rating-value") == "3.3")
    assert screen_of(browser) == screen

    browser.find_element(By.CSS_SELECTOR, "button.back").click()
    wait(browser).until(EC.url_to_be(server.page("/")))
    wait(browser).until(EC.visibility_of_element_located((By.CSS_SELECTOR, ".navigation-bar")))
    assert browser.find_element(By.CSS_SELECTOR, 'a[href="/movies/2"] .rating').text == "★ 3.3"


def test_a_title_with_script_markup_shows_as_text_and_runs_nothing(browser, server):
    title = '<script>window.injected = true; alert("x")</script> & "quotes"'
    server.patch(3, {"title": title})
    for path, selector in (("/movies/3", "h1.title"), ("/", 'a[href="/movies/3"] .title')):
        browser.get(server.page(path))
        wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, selector)))
        assert text_of(browser, selector) == title
        assert browser.execute_script("return window.injected === undefined")
        try:
            browser.switch_to.alert
            raise AssertionError("the title's script opened an alert")
        except NoAlertPresentException:
            pass

    # A live change to such a title arrives as text as well.
    browser.get(server.page("/movies/3"))
    wait(browser).until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")
    server.patch(3, {"title": title + " <b>again</b>"})
    wait(browser).until(lambda b: text_of(b, "h1.title") == title + " <b>again</b>")
    assert browser.execute_script("return window.injected === undefined")
