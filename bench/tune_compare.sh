#!/usr/bin/env bash
# `gpudoctor tune` beside plain PyTorch scripts, on a GPU machine (the device tool's nvidia-h100/h200 kinds;
# issue 33's "Done when"). In order:
#   1. `gpudoctor tune --json` (timed: target under 300 s);
#   2. `gpudoctor tune --quick` (text, timed: target under 60 s), when the deadline leaves 80 s for it;
#   3. per model (ResNet-50, the transformer), bench/tune_plain.py in the same interpreter with
#      (a) tune's recommended settings: exactly the batch, precision, layout, benchmark flag, TF32, fused
#          optimizer, attention backend, torch.compile mode, warm-up and steps of the run tune quotes;
#      (b) the generic settings (fp32, NCHW, batch 32 images / 8 sequences, 10 + 50 steps);
#      (c) an expert's hand-picked settings: bf16 (fp16 without it), channels_last (ResNet-50), cudnn.benchmark,
#          a large batch (tune's recommended batch: the largest power of two within 3/4 of the largest that
#          fitted), torch.compile (default mode);
#   4. the ratios against the targets: tune's figure / plain (a) within 0.95..1.05; plain (a) / plain (b) at
#      least 1.5; plain (a) / plain (c) at least 1.0 (and whether within the 3% noise); the wall times.
# PLAIN_ARGS adds arguments to every plain run (a CPU rehearsal: "--device cpu --size tiny").
# Every step has a time limit, and a plain run that would start after the deadline ($DEADLINE_MS, epoch ms, set
# by bench/device/tune_on_device.sh: the device command's 10 minutes less a margin) is skipped and said so.
# The six plain runs and the two tune runs do not all fit one device command (10 minutes) with the build:
# TUNE_JSON=FILE (a tune.json of an earlier call) runs only the plain runs that FILE calls for and the
# comparison, no tune run and no binary needed (TUNE_MS and QUICK_MS, the earlier call's wall times in ms,
# go into the verdict when given).
# A benchmark, not a test: it prints figures; it exits 1 when a target is missed, 3 when something failed.
#   bench/tune_compare.sh [GPUDOCTOR] [VENV]
# GPUDOCTOR defaults to build/device/src/gpudoctor, VENV to /opt/torch/.venv. Files land in $OUT (default
# /tmp/gpudoctor-tune-out): tune.json, tune.log (the progress and stderr of the full run, then of the quick
# run, each line with its seconds since that run's start), tune.txt (--quick as text), plain.jsonl (one
# line per plain run: its role, model and figures), compare.txt (the verdict).
set -u
cd "$(dirname "$0")/.."
BIN=${1:-build/device/src/gpudoctor}
VENV=${2:-/opt/torch/.venv}
PY="$VENV/bin/python"
OUT=${OUT:-/tmp/gpudoctor-tune-out}
mkdir -p "$OUT"
[ -n "${TUNE_JSON:-}" ] || [ -x "$BIN" ] || { echo "no gpudoctor binary at $BIN" >&2; exit 3; }
[ -x "$PY" ] || { echo "no python at $PY" >&2; exit 3; }

now_ms() { echo $(( $(date +%s%N) / 1000000 )); }
# Each stderr line of a tune run with the seconds since $1 (epoch ms): where the time went, item by item.
stamp() {
  local line d
  while IFS= read -r line; do
    d=$(( ($(now_ms) - $1) / 100 ))
    echo "$(( d / 10 )).$(( d % 10 )) s  $line"
  done
}
DEADLINE_MS=${DEADLINE_MS:-$(( $(now_ms) + 540000 ))}
left_s() { echo $(( (DEADLINE_MS - $(now_ms)) / 1000 )); }

tune_ms=${TUNE_MS:-0}
quick_ms=${QUICK_MS:-0}
if [ -n "${TUNE_JSON:-}" ]; then
  echo "== the plain runs of $TUNE_JSON (an earlier call's tune.json), $(left_s) s left"
  cp "$TUNE_JSON" "$OUT/tune.json" 2>/dev/null || [ "$TUNE_JSON" -ef "$OUT/tune.json" ] || exit 3
else
# The full run first: it decides every plain run. It may take until 150 s before the deadline (the quick run
# and the plain runs need about that); TUNE_ARGS adds flags (e.g. "--compile default" to time one compile mode
# when short of time).
echo "== gpudoctor tune --json --python-env $VENV ${TUNE_ARGS:-}, $(left_s) s left"
start=$(now_ms)
limit=$(( $(left_s) - 150 ))
[ "$limit" -gt 600 ] && limit=600
[ "$limit" -lt 60 ] && limit=60
# tune's own --timeout ends its child cleanly and still writes the JSON (status timeout, the runs so far);
# the outer timeout is the backstop.
timeout $(( limit + 30 )) "$BIN" tune --json --python-env "$VENV" --timeout $(( limit - 20 )) ${TUNE_ARGS:-} \
  2>&1 > "$OUT/tune.json" | stamp "$start" > "$OUT/tune.log"
code=${PIPESTATUS[0]}
tune_ms=$(( $(now_ms) - start ))
echo "exit code $code, wall time $tune_ms ms"
tail -3 "$OUT/tune.log"
[ -s "$OUT/tune.json" ] || { echo "tune wrote no JSON" >&2; exit 3; }

# --quick next, timed on its own (its target is a minute); the plain runs left out for time can be run by a
# second call with TUNE_JSON.
if [ "$(left_s)" -ge 80 ]; then
  echo "== gpudoctor tune --quick (text), $(left_s) s left"
  qstart=$(now_ms)
  echo "== tune --quick" >> "$OUT/tune.log"
  timeout $(( $(left_s) - 10 )) "$BIN" tune --quick --python-env "$VENV" 2>&1 > "$OUT/tune.txt" \
    | stamp "$qstart" >> "$OUT/tune.log"
  echo "exit code ${PIPESTATUS[0]}"
  sed -n '/^== tune --quick/,$p' "$OUT/tune.log"
  quick_ms=$(( $(now_ms) - qstart ))
  cat "$OUT/tune.txt"
else
  echo "== skipped: gpudoctor tune --quick ($(left_s) s left before the deadline)"
fi
fi

# The plain runs tune.json calls for: one line per run, "ROLE MODEL ARGS..." (bench/tune_plain.py's flags).
"$PY" - "$OUT/tune.json" > "$OUT/plain_plan.txt" <<'PY'
import json, sys
doc = json.load(open(sys.argv[1]))
bf16 = bool((doc.get("framework") or {}).get("bf16"))
for model in doc.get("models", []):
    name, rec = model["model"], model["recommended"]
    runs = [m for m in doc.get("measurements", []) if m["model"] == name]
    def same(m):
        return (m["batch"] == rec["batch"] and m["precision"] == rec["precision"]
                and m["channels_last"] == rec["channels_last"] and m["benchmark"] == rec["benchmark"]
                and bool(m.get("tf32")) == bool(rec.get("tf32"))
                and bool(m.get("fused")) == bool(rec.get("fused_optimizer"))
                and (m.get("sdpa") or "") == (rec.get("sdpa") or "")
                and (m.get("compile") or "") == (rec.get("compile") or "")
                and m["role"] in ("knob", "large_batch"))
    quoted = [m for m in runs if same(m)]
    if quoted:
        m = quoted[-1]
        args = ["--batch", m["batch"], "--steps", m["timed_steps"], "--warmup", m.get("warmup_steps") or 2,
                "--precision", m["precision"]]
        args += ["--channels-last"] * m["channels_last"] + ["--benchmark"] * m["benchmark"]
        args += ["--tf32"] * bool(m.get("tf32")) + ["--fused"] * bool(m.get("fused"))
        args += ["--sdpa", m["sdpa"]] if m.get("sdpa") else []
        args += ["--compile", m["compile"]] if m.get("compile") else []
        print("recommended", name, *args)
    base = 32 if name == "resnet50" else 8
    gens = [m for m in runs if m["role"] == "generic"]  # as tune timed it (full size: batch 32 / 8, 10 + 50 steps)
    g = gens[-1] if gens else {"batch": base, "timed_steps": 50, "warmup_steps": 10}
    print("generic", name, "--batch", g["batch"], "--steps", g["timed_steps"], "--warmup", g.get("warmup_steps") or 10,
          "--precision", "fp32")
    large = [m for m in runs if m["role"] == "large_batch"]
    batch = large[-1]["batch"] if large else max(base, rec["batch"])
    steps = max(10, large[-1]["timed_steps"] if large else 10)
    expert = ["--batch", batch, "--steps", steps, "--warmup", 3, "--precision", "bf16" if bf16 else "fp16",
              "--benchmark", "--compile", "default"]
    if name == "resnet50":
        expert.append("--channels-last")
    print("expert", name, *expert)
PY
cat "$OUT/plain_plan.txt"
: > "$OUT/plain.jsonl"
while read -r role model args; do
  left=$(left_s)
  if [ "$left" -lt 45 ]; then
    echo "== skipped: plain $role $model ($left s left before the deadline)"
    continue
  fi
  t=$(( left - 15 ))
  [ "$t" -gt 180 ] && t=180
  echo "== plain PyTorch, $role settings, $model: $args ($left s left)"
  line=$(timeout "$t" "$PY" bench/tune_plain.py --model "$model" $args ${PLAIN_ARGS:-} 2>> "$OUT/plain.log" < /dev/null | tail -1)
  [ -n "$line" ] || { echo "   failed or timed out (see plain.log)"; continue; }
  echo "$line"
  "$PY" -c 'import json,sys; d=json.loads(sys.argv[1]); d["role"]=sys.argv[2]; print(json.dumps(d))' \
    "$line" "$role" >> "$OUT/plain.jsonl"
done < "$OUT/plain_plan.txt"

"$PY" - "$OUT/tune.json" "$OUT/plain.jsonl" "$tune_ms" "$quick_ms" <<'PY' | tee "$OUT/compare.txt"
import json, sys
doc = json.load(open(sys.argv[1]))
plain = {}
for line in open(sys.argv[2]):
    d = json.loads(line)
    plain[(d["model"], d["role"])] = d
tune_ms, quick_ms = int(sys.argv[3]), int(sys.argv[4])
print("status of tune: %s; problems: %s" % (doc.get("status"), [p["id"] for p in doc.get("problems", [])]))
ok = True

def verdict(label, value, good, target):
    global ok
    if value is None:
        print("  %-58s n/a (target %s)" % (label, target))
        ok = False
        return
    print("  %-58s %.3f (target %s)%s" % (label, value, target, "" if good(value) else "  MISSED"))
    ok = ok and good(value)

for m in doc.get("models", []):
    name, rec, gen = m["model"], m["recommended"], m["generic"]
    print("%s (%s): recommended %s batch %s tf32=%s fused=%s sdpa=%s compile=%s: %s; compile %s s, peak %s bytes; "
          "generic %s; tune's own speed-up %s" % (
              name, m["unit"], rec["precision"], rec["batch"], rec.get("tf32"), rec.get("fused_optimizer"),
              rec.get("sdpa"), rec.get("compile"), rec["rate"], rec.get("compile_seconds"),
              rec.get("peak_allocated_bytes"), gen["rate"], rec.get("speedup_vs_generic")))
    for k in m["knobs"]:
        print("    %-32s %s" % (k["knob"], k["why"]))
    r, g, e = (plain.get((name, role)) for role in ("recommended", "generic", "expert"))
    for role, p in (("recommended", r), ("generic", g), ("expert", e)):
        if p:
            print("  plain %-11s %.1f %s (batch %d, %s, compile %s: %s s)" % (
                role, p["rate"], p["unit"], p["batch"], p["precision"], p["compile"] or "no",
                "%.1f" % p["compile_seconds"] if p["compile_seconds"] is not None else "-"))
    verdict("tune recommended / plain same settings", rec["rate"] / r["rate"] if r and rec["rate"] else None,
            lambda v: 0.95 <= v <= 1.05, "0.95 to 1.05")
    verdict("plain recommended / plain generic (fp32, batch %s)" % gen["batch"],
            r["rate"] / g["rate"] if r and g else None, lambda v: v >= 1.5, ">= 1.5")
    verdict("plain recommended / plain expert (bf16, cl, bench, compile)", r["rate"] / e["rate"] if r and e else None,
            lambda v: v >= 0.97, ">= 1.0; 0.97 is within the 3% noise")
    gens = [x for x in doc.get("measurements", []) if x["model"] == name and x["role"] == "generic"]
    if gens and g:
        print("  tune generic / plain generic: %.3f (for information: at the base batch the GPU waits on Python)"
              % (gens[0]["rate"] / g["rate"]))
print("tune wall time: %s (target < 300 s); --quick: %s (target < 60 s)"
      % ("%.1f s" % (tune_ms / 1000) if tune_ms else "not timed in this call",
         "%.1f s" % (quick_ms / 1000) if quick_ms else "not timed in this call"))
ok = ok and 0 < tune_ms < 300000 and 0 < quick_ms < 60000
alloc = doc.get("allocator")
if alloc:
    print("allocator run (%s=%s): %s" % (alloc["variable"], alloc["value"], alloc["status"]))
for s in doc.get("skipped", []):
    print("not measured: %s: %s" % (s["item"], s["reason"]))
print("targets met" if ok else "a target was missed")
sys.exit(0 if ok else 1)
PY
exit "${PIPESTATUS[0]}"  # the comparison's verdict, not tee's
