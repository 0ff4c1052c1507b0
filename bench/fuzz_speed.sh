#!/usr/bin/env bash
# Executions per second of each libFuzzer target on one core: every target in turn (never two at once), pinned to
# CORE with taskset, fuzzing for SECONDS from a fresh copy of its seed corpus (fuzz/gather_seeds.sh) with its
# -max_len and dictionary from fuzz/targets.txt and fuzz/dicts/. Issue 20's floor is 2,000 exec/s on one core of
# the development machine for the 'fuzz' preset (ASan + UBSan). A benchmark, not a test: it prints a table
# (target, exec/s, cpu exec/s, init s, runs, cov, max_len) and fails only when a target crashes or cannot run.
# exec/s is libFuzzer's own (runs per wall-clock second, start-up included); cpu exec/s divides the runs by the CPU
# time the process got after its start-up (init s: the CPU seconds of a run of no input, measured apart), the figure
# that still means something on a machine shared with other work.
#   bench/fuzz_speed.sh [-b BIN_DIR] [-c CORE] [-t SECONDS] [TARGET...]
# Build first: cmake --preset fuzz && cmake --build --preset fuzz -j2 --target fuzz_targets
# The pack's -O2 binaries: bench/fuzz_speed.sh -b build/fuzz-pack/fuzz
set -euo pipefail
cd "$(dirname "$0")/.."
bin_dir=build/fuzz/fuzz core=0 seconds=20
while getopts "b:c:t:h" opt; do
  case "$opt" in
    b) bin_dir="$OPTARG" ;; c) core="$OPTARG" ;; t) seconds="$OPTARG" ;; *) sed -n '2,9p' "$0" >&2; exit 3 ;;
  esac
done
shift $((OPTIND - 1))
targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  while read -r t _; do  # the targets fuzz/targets.txt lists (a stale binary of a removed target is skipped)
    case "$t" in '' | '#'*) continue ;; esac
    [ -x "$bin_dir/$t" ] && targets+=("$t")
  done < fuzz/targets.txt
fi
[ ${#targets[@]} -gt 0 ] || { echo "no fuzz binaries in $bin_dir (see the build line at the top)" >&2; exit 3; }

work="$(mktemp -d /tmp/gpudoctor-fuzz-speed.XXXXXX)"
trap 'rm -rf "$work"' EXIT
fuzz/gather_seeds.sh "$work/seeds" "${targets[@]}" > /dev/null

status=0
printf '%-22s %8s %10s %6s %10s %6s %8s\n' target exec/s 'cpu exec/s' 'init s' runs cov max_len
for t in "${targets[@]}"; do
  max_len="$(awk -v t="$t" '$1 == t { print $2 }' fuzz/targets.txt)"
  args=(-max_total_time="$seconds" -print_final_stats=1 -rss_limit_mb=2048 -timeout=30 -seed=1
        -artifact_prefix="$work/crash-$t-")
  [ -n "$max_len" ] && args+=(-max_len="$max_len")
  [ -f "fuzz/dicts/$t.dict" ] && args+=(-dict="fuzz/dicts/$t.dict")
  mkdir -p "$work/corpus/$t" "$work/seeds/$t"
  TIMEFORMAT='%U %S'
  mkdir -p "$work/empty"
  { time taskset -c "$core" "$bin_dir/$t" -runs=0 "$work/empty" > /dev/null 2>&1; } 2> "$work/$t.init"
  init_ms="$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$work/$t.init")"
  rc=0
  { time taskset -c "$core" "$bin_dir/$t" "${args[@]}" "$work/corpus/$t" "$work/seeds/$t" > "$work/$t.log" 2>&1 \
      || rc=$?; } 2> "$work/$t.time"
  cpu_ms="$(awk '{ printf "%d", ($1 + $2) * 1000 }' "$work/$t.time")"
  read -r rate runs cov <<< "$(awk '/^stat::average_exec_per_sec:/ { rate = $2 }
      /^stat::number_of_executed_units:/ { runs = $2 }
      / cov: [0-9]+ / { for (i = 1; i < NF; i++) if ($i == "cov:") cov = $(i + 1) }
      END { printf "%d %d %d\n", rate, runs, cov }' "$work/$t.log")"
  note=""
  [ "$rc" -eq 0 ] || { note="  FAILED (exit $rc): $(grep -m1 -E 'ERROR|SUMMARY' "$work/$t.log" || true)"; status=1; }
  fuzz_ms=$((cpu_ms - init_ms))
  printf '%-22s %8d %10d %6s %10d %6d %8s%s\n' "$t" "$rate" $((runs * 1000 / (fuzz_ms > 0 ? fuzz_ms : 1))) \
    "$(awk -v ms="$init_ms" 'BEGIN { printf "%.2f", ms / 1000 }')" "$runs" "$cov" "${max_len:--}" "$note"
done
exit "$status"
