#!/usr/bin/env bash
# Collects each fuzz target's seed corpus into OUT/<target>/ from the fixtures fuzz/targets.txt names (recorded
# sysfs files, real binaries, the TOML data, saved reports) plus fuzz/seeds/<target>/, so the fixtures stay the one
# copy in git. Files are copied under names made from their paths (a/b/c -> a__b__c); empty files are skipped.
# A text fixture longer than the target's -max_len (a data/*.toml file, a big machine's /proc/cpuinfo) is also cut
# at its blank lines into pieces of whole paragraphs that fit (a__b__c.part1, ...): libFuzzer reads only the first
# -max_len bytes of an input, and the pieces bring every later entry within its reach.
#   fuzz/gather_seeds.sh OUT [TARGET...]     (run from anywhere; paths are relative to the repository root)
set -euo pipefail
root="$(cd "$(dirname "$0")/.." && pwd)"
out="${1:?usage: fuzz/gather_seeds.sh OUT [TARGET...]}"
shift
mkdir -p "$out"
out="$(cd "$out" && pwd)"
cd "$root"
shopt -s globstar dotglob nullglob

wanted() {  # wanted TARGET: true when no targets were named or TARGET is one of them
  [ ${#only[@]} -eq 0 ] && return 0
  local t
  for t in "${only[@]}"; do [ "$t" = "$1" ] && return 0; done
  return 1
}

# split_paragraphs FILE MAX_LEN OUT_PREFIX: writes OUT_PREFIX.part1, .part2, ... of whole paragraphs of FILE
# (separated by blank lines), each at most MAX_LEN bytes (a single longer paragraph makes a piece of its own).
split_paragraphs() {
  awk -v max="$2" -v out="$3" 'BEGIN { RS = ""; n = 0; piece = "" }
    function flush() { if (piece != "") { printf "%s\n", piece > (out ".part" ++n); close(out ".part" n) } piece = "" }
    { if (piece != "" && length(piece) + 2 + length($0) > max) flush()
      piece = piece == "" ? $0 : piece "\n\n" $0 }
    END { flush() }' "$1"
}

is_text() { LC_ALL=C tr -d '\000' < "$1" | cmp -s - "$1"; }  # no NUL byte

only=("$@")
while read -r target max_len globs; do
  case "$target" in '' | '#'*) continue ;; esac
  wanted "$target" || continue
  dir="$out/$target"
  rm -rf "$dir"
  mkdir -p "$dir"
  count=0
  # shellcheck disable=SC2086  # the globs are meant to expand here
  for f in fuzz/seeds/"$target"/* $globs; do
    [ -f "$f" ] && [ -s "$f" ] || continue
    cp "$f" "$dir/${f//\//__}"
    count=$((count + 1))
    if [ "$(stat -c %s "$f")" -gt "$max_len" ] && is_text "$f"; then
      split_paragraphs "$f" "$max_len" "$dir/${f//\//__}"
      count=$((count + $(find "$dir" -name "${f//\//__}.part*" | wc -l)))
    fi
  done
  printf '%-22s %4d seeds\n' "$target" "$count"
done < fuzz/targets.txt
