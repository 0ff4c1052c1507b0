#!/usr/bin/env bash
# Start-up cost of the probe pass: runs a gpudoctor command N times and prints
# the median and spread of the wall time. A benchmark, not a test: it asserts
# nothing, it prints figures to compare with the targets in the issues
# (info < 50 ms, check < 100 ms with no GPU software).
#   bench/startup.sh [BINARY] [RUNS] -- [gpudoctor args...]
# Examples:
#   bench/startup.sh                                  # build/release/src/gpudoctor info, 20 runs
#   bench/startup.sh build/release/src/gpudoctor 20 -- info --sysroot tests/fixtures/sysroot/mi300x-8gpu-node
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-build/release/src/gpudoctor}"
RUNS="${2:-20}"
shift $(( $# >= 2 ? 2 : $# ))
[ "${1:-}" = "--" ] && shift
ARGS=("$@")
[ ${#ARGS[@]} -eq 0 ] && ARGS=(info)
[ -x "$BIN" ] || { echo "no binary at $BIN: run ./dev.sh run --version first" >&2; exit 3; }

"$BIN" "${ARGS[@]}" >/dev/null || true  # warm the page cache once (check exits 1 or 2 on findings)
times=()
for _ in $(seq "$RUNS"); do
  t0=$(date +%s%N)
  "$BIN" "${ARGS[@]}" >/dev/null || true
  t1=$(date +%s%N)
  times+=($(( (t1 - t0) / 1000 )))
done
sorted=($(printf '%s\n' "${times[@]}" | sort -n))
n=${#sorted[@]}
median=${sorted[$((n / 2))]}
printf 'gpudoctor %s: %d runs, median %d.%03d ms, min %d.%03d ms, max %d.%03d ms\n' "${ARGS[*]}" "$n" \
  $((median / 1000)) $((median % 1000)) $((sorted[0] / 1000)) $((sorted[0] % 1000)) \
  $((sorted[n - 1] / 1000)) $((sorted[n - 1] % 1000))
