#!/usr/bin/env bash
# A fuzz campaign towards issue 20's goal (10^7 runs per target) on a bigger machine (the device tool's
# nvidia-h200 kinds: 16 cores, or 32 to 128 on the several-GPU hosts; one command of up to ~540 s), from the pack
# of `./dev.sh fuzz-pack`, which carries the stripped -O2 binaries, seeds, dictionaries, fuzz/campaign.sh and the
# kept corpus and run totals (.fuzz/). Without a pack it builds the same binaries there from this checkout with
# the machine's clang++-16 (the fuzz-pack preset, its compiler swapped; Ubuntu 24.04 has clang 16.0.6 but not its libFuzzer
# and UBSan runtimes, so carry Debian 12's, the same 16.0.6, from libclang-rt-16-dev:
#   mkdir -p .device/rt16 && cp /usr/lib/llvm-16/lib/clang/16/lib/linux/libclang_rt.{fuzzer,fuzzer_no_main,fuzzer_interceptors,ubsan_standalone,ubsan_standalone_cxx}-x86_64.a* .device/rt16/
# with .device/ in .git/info/exclude, carry [".device", ".thirdparty"], RT=.device/rt16) and starts from the
# committed run totals (fuzz/totals/) with a corpus grown from the seeds. On 16 cores the build takes about 70 s; packing here takes
# about 30 minutes on 2.
# The pack's campaign.sh -g skips the targets at the goal already, measures the others for CALIBRATE s, then shares
# the cores in proportion to the runs each still needs at its rate, and stops each at the goal or at the end.
# The lead runs it with the device tool's `run`:
#   carry: ["build/gpudoctor-fuzz.tar.xz"]   command: bash bench/device/fuzz_campaign.sh [SECONDS [GOAL]]
#   or, built there: carry [".device", ".thirdparty"]   command: RT=.device/rt16 bash bench/device/fuzz_campaign.sh 480
# (SECONDS: the campaign's wall clock, default 450, which leaves time for unpacking, the last inputs, and packing
# the results under a 540 s command; GOAL default 10000000. Crashes are not minimized there, to keep to the time:
# ./dev.sh fuzz here replays and minimizes what lands in .fuzz/crashes/.) $OUT gets table.txt (the campaign's table and its plan), and the work
# folder as fuzz-work.tar.xz (corpus/, totals/, crashes/; split into fuzz-work.tar.xz.part-aa, -ab, ... when over
# 15 MiB, since a file from $OUT comes back only up to 16 MiB: `cat fuzz-work.tar.xz.part-* > fuzz-work.tar.xz`).
# Back here: rm -rf .fuzz && mkdir .fuzz && tar -C .fuzz -xJf fuzz-work.tar.xz (the campaign goes on from it next
# time), ./dev.sh fuzz-prune (every kept input replayed under ASan, the corpus cut to what adds coverage), and
# ./dev.sh fuzz to replay and minimize any file under .fuzz/crashes/<target>/ (docs/fuzzing.md).
set -u
OUT=${OUT:-/tmp/gpudoctor-device-out}
mkdir -p "$OUT"
SECONDS_WALL=${1:-450} GOAL=${2:-10000000} CALIBRATE=${CALIBRATE:-10}
PACK=${PACK:-build/gpudoctor-fuzz.tar.xz}
DIR=${TMPDIR:-/tmp}/gpudoctor-fuzz-device
P="$DIR/gpudoctor-fuzz"
# Built there, the build folder and the work folder live under build/device-fuzz/ in the checkout, which a warm
# device machine keeps between commands: a second command soon after rebuilds nothing and goes on from the first
# one's corpus and totals. On a fresh machine the work starts from .device/fuzz-work.tar.xz when carried (the
# last command's fuzz-work.tar.xz, put there by hand), else from the committed totals (fuzz/totals/) and the seeds.
KEEP=$PWD/build/device-fuzz
rm -rf "$DIR" && mkdir -p "$DIR"
if [ -f "$PACK" ]; then
  tar -C "$DIR" -xJf "$PACK" || exit 3
elif [ -n "${RT:-}" ] && command -v clang++-16 >/dev/null; then
  build_start=$SECONDS
  rt_dir=$(clang++-16 -print-resource-dir)/lib/linux
  mkdir -p "$rt_dir" && for f in "$RT"/*; do [ -e "$rt_dir/${f##*/}" ] || cp "$f" "$rt_dir/"; done
  TP=${GPUDOCTOR_THIRD_PARTY:-$PWD/.thirdparty}
  { cmake --preset fuzz-pack -B "$KEEP/build" -DCMAKE_CXX_COMPILER=clang++-16 -DGPUDOCTOR_THIRD_PARTY_DIR="$TP/include" &&
    cmake --build "$KEEP/build" --target fuzz_targets -j "$(nproc)"; } > "$OUT/fuzz-build.log" 2>&1 ||
    { grep -E 'error' "$OUT/fuzz-build.log" | head -20; exit 3; }
  mkdir -p "$P/bin" && cp "$KEEP"/build/fuzz/*_fuzz "$P/bin/" || exit 3
  fuzz/gather_seeds.sh "$P/seeds" > /dev/null && cp -r fuzz/dicts fuzz/targets.txt fuzz/campaign.sh "$P/" || exit 3
  if [ -d "$KEEP/work/totals" ]; then
    echo "going on from the work folder of the last command on this machine"
  else
    mkdir -p "$KEEP/work/corpus" || exit 3
    if [ -f .device/fuzz-work.tar.xz ]; then
      echo "work from .device/fuzz-work.tar.xz"
      tar -C "$KEEP/work" -xJf .device/fuzz-work.tar.xz corpus totals || exit 3
    else
      echo "work from fuzz/totals/ (run totals) and the seeds (corpus)"
      cp -r fuzz/totals "$KEEP/work/" || exit 3
    fi
  fi
  rm -rf "$KEEP/work/crashes" && ln -s "$KEEP/work" "$P/work" || exit 3
  echo "built $(ls "$P/bin" | wc -l) targets with $(clang++-16 --version | head -1) in $((SECONDS - build_start)) s"
  SECONDS_WALL=$((SECONDS_WALL - (SECONDS - build_start)))
else
  echo "no pack at $PACK (build it with ./dev.sh fuzz-pack and carry it), and no clang++-16 with RT= runtimes" >&2
  exit 3
fi
CORES=$(nproc)
echo "cores: $CORES; targets: $(find "$P/bin" -type f | wc -l); corpus inputs: $(find "$P/work/corpus" -type f | wc -l)"
rc=0
"$P/campaign.sh" -j "$CORES" -g "$GOAL" -c "$CALIBRATE" -t "$SECONDS_WALL" > "$OUT/table.txt" 2> "$OUT/campaign.log" ||
  rc=$?
cat "$OUT/campaign.log" "$OUT/table.txt"
cat "$OUT/table.txt" >> "$OUT/campaign.log" && mv "$OUT/campaign.log" "$OUT/table.txt"
echo "campaign.sh exit status: $rc (1: a target crashed)"
find "$P/work/crashes" -type f | head -20
XZ_OPT=-T0 tar -C "$P/work" -cJf "$OUT/fuzz-work.tar.xz" corpus totals crashes || exit 3
if [ "$(stat -c %s "$OUT/fuzz-work.tar.xz")" -gt $((15 << 20)) ]; then
  split -b 15M "$OUT/fuzz-work.tar.xz" "$OUT/fuzz-work.tar.xz.part-" && rm "$OUT/fuzz-work.tar.xz"
fi
ls -la "$OUT"
exit "$rc"
