#!/usr/bin/env bash
# A fuzz campaign towards issue 20's goal (10^7 runs per target) on a bigger machine (the device tool's
# nvidia-h200 kind: 16 cores, one command of up to ~540 s), from the pack of `./dev.sh fuzz-pack`, which carries
# the stripped -O2 binaries, seeds, dictionaries, fuzz/campaign.sh and the kept corpus and run totals (.fuzz/).
# The pack's campaign.sh -g skips the targets at the goal already, measures the others for CALIBRATE s, then shares
# the cores in proportion to the runs each still needs at its rate, and stops each at the goal or at the end.
# The lead runs it with the device tool's `run`:
#   carry: ["build/gpudoctor-fuzz.tar.xz"]   command: bash bench/device/fuzz_campaign.sh [SECONDS [GOAL]]
# (SECONDS: the campaign's wall clock, default 450, which leaves time for unpacking, the last inputs, and packing
# the results under a 540 s command; GOAL default 10000000. Crashes are not minimized there, to keep to the time:
# ./dev.sh fuzz here replays and minimizes what lands in .fuzz/crashes/.) $OUT gets table.txt (the campaign's table and its plan), and the work
# folder as fuzz-work.tar.xz (corpus/, totals/, crashes/; split into fuzz-work.tar.xz.part-aa, -ab, ... when over
# 15 MiB, since a file from $OUT comes back only up to 16 MiB: `cat fuzz-work.tar.xz.part-* > fuzz-work.tar.xz`).
# Back here: tar -C .fuzz -xJf fuzz-work.tar.xz corpus totals  (the campaign goes on from them next time), and
# replay each file under crashes/<target>/ with the ASan build: build/fuzz/fuzz/<target> FILE (docs/fuzzing.md).
set -u
OUT=${OUT:-/tmp/gpudoctor-device-out}
mkdir -p "$OUT"
SECONDS_WALL=${1:-450} GOAL=${2:-10000000} CALIBRATE=${CALIBRATE:-10}
PACK=${PACK:-build/gpudoctor-fuzz.tar.xz}
DIR=${TMPDIR:-/tmp}/gpudoctor-fuzz-device
[ -f "$PACK" ] || { echo "no pack at $PACK: build it with ./dev.sh fuzz-pack and carry it" >&2; exit 3; }
rm -rf "$DIR" && mkdir -p "$DIR" && tar -C "$DIR" -xJf "$PACK" || exit 3
P="$DIR/gpudoctor-fuzz"
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
