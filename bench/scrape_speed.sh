#!/usr/bin/env bash
# Speed and memory of `gpudoctor serve --prometheus`: starts the exporter on a free loopback port (by default on
# the recorded 8-GPU MI300X machine, so every scrape reads 8 GPUs' sysfs files through the sysroot), scrapes
# /metrics N times in a row from one client (python3, a fresh connection per scrape as Prometheus makes
# with `Connection: close`), and prints the per-scrape p50/p99/max in ms and the server's resident memory
# before, after the first 100 scrapes and at the end. A benchmark, not a test: it prints figures (the target
# of issue 18: each scrape < 5 ms, memory flat).
#   bench/scrape_speed.sh [BINARY] [SCRAPES] [SYSROOT]
# Examples:
#   bench/scrape_speed.sh                                          # build/release/src/gpudoctor, 10000 scrapes
#   bench/scrape_speed.sh build/dev/src/gpudoctor 10000 tests/fixtures/sysroot/h100-sxm-server
#   bench/scrape_speed.sh build/release/src/gpudoctor 10000 /     # this machine's GPUs, live
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-build/release/src/gpudoctor}"
SCRAPES="${2:-10000}"
SYSROOT="${3:-tests/fixtures/sysroot/mi300x-8gpu-node}"
[ -x "$BIN" ] || { echo "no binary at $BIN: build it first (cmake --build --preset release)" >&2; exit 3; }
command -v python3 >/dev/null || { echo "python3 is needed for the client" >&2; exit 3; }

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
LOG=$(mktemp)
"$BIN" serve --prometheus "127.0.0.1:$PORT" --sysroot "$SYSROOT" 2>"$LOG" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; rm -f "$LOG"' EXIT

python3 - "$PORT" "$SCRAPES" "$SERVER" <<'PY'
import socket, sys, time
port, scrapes, pid = int(sys.argv[1]), int(sys.argv[2]), sys.argv[3]

def rss_kib():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1

def scrape():
    s = socket.create_connection(("127.0.0.1", port), timeout=5)
    s.sendall(b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: scrape_speed\r\n\r\n")
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    if not data.startswith(b"HTTP/1.1 200 "):
        raise SystemExit("bad answer: " + data[:80].decode(errors="replace"))
    return len(data)

deadline = time.time() + 10
while True:
    try:
        size = scrape()
        break
    except OSError:
        if time.time() > deadline:
            raise SystemExit("the exporter did not start")
        time.sleep(0.05)
rss_start = rss_kib()
rss_100 = rss_start
times = []
for i in range(scrapes):
    t0 = time.perf_counter()
    scrape()
    times.append((time.perf_counter() - t0) * 1000.0)
    if i == 99:
        rss_100 = rss_kib()
rss_end = rss_kib()
times.sort()
pick = lambda q: times[min(len(times) - 1, int(q * len(times)))]
print(f"{scrapes} scrapes of {size} bytes: p50 {pick(0.5):.3f} ms, p99 {pick(0.99):.3f} ms, max {times[-1]:.3f} ms "
      f"(target: each < 5 ms)")
print(f"server RSS: {rss_start} KiB before, {rss_100} KiB after 100 scrapes, {rss_end} KiB after {scrapes} "
      f"(growth after warm-up: {rss_end - rss_100} KiB)")
PY
