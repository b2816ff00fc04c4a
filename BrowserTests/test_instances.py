"""Two `movies` instances on one PostgreSQL database behind nginx (Deployment/nginx.sh), in a real browser: a page
whose instance is killed recovers on the other one without a reload, and changes made through the other instance
show on it.

`make test` runs this inside Deployment/with-postgres.sh, which names the cluster in SCREENPLAY_TEST_POSTGRES.
"""

import contextlib
import os
import signal
import socket
import subprocess
import tempfile
import uuid

import pytest
from selenium.webdriver.common.by import By
from selenium.webdriver.support.ui import WebDriverWait

from conftest import ROOT, WAIT_SECONDS, running_server, wait as waiting_across_patches

POSTGRES = os.environ.get("SCREENPLAY_TEST_POSTGRES")
REQUIRED = os.environ.get("SCREENPLAY_REQUIRE_POSTGRES") == "1"


def free_port():
    with socket.socket() as probe:
        probe.bind(("127.0.0.1", 0))
        return probe.getsockname()[1]


@contextlib.contextmanager
def cluster():
    """Two instances, `a` and `b`, on a database of their own, and nginx in front of them."""
    name = "browser_" + uuid.uuid4().hex[:12]
    subprocess.run(["psql", "-q", POSTGRES, "-c", f"CREATE DATABASE {name}"], check=True)
    database = POSTGRES.replace("@/postgres?", f"@/{name}?")
    with running_server(database, ["--instance", "a"]) as a, running_server(database, ["--instance", "b"]) as b:
        folder = tempfile.mkdtemp(prefix="screenplay-nginx-")
        port = free_port()
        upstreams = [f"a={a.url.rsplit(':', 1)[1]}", f"b={b.url.rsplit(':', 1)[1]}"]
        subprocess.run([os.path.join(ROOT, "Deployment", "nginx.sh"), "start", folder, str(port), *upstreams],
                       check=True, stdout=subprocess.DEVNULL)
        try:
            yield {"url": f"http://127.0.0.1:{port}", "a": a, "b": b}
        finally:
            subprocess.run([os.path.join(ROOT, "Deployment", "nginx.sh"), "stop", folder], check=False)


def test_a_page_survives_losing_its_instance(browser):
    if not POSTGRES:
        if REQUIRED:
            pytest.fail("SCREENPLAY_TEST_POSTGRES is not set: make test runs this under Deployment/with-postgres.sh")
        pytest.skip("no PostgreSQL cluster (make test starts one)")
    with cluster() as instances:
        browser.get(instances["url"] + "/movies/1")
        wait = WebDriverWait(browser, WAIT_SECONDS)
        wait.until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")
        # A marker that a reload would lose.
        browser.execute_script("window.notReloaded = true;")
        holder = browser.find_element(By.TAG_NAME, "html").get_attribute("data-screen").split(".")[0]
        survivor = "b" if holder == "a" else "a"
        instances[holder].process.send_signal(signal.SIGKILL)
        instances[holder].process.wait()
        # The page's stream reconnects through nginx to the survivor, which rebuilds the screen and resets it.
        wait = WebDriverWait(browser, 20)
        wait.until(lambda b: b.find_element(By.TAG_NAME, "html").get_attribute("data-screen").startswith(survivor + ".")
                   and b.find_element(By.TAG_NAME, "html").get_attribute("data-connection") == "live")
        assert browser.execute_script("return window.notReloaded === true;")
        instances[survivor].patch(1, {"rating": 2.4})
        # A patch may replace the element between the lookup and the read: look again then.
        waiting_across_patches(browser).until(
            lambda b: b.find_element(By.CSS_SELECTOR, ".rating-value").text == "2.4")
        assert browser.execute_script("return window.notReloaded === true;")
        browser.save_screenshot(os.path.join(tempfile.gettempdir(), "screenplay-recovered-page.png"))
