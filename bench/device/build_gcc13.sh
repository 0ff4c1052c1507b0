#!/usr/bin/env bash
# Builds every target, tests included, with warnings as errors on the GPU machine's compiler (Ubuntu 24.04,
# GCC 13: the compiler of issue 19's -Werror=array-bounds report) and runs the unit tests, twice: as the dev
# preset does (Debug) and optimized (Release, -O3), where GCC's flow-based warnings such as -Warray-bounds
# appear. Needs no GPU. The lead runs it with the device tool's `run`, carrying the third-party headers:
#   carry: [".thirdparty"]   command: bash bench/device/build_gcc13.sh
# (.thirdparty/ as bench/device/verify_on_device.sh describes). CXX=clang++-18 picks another compiler.
# Prints the compiler, then for each build type the first compiler errors (if any) and the test tail;
# the full logs land in $OUT: build-Debug.log, build-Release.log, tests-Debug.txt, tests-Release.txt.
set -u
OUT=${OUT:-/tmp/gpudoctor-device-out}
mkdir -p "$OUT"
TP=${GPUDOCTOR_THIRD_PARTY:-$PWD/.thirdparty}
JOBS=$(nproc 2>/dev/null || echo 8)
CXX=${CXX:-c++}
echo "== compiler: $(command -v "$CXX") $("$CXX" --version | head -1)"
echo "== cmake: $(cmake --version | head -1), $JOBS jobs"
status=0
for type in Debug Release; do
  build="build/gcc-check-$type"
  echo "== $type: configure and build (-Werror)"
  if ! { cmake -S . -B "$build" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DCMAKE_CXX_COMPILER="$CXX" \
           -DGPUDOCTOR_TESTS=ON -DGPUDOCTOR_WERROR=ON -DGPUDOCTOR_THIRD_PARTY_DIR="$TP/include" \
           -DGPUDOCTOR_GTEST_SOURCE="$TP/googletest" && cmake --build "$build" -j"$JOBS"; } \
       > "$OUT/build-$type.log" 2>&1; then
    echo "$type build FAILED; first errors:"
    grep -E 'error:|Error ' "$OUT/build-$type.log" | head -20
    tail -5 "$OUT/build-$type.log"
    status=1
    continue
  fi
  echo "$type build clean (warnings: $(grep -c 'warning:' "$OUT/build-$type.log"))"
  NO_COLOR=1 "$build/tests/gpudoctor_tests" --gtest_brief=1 > "$OUT/tests-$type.txt" 2>&1 || status=1
  tail -4 "$OUT/tests-$type.txt"
done
echo "== done (exit $status)"
exit $status
