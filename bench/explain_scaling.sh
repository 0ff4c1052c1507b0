#!/usr/bin/env bash
# How the scan time of `gpudoctor explain -f` grows with the catalog: the log of bench/explain_speed.sh
# (run it first: it generates /tmp/gpudoctor_explain_bench_${MB}mb.log) explained with --db copies of data/
# whose explain catalog has N synthetic entries added (random words, so every one adds its own literal to the
# prefilter and its own regex), for each N given. A benchmark, not a test: it prints figures only.
#   bench/explain_scaling.sh [BINARY] [MEGABYTES] [N...]
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-build/release/src/gpudoctor}"
MB="${2:-100}"
shift $(( $# >= 2 ? 2 : $# ))
COUNTS=("${@:-0 250 1000 4000}")
read -r -a COUNTS <<<"${COUNTS[*]}"
LOG="/tmp/gpudoctor_explain_bench_${MB}mb.log"
[ -x "$BIN" ] || { echo "no binary at $BIN" >&2; exit 3; }
[ -s "$LOG" ] || { echo "no $LOG: run bench/explain_speed.sh $BIN $MB first" >&2; exit 3; }
# Best of 3 CPU time (user + system, in ms) of explaining $1 with --db $2: wall time on a shared machine
# says more about the other processes.
best_cpu() {
  local best="" t user sys cpu
  for _ in 1 2 3; do
    TIMEFORMAT="%R %U %S"
    t=$( { time "$BIN" explain -f "$1" --db "$2" --json >/dev/null 2>&1; } 2>&1 ) || true
    read -r _ user sys < <(echo "$t" | tail -1)
    cpu=$(awk -v u="$user" -v s="$sys" 'BEGIN { printf "%d", (u + s) * 1000 }')
    if [ -z "$best" ] || [ "$cpu" -lt "$best" ]; then best=$cpu; fi
  done
  echo "$best"
}

base=$(grep -c '^\[\[explain\]\]' data/explain/*.toml | awk -F: '{ s += $2 } END { print s }')
for n in "${COUNTS[@]}"; do
  db=$(mktemp -d /tmp/gpudoctor_explain_scaling.XXXXXX)
  cp -r data/. "$db/"
  python3 - "$db/explain/synthetic.toml" "$n" <<'PY'
import random, sys
path, n = sys.argv[1], int(sys.argv[2])
rnd = random.Random(7)
word = lambda: "".join(rnd.choice("abcdefghijklmnopqrstuvwxyz") for _ in range(rnd.randint(4, 9)))
with open(path, "w") as f:
  for i in range(n):
    w = [word() for _ in range(3)]
    f.write(f'''[[explain]]
id = "synthetic.e{i}"
title = "Synthetic entry {i}"
severity = "error"
priority = 1
patterns = ['{w[0].capitalize()} {w[1]}: (?<what>[a-z]+) {w[2]} failed']
cause = "Synthetic."
fix = "Nothing."
checked = 2026-12-07
source = "https://example.com/synthetic"
samples = ["{w[0].capitalize()} {w[1]}: x {w[2]} failed"]

''')
PY
  tiny="$db/tiny.log"
  echo "step 1 loss 0.5" >"$tiny"
  total=$(best_cpu "$LOG" "$db")
  startup=$(best_cpu "$tiny" "$db")
  echo "entries: $((base + n)) ($n synthetic): best of 3 ${total} ms CPU; start-up (one-line log) ${startup} ms;" \
       "scan $((total - startup)) ms"
  rm -rf "$db"
done
