#!/usr/bin/env bash
# Runs gpudoctor's libFuzzer targets, several at once, and prints what each run did: a table of target, runs,
# exec/s, coverage (cov/ft), corpus size and crashes. The same script runs the test command's smoke run (a fixed
# number of runs from the seeds), `./dev.sh fuzz` (a timed campaign, corpora kept) and a long campaign from the
# packed binaries on another machine (./dev.sh fuzz-pack; there this script sits beside bin/, seeds/, dicts/).
#
#   campaign.sh [-b BIN_DIR] [-s SEEDS_DIR] [-w WORK_DIR] [-j JOBS] [-p PROCS] [-t SECONDS | -r RUNS]
#               [-g GOAL [-c SECONDS]] [-R REGRESSIONS_DIR] [-m] [TARGET...]
#   -b  folder of the <target> binaries                      (default: bin/ beside this script)
#   -s  folder of seed corpora, one folder per target        (default: seeds/ beside this script)
#   -w  work folder: corpus/<target> (kept between runs), crashes/<target>, logs/<target>.log, stats/<target>,
#       totals/<target> (every run over that corpus, summed)  (default: work/ beside this script)
#   -j  targets run at once                                  (default: the number of cores)
#   -p  libFuzzer processes per target, over one shared corpus (default 1); with -r each does RUNS/PROCS runs
#       (seeds 1..PROCS) and the table sums them: a slow target reaches its runs on a many-core machine
#   -t  seconds per target (a crash restarts the target until the time is up, at most 5 crashes a target)
#   -r  runs per target instead (the smoke run; from an empty work folder it does the same work each time);
#       with -t too, a target stops at whichever comes first
#   -g  a goal of total runs per target (totals/<target>, e.g. 10000000), within -t SECONDS of wall clock in all:
#       targets at the goal already are skipped; the others first fuzz -c SECONDS each (default 10, JOBS at once)
#       to measure their runs per second, then share the JOBS cores in proportion to the core-seconds each still
#       needs ((GOAL - total runs) / rate; a target gets at least 1 process and no more than it needs to reach
#       the goal in the time left), all at once, each stopping at its goal or at the end of the time; the
#       table's last column says which reached it
#   -R  replay DIR/<target>/* (inputs that once crashed) before fuzzing; a failing replay counts as a crash
#   -m  replay every crash found, then minimize it (-minimize_crash=1) into <crash>.min; one that does not fail
#       again (a timeout on a loaded machine) is renamed <crash>.unreproduced and not counted
# The table shows this run's runs and exec/s, and the runs, hours and number of every campaign so far over
# the same work folder (totals/<target>: "RUNS SECONDS CAMPAIGNS SINCE": every run of every campaign since
# SINCE; the repository keeps them in fuzz/totals/, while the corpus itself regrows from the seeds).
# Exit status: 0 when no target crashed, 1 otherwise.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin_dir="$here/bin" seeds_dir="$here/seeds" work="$here/work" dicts="$here/dicts" targets_file="$here/targets.txt"
jobs="$(nproc 2>/dev/null || echo 2)" procs=1 seconds="" runs="" regressions="" minimize=0 goal="" calibrate=10

usage() { sed -n '6,32p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 3; }
while getopts "b:s:w:j:p:t:r:g:c:R:mh" opt; do
  case "$opt" in
    b) bin_dir="$OPTARG" ;; s) seeds_dir="$OPTARG" ;; w) work="$OPTARG" ;; j) jobs="$OPTARG" ;; p) procs="$OPTARG" ;;
    t) seconds="$OPTARG" ;; r) runs="$OPTARG" ;; R) regressions="$OPTARG" ;; m) minimize=1 ;;
    g) goal="$OPTARG" ;; c) calibrate="$OPTARG" ;; *) usage ;;
  esac
done
shift $((OPTIND - 1))
[ -n "$seconds" ] || [ -n "$runs" ] || seconds=60
mkdir -p "$work"/{corpus,crashes,logs,stats,totals}

max_len_of() { awk -v t="$1" '$1 == t { print $2 }' "$targets_file"; }

# Numbers from one libFuzzer log: "RUNS COV FT" (runs from the final stats, or the last status line after a crash).
log_figures() {
  awk '/^stat::number_of_executed_units:/ { runs = $2 }
       /^#[0-9]+\t/ { n = substr($1, 2); if (n + 0 > last + 0) last = n }
       / cov: [0-9]+ ft: [0-9]+/ { for (i = 1; i < NF; i++) { if ($i == "cov:") cov = $(i + 1); if ($i == "ft:") ft = $(i + 1) } }
       END { if (runs == "") runs = last; printf "%d %d %d\n", runs, cov, ft }' "$1"
}

# fuzz_process NAME K: one libFuzzer process of a target (K of PROCS); writes stats/NAME.pK as "RUNS COV FT CRASHES".
# Reads run_target's args, dirs, log and start_ms. With a goal (-g), a crash restarts the process on the runs it
# has left (with -r alone, the smoke run, a crash ends it).
fuzz_process() {
  local t="$1" k="$2" exe="$bin_dir/$1" segment="$work/logs/$1.segment$2"
  local p_runs=0 p_cov=0 p_ft=0 p_crashes=0 p_goal=""
  [ -n "$runs" ] && p_goal=$(((runs + procs - 1) / procs))
  while :; do
    local budget=()
    if [ -n "$p_goal" ]; then
      # from an empty work folder, the same work every time (seed K); a restart after a crash takes another seed
      budget=(-runs="$((p_goal - p_runs))" -seed="$((k + 1000 * p_crashes))")
      [ "$((p_goal - p_runs))" -gt 0 ] || break
    fi
    if [ -n "$seconds" ]; then  # ... up to a time limit, counted in milliseconds: $SECONDS ticks on whole
      # seconds, so a 1 s calibration that started just before a tick would otherwise find no time left at all
      local left_ms=$((seconds * 1000 - ($(date +%s%3N) - start_ms)))
      [ "$left_ms" -gt 0 ] || break
      budget+=(-max_total_time="$(((left_ms + 999) / 1000))")
    fi
    local rc=0
    "$exe" "${args[@]}" "${budget[@]}" "${dirs[@]}" > "$segment" 2>&1 || rc=$?
    { flock 9; cat "$segment" >> "$log"; } 9>> "$log"
    local figures; read -r -a figures <<< "$(log_figures "$segment")"
    p_runs=$((p_runs + figures[0]))
    [ "${figures[1]}" -gt "$p_cov" ] && p_cov="${figures[1]}"
    [ "${figures[2]}" -gt "$p_ft" ] && p_ft="${figures[2]}"
    [ "$rc" -eq 0 ] && break
    p_crashes=$((p_crashes + 1))
    { [ -n "$runs" ] && [ -z "$goal" ]; } || [ "$p_crashes" -ge 5 ] && break
  done
  rm -f "$segment"
  echo "$p_runs $p_cov $p_ft $p_crashes" > "$work/stats/$t.p$k"
}

# run_target NAME: fuzzes one target, writes stats/STATS_NAME (default NAME) as "RUNS MILLISECONDS COV FT CRASHES"
# and adds the runs to totals/NAME, counted as a campaign of its own unless NEW_CAMPAIGN=0 (the second part of a
# goal's campaign); the callers of goal mode set STATS_NAME, NEW_CAMPAIGN, runs, seconds and procs for one call.
run_target() {
  local t="$1" exe="$bin_dir/$1" log="$work/logs/$1.log" crashes="$work/crashes/$1/"
  local stats_file="$work/stats/${STATS_NAME:-$1}"
  local corpus="$work/corpus/$1" seeds="$seeds_dir/$1"
  mkdir -p "$corpus" "$crashes"
  [ "${NEW_CAMPAIGN:-1}" = 0 ] || : > "$log"
  local args=(-print_final_stats=1 -rss_limit_mb=2048 -timeout=30 -artifact_prefix="$crashes")
  local max_len; max_len="$(max_len_of "$t")"
  [ -n "$max_len" ] && args+=(-max_len="$max_len")
  [ -f "$dicts/$t.dict" ] && args+=(-dict="$dicts/$t.dict")
  local dirs=("$corpus")
  [ -d "$seeds" ] && dirs+=("$seeds")
  local start_ms; start_ms=$(date +%s%3N)
  local total_runs=0 n_crashes=0 cov=0 ft=0

  if [ -n "$regressions" ] && [ -d "$regressions/$t" ] && [ "${NEW_CAMPAIGN:-1}" = 1 ]; then
    local inputs=("$regressions/$t"/*)
    if [ -e "${inputs[0]}" ] && ! "$exe" "${inputs[@]}" >> "$log" 2>&1; then
      echo "$t: an input under $regressions/$t crashes again" >> "$log"
      n_crashes=$((n_crashes + 1))
    fi
  fi

  local k
  for ((k = 1; k <= procs; k++)); do fuzz_process "$t" "$k" & done
  wait
  local found=0 p_runs p_cov p_ft p_crashes  # found: crashes found while fuzzing (the rest: saved inputs that failed again)
  for ((k = 1; k <= procs; k++)); do
    read -r p_runs p_cov p_ft p_crashes < "$work/stats/$t.p$k" || p_crashes=1
    rm -f "$work/stats/$t.p$k"
    total_runs=$((total_runs + p_runs)) found=$((found + p_crashes))
    [ "$p_cov" -gt "$cov" ] && cov="$p_cov"
    [ "$p_ft" -gt "$ft" ] && ft="$p_ft"
  done
  n_crashes=$((n_crashes + found))

  if [ "$minimize" -eq 1 ]; then
    # A timeout on a loaded machine may not come back: replay each input first, keep only what fails again.
    local c replay_failures=$((n_crashes - found)) reproduced=0
    for c in "$crashes"*; do
      case "$c" in *.min | *.unreproduced) continue ;; esac
      [ -f "$c" ] || continue
      if "$exe" -timeout=30 "$c" >> "$log" 2>&1; then
        mv "$c" "$c.unreproduced"
        echo "$t: $c did not fail again (renamed .unreproduced)" >> "$log"
        continue
      fi
      [ -f "$c.min" ] || "$exe" -minimize_crash=1 -max_total_time=60 -exact_artifact_path="$c.min" "$c" >> "$log" 2>&1
      [ -f "$c.min" ] || cp "$c" "$c.min"
      reproduced=$((reproduced + 1))
    done
    n_crashes=$((replay_failures + reproduced))
  fi
  local elapsed_ms=$(($(date +%s%3N) - start_ms))
  echo "$total_runs $elapsed_ms $cov $ft $n_crashes" > "$stats_file"
  add_to_totals "$t" "$total_runs" $(((elapsed_ms + 500) / 1000)) "${NEW_CAMPAIGN:-1}"
}

# add_to_totals NAME RUNS SECONDS [CAMPAIGNS]: adds one campaign (or CAMPAIGNS: 0 for the rest of one) to
# totals/NAME ("RUNS SECONDS CAMPAIGNS SINCE", SINCE the UTC date of the first). A file that does not read as four
# fields starts again from this campaign.
add_to_totals() {
  local file="$work/totals/$1" runs=0 secs=0 campaigns=0 since r s c d
  since="$(date -u +%Y-%m-%d)"
  if [ -f "$file" ] && read -r r s c d < "$file" && [[ "$r$s$c" =~ ^[0-9]+$ ]] && [ -n "${d:-}" ]; then
    runs="$r" secs="$s" campaigns="$c" since="$d"
  fi
  echo "$((runs + $2)) $((secs + $3)) $((campaigns + ${4:-1})) $since" > "$file.new" && mv "$file.new" "$file"
}

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then  # every fuzz binary, listed in targets.txt or not (a new one is never skipped)
  for exe in "$bin_dir"/*_fuzz; do
    [ -x "$exe" ] || continue
    targets+=("$(basename "$exe")")
    [ -n "$(max_len_of "$(basename "$exe")")" ] || echo "warning: $(basename "$exe") has no line in $targets_file" >&2
  done
fi
[ ${#targets[@]} -gt 0 ] || { echo "campaign.sh: no fuzz target found in $bin_dir" >&2; exit 3; }

total_runs_of() {  # total_runs_of NAME: the runs in totals/NAME, 0 when there is none
  local r=0
  read -r r _ 2>/dev/null < "$work/totals/$1" && [[ "$r" =~ ^[0-9]+$ ]] || r=0
  echo "$r"
}

# plan_goal LEFT_SECONDS: reads "TARGET TOTAL_RUNS CALIBRATION_RUNS CALIBRATION_MS" lines, prints "TARGET PROCS RUNS"
# for each target below the goal: RUNS = what it still needs, PROCS = its share of the JOBS cores, in proportion
# to the core-seconds it needs at its calibrated rate, at least 1 and no more than it needs to finish in time;
# cores a target cannot use go, one at a time, to the target with the most core-seconds per process.
plan_goal() {
  awk -v goal="$goal" -v cores="$jobs" -v left="$1" '
    { need = goal - $2; if (need <= 0) next
      rate = $4 > 0 ? $3 * 1000 / $4 : 0; if (rate < 1) rate = 1
      n++; name[n] = $1; runs[n] = need; cs[n] = need / rate; sum += cs[n] }
    END {
      if (n == 0) exit
      used = 0
      for (i = 1; i <= n; i++) {
        want[i] = int(cs[i] / left) + (cs[i] % left > 0 ? 1 : 0); if (want[i] < 1) want[i] = 1
        p[i] = int(cores * cs[i] / sum); if (p[i] < 1) p[i] = 1; if (p[i] > want[i]) p[i] = want[i]
        used += p[i]
      }
      while (used < cores) {
        best = 0
        for (i = 1; i <= n; i++) if (p[i] < want[i] && (best == 0 || cs[i] / p[i] > cs[best] / p[best])) best = i
        if (best == 0) break
        p[best]++; used++
      }
      for (i = 1; i <= n; i++) print name[i], p[i], runs[i]
    }'
}

started=$SECONDS
if [ -n "$goal" ]; then
  [ -z "$runs" ] || { echo "campaign.sh: -g takes -t (the wall clock in all), not -r" >&2; exit 3; }
  below=()
  for t in "${targets[@]}"; do
    rm -f "$work/stats/$t" "$work/stats/$t.calibration"
    if [ "$(total_runs_of "$t")" -ge "$goal" ]; then
      echo "0 0 0 0 0" > "$work/stats/$t"  # at the goal already: not run
    else
      below+=("$t")
    fi
  done
  echo "goal: $goal runs per target within $seconds s; ${#below[@]} of ${#targets[@]} targets below it;" \
    "measuring each for $calibrate s, $jobs at once; logs in $work/logs" >&2
  for t in "${below[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    STATS_NAME="$t.calibration" seconds="$calibrate" procs=1 run_target "$t" &
  done
  wait
  left=$((seconds - (SECONDS - started)))
  plan="$(for t in "${below[@]}"; do
            read -r r ms _ < "$work/stats/$t.calibration" || { r=0 ms=0; }
            echo "$t $(total_runs_of "$t") $r $ms"
          done | plan_goal "$((left > 1 ? left : 1))")"
  if [ "$left" -gt 0 ] && [ -n "$plan" ]; then
    echo "plan for the $left s left (target, processes, runs still needed):" >&2
    echo "$plan" | sed 's/^/  /' >&2
    while read -r t p need; do
      STATS_NAME="$t" NEW_CAMPAIGN=0 seconds="$left" runs="$need" procs="$p" run_target "$t" &
    done <<< "$plan"
    wait
  fi
  for t in "${below[@]}"; do  # this campaign's line: the calibration and the rest together
    c1=(0 0 0 0 0) c2=(0 0 0 0 0)
    read -r -a c1 < "$work/stats/$t.calibration" 2>/dev/null || c1=(0 0 0 0 1)
    [ -f "$work/stats/$t" ] && read -r -a c2 < "$work/stats/$t"
    echo "$((c1[0] + c2[0])) $((c1[1] + c2[1])) $((c1[2] > c2[2] ? c1[2] : c2[2])) $((c1[3] > c2[3] ? c1[3] : c2[3]))" \
      "$((c1[4] + c2[4]))" > "$work/stats/$t"
    rm -f "$work/stats/$t.calibration"
  done
else
  what="${runs:+$runs runs}"; what="${what:-${seconds} s}"
  echo "fuzzing ${#targets[@]} targets, $jobs at a time, $what each; logs in $work/logs" >&2
  for t in "${targets[@]}"; do
    while [ "$(jobs -rp | wc -l)" -ge "$jobs" ]; do wait -n; done
    rm -f "$work/stats/$t"
    run_target "$t" &
  done
  wait
fi

status=0 oldest=""
printf '%-22s %12s %8s %13s %7s %9s %6s %7s %7s %7s %7s\n' \
  target runs exec/s 'total runs' 'total h' campaigns cov ft corpus crashes goal
for t in "${targets[@]}"; do
  read -r r ms cov ft c < "$work/stats/$t" 2>/dev/null || { r=0 ms=0 cov=0 ft=0 c=1; }
  read -r tr ts tc since < "$work/totals/$t" 2>/dev/null || { tr=0 ts=0 tc=0 since=""; }
  [ -n "$since" ] && { [ -z "$oldest" ] || [[ "$since" < "$oldest" ]]; } && oldest="$since"
  corpus_size=$(find "$work/corpus/$t" -type f 2>/dev/null | wc -l)
  [ -n "$runs" ] && corpus_size="-"
  reached="-"
  [ -n "$goal" ] && { [ "$tr" -ge "$goal" ] && reached="reached" || reached="short"; }
  printf '%-22s %12d %8d %13d %7s %9d %6d %7d %7s %7d %7s\n' "$t" "$r" $((r * 1000 / (ms > 0 ? ms : 1))) "$tr" \
    "$(awk -v s="$ts" 'BEGIN { printf "%.2f", s / 3600 }')" "$tc" "$cov" "$ft" "$corpus_size" "$c" "$reached"
  [ "$c" -eq 0 ] || status=1
done
echo "runs, exec/s: this run; total runs, total h (wall clock, -p processes counted once), campaigns: every" \
  "campaign over $work/corpus since ${oldest:-today} (kept in $work/totals/)" >&2
echo "done in $((SECONDS - started)) s; crash inputs (if any) under $work/crashes/" >&2
exit "$status"
