#!/usr/bin/env bash
# Collects each fuzz target's seed corpus into OUT/<target>/ from the fixtures fuzz/targets.txt names (recorded
# sysfs files, real binaries, the TOML data, saved reports) plus fuzz/seeds/<target>/, so the fixtures stay the one
# copy in git. Files are copied under names made from their paths (a/b/c -> a__b__c); empty files are skipped.
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

only=("$@")
while read -r target _max_len globs; do
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
  done
  printf '%-22s %4d seeds\n' "$target" "$count"
done < fuzz/targets.txt
