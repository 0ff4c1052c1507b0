#!/usr/bin/env bash
# Speed of `gpudoctor port` on a big tree: generates a corpus of about 200k lines of CUDA in /tmp (200 files
# made from the translation tests and the corpus of tests/port, each with its own names so no two are alike),
# translates it with a Release build on 1 thread and on N threads, and prints lines per second and peak
# memory (maximum resident set, from /usr/bin/time). It then checks that every run wrote the same bytes and
# the same JSON report: the output must not depend on the run or the thread count.
# A benchmark, not a test: it prints figures; it fails only when the tool fails or the outputs differ.
# With hipify-perl (HIPIFY_PERL=PATH, or hipify-perl in PATH; ROCm/HIPIFY's bin/hipify-perl), it also times
# `perl hipify-perl -quiet-warnings` over the same files in one process and prints both rates, same run.
#   bench/port_speed.sh [BINARY] [LINES] [THREADS]
# Build first: cmake -S . -B build/h7rel -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUDOCTOR_TESTS=OFF
#              cmake --build build/h7rel -j2
set -euo pipefail
cd "$(dirname "$0")/.."
BIN="${1:-build/h7rel/src/gpudoctor}"
LINES="${2:-200000}"
THREADS="${3:-$(nproc)}"
[ -x "$BIN" ] || { echo "no binary at $BIN (see the build line at the top of this script)" >&2; exit 3; }
[ -x /usr/bin/time ] || { echo "needs /usr/bin/time (Debian package time)" >&2; exit 3; }

WORK="$(mktemp -d /tmp/gpudoctor_port_bench.XXXXXX)"
trap 'rm -rf "$WORK"' EXIT
python3 - "$WORK/src" "$LINES" tests/port/checks tests/port/corpus <<'PY'
import os, sys, glob
out, target, dirs = sys.argv[1], int(sys.argv[2]), sys.argv[3:]
os.makedirs(out)
sources = [open(p, encoding="utf-8").read() for d in dirs for p in sorted(glob.glob(d + "/*.cu"))]
files = 200
per_file = max(1, target // files)
written = 0
for f in range(files):
    parts, n, k = [], 0, 0
    while n < per_file:
        text = sources[(f + k) % len(sources)]
        # Own names per copy, so the file is not the same text repeated.
        text = text.replace("main(", "main_%d_%d(" % (f, k)).replace("__global__ void ", "__global__ void g%d_%d_" % (f, k))
        parts.append("namespace copy_%d_%d {\n%s\n}  // namespace\n" % (f, k, text))
        n += text.count("\n") + 3
        k += 1
    sub = os.path.join(out, "part%02d" % (f % 10))
    os.makedirs(sub, exist_ok=True)
    with open(os.path.join(sub, "file%03d.cu" % f), "w", encoding="utf-8") as fh:
        fh.write("".join(parts))
    written += n
print("generated %d lines in %d files" % (written, files), file=sys.stderr)
PY
TOTAL=$(cat $(find "$WORK/src" -name '*.cu') | wc -l)

run() {  # run NAME THREADS -> prints seconds and max RSS KiB
  local name="$1" threads="$2"
  local start end rc=0
  start=$(date +%s.%N)
  /usr/bin/time -f '%M' -o "$WORK/$name.rss" "$BIN" port "$WORK/src" -o "$WORK/$name" --threads "$threads" --json \
    > "$WORK/$name.json" 2> "$WORK/$name.err" || rc=$?
  end=$(date +%s.%N)
  # 0, 1 and 2 are reports (warnings, errors found in the code); 3 is the tool failing.
  if [ "$rc" -ge 3 ]; then echo "gpudoctor port failed (exit $rc):" >&2; cat "$WORK/$name.err" >&2; exit 1; fi
  local secs rss; secs=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')  # awk: bc is not everywhere
  rss=$(tail -n 1 "$WORK/$name.rss")
  echo "$secs" > "$WORK/$name.secs"
  printf '%-22s %8.3f s  %10.0f lines/s  peak %6.1f MiB\n' "$name ($threads thread(s))" "$secs" \
    "$(awk -v t="$TOTAL" -v s="$secs" 'BEGIN { print t / s }')" "$(awk -v k="$rss" 'BEGIN { print k / 1024 }')"
}

echo "gpudoctor port: $TOTAL lines in $(find "$WORK/src" -name '*.cu' | wc -l) files"
run one_thread 1
run many_threads "$THREADS"
run one_thread_again 1
same=yes
for other in many_threads one_thread_again; do
  diff -r -q "$WORK/one_thread" "$WORK/$other" > /dev/null || same=no
  # The JSON names the output folder; compare it with that name taken out.
  cmp -s <(sed "s#$WORK/one_thread#OUT#g" "$WORK/one_thread.json") <(sed "s#$WORK/$other#OUT#g" "$WORK/$other.json") || same=no
done
echo "outputs and reports identical across runs and thread counts: $same"

# hipify-perl's quiet mode over the same files, one process (it takes many files and prints each translation).
HIPIFY="${HIPIFY_PERL:-$(command -v hipify-perl || true)}"
if [ -n "$HIPIFY" ] && [ -f "$HIPIFY" ]; then
  mapfile -t FILES < <(find "$WORK/src" -name '*.cu' | sort)
  start=$(date +%s.%N)
  perl "$HIPIFY" -quiet-warnings "${FILES[@]}" > "$WORK/hipify.out" 2> "$WORK/hipify.err" || true
  end=$(date +%s.%N)
  hsecs=$(awk -v a="$start" -v b="$end" 'BEGIN { print b - a }')
  psecs=$(cat "$WORK/one_thread.secs")
  printf '%-22s %8.3f s  %10.0f lines/s\n' "hipify-perl (quiet)" "$hsecs" \
    "$(awk -v t="$TOTAL" -v s="$hsecs" 'BEGIN { print t / s }')"
  echo "port (1 thread) against hipify-perl -quiet-warnings: $(awk -v h="$hsecs" -v p="$psecs" \
    'BEGIN { printf "%.1f", h / p }')x the lines per second"
else
  echo "hipify-perl: not found (set HIPIFY_PERL=PATH to time it beside port)"
fi
[ "$same" = yes ]
