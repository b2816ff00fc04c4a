"""The client script's fields and actions against a scripted stand-in for the server, in a real browser.

The stand-in serves one page with the markup the server renders (fields, a form with two buttons, a row button),
Screenplay's client (`Sources/Screenplay/Client/`), a shared stream whose events each test sends itself, and records every post.
So each rule of the client can be checked at the moment it matters: a patch that arrives while the user types, an
answer that comes late, a reset to a rebuilt screen. Checkboxes, pickers, Enter outside a form and a field cleared by
its form's answer have no screen in the demo app yet.
"""

import contextlib
import json
import os
import queue
import re
import threading
import time
import urllib.parse
from http.server import BaseHTTPRequestHandler, ThreadingHTTPServer

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.common.keys import Keys
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, WAIT_SECONDS

FORM = (
    '<form id="v30" method="post" action="/screens/{sid}/actions/add">'
    '<input type="hidden" name="csrf" value="{csrf}">'
    '<div id="v31" class="field"><label for="v31-control">New item</label>'
    '<input id="v31-control" name="new" type="text" value="{new}"{new_seq}></div>'
    '<div id="v32" class="field"><input id="v32-control" name="done" type="checkbox">'
    '<label for="v32-control">Done</label></div>'
    '<div id="v33" class="field"><label for="v33-control">Kind</label><select id="v33-control" name="kind">'
    '<option value="a" selected>A</option><option value="b">B</option></select></div>'
    '<button id="v34" type="submit" formaction="/screens/{sid}/actions/add">Add</button>'
    '<button id="v35" type="submit" formaction="/screens/{sid}/actions/clear">Clear</button>'
    "</form>"
)

ITEM = ('<div id="v20" class="field"><label for="v20-control">{label}</label>'
        '<input id="v20-control" name="item" type="text" value="{value}"{seq}>{error}</div>')


def item_field(value="", seq=0, label="Item", error=None):
    return ITEM.format(
        value=value, label=label, seq=f' data-seq="{seq}"' if seq else "",
        error=f'<p id="v20-error" class="field-error">{error}</p>' if error else "")


def form(sid="S1", csrf="T1", new="", new_seq=0):
    return FORM.format(sid=sid, csrf=csrf, new=new, new_seq=f' data-seq="{new_seq}"' if new_seq else "")


def page(sid="S1", csrf="T1", item="", client="2-test"):
    return (
        f'<!DOCTYPE html><html id="v1" lang="en" data-screen-url="/page" data-last-event-id="0" data-wire="2"'
        f' data-streams="/streams" data-client="{client}" data-screen="{sid}" data-csrf="{csrf}"><head>'
        '<meta charset="utf-8"><title>Fields</title><script type="module" src="/screenplay/test/screenplay.js"></script>'
        '</head>'
        f'<body id="v5"><main id="v9">{item_field(item)}{form(sid, csrf)}'
        f'<form id="v40" method="post" action="/screens/{sid}/actions/x?row=7">'
        f'<input type="hidden" name="csrf" value="{csrf}"><button id="v41" type="submit">Row</button></form>'
        '<p id="v50" data-announce>Nothing yet</p></main>'
        '<div aria-live="polite" data-announcer></div></body></html>'
    )


class StandIn:
    """The scripted server: what it answers, what it was sent."""

    def __init__(self):
        self.posts = []                  # (path, form dict, monotonic time received, time answered)
        self.changed = threading.Condition()
        self.streams = []                # one queue per open stream
        self.numbers = {}                # the last event number of each screen
        self.input_delay = lambda form: 0.0
        self.attach_status = 204        # what the stream's attach posts are answered
        self.client = "2-test"           # the client version the stream's greeting names
        self.page_loads = 0

    def record(self, entry):
        with self.changed:
            self.posts.append(entry)
            self.changed.notify_all()

    def posted(self, path_pattern, count=1, timeout=WAIT_SECONDS):
        """Waits for `count` posts whose path matches `path_pattern` and answers them all."""
        deadline = time.monotonic() + timeout
        with self.changed:
            while True:
                found = [p for p in self.posts if re.search(path_pattern, p["path"])]
                if len(found) >= count:
                    return found
                left = deadline - time.monotonic()
                if left <= 0:
                    raise AssertionError(f"{len(found)} posts to {path_pattern}, not {count}: {self.posts}")
                self.changed.wait(left)

    def inputs(self, name=None):
        return [p["form"] for p in self.posts if p["path"].endswith("/input")
                and (name is None or p["form"].get("name") == name)]

    def send(self, name, data, screen="S1", numbered=True):
        """Sends an event on every open stream (a screen's events are numbered <sid>.<n>)."""
        text = data if isinstance(data, str) else json.dumps(data)
        lines = f"event: {name}\n"
        if numbered:
            self.numbers[screen] = self.numbers.get(screen, 0) + 1
            lines += f"id: {screen}.{self.numbers[screen]}\n"
        lines += f"data: {text}\n\n"
        with self.changed:
            for stream in self.streams:
                stream.put(lines)


def handler_for(stand_in):
    class Handler(BaseHTTPRequestHandler):
        def log_message(self, *arguments):
            pass

        def answer(self, status, body=b"", content_type="text/html; charset=utf-8"):
            self.send_response(status)
            self.send_header("Content-Type", content_type)
            self.send_header("Content-Length", str(len(body)))
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            self.wfile.write(body)

        def do_GET(self):
            path = urllib.parse.urlsplit(self.path).path
            if path == "/page":
                stand_in.page_loads += 1
                return self.answer(200, page().encode())
            if path.startswith("/screenplay/test/"):
                client = os.path.join(ROOT, "Sources", "Screenplay", "Client")
                with open(os.path.join(client, os.path.basename(path)), "rb") as file:
                    return self.answer(200, file.read(), "text/javascript")
            if path == "/streams":
                return self.stream()
            self.answer(404)

        def stream(self):
            self.send_response(200)
            self.send_header("Content-Type", "text/event-stream")
            self.send_header("Cache-Control", "no-store")
            self.end_headers()
            events = queue.Queue()
            events.put('event: stream\ndata: {"stream":"B1","version":2,"client":"%s"}\n\n' % stand_in.client)
            with stand_in.changed:
                stand_in.streams.append(events)
            try:
                while True:
                    try:
                        text = events.get(timeout=0.5)
                    except queue.Empty:
                        text = ": hb\n\n"
                    self.wfile.write(text.encode())
                    self.wfile.flush()
            except (BrokenPipeError, ConnectionResetError):
                pass
            finally:
                with stand_in.changed:
                    stand_in.streams.remove(events)

        def do_POST(self):
            length = int(self.headers.get("Content-Length") or 0)
            fields = dict(urllib.parse.parse_qsl(self.rfile.read(length).decode(), keep_blank_values=True))
            entry = {"path": self.path, "form": fields, "received": time.monotonic(),
                     "fetch": self.headers.get("X-Requested-With") == "fetch"}
            if self.path.endswith("/input"):
                time.sleep(stand_in.input_delay(fields))
            entry["answered"] = time.monotonic()
            stand_in.record(entry)
            self.answer(stand_in.attach_status if self.path.endswith("/screens") else 204)

    return Handler


@contextlib.contextmanager
def serving():
    stand_in = StandIn()
    server = ThreadingHTTPServer(("127.0.0.1", 0), handler_for(stand_in))
    server.daemon_threads = True
    threading.Thread(target=server.serve_forever, daemon=True).start()
    stand_in.url = f"http://127.0.0.1:{server.server_address[1]}"
    try:
        yield stand_in
    finally:
        server.shutdown()
        server.server_close()


@pytest.fixture
def stand_in():
    with serving() as stand_in:
        yield stand_in


def open_page(browser, stand_in):
    browser.get(stand_in.url + "/page")
    WebDriverWait(browser, WAIT_SECONDS).until(
        lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")


def js(browser, script, *arguments):
    return browser.execute_script(script, *arguments)


def until(browser, condition):
    return WebDriverWait(browser, WAIT_SECONDS).until(condition)


def test_switches_and_pickers_post_at_once_and_text_when_the_user_pauses(browser, stand_in):
    open_page(browser, stand_in)
    browser.find_element(By.ID, "v32-control").click()
    stand_in.posted("/input$", 1)
    browser.find_element(By.ID, "v32-control").click()
    stand_in.posted("/input$", 2)
    assert [(f["name"], f["value"], f["seq"], f["event"]) for f in stand_in.inputs()] == [
        ("done", "on", "1", "change"), ("done", "", "2", "change")]
    js(browser, "var s = document.getElementById('v33-control'); s.value = 'b';"
                "s.dispatchEvent(new Event('change', {bubbles: true}));")
    stand_in.posted("/input$", 3)
    assert stand_in.inputs("kind") == [{"csrf": "T1", "name": "kind", "value": "b", "seq": "1", "event": "change"}]

    # Typing waits for a pause (150 ms), then posts the whole text once; leaving the field says so.
    item = browser.find_element(By.ID, "v20-control")
    item.send_keys("abc")
    stand_in.posted("/input$", 4)
    assert stand_in.inputs("item") == [{"csrf": "T1", "name": "item", "value": "abc", "seq": "1", "event": "change"}]
    browser.find_element(By.ID, "v31-control").click()
    stand_in.posted("/input$", 5)
    assert stand_in.inputs("item")[-1] == {"csrf": "T1", "name": "item", "value": "abc", "seq": "2", "event": "end"}
    # Typed, then left before the pause: one post, at once, as the end of editing. In one script, so that no pause
    # of a loaded machine can come between the keystroke and the blur.
    js(browser, "var i = document.getElementById('v20-control'); i.focus(); i.value += 'd';"
                "i.dispatchEvent(new Event('input', {bubbles: true})); document.getElementById('v31-control').focus();")
    stand_in.posted("/input$", 6)
    time.sleep(0.3)
    assert stand_in.inputs("item")[2:] == [{"csrf": "T1", "name": "item", "value": "abcd", "seq": "3", "event": "end"}]
    assert all(p["fetch"] for p in stand_in.posts if "/screens/" in p["path"] and not p["path"].endswith("/close"))


def test_enter_outside_a_form_is_the_primary_action(browser, stand_in):
    open_page(browser, stand_in)
    item = browser.find_element(By.ID, "v20-control")
    item.send_keys("milk", Keys.ENTER)
    stand_in.posted("/input$", 1)
    time.sleep(0.3)
    assert stand_in.inputs("item") == [{"csrf": "T1", "name": "item", "value": "milk", "seq": "1", "event": "primary"}]
    assert browser.current_url == stand_in.url + "/page"


def test_the_posts_of_a_field_go_one_after_another(browser, stand_in):
    # The first answer is slow enough that whatever a loaded machine does, "c" and "d" are typed before it.
    stand_in.input_delay = lambda form: 2.0 if form["seq"] == "1" else 0.0
    open_page(browser, stand_in)
    item = browser.find_element(By.ID, "v20-control")
    item.send_keys("ab")
    time.sleep(0.25)
    item.send_keys("c")
    time.sleep(0.25)
    item.send_keys("d")
    posts = stand_in.posted("/input$", 2)
    time.sleep(1.0)
    posts = [p for p in stand_in.posts if p["path"].endswith("/input")]
    # The first post was still unanswered when "c" and "d" were typed: one post carries both, after it.
    assert [(p["form"]["seq"], p["form"]["value"]) for p in posts] == [("1", "ab"), ("2", "abcd")]
    assert posts[1]["received"] >= posts[0]["answered"]


def test_a_patch_keeps_the_focused_control_its_text_and_its_caret(browser, stand_in):
    open_page(browser, stand_in)
    item = browser.find_element(By.ID, "v20-control")
    item.send_keys("hello")
    js(browser, "var c = document.getElementById('v20-control'); c.marked = true; c.setSelectionRange(1, 3);")
    # The server rendered the field before it saw the text: no value, no seq; a new label and an error.
    stand_in.send("patch", [["replace", "v20", item_field("", 0, label="Thing", error="Required.")]])
    until(browser, lambda b: js(b, "return !!document.getElementById('v20-error')"))
    state = js(browser, "var c = document.getElementById('v20-control');"
                        "return [c.marked === true, document.activeElement === c, c.value, c.selectionStart,"
                        " c.selectionEnd, document.querySelector('label[for=v20-control]').textContent];")
    assert state == [True, True, "hello", 1, 3, "Thing"]
    # Attributes the new markup no longer has go; the ones it has come.
    attributes = ' data-seq="9" aria-invalid="true"'
    stand_in.send("patch", [["replace", "v20", ITEM.format(value="x", label="Thing", seq=attributes, error="")]])
    until(browser, lambda b: js(b, "return !document.getElementById('v20-error')"))
    assert js(browser, "var c = document.getElementById('v20-control');"
                       "return [c.marked, c.value, c.getAttribute('data-seq'), c.getAttribute('aria-invalid')];") == [
        True, "hello", "9", "true"]
    # A patch of a larger region keeps it too.
    larger = '<main id="v9" class="again">' + item_field("", 0, label="Again") + "</main>"
    stand_in.send("patch", [["replace", "v9", larger]])
    until(browser, lambda b: js(b, "return document.getElementById('v9').className === 'again'"))
    assert js(browser, "var c = document.getElementById('v20-control');"
                       "return [c.marked, document.activeElement === c, c.value, c.selectionStart,"
                       " c.hasAttribute('aria-invalid'), c.hasAttribute('data-seq')];") == [
        True, True, "hello", 1, False, False]


def test_a_control_not_focused_keeps_text_the_server_has_not_seen(browser, stand_in):
    stand_in.input_delay = lambda form: 0.5
    open_page(browser, stand_in)
    item = browser.find_element(By.ID, "v20-control")
    item.send_keys("mine")
    browser.find_element(By.ID, "v31-control").click()
    # Rendered before the server saw "mine" (data-seq 0): the user's text stays.
    stand_in.send("patch", [["replace", "v20", item_field("theirs", 0, label="Before")]])
    until(browser, lambda b: js(b, "return document.querySelector('label[for=v20-control]').textContent === 'Before'"))
    assert js(browser, "return document.getElementById('v20-control').value") == "mine"
    # The text goes with the end of editing (and, on a machine slow enough to pause 150 ms between the keystrokes
    # and the click, a change before it).
    until(browser, lambda b: any(f["event"] == "end" for f in stand_in.inputs("item")))
    stand_in.posted("/input$", len(stand_in.inputs("item")))
    sent = int(stand_in.inputs("item")[-1]["seq"])
    # Rendered after it saw every post: the server's value applies.
    stand_in.send("patch", [["replace", "v20", item_field("Mine.", sent, label="After")]])
    until(browser, lambda b: js(b, "return document.querySelector('label[for=v20-control]').textContent === 'After'"))
    assert js(browser, "return document.getElementById('v20-control').value") == "Mine."


def test_an_action_posts_its_form_and_is_pending_until_its_ack(browser, stand_in):
    open_page(browser, stand_in)
    new = browser.find_element(By.ID, "v31-control")
    new.send_keys("milk", Keys.ENTER)
    action = stand_in.posted("/actions/", 1)[0]
    # Enter submits with the form's first button: its formaction, every field, the post's id; no input event needed.
    assert action["path"] == "/screens/S1/actions/add"
    aid = action["form"].pop("_aid")
    assert re.fullmatch(r"[A-Za-z0-9_-]{1,64}", aid)
    assert action["form"] == {"csrf": "T1", "new": "milk", "kind": "a"}
    assert action["fetch"]
    pending = "return ['v30', 'v34'].map(function (id) { var n = document.getElementById(id);" \
              " return [n.getAttribute('aria-busy'), n.hasAttribute('data-pending')]; });"
    assert js(browser, pending) == [["true", True], ["true", True]]
    # Meanwhile another submit posts nothing.
    browser.find_element(By.ID, "v31-control").send_keys(Keys.ENTER)
    browser.find_element(By.ID, "v35").click()
    # The answer: the form again, its field cleared after every input event of it; the field keeps the focus.
    browser.find_element(By.ID, "v31-control").click()
    js(browser, "document.getElementById('v31-control').marked = true;")
    stand_in.send("patch", [["replace", "v30", form(new="")]])
    until(browser, lambda b: js(b, "return document.getElementById('v31-control').value === ''"))
    assert js(browser, "var c = document.getElementById('v31-control');"
                       "return [c.marked, document.activeElement === c];") == [True, True]
    # Still pending until the ack, across the patch that replaced the form's markup.
    assert js(browser, pending) == [["true", True], ["true", True]]
    stand_in.send("ack", aid)
    until(browser, lambda b: js(b, pending) == [[None, False], [None, False]])
    time.sleep(0.2)
    assert len(stand_in.posted("/actions/", 1)) == 1
    assert stand_in.inputs("new") == []

    # Another button of the form posts to its own action; a row's button to its own URL, query kept.
    browser.find_element(By.ID, "v35").click()
    clear = stand_in.posted("/actions/", 2)[1]
    assert clear["path"] == "/screens/S1/actions/clear"
    stand_in.send("ack", clear["form"]["_aid"])
    browser.find_element(By.ID, "v41").click()
    row = stand_in.posted("/actions/", 3)[2]
    assert row["path"] == "/screens/S1/actions/x?row=7"
    assert row["form"]["_aid"] not in (aid, clear["form"]["_aid"])


def test_a_field_cleared_by_the_answer_keeps_text_typed_after_the_submit(browser, stand_in):
    open_page(browser, stand_in)
    new = browser.find_element(By.ID, "v31-control")
    new.send_keys("milk", Keys.ENTER)
    aid = stand_in.posted("/actions/", 1)[0]["form"]["_aid"]
    new.send_keys("eggs")
    stand_in.posted("/input$", 1)
    # Rendered before the server saw "eggs": the answer does not clear it.
    stand_in.send("patch", [["replace", "v30", form(new="")]])
    stand_in.send("ack", aid)
    until(browser, lambda b: not js(b, "return document.getElementById('v30').hasAttribute('data-pending')"))
    assert js(browser, "return document.getElementById('v31-control').value") == "milkeggs"


def test_a_url_event_replaces_the_history_entry_and_the_screen_url(browser, stand_in):
    open_page(browser, stand_in)
    length = js(browser, "return history.length")
    stand_in.send("url", "/page?q=salt%20water")
    until(browser, lambda b: b.current_url == stand_in.url + "/page?q=salt%20water")
    assert js(browser, "return [history.length, document.documentElement.getAttribute('data-screen-url')]") == [
        length, "/page?q=salt%20water"]


def test_a_reset_keeps_what_was_typed_and_tells_the_new_screen(browser, stand_in):
    open_page(browser, stand_in)
    item = browser.find_element(By.ID, "v20-control")
    item.send_keys("keep me")
    stand_in.posted("/input$", 1)
    browser.find_element(By.ID, "v32-control").click()
    stand_in.posted("/input$", 2)
    item = browser.find_element(By.ID, "v20-control")
    item.click()
    js(browser, "document.getElementById('v20-control').setSelectionRange(2, 4);")
    # The server lost the screen and rebuilt it from its URL: a new id and token, the values it had stored.
    stand_in.send("rebuilt", {"screen": "S2", "replaces": "S1"}, numbered=False)
    stand_in.send("reset", {"html": page("S2", "T2")}, screen="S2")
    until(browser, lambda b: js(b, "return document.documentElement.getAttribute('data-screen')") == "S2")
    state = js(browser, "var c = document.getElementById('v20-control');"
                        "return [c.value, document.activeElement === c, c.selectionStart, c.selectionEnd,"
                        " document.getElementById('v32-control').checked];")
    assert state == ["keep me", True, 2, 4, True]
    posts = stand_in.posted("/screens/S2/input$", 2)
    assert sorted((p["form"]["name"], p["form"]["value"], p["form"]["csrf"], p["form"]["event"]) for p in posts) == [
        ("done", "on", "T2", "change"), ("item", "keep me", "T2", "change")]
    assert int(next(p for p in posts if p["form"]["name"] == "item")["form"]["seq"]) > 1
    # The form's action goes to the new screen too.
    browser.find_element(By.ID, "v34").click()
    assert stand_in.posted("/actions/", 1)[0]["path"] == "/screens/S2/actions/add"


def test_a_page_of_another_client_version_reloads_once(browser, stand_in):
    # The server was deployed with another client since the page loaded: the page reloads, once, and goes live.
    stand_in.client = "2-deployed"
    browser.get(stand_in.url + "/page")
    until(browser, lambda b: stand_in.page_loads >= 2)
    until(browser, lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") is not None)
    time.sleep(1.0)
    assert stand_in.page_loads == 2
    # The same version: no reload.
    stand_in.client = "2-test"
    stand_in.page_loads = 0
    open_page(browser, stand_in)
    time.sleep(0.5)
    assert stand_in.page_loads == 1


def test_an_attach_refused_for_another_wire_version_reloads_once(browser, stand_in):
    # The server speaks another wire version (409 to the attach, which names the page's): reload once, not forever.
    stand_in.attach_status = 409
    browser.get(stand_in.url + "/page")
    until(browser, lambda b: stand_in.page_loads >= 2)
    until(browser, lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "offline")
    time.sleep(1.0)
    assert stand_in.page_loads == 2
    assert all(p["form"]["version"] == "2" for p in stand_in.posts if p["path"].endswith("/screens"))
