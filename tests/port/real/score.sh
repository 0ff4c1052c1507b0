#!/bin/sh
# Score a CUDA-to-HIP translator on the real corpus: translate every file of tests/port/real (training) and
# tests/port/real/heldout, compile each result with Debian's hipcc for gfx1030, and print per file and the totals,
# training and held-out apart, with files that need a library Debian 12 does not package counted apart.
#
#   tests/port/real/score.sh gpudoctor BINARY         translate with `BINARY port --hip-version 5.2 FILE`
#   tests/port/real/score.sh hipify-perl SCRIPT       translate with `perl SCRIPT -quiet-warnings FILE`
#
# Debian 12's hipcc is HIP 5.2.3, so gpudoctor is told the release it translates for (HIP_VERSION to change it).
# Environment: JOBS (parallel compiles, default 2), HIPCC_MODE (syntax: -fsyntax-only, the default and what the
# test command uses; full: -O0 -c). The unit test PortRealCorpus does the same for gpudoctor and pins the result.
set -u
tool=${1:?"usage: score.sh gpudoctor|hipify-perl PATH"}
path=${2:?"usage: score.sh gpudoctor|hipify-perl PATH"}
here=$(cd "$(dirname "$0")" && pwd)
work=$(mktemp -d)
trap 'rm -rf "$work"' EXIT
jobs=${JOBS:-2}
case ${HIPCC_MODE:-syntax} in
  full) mode="-O0 -c -o /dev/null" ;;
  *) mode="-fsyntax-only" ;;
esac
# Headers of libraries Debian 12 does not package (hipBLAS, hipCUB, rocThrust, hipFFT, hipSOLVER, RCCL, roctx,
# MIOpen, rocWMMA), as the CUDA file names them. Keep in step with tests/unit/port_corpus_test.cpp.
unpackaged='#[[:space:]]*include[[:space:]]*[<"](cublas|cub/|thrust/|nvtx|nvToolsExt|cufft|cusolver|nccl|cudnn|mma\.h|nvml)'

translate() {  # $1 input, $2 output
  case $tool in
    gpudoctor) "$path" port --hip-version "${HIP_VERSION:-5.2}" "$1" > "$2" 2>/dev/null; [ -s "$2" ] ;;
    hipify-perl) perl "$path" -quiet-warnings "$1" > "$2" 2>/dev/null; [ -s "$2" ] ;;
    *) echo "unknown tool $tool" >&2; exit 3 ;;
  esac
}

for set in training heldout; do
  src=$here
  [ "$set" = heldout ] && src=$here/heldout
  mkdir -p "$work/$set"
  for f in "$src"/*.cu; do
    n=$(basename "$f")
    if grep -Eq "$unpackaged" "$f"; then echo "$n" >> "$work/$set.apart"; fi
    translate "$f" "$work/$set/$n" || rm -f "$work/$set/$n"
  done
  ls "$src"/*.cu | xargs -n1 basename | xargs -P "$jobs" -I{} sh -c \
    "[ -f '$work/$set/{}' ] && hipcc --offload-arch=gfx1030 $mode -w '$work/$set/{}' > '$work/$set/{}.log' 2>&1 \
     && touch '$work/$set/{}.ok'; true"
done

for set in training heldout; do
  ok=0 all=0 aok=0 aall=0
  src=$here
  [ "$set" = heldout ] && src=$here/heldout
  for f in "$src"/*.cu; do
    n=$(basename "$f")
    state=fails
    [ -f "$work/$set/$n.ok" ] && state=compiles
    if grep -qx "$n" "$work/$set.apart" 2>/dev/null; then
      aall=$((aall + 1)); [ $state = compiles ] && aok=$((aok + 1)); kind="(library not in Debian)"
    else
      all=$((all + 1)); [ $state = compiles ] && ok=$((ok + 1)); kind=""
    fi
    first=""
    [ $state = fails ] && first=$(grep -m1 'error:' "$work/$set/$n.log" 2>/dev/null | sed 's/^[^:]*:[0-9]*:[0-9]*: //')
    printf '%s %s %s %s %s\n' "$set" "$n" "$state" "$kind" "$first"
  done
  printf '%s total (%s): %d of %d compile; needing libraries Debian lacks: %d of %d\n' \
    "$set" "$tool" "$ok" "$all" "$aok" "$aall"
done
