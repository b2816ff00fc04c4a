"""The release binary's shape: which of the toolchain's libraries it loads.

The framework's modules and the app import FoundationEssentials, never the whole of Foundation: a process that loads
libFoundation (and with it FoundationInternationalization and its ICU data) starts several MiB larger before it
serves anything (Benchmarks/History/55-foundation-essentials.md). An `import Foundation` added to any module the
binary links brings them back; this test names the libraries if it does.
"""

import os
import subprocess

ROOT = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))


def test_the_server_loads_foundation_essentials_and_not_the_whole_of_foundation():
    binary = os.environ.get("MOVIES_BINARY", os.path.join(ROOT, ".build", "release", "movies"))
    linked = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    names = {line.split()[0] for line in linked.splitlines() if line.strip()}
    assert "libFoundationEssentials.so" in names, linked
    unwanted = {"libFoundation.so", "libFoundationInternationalization.so", "lib_FoundationICU.so"} & names
    assert not unwanted, f"the server links {sorted(unwanted)}: a module imports Foundation (ldd says:\n{linked})"


def test_the_server_allocates_through_mimalloc_loaded_before_the_c_library():
    """The executable links mimalloc (Sources/CMimalloc) ahead of the C library, so its malloc serves the whole
    process (Benchmarks/History/56-mimalloc.md); linked after it, the C library's would, and mimalloc would only
    sit there."""
    binary = os.environ.get("MOVIES_BINARY", os.path.join(ROOT, ".build", "release", "movies"))
    linked = subprocess.run(["ldd", binary], capture_output=True, text=True, check=True).stdout
    order = [line.split()[0] for line in linked.splitlines() if line.strip()]
    assert "libmimalloc.so.2" in order, linked
    assert order.index("libmimalloc.so.2") < order.index("libc.so.6"), linked
    # mimalloc prints its statistics at exit when asked: the heap it served, which it has only if it allocated.
    run = subprocess.run(
        [binary, "--help"], capture_output=True, text=True, env={**os.environ, "MIMALLOC_SHOW_STATS": "1"})
    assert run.returncode == 0
    assert run.stdout.startswith("usage: movies")
    touched = [line for line in run.stderr.splitlines() if line.strip().startswith("touched:")]
    assert touched and touched[0].split()[1] != "0", run.stderr
