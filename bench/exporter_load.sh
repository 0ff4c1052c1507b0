#!/usr/bin/env bash
# The exporter under hostile and heavy load (issue 35): starts `gpudoctor serve --prometheus` on a free loopback
# port (by default on the recorded 8×H100 machine) and, while a scraper fetches /metrics every 0.1 s on a fresh
# connection and times each answer,
#   1. SLOW clients hold connections open for SECONDS: each sends one byte a second and reconnects when cut;
#   2. CONC clients connect at once, each scraping /metrics, in 5 rounds (answers/s over the rounds);
# then 3. SCRAPES scrapes in a row, the server's resident memory before, after 1,000, halfway and after.
# Prints, for each phase, the scraper's answers (ok/failed), their max and p99 time, and the load's figures.
# A benchmark, not a test: it prints figures (issue 35's target: every real scrape answered within 1 s,
# memory flat).
#   bench/exporter_load.sh [BINARY] [SLOW] [CONC] [SCRAPES] [SECONDS] [SYSROOT]
# Examples:
#   bench/exporter_load.sh                                   # build/release/src/gpudoctor 100 1000 100000 20
#   bench/exporter_load.sh build/dev/src/gpudoctor 100 1000 100000 20
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-build/release/src/gpudoctor}"
SLOW="${2:-100}"
CONC="${3:-1000}"
SCRAPES="${4:-100000}"
SECONDS_="${5:-20}"
SYSROOT="${6:-tests/fixtures/sysroot/h100-sxm-server}"
[ -x "$BIN" ] || { echo "no binary at $BIN: build it first (cmake --build --preset release)" >&2; exit 3; }
command -v python3 >/dev/null || { echo "python3 is needed for the clients" >&2; exit 3; }
ulimit -n "$(ulimit -Hn)" 2>/dev/null || true  # the clients' side of CONC connections

PORT=$(python3 -c 'import socket; s=socket.socket(); s.bind(("127.0.0.1",0)); print(s.getsockname()[1])')
LOG=$(mktemp)
"$BIN" serve --prometheus "127.0.0.1:$PORT" --sysroot "$SYSROOT" 2>"$LOG" &
SERVER=$!
trap 'kill "$SERVER" 2>/dev/null || true; rm -f "$LOG"' EXIT

python3 - "$PORT" "$SERVER" "$SLOW" "$CONC" "$SCRAPES" "$SECONDS_" <<'PY'
import asyncio, socket, subprocess, sys, threading, time
port, pid, slow, conc, scrapes, seconds = sys.argv[1], sys.argv[2], *map(int, sys.argv[3:7])
port = int(port)
REQUEST = b"GET /metrics HTTP/1.1\r\nHost: 127.0.0.1\r\nUser-Agent: exporter_load\r\n\r\n"

def rss_kib():
    with open(f"/proc/{pid}/status") as f:
        for line in f:
            if line.startswith("VmRSS:"):
                return int(line.split()[1])
    return -1

def scrape(path=b"/metrics", timeout=10):
    s = socket.create_connection(("127.0.0.1", port), timeout=timeout)
    s.sendall(REQUEST.replace(b"/metrics", path))
    data = b""
    while True:
        chunk = s.recv(65536)
        if not chunk:
            break
        data += chunk
    s.close()
    return data.startswith(b"HTTP/1.1 200 ")

class Scraper(threading.Thread):
    """The real scraper: /metrics every 0.1 s, each answer timed, a failure (timeout, not 200) counted."""
    def __init__(self):
        super().__init__(daemon=True)
        self.times, self.failed, self.stop = [], 0, False
    def run(self):
        while not self.stop:
            t0 = time.perf_counter()
            try:
                ok = scrape()
            except OSError:
                ok = False
            if ok:
                self.times.append(time.perf_counter() - t0)
            else:
                self.failed += 1
            time.sleep(0.1)

def figures(times):
    times = sorted(times)
    if not times:
        return "no answer"
    p99 = times[min(len(times) - 1, int(0.99 * len(times)))]
    return f"max {times[-1] * 1000:.1f} ms, p99 {p99 * 1000:.1f} ms"

async def slow_client(until, counters):
    while time.time() < until:
        try:
            reader, writer = await asyncio.open_connection("127.0.0.1", port)
        except OSError:
            await asyncio.sleep(0.1)
            continue
        counters["connections"] += 1
        try:
            for byte in REQUEST:  # one byte a second, never the whole head in time
                if time.time() >= until or reader.at_eof():
                    break
                writer.write(bytes([byte]))
                await writer.drain()
                try:
                    if await asyncio.wait_for(reader.read(1024), 1.0):
                        counters["cut"] += 1
                        break
                except asyncio.TimeoutError:
                    pass
        except OSError:
            counters["cut"] += 1
        writer.close()

async def concurrent_client(times, counters):
    t0 = time.perf_counter()
    try:
        reader, writer = await asyncio.wait_for(asyncio.open_connection("127.0.0.1", port), 60)
        writer.write(REQUEST)
        data = await asyncio.wait_for(reader.read(), 60)
        writer.close()
        key = "ok" if data.startswith(b"HTTP/1.1 200 ") else ("refused" if b" 503 " in data[:20] else "other")
    except (OSError, asyncio.TimeoutError):
        key = "failed"
    counters[key] = counters.get(key, 0) + 1
    times.append(time.perf_counter() - t0)

def with_scraper(title, load):
    scraper = Scraper()
    scraper.start()
    result = load()
    scraper.stop = True
    scraper.join()
    print(f"{title}: {result}")
    print(f"  real scraper: {len(scraper.times)} answered, {scraper.failed} failed; {figures(scraper.times)}")

deadline = time.time() + 10
while True:
    try:
        scrape()
        break
    except OSError:
        if time.time() > deadline:
            raise SystemExit("the exporter did not start")
        time.sleep(0.05)

def slow_load():
    counters = {"connections": 0, "cut": 0}
    until = time.time() + seconds
    async def run():
        await asyncio.gather(*(slow_client(until, counters) for _ in range(slow)))
    asyncio.run(run())
    return f"{slow} slow clients for {seconds} s ({counters['connections']} connections, {counters['cut']} cut)"

def concurrent_load(rounds=5):
    times, counters = [], {}
    async def run():
        await asyncio.gather(*(concurrent_client(times, counters) for _ in range(conc)))
    t0 = time.perf_counter()
    for _ in range(rounds):
        asyncio.run(run())
    elapsed = time.perf_counter() - t0
    return (f"{rounds} rounds of {conc} concurrent clients in {elapsed:.2f} s: {counters}, "
            f"{counters.get('ok', 0) / elapsed:.0f} answers/s; per client {figures(times)}")

with_scraper("slow", slow_load)
with_scraper("concurrent", concurrent_load)
healthz_ok = scrape(b"/healthz")
rss_before = rss_kib()
marks = {1000: None, scrapes // 2: None}
t0 = time.perf_counter()
failed = 0
for i in range(1, scrapes + 1):
    failed += 0 if scrape() else 1
    if i in marks:
        marks[i] = rss_kib()
elapsed = time.perf_counter() - t0
print(f"{scrapes} scrapes in a row: {scrapes / elapsed:.0f} answers/s, {failed} failed; /healthz after the loads: "
      f"{'200' if healthz_ok else 'FAILED'}")
print(f"server RSS: {rss_before} KiB before, " + ", ".join(f"{kib} KiB after {n}" for n, kib in marks.items()) +
      f", {rss_kib()} KiB after {scrapes} scrapes")
PY
echo "server log: $(grep -c 'note:' "$LOG") notes ($(grep -c 'cut short' "$LOG") cut short, $(grep -c 'timed out' "$LOG") timed out, $(grep -c 'refused' "$LOG") refused)"
