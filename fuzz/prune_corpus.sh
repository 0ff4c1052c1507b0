#!/usr/bin/env bash
# Prunes the kept corpora of a campaign: every input of WORK/corpus/<target> runs once under the binaries of
# BIN_DIR (libFuzzer's -merge=1), and only the inputs that add coverage features stay. Two uses: a corpus grown
# over long campaigns (tens of thousands of inputs, most of them adding nothing) shrinks to the few thousand that
# matter, which makes the next campaign and a carried work folder lighter; and with the ASan build
# (build/fuzz/fuzz) it replays under AddressSanitizer every input that a campaign without ASan (the fuzz-pack
# binaries on the device machine) kept. An input that crashes, times out or runs out of memory is written to
# WORK/crashes/<target>/ (where `./dev.sh fuzz` replays and minimizes it) and left out of the pruned corpus.
#
#   prune_corpus.sh [-b BIN_DIR] [-w WORK_DIR] [-j JOBS] [TARGET...]
#   -b  folder of the <target> binaries (default: bin/ beside this script)
#   -w  the campaign's work folder (default: work/ beside this script); its totals/ are left as they are
#   -j  targets pruned at once (default: the number of cores)
#   TARGET...  default: every target with a corpus under WORK_DIR/corpus/
# A corpus is replaced only when its merge finished; a target whose merge failed keeps its corpus untouched.
# Prints a table (target, inputs before, inputs after, crashes) and exits 0, or 1 when an input crashed or a merge
# failed. Logs: WORK_DIR/logs/<target>.prune.log.
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
bin_dir="$here/bin" work="$here/work" targets_file="$here/targets.txt"
jobs="$(nproc 2>/dev/null || echo 2)"
while getopts "b:w:j:h" opt; do
  case "$opt" in
    b) bin_dir="$OPTARG" ;; w) work="$OPTARG" ;; j) jobs="$OPTARG" ;;
    *) sed -n '2,17p' "$0" | sed 's/^# \{0,1\}//' >&2; exit 3 ;;
  esac
done
shift $((OPTIND - 1))
[ -d "$work/corpus" ] || { echo "prune_corpus: no corpus folder at $work/corpus" >&2; exit 3; }
mkdir -p "$work/logs" "$work/crashes" "$work/prune"

# prune_one TARGET: writes work/prune/TARGET.result as "BEFORE AFTER CRASHES STATUS".
prune_one() {
  local t="$1" exe="$bin_dir/$1" corpus="$work/corpus/$1" out="$work/prune/$1" crashes="$work/crashes/$1/"
  local log="$work/logs/$1.prune.log" result="$work/prune/$1.result"
  local before after crashed_before crashed max_len
  before=$(find "$corpus" -type f | wc -l)
  if [ ! -x "$exe" ]; then
    echo "$before $before 0 no-binary" > "$result"
    return
  fi
  mkdir -p "$crashes" && rm -rf "$out" "$out.ctl" && mkdir -p "$out"
  crashed_before=$(find "$crashes" -maxdepth 1 -type f | wc -l)
  max_len=$(awk -v t="$t" '$1 == t { print $2 }' "$targets_file" 2> /dev/null)
  local status=pruned
  "$exe" -merge=1 ${max_len:+-max_len=$max_len} -timeout=30 -rss_limit_mb=2048 \
    -merge_control_file="$out.ctl" -artifact_prefix="$crashes" "$out" "$corpus" > "$log" 2>&1 || status=failed
  crashed=$(($(find "$crashes" -maxdepth 1 -type f | wc -l) - crashed_before))
  after=$(find "$out" -type f | wc -l)
  if [ "$status" = pruned ] && [ "$after" -eq 0 ] && [ "$before" -gt 0 ]; then status=failed; fi
  if [ "$status" = pruned ]; then
    rm -rf "$corpus" && mv "$out" "$corpus"
  else
    rm -rf "$out"
    after=$before
  fi
  rm -f "$out.ctl"
  echo "$before $after $crashed $status" > "$result"
}

targets=("$@")
if [ ${#targets[@]} -eq 0 ]; then
  for d in "$work"/corpus/*/; do [ -d "$d" ] && targets+=("$(basename "$d")"); done
fi
[ ${#targets[@]} -gt 0 ] || { echo "prune_corpus: no corpora under $work/corpus" >&2; exit 3; }
echo "pruning ${#targets[@]} corpora, $jobs at once; logs in $work/logs/<target>.prune.log" >&2
running=0
for t in "${targets[@]}"; do
  [ -d "$work/corpus/$t" ] || { echo "prune_corpus: no corpus for $t under $work/corpus" >&2; exit 3; }
  rm -f "$work/prune/$t.result"
  prune_one "$t" &
  running=$((running + 1))
  if [ "$running" -ge "$jobs" ]; then wait -n; running=$((running - 1)); fi
done
wait

rc=0
printf '%-24s %8s %8s %8s  %s\n' target before after crashes result
for t in "${targets[@]}"; do
  read -r before after crashed status < "$work/prune/$t.result" || { before=? after=? crashed=? status=failed; }
  printf '%-24s %8s %8s %8s  %s\n' "$t" "$before" "$after" "$crashed" "$status"
  [ "$status" = pruned ] && [ "$crashed" = 0 ] || rc=1
  rm -f "$work/prune/$t.result"
done
rmdir "$work/prune" 2> /dev/null
[ "$rc" = 0 ] || echo "prune_corpus: crashes are under $work/crashes/<target>/ (./dev.sh fuzz replays and minimizes them); a failed merge left its corpus as it was" >&2
exit "$rc"
