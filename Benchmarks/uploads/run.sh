#!/usr/bin/env bash
# Upload benchmark: one large file sent over loopback to the movie app's tus endpoint (a creation, then one PATCH of
# the whole file) and, in the same run, to nginx by PUT (its WebDAV module writing the file to disk), both sent by
# curl, in alternating rounds (median shown). While the tus upload runs, the app's resident memory is sampled every
# 20 ms; the figure is its peak over the idle server's. The app's CPU time (user + system, /proc/PID/stat) for each tus
# upload is shown per GiB, and nginx's workers' for each PUT: steadier than the wall clock on a machine others use.
# The load average is shown as well.
#
# Usage: Benchmarks/uploads/run.sh [--size-mib 1024] [--rounds 3] [--bin PATH]
# Needs: nginx-light, curl, python3 (Debian). Builds the app in release mode first unless --bin names a binary.
# Under Benchmarks/run.sh (`make bench`) the figures are also recorded for its JSON file (Benchmarks/figures.py).
set -euo pipefail

SIZE_MIB=1024
ROUNDS=3
BIN=""
while [ $# -gt 0 ]; do
    case "$1" in
        --size-mib) SIZE_MIB=$2; shift 2 ;;
        --rounds) ROUNDS=$2; shift 2 ;;
        --bin) BIN=$2; shift 2 ;;
        *) echo "unknown option $1" >&2; exit 2 ;;
    esac
done

HERE=$(cd "$(dirname "$0")" && pwd)
ROOT=$(cd "$HERE/../.." && pwd)
export PYTHONPATH="$HERE/..${PYTHONPATH:+:$PYTHONPATH}"
WORK=$(mktemp -d)
SERVER_PID=""
NGINX_PID=""

cleanup() {
    [ -n "$SERVER_PID" ] && kill "$SERVER_PID" 2>/dev/null && wait "$SERVER_PID" 2>/dev/null || true
    [ -n "$NGINX_PID" ] && kill "$NGINX_PID" 2>/dev/null && wait "$NGINX_PID" 2>/dev/null || true
    rm -rf "$WORK"
}
trap cleanup EXIT

for tool in nginx curl python3; do
    command -v "$tool" >/dev/null || [ -x "/usr/sbin/$tool" ] || { echo "missing $tool (apt-get install nginx-light curl)" >&2; exit 1; }
done
NGINX=$(command -v nginx || echo /usr/sbin/nginx)

if [ -z "$BIN" ]; then
    echo "== building movies (release)"
    (cd "$ROOT" && swift build -c release --product movies -Xswiftc -warnings-as-errors >/dev/null)
    BIN=$(cd "$ROOT" && swift build -c release --show-bin-path)/movies
fi

free_port() { python3 -c 'import socket; s = socket.socket(); s.bind(("127.0.0.1", 0)); print(s.getsockname()[1])'; }
APP_PORT=$(free_port)
NGINX_PORT=$(free_port)

echo "== a file of $SIZE_MIB MiB"
head -c "$((SIZE_MIB * 1024 * 1024))" /dev/urandom >"$WORK/upload.bin"

mkdir -p "$WORK/uploads" "$WORK/nginx/files"
chmod 777 "$WORK/nginx/files"
chmod 755 "$WORK" "$WORK/nginx"
"$BIN" --port "$APP_PORT" --root "$ROOT" --database "$WORK/movies.sqlite" --upload-folder "$WORK/uploads" \
    --upload-max-size "$((SIZE_MIB + 1))M" --upload-quota "$((SIZE_MIB * 2 + 1))M" --no-access-log \
    >"$WORK/server.log" 2>&1 &
SERVER_PID=$!

cat >"$WORK/nginx/nginx.conf" <<CONF
worker_processes auto;
daemon off;
pid $WORK/nginx/nginx.pid;
error_log $WORK/nginx/error.log warn;
events { worker_connections 1024; }
http {
    access_log off;
    client_max_body_size 0;
    client_body_buffer_size 64k;
    client_body_temp_path $WORK/nginx/files;
    proxy_temp_path $WORK/nginx;
    fastcgi_temp_path $WORK/nginx;
    uwsgi_temp_path $WORK/nginx;
    scgi_temp_path $WORK/nginx;
    server {
        listen 127.0.0.1:$NGINX_PORT;
        location /files/ { root $WORK/nginx; dav_methods PUT; create_full_put_path on; }
    }
}
CONF
"$NGINX" -c "$WORK/nginx/nginx.conf" -p "$WORK/nginx" &
NGINX_PID=$!

for url in "http://127.0.0.1:$APP_PORT/healthz" "http://127.0.0.1:$NGINX_PORT/"; do
    for _ in $(seq 300); do curl -s -o /dev/null "$url" && break; sleep 0.1; done
done

python3 - "$APP_PORT" "$NGINX_PORT" "$SERVER_PID" "$WORK" "$ROUNDS" "$SIZE_MIB" "$NGINX_PID" <<'PY'
import html, os, re, statistics, subprocess, sys, threading, time, urllib.request
from figures import record

app_port, nginx_port, pid, work, rounds, size_mib, nginx_pid = sys.argv[1:8]
rounds, size_mib = int(rounds), int(size_mib)
path = os.path.join(work, "upload.bin")
size = os.path.getsize(path)
app = f"http://127.0.0.1:{app_port}"
cookie = "screenplay_browser=uploadBenchmarkAAAAAAA"

def rss_kib():
    with open(f"/proc/{pid}/status") as status:
        for line in status:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return 0

def cpu_seconds(process=pid):
    """A process's user + system CPU time so far (/proc/PID/stat, fields 14 and 15, in clock ticks)."""
    with open(f"/proc/{process}/stat") as stat:
        fields = stat.read().rsplit(")", 1)[1].split()
    return (int(fields[11]) + int(fields[12])) / os.sysconf("SC_CLK_TCK")

def nginx_cpu_seconds():
    """nginx's workers' CPU time so far (the master only hands out connections)."""
    with open(f"/proc/{nginx_pid}/task/{nginx_pid}/children") as children:
        return sum(cpu_seconds(worker) for worker in children.read().split())

def load_average():
    with open("/proc/loadavg") as loadavg:
        return " ".join(loadavg.read().split()[:3])

def curl(*arguments):
    """Runs curl, answering the upload's seconds and its HTTP status."""
    out = subprocess.run(["curl", "-sS", "-o", "/dev/null", "-w", "%{http_code} %{time_total}", "-H", "Expect:",
                          *arguments], check=True, capture_output=True, text=True).stdout.split()
    return float(out[1]), int(out[0])

def tus_upload(n):
    request = urllib.request.Request(app + "/movies/1", headers={"Cookie": cookie})
    page = urllib.request.urlopen(request).read().decode()
    screen = html.unescape(re.search(r'data-screen="([^"]+)"', page).group(1))
    csrf = html.unescape(re.search(r'data-csrf="([^"]+)"', page).group(1))
    import base64
    def b64(text): return base64.b64encode(text.encode()).decode()
    metadata = ",".join(f"{key} {b64(value)}" for key, value in
                        [("screen", screen), ("csrf", csrf), ("field", "attachment"), ("filename", f"bench-{n}.bin"),
                         ("filetype", "application/octet-stream")])
    create = urllib.request.Request(app + "/uploads", method="POST", headers={
        "Tus-Resumable": "1.0.0", "Upload-Length": str(size), "Upload-Metadata": metadata, "Cookie": cookie,
        "Origin": app})
    answer = urllib.request.urlopen(create)
    location = answer.headers["Location"]
    if location.startswith("/"): location = app + location
    seconds, status = curl("-X", "PATCH", "-T", path, "-H", "Tus-Resumable: 1.0.0", "-H", "Upload-Offset: 0",
                           "-H", "Content-Type: application/offset+octet-stream", "-H", f"Cookie: {cookie}",
                           "-H", f"Origin: {app}", location)
    if status != 204: raise SystemExit(f"tus PATCH answered {status}")
    done = urllib.request.Request(location, method="HEAD", headers={"Tus-Resumable": "1.0.0", "Cookie": cookie,
                                                                    "Origin": app})
    offset = int(urllib.request.urlopen(done).headers["Upload-Offset"])
    if offset != size: raise SystemExit(f"tus upload stopped at {offset} of {size}")
    terminate = urllib.request.Request(location, method="DELETE", headers={"Tus-Resumable": "1.0.0",
                                                                           "Cookie": cookie, "Origin": app})
    urllib.request.urlopen(terminate)
    return seconds

def nginx_upload(n):
    seconds, status = curl("-T", path, f"http://127.0.0.1:{nginx_port}/files/bench-{n}.bin")
    if status not in (201, 204): raise SystemExit(f"nginx PUT answered {status}")
    os.remove(os.path.join(work, "nginx", "files", f"bench-{n}.bin"))
    return seconds

time.sleep(1)
idle = rss_kib()
tus, nginx, peaks, cpus, nginx_cpus = [], [], [], [], []
print(f"load average before: {load_average()}")
for n in range(rounds):
    peak = [idle]
    running = [True]
    def sample():
        while running[0]:
            peak[0] = max(peak[0], rss_kib())
            time.sleep(0.02)
    sampler = threading.Thread(target=sample)
    sampler.start()
    cpu_before = cpu_seconds()
    tus.append(tus_upload(n))
    cpus.append((cpu_seconds() - cpu_before) / (size / 2**30))
    running[0] = False
    sampler.join()
    peaks.append(peak[0] - idle)
    nginx_before = nginx_cpu_seconds()
    nginx.append(nginx_upload(n))
    nginx_cpus.append((nginx_cpu_seconds() - nginx_before) / (size / 2**30))
    print(f"round {n + 1}: tus {size / tus[-1] / 2**20:,.0f} MiB/s, nginx PUT {size / nginx[-1] / 2**20:,.0f} MiB/s, "
          f"server RSS +{peak[0] - idle:,} KiB over idle, CPU {cpus[-1]:.2f} s/GiB (nginx {nginx_cpus[-1]:.2f})")

tus_rate = size / statistics.median(tus) / 2**20
nginx_rate = size / statistics.median(nginx) / 2**20
print(f"== {size_mib} MiB over loopback, median of {rounds}")
print(f"tus (creation + one PATCH, curl): {tus_rate:,.0f} MiB/s")
print(f"nginx PUT (curl):                {nginx_rate:,.0f} MiB/s")
print(f"tus / nginx:                     {tus_rate / nginx_rate:.2f}x (goal >= 0.70x)")
print(f"server CPU per GiB (tus, nginx): {statistics.median(cpus):.2f} s, {statistics.median(nginx_cpus):.2f} s "
      f"(user + system)")
print(f"load average after:              {load_average()}")
print(f"server RSS during the upload:    +{max(peaks) / 1024:.1f} MiB over idle ({idle / 1024:.1f} MiB), "
      f"worst round (goal <= 32 MiB)")
record("uploads.tus.mib_per_s", tus_rate, "MiB/s")
record("uploads.nginx_put.mib_per_s", nginx_rate, "MiB/s")
record("uploads.tus_over_nginx", tus_rate / nginx_rate, "ratio")
record("uploads.tus.cpu_s_per_gib", statistics.median(cpus), "s")
record("uploads.nginx_put.cpu_s_per_gib", statistics.median(nginx_cpus), "s")
record("uploads.rss_over_idle", max(peaks) / 1024, "MiB")
PY
