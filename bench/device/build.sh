#!/usr/bin/env bash
# The configure-and-build step every bench/device/*_on_device.sh script starts with, in one place: a Release
# build of gpudoctor in build/device on the GPU machine, from the third-party headers carried beside the
# sources (.thirdparty/, as bench/device/verify_on_device.sh describes; GPUDOCTOR_THIRD_PARTY points
# elsewhere). Called, not sourced:
#   bash bench/device/build.sh            the gpudoctor executable only (tests off)
#   bash bench/device/build.sh --tests    every target, the unit tests included
# The whole log goes to $OUT/build.log. On failure it prints the log's last 40 lines and "build failed", and
# exits 1; on success it prints nothing more. The executable is then build/device/src/gpudoctor.
set -u
OUT=${OUT:-/tmp/gpudoctor-device-out}
mkdir -p "$OUT"
TP=${GPUDOCTOR_THIRD_PARTY:-$PWD/.thirdparty}
BUILD=build/device
JOBS=$(nproc 2>/dev/null || echo 8)

tests=OFF
target=(--target gpudoctor)
case "${1:-}" in
  --tests) tests=ON; target=() ;;
  "") ;;
  *) echo "usage: bench/device/build.sh [--tests]" >&2; exit 2 ;;
esac

echo "== configure and build ($JOBS jobs)"
if ! { cmake -S . -B "$BUILD" -G Ninja -DCMAKE_BUILD_TYPE=Release -DGPUDOCTOR_TESTS="$tests" \
         -DGPUDOCTOR_THIRD_PARTY_DIR="$TP/include" -DGPUDOCTOR_GTEST_SOURCE="$TP/googletest" &&
       cmake --build "$BUILD" -j"$JOBS" "${target[@]}"; } > "$OUT/build.log" 2>&1; then
  tail -40 "$OUT/build.log"
  echo "build failed"
  exit 1
fi
