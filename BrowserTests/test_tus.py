"""The tus 1.0.0 endpoint of the release `movies` server, driven by a third-party tus client: tuspy (PyPI).

Create, upload, resume after a dropped connection (HEAD's offset is the bytes received), terminate, and each refusal.
What tuspy cannot send (no Tus-Resumable, another content type) goes through `requests`, which tuspy brings.
"""

import base64
import html
import io
import os
import re
import shutil
import socket
import subprocess
import tempfile
import time
import urllib.request
import uuid

import pytest
import requests
from tusclient import client as tus
from tusclient.exceptions import TusCommunicationError, TusUploadFailed

from conftest import WAIT_SECONDS, running_server

MAX_SIZE = 1 << 20


@pytest.fixture(scope="module")
def uploads():
    """A server taking uploads of at most 1 MiB into a folder of its own: (server, folder)."""
    folder = tempfile.mkdtemp(prefix="screenplay-uploads-")
    try:
        with running_server(arguments=["--upload-folder", folder, "--upload-max-size", "1M"]) as server:
            yield server, folder
    finally:
        shutil.rmtree(folder, ignore_errors=True)


# The browser the pages and the uploads come from (its identity cookie): a page's token is signed for it, and a
# creation naming a page whose screen is not live yet builds that screen from the token.
BROWSER = {"Cookie": "screenplay_browser=tusBrowserAAAAAAAAAAAA"}


def open_screen(server, path="/movies/1"):
    """Opens a screen and answers its session id and CSRF token, as a page's script reads them."""
    request = urllib.request.Request(server.page(path), headers=BROWSER)
    with urllib.request.urlopen(request, timeout=WAIT_SECONDS) as response:
        page = response.read().decode()
    screen = html.unescape(re.search(r'data-screen="([^"]+)"', page).group(1))
    csrf = html.unescape(re.search(r'data-csrf="([^"]+)"', page).group(1))
    return screen, csrf


def content(size, seed=1):
    return bytes((index * 131 + seed) % 256 for index in range(size))


def uploader(server, data, screen, csrf, chunk_size=64 * 1024, changes=None):
    metadata = {"screen": screen, "csrf": csrf, "field": "attachment", "filename": "notes.bin",
                "filetype": "application/octet-stream"}
    metadata.update(changes or {})
    return tus.TusClient(server.page("/uploads"), headers=BROWSER).uploader(
        file_stream=io.BytesIO(data), chunk_size=chunk_size, metadata=metadata)


def stored(folder, url):
    """The bytes the server keeps for the upload at `url` (FileUploadStorage: `<id>.bin`)."""
    upload_id = url.rsplit("/", 1)[1]
    assert re.fullmatch(r"[A-Za-z0-9_-]{22}", upload_id)
    with open(os.path.join(folder, upload_id + ".bin"), "rb") as file:
        return file.read()


def head(url, **headers):
    return requests.head(url, headers={"Tus-Resumable": "1.0.0", **headers}, timeout=WAIT_SECONDS)


def test_options_announces_tus_and_its_extensions(uploads):
    server, _ = uploads
    answer = requests.options(server.page("/uploads"), timeout=WAIT_SECONDS)
    assert answer.status_code == 204
    assert answer.headers["Tus-Resumable"] == "1.0.0"
    assert answer.headers["Tus-Version"] == "1.0.0"
    assert {"creation", "creation-with-upload", "termination", "expiration"} <= set(
        answer.headers["Tus-Extension"].split(","))
    assert answer.headers["Tus-Max-Size"] == str(MAX_SIZE)


def test_tuspy_creates_uploads_in_chunks_and_the_server_keeps_every_byte(uploads):
    server, folder = uploads
    screen, csrf = open_screen(server)
    data = content(300_000)
    upload = uploader(server, data, screen, csrf, chunk_size=64 * 1024)
    upload.upload()
    assert upload.url.startswith(server.page("/uploads/"))
    assert upload.offset == len(data)
    answer = head(upload.url)
    assert answer.status_code == 200
    assert answer.headers["Upload-Offset"] == str(len(data))
    assert answer.headers["Upload-Length"] == str(len(data))
    assert answer.headers["Tus-Resumable"] == "1.0.0"
    assert stored(folder, upload.url) == data


def test_an_upload_resumes_after_a_dropped_connection_from_the_bytes_received(uploads):
    server, folder = uploads
    screen, csrf = open_screen(server)
    data = content(400_000, seed=3)
    first = uploader(server, data, screen, csrf)
    first.set_url(first.create_url())
    location = urllib.request.urlparse(first.url).path
    # A PATCH whose connection drops after 150,000 of its 400,000 bytes.
    port = int(re.search(r":(\d+)$", server.url).group(1))
    with socket.create_connection(("127.0.0.1", port), timeout=WAIT_SECONDS) as connection:
        connection.sendall(
            f"PATCH {location} HTTP/1.1\r\nHost: 127.0.0.1:{port}\r\nTus-Resumable: 1.0.0\r\nUpload-Offset: 0\r\n"
            f"Content-Type: application/offset+octet-stream\r\nContent-Length: {len(data)}\r\n\r\n".encode()
            + data[:150_000])
    # The server may still be working through what it read: its offset grows to every byte sent, never past.
    offset = 0
    for _ in range(200):
        offset = int(head(first.url).headers["Upload-Offset"])
        if offset == 150_000:
            break
        assert offset < 150_000
        time.sleep(0.05)
    assert offset == 150_000

    # tuspy resumes the same upload from the server's offset (its HEAD), no new upload created.
    resumed = tus.TusClient(server.page("/uploads")).uploader(
        file_stream=io.BytesIO(data), url=first.url, chunk_size=100_000)
    assert resumed.offset == 150_000
    resumed.upload()
    assert resumed.url == first.url
    assert resumed.offset == len(data)
    assert stored(folder, first.url) == data


def test_termination_removes_the_upload(uploads):
    server, folder = uploads
    screen, csrf = open_screen(server)
    upload = uploader(server, content(10_000), screen, csrf, chunk_size=4000)
    upload.upload(stop_at=4000)
    assert head(upload.url).headers["Upload-Offset"] == "4000"
    answer = requests.delete(upload.url, headers={"Tus-Resumable": "1.0.0"}, timeout=WAIT_SECONDS)
    assert answer.status_code == 204
    assert answer.headers["Tus-Resumable"] == "1.0.0"
    assert head(upload.url).status_code == 404
    upload_id = upload.url.rsplit("/", 1)[1]
    assert not os.path.exists(os.path.join(folder, upload_id + ".bin"))
    with pytest.raises(TusCommunicationError) as refused:
        upload.upload()
    assert refused.value.status_code == 404


@pytest.mark.parametrize("metadata", [
    {"csrf": ""}, {"csrf": "AAAAAAAAAAAAAAAAAAAAAA"}, {"screen": "AAAAAAAAAAAAAAAAAAAAAA"}, {"screen": ""},
])
def test_a_creation_without_its_screens_token_is_refused_403(uploads, metadata):
    server, folder = uploads
    screen, csrf = open_screen(server)
    before = set(os.listdir(folder))
    with pytest.raises(TusCommunicationError) as refused:
        uploader(server, content(100), screen, csrf, changes=metadata).upload()
    assert refused.value.status_code == 403
    assert set(os.listdir(folder)) == before


def test_a_poster_that_is_not_an_image_is_refused_415_with_a_message(uploads):
    server, folder = uploads
    screen, csrf = open_screen(server)
    gif = b"GIF89a" + content(5000)
    upload = uploader(server, gif, screen, csrf, changes={"field": "poster", "filename": "cat.png"})
    with pytest.raises(TusCommunicationError) as refused:
        upload.upload()
    assert refused.value.status_code == 415
    assert b"Choose a PNG, JPEG or WebP file; cat.png is not one." in refused.value.response_content
    assert head(upload.url).status_code == 404
    png = bytes([0x89, 0x50, 0x4E, 0x47, 0x0D, 0x0A, 0x1A, 0x0A, 0, 0, 0, 13]) + content(5000)
    accepted = uploader(server, png, screen, csrf, changes={"field": "poster", "filename": "cat.gif"})
    accepted.upload()
    assert stored(folder, accepted.url) == png


def test_a_creation_over_the_maximum_is_refused_413(uploads):
    server, folder = uploads
    screen, csrf = open_screen(server)
    before = set(os.listdir(folder))
    with pytest.raises(TusCommunicationError) as refused:
        uploader(server, content(MAX_SIZE + 1), screen, csrf).upload()
    assert refused.value.status_code == 413
    assert set(os.listdir(folder)) == before


def test_a_wrong_offset_is_refused_409(uploads):
    server, _ = uploads
    screen, csrf = open_screen(server)
    upload = uploader(server, content(20_000), screen, csrf, chunk_size=5000)
    upload.upload(stop_at=5000)
    upload.offset = 2000
    with pytest.raises((TusCommunicationError, TusUploadFailed)) as refused:
        upload.upload_chunk()
    assert refused.value.status_code == 409
    assert head(upload.url).headers["Upload-Offset"] == "5000"


def test_an_unknown_upload_is_404(uploads):
    server, _ = uploads
    with pytest.raises(TusCommunicationError) as refused:
        tus.TusClient(server.page("/uploads")).uploader(
            file_stream=io.BytesIO(b"x"), url=server.page("/uploads/AAAAAAAAAAAAAAAAAAAAAA"))
    assert refused.value.status_code == 404
    for path in ["/uploads/..%2F..%2Fetc%2Fpasswd", "/uploads/%2e%2e", "/uploads/x.info"]:
        assert head(server.page(path)).status_code == 404


def test_requests_without_tus_resumable_are_412_and_other_content_types_415(uploads):
    server, _ = uploads
    screen, csrf = open_screen(server)
    upload = uploader(server, content(1000), screen, csrf)
    upload.set_url(upload.create_url())
    metadata = ",".join(f"{key} {base64.b64encode(value.encode()).decode()}"
                        for key, value in {"screen": screen, "csrf": csrf}.items())
    missing = [
        requests.post(server.page("/uploads"), headers={"Upload-Length": "10", "Upload-Metadata": metadata},
                      timeout=WAIT_SECONDS),
        requests.head(upload.url, timeout=WAIT_SECONDS),
        requests.patch(upload.url, data=b"abc", timeout=WAIT_SECONDS,
                       headers={"Upload-Offset": "0", "Content-Type": "application/offset+octet-stream"}),
        requests.delete(upload.url, timeout=WAIT_SECONDS),
    ]
    for answer in missing:
        assert answer.status_code == 412
        assert answer.headers["Tus-Resumable"] == "1.0.0"
        assert answer.headers["Tus-Version"] == "1.0.0"
    wrong_type = requests.patch(upload.url, data=b"abc", timeout=WAIT_SECONDS, headers={
        "Tus-Resumable": "1.0.0", "Upload-Offset": "0", "Content-Type": "application/octet-stream"})
    assert wrong_type.status_code == 415
    assert head(upload.url).headers["Upload-Offset"] == "0"


POSTGRES = os.environ.get("SCREENPLAY_TEST_POSTGRES")


def test_with_postgresql_an_upload_started_on_one_instance_resumes_on_another():
    if not POSTGRES:
        if os.environ.get("SCREENPLAY_REQUIRE_POSTGRES") == "1":
            pytest.fail("SCREENPLAY_TEST_POSTGRES is not set")
        pytest.skip("make test runs this under Deployment/with-postgres.sh")
    name = "tus_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", "-q", POSTGRES, "-c", f"CREATE DATABASE {name}"], check=True)
    database = POSTGRES.replace("@/postgres?", f"@/{name}?")
    data = content(700_000, seed=9)
    with running_server(database, ["--instance", "a"]) as a, running_server(database, ["--instance", "b"]) as b:
        screen, csrf = open_screen(a)
        first = uploader(a, data, screen, csrf, chunk_size=300_000)
        first.upload(stop_at=300_000)
        assert first.offset == 300_000
        path = urllib.request.urlparse(first.url).path
        a.process.terminate()
        a.process.wait(timeout=10)

        # tuspy on instance b, from b's HEAD: the same upload, from the offset a acknowledged.
        resumed = tus.TusClient(b.page("/uploads")).uploader(
            file_stream=io.BytesIO(data), url=b.page(path), chunk_size=300_000)
        assert resumed.offset == 300_000
        resumed.upload()
        assert resumed.offset == len(data)
        answer = head(b.page(path))
        assert answer.headers["Upload-Offset"] == answer.headers["Upload-Length"] == str(len(data))
        stored_hex = subprocess.run(
            ["psql", "-At", database, "-c",
             f"SELECT string_agg(encode(data, 'hex'), '' ORDER BY chunk_offset) FROM upload_chunks "
             f"WHERE upload_id = '{path.rsplit('/', 1)[1]}'"],
            check=True, capture_output=True, text=True).stdout.strip()
        assert stored_hex == data.hex()
