#!/usr/bin/env bash
# shellcheck disable=SC2016  # awk expressions passed in single quotes (median_of)
# Start-up of gpudoctor beside PyTorch's own environment report, in one run on one machine (issue 34:
# `check` at least 100x faster than `python -m torch.utils.collect_env`, `check` and `info` under 15 ms of
# CPU). Prints, for each command, the median wall time and the median CPU time (user + system) over RUNS
# runs, then the ratio of collect_env's median wall time to each gpudoctor command's. A benchmark, not a
# test: it asserts nothing.
#   bench/startup_vs_collect_env.sh [BINARY] [RUNS] [PYTHON]
# BINARY defaults to build/release/src/gpudoctor, RUNS to 20 (collect_env runs RUNS/4, at least 3: it
# takes seconds), PYTHON to /usr/bin/python3. collect_env is skipped, with the reason, when PYTHON cannot
# import torch.
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-build/release/src/gpudoctor}"
RUNS="${2:-20}"
PY="${3:-/usr/bin/python3}"
[ -x "$BIN" ] || { echo "no binary at $BIN: build the release preset first" >&2; exit 3; }

TIMEFORMAT='%3R %3U %3S'  # bash's `time`: wall, user, system seconds

# median_of FILE COLUMN_EXPR: the median (in ms) of an awk expression over the lines of FILE (callers pass
# the expression in single quotes: awk, not the shell, expands its $1; hence the file's SC2016 directive).
median_of() {
  awk "{ print ($2) * 1000 }" "$1" | sort -n | awk '{ v[NR] = $1 } END { printf "%.1f", v[int((NR + 1) / 2)] }'
}

# measure NAME RUNS CMD...: runs CMD once to warm the page cache, then RUNS times; prints one line and
# leaves the median wall time (ms) in $WALL.
measure() {
  local name="$1" runs="$2" log
  shift 2
  log=$(mktemp)
  "$@" >/dev/null 2>&1 || true  # check exits 1 or 2 on findings
  for _ in $(seq "$runs"); do
    { time "$@" >/dev/null 2>&1 || true; } 2>>"$log"
  done
  WALL=$(median_of "$log" '$1')
  printf '%-40s %3d runs  wall %8s ms  cpu %8s ms\n' "$name" "$runs" "$WALL" "$(median_of "$log" '$2 + $3')"
  rm -f "$log"
}

declare -A wall
for args in check info --version; do
  # shellcheck disable=SC2086  # the arguments are split on purpose
  measure "gpudoctor $args" "$RUNS" "$BIN" $args
  wall[$args]=$WALL
done

if ! "$PY" -c 'import torch' >/dev/null 2>&1; then
  echo "collect_env: skipped ($PY cannot import torch)"
  exit 0
fi
py_runs=$((RUNS / 4 < 3 ? 3 : RUNS / 4))
measure "$PY -m torch.utils.collect_env" "$py_runs" "$PY" -m torch.utils.collect_env
for args in check info --version; do
  awk -v py="$WALL" -v g="${wall[$args]}" -v n="gpudoctor $args" \
    'BEGIN { if (g > 0) printf "collect_env / %s: %.0fx (wall)\n", n, py / g; else printf "collect_env / %s: too fast to time\n", n }'
done
