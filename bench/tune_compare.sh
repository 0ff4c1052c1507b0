#!/usr/bin/env bash
# `gpudoctor tune` beside a plain PyTorch script, on a GPU machine (the device tool's nvidia-h200 kind; issue 17's
# "Done when"): runs `gpudoctor tune --json` in the device image's PyTorch (--python-env /opt/torch/.venv) and
# times it, then times bench/tune_plain_resnet.py twice in the same interpreter with exactly the batch,
# precision, layout, benchmark flag, warm-up and steps of two of tune's ResNet-50 runs:
#   - the large batch (role large_batch: the settings tune recommends at the batch it recommends);
#   - the knob batch (role knob: the run with the recommended settings at the batch the knobs were timed at).
# Both are where the GPU is the bottleneck, and each ratio's target is 0.95 to 1.05. The generic run (fp32,
# NCHW, batch 32) is compared too, for information only: at batch 32 a big GPU waits on Python and both sides
# moved by +-20% between runs on the H200. Also tune's wall time (target under 3 minutes) and --quick's (under 1).
# compare.txt also prints every knob row (the expandable_segments, DataLoader workers and pin_memory rows
# among them), the allocator's second run (the large batch timed again with the variable set) and the
# DataLoader figures.
# A benchmark, not a test: it prints figures; it exits 1 when a target is missed, 3 when something failed.
#   bench/tune_compare.sh [GPUDOCTOR] [VENV]
# GPUDOCTOR defaults to build/device/src/gpudoctor (bench/device/verify_on_device.sh builds it), VENV to
# /opt/torch/.venv. Files land in $OUT (default /tmp/gpudoctor-tune-out): tune.json, tune.log (progress),
# tune.txt (the quick level as text), compare.txt.
set -u
cd "$(dirname "$0")/.."
BIN=${1:-build/device/src/gpudoctor}
VENV=${2:-/opt/torch/.venv}
PY="$VENV/bin/python"
OUT=${OUT:-/tmp/gpudoctor-tune-out}
mkdir -p "$OUT"
[ -x "$BIN" ] || { echo "no gpudoctor binary at $BIN" >&2; exit 3; }
[ -x "$PY" ] || { echo "no python at $PY" >&2; exit 3; }

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
GENERIC_ARGS="32 50 10 224 fp32 0 0"  # the generic run of the full size: batch steps warmup image precision cl benchmark

echo "== plain PyTorch, generic settings, before: $GENERIC_ARGS"
before=$("$PY" bench/tune_plain_resnet.py $GENERIC_ARGS) || { echo "plain script failed" >&2; exit 3; }
echo "$before"

echo "== gpudoctor tune --json --python-env $VENV"
start=$(now_ms)
"$BIN" tune --json --python-env "$VENV" > "$OUT/tune.json" 2> "$OUT/tune.log"
code=$?
tune_ms=$(( $(now_ms) - start ))
echo "exit code $code, wall time $tune_ms ms"
tail -3 "$OUT/tune.log"

echo "== plain PyTorch, generic settings, after"
after=$("$PY" bench/tune_plain_resnet.py $GENERIC_ARGS) || { echo "plain script failed" >&2; exit 3; }
echo "$after"

# The arguments of bench/tune_plain_resnet.py for one of tune's ResNet-50 runs: ROLE large_batch, or knob
# (the knob run with the settings tune recommends, at the knob batch). Empty when tune has no such run.
plain_args() {
  "$PY" - "$OUT/tune.json" "$1" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
role = sys.argv[2]
model = next((m for m in doc.get("models", []) if m["model"] == "resnet50"), None)
rows = [m for m in doc.get("measurements", []) if m["model"] == "resnet50" and m["role"] == role]
if role == "knob" and model:
    rec = model["recommended"]
    rows = [m for m in rows if m["batch"] == model["knob_batch"] and m["precision"] == rec["precision"]
            and m["channels_last"] == rec["channels_last"] and m["benchmark"] == rec["benchmark"]]
if rows:
    m = rows[-1]
    warmup = 2 if m["batch"] > 32 else 10  # the child's warm-up above the base batch, and at it
    print(m["batch"], m["timed_steps"], warmup, 224, m["precision"], int(m["channels_last"]), int(m["benchmark"]))
PY
}

# Two plain runs with ARGS, one JSON line each (an empty object when there is nothing to run or it failed).
plain_twice() {
  local args=$1 first="{}" second="{}"
  if [ -n "$args" ]; then
    first=$("$PY" bench/tune_plain_resnet.py $args) || first="{}"
    second=$("$PY" bench/tune_plain_resnet.py $args) || second="{}"
  fi
  echo "$first"
  echo "$second"
}

large_args=$(plain_args large_batch)
echo "== plain PyTorch at tune's large batch: ${large_args:-none} (batch steps warmup image precision cl benchmark)"
large_plain=$(plain_twice "$large_args")
echo "$large_plain"
knob_args=$(plain_args knob)
echo "== plain PyTorch at tune's knob batch, recommended settings: ${knob_args:-none}"
knob_plain=$(plain_twice "$knob_args")
echo "$knob_plain"

echo "== gpudoctor tune --quick (text)"
qstart=$(now_ms)
"$BIN" tune --quick --python-env "$VENV" > "$OUT/tune.txt" 2>> "$OUT/tune.log"
quick_ms=$(( $(now_ms) - qstart ))
cat "$OUT/tune.txt"

"$PY" - "$OUT/tune.json" "$before" "$after" "$tune_ms" "$quick_ms" "$large_plain" "$knob_plain" <<'PY' | tee "$OUT/compare.txt"
import json, sys
doc = json.load(open(sys.argv[1]))
before, after = json.loads(sys.argv[2]), json.loads(sys.argv[3])
tune_ms, quick_ms = int(sys.argv[4]), int(sys.argv[5])
plain = {"large_batch": [json.loads(l) for l in sys.argv[6].splitlines()],
         "knob": [json.loads(l) for l in sys.argv[7].splitlines()]}
print("status of tune: %s; problems: %s" % (doc.get("status"), [p["id"] for p in doc.get("problems", [])]))
resnet = [m for m in doc.get("measurements", []) if m["model"] == "resnet50"]
model = next((m for m in doc.get("models", []) if m["model"] == "resnet50"), {})
ok = True

generic = [m for m in resnet if m["role"] == "generic"]
if generic:
    best = max(before["images_per_s"], after["images_per_s"])
    print("ResNet-50 generic (fp32, NCHW, batch 32): tune %.1f images/s, plain PyTorch %.1f (before %.1f, after %.1f); "
          "ratio %.3f (for information: at batch 32 the GPU waits on the CPU)"
          % (generic[0]["rate"], best, before["images_per_s"], after["images_per_s"], generic[0]["rate"] / best))
else:
    print("tune has no generic ResNet-50 figure")
    ok = False

for role, label in (("large_batch", "the large batch"), ("knob", "the knob batch")):
    rows = [m for m in resnet if m["role"] == role]
    if role == "knob":
        rec = model.get("recommended", {})
        rows = [m for m in rows if m["batch"] == model.get("knob_batch") and m["precision"] == rec.get("precision")
                and m["channels_last"] == rec.get("channels_last") and m["benchmark"] == rec.get("benchmark")]
    figures = [p["images_per_s"] for p in plain[role] if "images_per_s" in p]
    if not rows or not figures:
        print("no ResNet-50 figure at %s from tune or from the plain script" % label)
        ok = False
        continue
    m = rows[-1]
    mean = sum(figures) / len(figures)
    ratio = m["rate"] / mean
    print("ResNet-50 at %s: %s, channels_last %s, benchmark %s, batch %d, %d steps: tune %.1f images/s, plain "
          "PyTorch %.1f (runs: %s)" % (label, m["precision"], m["channels_last"], m["benchmark"], m["batch"],
                                       m["timed_steps"], m["rate"], mean, ", ".join("%.1f" % f for f in figures)))
    print("ratio tune/plain at %s: %.3f (target 0.95 to 1.05)" % (label, ratio))
    ok = ok and 0.95 <= ratio <= 1.05
print("tune wall time: %.1f s (target < 180 s); --quick: %.1f s (target < 60 s)" % (tune_ms / 1000, quick_ms / 1000))
ok = ok and tune_ms < 180000 and quick_ms < 60000
for m in doc.get("models", []):
    rec, gen = m["recommended"], m["generic"]
    print("%s: knobs at batch %s; recommended %s cl=%s benchmark=%s batch %s: %s %s; generic fp32 batch %s: %s; "
          "largest batch %s" % (m["model"], m.get("knob_batch"), rec["precision"], rec["channels_last"],
                                rec["benchmark"], rec["batch"], rec["rate"], m["unit"], gen["batch"], gen["rate"],
                                m["largest_batch"]))
    for k in m["knobs"]:
        print("  %-30s %s" % (k["knob"], k["why"]))
alloc = doc.get("allocator")
if alloc:
    print("allocator run (%s=%s): %s; %s" % (alloc["variable"], alloc["value"], alloc["status"],
          "; ".join("%s batch %d %.1f/s reserved/allocated %s/%s" % (x["model"], x["batch"], x["rate"],
                    x.get("peak_reserved_bytes"), x.get("peak_allocated_bytes")) for x in alloc["measurements"])))
for l in doc.get("loader", []):
    print("loader: %d workers, pin_memory %s: %.0f images/s (%s, %d CPUs)"
          % (l["workers"], l["pin_memory"], l["images_per_s"], l["decode"], l["cpus"]))
print("targets met" if ok else "a target was missed")
sys.exit(0 if ok else 1)
PY
exit "${PIPESTATUS[0]}"  # the comparison's verdict, not tee's
