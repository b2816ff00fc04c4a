"""The edit screen's Poster field in a real browser: an upload with visible progress that shows live in a second tab,
a refused non-image with its message at the field, the same form posted without JavaScript (multipart), and a
throttled upload resumed across a server restart from the last acknowledged offset."""

import os
import re
import shutil
import struct
import tempfile
import time
import urllib.request
import zlib

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support import expected_conditions as EC

from conftest import WAIT_SECONDS, make_browser, running_server, wait


def png_file(size):
    """A real 1x1 PNG followed by bytes of no meaning up to `size` bytes (browsers stop reading at IEND); its path and
    its bytes."""
    def chunk(kind, data):
        return struct.pack(">I", len(data)) + kind + data + struct.pack(">I", zlib.crc32(kind + data) & 0xFFFFFFFF)

    image = (b"\x89PNG\r\n\x1a\n" + chunk(b"IHDR", struct.pack(">IIBBBBB", 1, 1, 8, 2, 0, 0, 0))
             + chunk(b"IDAT", zlib.compress(b"\x00\xff\x80\x00")) + chunk(b"IEND", b""))
    content = image + bytes((index * 31 + 7) % 256 for index in range(size - len(image)))
    return write_temporary(content, ".png"), content


def write_temporary(content, suffix):
    handle, path = tempfile.mkstemp(suffix=suffix, prefix="poster-")
    with os.fdopen(handle, "wb") as file:
        file.write(content)
    return path


def fetch(server, path):
    with urllib.request.urlopen(server.page(path), timeout=WAIT_SECONDS) as response:
        return response.read(), dict(response.headers)


def poster_field(browser):
    """The file input whose label says Poster (its accessible name)."""
    label = browser.find_element(By.XPATH, "//label[normalize-space(text())='Poster']")
    control = browser.find_element(By.ID, label.get_attribute("for"))
    assert control.get_attribute("type") == "file"
    return control


def poster_src(browser):
    return browser.execute_script("var img = document.querySelector('img.poster'); return img && img.src;") or ""


def uploaded_poster(server, src):
    """Whether `src` is an uploaded poster's address (`/posters/{key}`), not a shipped one (`/public/posters/…`)."""
    return src.startswith(server.page("/posters/"))


def open_edit(browser, server, movie_id, live=True):
    server.sign_in(browser)
    browser.get(server.page(f"/movies/{movie_id}/edit"))
    wait(browser).until(EC.presence_of_element_located((By.CSS_SELECTOR, "form.edit-form")))
    if live:
        wait(browser).until(
            lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")
    field = poster_field(browser)
    # Inside the edit form, with the other fields and Save.
    form = field.find_element(By.XPATH, "ancestor::form")
    assert form.find_element(By.XPATH, ".//button[normalize-space(text())='Save']")
    assert form.find_element(By.NAME, "title")
    return field


def test_a_poster_uploads_with_visible_progress_and_shows_live_in_a_second_tab(fresh_server):
    server = fresh_server
    path, content = png_file(3 * 1024 * 1024 + 12345)
    reader = make_browser()
    editor = make_browser()
    try:
        reader.get(server.page("/movies/3"))
        wait(reader).until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")
        before = poster_src(reader)
        assert not uploaded_poster(server, before)

        field = open_edit(editor, server, 3)
        # Every value the <progress> takes, and whether it was shown, recorded as they change.
        editor.execute_script(
            "window.progressSeen = [];"
            "new MutationObserver(function () {"
            "  var bar = document.querySelector('.field progress');"
            "  if (bar && !bar.hidden) window.progressSeen.push([+bar.getAttribute('value'), +bar.getAttribute('max'),"
            "    +bar.getAttribute('aria-valuenow')]);"
            "}).observe(document.body, {subtree: true, attributes: true, childList: true});")
        field.send_keys(path)
        # The image is previewed while it is sent.
        # A thumbnail, whatever the image's size: the 1x1 image is not stretched across the form.
        box = wait(editor).until(lambda b: b.execute_script(
            "const image = document.querySelector('img.file-preview');"
            "if (!image || !image.complete || !image.naturalWidth) return null;"
            "const box = image.getBoundingClientRect(); return [box.width, box.height];"))
        assert 0 < box[0] <= 192 and 0 < box[1] <= 192, box
        wait(editor).until(lambda b: "Sent " in b.find_element(By.CSS_SELECTOR, ".file-status").text)
        seen = editor.execute_script("return window.progressSeen;")
        assert any(0 < value < maximum and now == value for value, maximum, now in seen), seen
        assert seen[-1][0] == seen[-1][1] == len(content)

        # The uploads went from the page itself: created, then PATCHed.
        entries = editor.execute_script(
            "return performance.getEntriesByType('resource').map(function (e) { return e.name; });")
        assert any(name.endswith("/uploads") for name in entries), entries
        assert any("/uploads/" in name for name in entries), entries

        # The reader's open page shows the new poster without reloading; it serves exactly the bytes sent.
        wait(reader).until(lambda b: uploaded_poster(server, poster_src(b)))
        src = poster_src(reader)
        served, headers = fetch(server, src[len(server.url):])
        assert served == content
        assert headers["Content-Type"] == "image/png"
        assert "immutable" in headers["Cache-Control"] and headers["ETag"]
        wait(reader).until(lambda b: b.execute_script(
            "var img = document.querySelector('img.poster'); return img.complete && img.naturalWidth === 1;"))
    finally:
        reader.quit()
        editor.quit()
        os.unlink(path)


def test_a_non_image_is_refused_with_a_message_at_the_field(browser, server):
    path = write_temporary(b"These are notes, whatever the name says.\n" * 10, ".png")
    try:
        field = open_edit(browser, server, 4)
        before = server.get("/api/movies/4")
        field.send_keys(path)
        wait(browser).until(lambda b: poster_field(b).get_attribute("aria-invalid") == "true")
        field = poster_field(browser)
        message = browser.find_element(By.ID, field.get_attribute("aria-describedby"))
        assert message.is_displayed()
        assert "is not one" in message.text and "PNG" in message.text
        assert server.get("/api/movies/4") == before
    finally:
        os.unlink(path)


def test_the_poster_is_posted_with_the_form_without_javascript(browser_without_javascript, server):
    browser = browser_without_javascript
    path, content = png_file(200_000)
    try:
        field = open_edit(browser, server, 5, live=False)
        form = field.find_element(By.XPATH, "ancestor::form")
        assert form.get_attribute("enctype") == "multipart/form-data"
        assert form.get_attribute("method") == "post"
        field.send_keys(path)
        form.find_element(By.XPATH, ".//button[normalize-space(text())='Save']").click()
        wait(browser).until(EC.url_to_be(server.page("/movies/5")))
        src = poster_src(browser)
        assert uploaded_poster(server, src), src
        served, _ = fetch(server, src[len(server.url):])
        assert served == content
    finally:
        os.unlink(path)


@pytest.mark.parametrize("downtime", [1.0, 0.0])
def test_a_throttled_upload_resumes_across_a_server_restart_from_the_last_offset(downtime):
    """At 2 Mbit/s (Chromium's network throttling), the server is killed mid-upload and started again on the same
    port, database and upload folder after `downtime` seconds: the upload goes on from where it stood, never creating
    another upload or sending from zero, and the movie gets the poster byte for byte.

    Down for a second, the page's PATCH fails and the page asks where the upload stands (HEAD) before going on. Back
    at once (the server starts in milliseconds), Chromium may resend the interrupted PATCH on a new connection by
    itself (a request that failed on a reused connection before any answer is retried), so the page never sees the
    failure: the new server then takes the chunk at its own offset."""
    folder = tempfile.mkdtemp(prefix="screenplay-resume-")
    database = os.path.join(folder, "movies.sqlite")
    uploads = ("--upload-folder", os.path.join(folder, "uploads"), "--access-log")
    path, content = png_file(3 * 1024 * 1024)
    editor = make_browser()
    try:
        with running_server(database=database, arguments=uploads) as first:
            port = first.url.rsplit(":", 1)[1]
            field = open_edit(editor, first, 6)
            # Every upload request the page makes: its method, address and Upload-Offset.
            editor.execute_script(
                "window.uploadRequests = [];"
                "var open = XMLHttpRequest.prototype.open, header = XMLHttpRequest.prototype.setRequestHeader;"
                "XMLHttpRequest.prototype.open = function (method, url) {"
                "  this.entry = {method: method, url: String(url), offset: null}; window.uploadRequests.push(this.entry);"
                "  return open.apply(this, arguments); };"
                "XMLHttpRequest.prototype.setRequestHeader = function (name, value) {"
                "  if (name === 'Upload-Offset') this.entry.offset = +value; return header.apply(this, arguments); };")
            editor.execute_cdp_cmd("Network.enable", {})
            editor.execute_cdp_cmd("Network.emulateNetworkConditions", {
                "offline": False, "latency": 5, "downloadThroughput": -1, "uploadThroughput": 2_000_000 // 8})
            field.send_keys(path)
            # Past the first chunk (acknowledged), in the middle of the second: the server dies.
            wait(editor, timeout=60).until(lambda b: (b.execute_script(
                "var bar = document.querySelector('.field progress'); return bar ? +bar.getAttribute('value') : 0;")
                > 1_300_000))
            first.process.kill()
            first.process.wait()
        time.sleep(downtime)
        with running_server(database=database, arguments=uploads + ("--port", port)) as second:
            assert second.url == first.url
            wait(editor, timeout=90).until(lambda b: "Sent " in b.find_element(By.CSS_SELECTOR, ".file-status").text)
            requests = editor.execute_script("return window.uploadRequests;")
            creations = [entry for entry in requests if entry["method"] == "POST"]
            assert len(creations) == 1, requests
            offsets = [entry["offset"] for entry in requests if entry["method"] == "PATCH"]
            assert offsets.count(0) == 1, requests
            # The second server was asked for no new upload, and took chunks of this one.
            logged = [line for _, line in second.output.lines]
            assert not [line for line in logged if "method=POST path=/uploads " in line], logged
            assert [line for line in logged if "method=PATCH path=/uploads/" in line], logged
            heads = [index for index, entry in enumerate(requests) if entry["method"] == "HEAD"]
            if downtime > 0:
                assert heads, requests
                after = [entry["offset"] for entry in requests[heads[0]:] if entry["method"] == "PATCH"]
                # Resumed from what the first server acknowledged (its first chunk at least), never from zero.
                assert after and after[0] >= 1024 * 1024, requests
            wait(editor).until(lambda b: uploaded_poster(second, second_poster(second, 6)))
            served, _ = fetch(second, second_poster(second, 6)[len(second.url):])
            assert served == content
    finally:
        editor.quit()
        os.unlink(path)
        shutil.rmtree(folder, ignore_errors=True)


def second_poster(server, movie_id):
    """The poster address movie `movie_id`'s detail page shows now."""
    page = server.get(f"/movies/{movie_id}")
    match = re.search(r'<img[^>]*class="poster"[^>]*src="([^"]+)"', page) or re.search(
        r'<img[^>]*src="([^"]+)"[^>]*class="poster"', page)
    return server.page(match.group(1)) if match else ""
