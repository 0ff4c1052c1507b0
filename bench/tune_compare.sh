#!/usr/bin/env bash
# `gpudoctor tune` beside a plain PyTorch script, on a GPU machine (the device tool's nvidia-h200 kind; issue 17's
# "Done when"): runs `gpudoctor tune --json` in the device image's PyTorch (--python-env /opt/torch/.venv) and
# times it, takes its ResNet-50 AMP fp16 figure (NCHW, cudnn.benchmark off, batch 32), then runs
# bench/tune_plain_resnet.py with the same batch, steps and image size in the same interpreter, and prints
# both images/s, their ratio (target: within 5%) and tune's wall time (target: under 3 minutes). Runs the
# plain script before and after tune's run too (a GPU warming up would otherwise favour one side).
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

echo "== plain PyTorch, before"
before=$("$PY" bench/tune_plain_resnet.py 32 50 10 224) || { echo "plain script failed" >&2; exit 3; }
echo "$before"

echo "== gpudoctor tune --json --python-env $VENV"
start=$(now_ms)
"$BIN" tune --json --python-env "$VENV" > "$OUT/tune.json" 2> "$OUT/tune.log"
code=$?
tune_ms=$(( $(now_ms) - start ))
echo "exit code $code, wall time $tune_ms ms"
tail -3 "$OUT/tune.log"

echo "== plain PyTorch, after"
after=$("$PY" bench/tune_plain_resnet.py 32 50 10 224) || { echo "plain script failed" >&2; exit 3; }
echo "$after"

echo "== gpudoctor tune --quick (text)"
qstart=$(now_ms)
"$BIN" tune --quick --python-env "$VENV" > "$OUT/tune.txt" 2>> "$OUT/tune.log"
quick_ms=$(( $(now_ms) - qstart ))
cat "$OUT/tune.txt"

"$PY" - "$OUT/tune.json" "$before" "$after" "$tune_ms" "$quick_ms" <<'PY' | tee "$OUT/compare.txt"
import json, sys
doc = json.load(open(sys.argv[1]))
before, after = json.loads(sys.argv[2]), json.loads(sys.argv[3])
tune_ms, quick_ms = int(sys.argv[4]), int(sys.argv[5])
row = [m for m in doc.get("measurements", []) if m["model"] == "resnet50" and m["role"] == "knob"
       and m["precision"] == "fp16" and not m["channels_last"] and not m["benchmark"] and m["batch"] == 32]
plain = max(before["images_per_s"], after["images_per_s"])
print("status of tune: %s; problems: %s" % (doc.get("status"), [p["id"] for p in doc.get("problems", [])]))
ok = True
if not row:
    print("tune has no ResNet-50 fp16 NCHW batch-32 figure")
    ok = False
else:
    tune = row[0]["rate"]
    ratio = tune / plain
    print("ResNet-50 AMP fp16, batch 32: tune %.1f images/s, plain PyTorch %.1f images/s (before %.1f, after %.1f)"
          % (tune, plain, before["images_per_s"], after["images_per_s"]))
    print("ratio tune/plain: %.3f (target 0.95 to 1.05)" % ratio)
    ok = ok and 0.95 <= ratio <= 1.05
print("tune wall time: %.1f s (target < 180 s); --quick: %.1f s (target < 60 s)" % (tune_ms / 1000, quick_ms / 1000))
ok = ok and tune_ms < 180000 and quick_ms < 60000
for m in doc.get("models", []):
    rec, gen = m["recommended"], m["generic"]
    print("%s: recommended %s cl=%s benchmark=%s batch %s: %s %s; generic fp32 batch %s: %s; largest batch %s"
          % (m["model"], rec["precision"], rec["channels_last"], rec["benchmark"], rec["batch"], rec["rate"],
             m["unit"], gen["batch"], gen["rate"], m["largest_batch"]))
print("targets met" if ok else "a target was missed")
sys.exit(0 if ok else 1)
PY
