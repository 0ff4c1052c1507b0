#!/usr/bin/env bash
# `gpudoctor setup` on a GPU machine (issue 36's post-check on a real GPU): the plan for the image's PyTorch
# environment (/opt/torch/.venv, torch with CUDA) in text and JSON, then `setup --apply --env` on it, which
# installs nothing where check finds nothing to fix and runs the post-check (`check --live --python-env ENV`
# and `verify --level quick`) on the real GPU. Needs the executable of bench/device/build.sh (built here when
# missing). The lead runs it with the device tool's `run`, carrying the third-party headers:
#   carry: [".thirdparty"]   command: bash bench/device/setup_on_device.sh
# Logs land in $OUT: setup_plan.txt, setup_plan.json, setup_apply.txt (stdout, stderr and the exit code).
set -u
OUT=${OUT:-/tmp/gpudoctor-device-out}
export OUT
mkdir -p "$OUT"
BIN=build/device/src/gpudoctor
VENV=${VENV:-/opt/torch/.venv}

[ -x "$BIN" ] || OUT="$OUT" bash bench/device/build.sh || exit 1
export PATH="$VENV/bin:$PATH"
{
  echo "== setup --env $VENV (plan)"
  "$BIN" setup --env "$VENV"
  echo "exit $?"
} > "$OUT/setup_plan.txt" 2>&1
"$BIN" setup --env "$VENV" --json > "$OUT/setup_plan.json" 2>> "$OUT/setup_plan.txt"
start=$(date +%s)
{
  echo "== setup --apply --env $VENV --allow-foreign-env"
  "$BIN" setup --apply --env "$VENV" --allow-foreign-env
  echo "exit $? after $(( $(date +%s) - start )) s"
} > "$OUT/setup_apply.txt" 2>&1
tail -25 "$OUT/setup_apply.txt"
