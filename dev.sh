#!/usr/bin/env bash
# gpudoctor's developer entry point. The README's two commands are:
#   ./dev.sh run     install what is missing, build, run gpudoctor on this machine
#   ./dev.sh test    install what is missing, build every configuration, run every test
# and, for fuzzing (docs/fuzzing.md):
#   ./dev.sh fuzz [SECONDS]   a campaign over every libFuzzer target; crashes become regression inputs
#   ./dev.sh fuzz-pack        stripped fuzz binaries + seeds + runner in one tar.xz for a bigger machine
#   ./dev.sh fuzz-prune       replay every kept corpus input under ASan and keep only those that add coverage
# and `./dev.sh package` writes the wheels, the .deb and the Windows zip into build/packages;
# `./dev.sh compilers` builds and tests with every g++-N and clang++-N on the machine and prints a table.
#   ./dev.sh update-goldens   rewrite tests/golden/ from this build's output (then read `git diff tests/golden`
#                             line by line); the only way to update them: the test binary's --update-goldens
#                             argument, never an environment variable a test run could inherit
# `./dev.sh test` fails on a failing test, on a skip whose reason tests/allowed_skips.txt does not allow (the
# no-GPU and not-Windows ones; tests/check_skips.py), and on a fuzz smoke run that fails or leaves a target out.
# Both install missing Debian 12 packages with apt-get (as root, or through sudo).
set -euo pipefail
cd "$(dirname "$0")"

JOBS="${JOBS:-$(nproc 2>/dev/null || echo 2)}"
FUZZ_RUNS="${FUZZ_RUNS:-4000}"     # inputs per fuzz target in the test command's smoke run ...
FUZZ_SECONDS="${FUZZ_SECONDS:-15}"  # ... or this many seconds, whichever comes first

# Debian 12 packages, by what needs them. Add a dependency here in the same commit that uses it.
RUN_PACKAGES=(cmake ninja-build g++ libcli11-dev nlohmann-json3-dev libtomlplusplus-dev libzstd-dev zlib1g-dev)
TEST_PACKAGES=(ccache  # compiler cache: objects of an earlier build on the same machine (CI's is not always warm: cold, 42 min)
               googletest g++-mingw-w64-x86-64-posix wine wine64 clang-14 libclang-rt-14-dev libzstd-dev libamdhip64-5
               clang-format  # the source layout check (.clang-format at the root)
               chromium  # chromium: the HTML report's browser test
               openmpi-bin libopenmpi3  # Open MPI: `mpirun -np 4 gpudoctor collectives` in the tests
               hipcc libhiprand-dev librocrand-dev libhipsparse-dev  # `gpudoctor port`: its translated corpus is compiled with hipcc
               librocm-smi64-1  # Debian's ROCm SMI: without a GPU its rsmi_init fails, and monitor must fall back to sysfs (telemetry_library_test.cpp)
               prometheus  # tests/unit/prometheus_scrape_test.cpp starts the binary itself on loopback (its service is not used)
               zsh fish  # tests/unit/completions_test.cpp completes in each shell with the scripts gpudoctor writes
               python3 python3-venv  # the packages' test: the wheel installed into a fresh venv
               python3-torch python3-torchvision)  # `tune`'s real framework child on the CPU at tiny sizes (tests)
FUZZ_PACKAGES=(clang-14 libclang-rt-14-dev xz-utils)  # ./dev.sh fuzz and fuzz-pack (xz: the pack)
PACKAGE_PACKAGES=(g++-mingw-w64-x86-64-posix googletest python3 python3-venv)  # the .exe (its build configures the tests too); make_wheel.py; its test

log() { printf '\n== [%d s] %s\n' "$SECONDS" "$*" >&2; }

# The test command's stages and their seconds, printed at its end (CI shows only the last lines).
STAGE_TIMES=()
STAGE_START=$SECONDS
stage_done() { STAGE_TIMES+=("$(printf '%5d s  %s' $((SECONDS - STAGE_START)) "$1")"); STAGE_START=$SECONDS; }

as_root() {
  if [ "$(id -u)" -eq 0 ]; then "$@"
  elif command -v sudo >/dev/null 2>&1; then sudo "$@"
  else echo "error: need root (or sudo) to install: $*" >&2; exit 3; fi
}

install_missing() {
  local missing=()
  for p in "$@"; do
    dpkg-query -W -f='${Status}' "$p" 2>/dev/null | grep -q "install ok installed" || missing+=("$p")
  done
  [ ${#missing[@]} -eq 0 ] && return 0
  log "installing missing packages: ${missing[*]}"
  as_root apt-get update -qq
  as_root env DEBIAN_FRONTEND=noninteractive apt-get install -y -qq --no-install-recommends "${missing[@]}" >/dev/null
}

# ccache, where installed, keyed on paths relative to this checkout, so a fresh clone in another folder (CI's)
# reuses the objects of the last build on this machine. CCACHE_NOHASHDIR: debug info may name the old folder.
if command -v ccache >/dev/null 2>&1 && [ -z "${CMAKE_CXX_COMPILER_LAUNCHER:-}" ]; then
  export CMAKE_CXX_COMPILER_LAUNCHER=ccache CCACHE_BASEDIR="$PWD" CCACHE_NOHASHDIR=1
fi

build() {  # build PRESET [targets...]
  local preset="$1"; shift
  log "building ($preset)"
  cmake --preset "$preset" >/dev/null
  cmake --build --preset "$preset" -j "$JOBS" "$@"
}

cmd_run() {
  install_missing "${RUN_PACKAGES[@]}"
  build release
  log "running gpudoctor $*"
  exec ./build/release/src/gpudoctor "$@"
}

# Writes the wheels, the .deb and the Windows zip from a Linux and a Windows build (docs/packaging.md).
make_packages() {  # make_packages LINUX_BUILD WINDOWS_BUILD OUT
  local linux="$1" windows="$2" out="$PWD/$3" version
  version=$(sed -n 's/^project(gpudoctor VERSION \([0-9.]*\).*/\1/p' CMakeLists.txt)
  local license=()
  [ -f LICENSE ] && license=(--license-file LICENSE)
  rm -rf "$out" && mkdir -p "$out"
  packaging/check_portable.sh "$linux/src/gpudoctor" &&
    python3 packaging/make_wheel.py --binary "$linux/src/gpudoctor" --platform manylinux_2_34_x86_64 \
      --version "$version" --readme README.md "${license[@]}" --out "$out" &&
    python3 packaging/make_wheel.py --binary "$windows/src/gpudoctor.exe" --platform win_amd64 \
      --version "$version" --readme README.md "${license[@]}" --out "$out" &&
    python3 packaging/make_zip.py --exe "$windows/src/gpudoctor.exe" --version "$version" --readme README.md \
      "${license[@]}" --out "$out" &&
    (cd "$linux" && cpack -G DEB -B "$out/cpack" >/dev/null) && mv "$out"/cpack/*.deb "$out"/ && rm -rf "$out/cpack" &&
    ls "$out"/*.deb
}

cmd_package() {
  install_missing "${RUN_PACKAGES[@]}" "${PACKAGE_PACKAGES[@]}"
  build release
  build windows-release --target gpudoctor
  log "packages"
  make_packages build/release build/windows-release build/packages
  log "testing the packages"
  packaging/test_packages.sh build/packages
}

PASSED=0
SKIPPED=0  # tests that ran GTEST_SKIP for a reason tests/allowed_skips.txt allows (no GPU here, not Windows)
FAILED=0
FAILURES=()

# The totals of a gtest XML report: "TESTS FAILURES ERRORS DISABLED SKIPPED" (skipped: GTEST_SKIP, counted per test).
gtest_counts() {  # gtest_counts XML
  local head attr
  head=$(grep -o '<testsuites [^>]*' "$1")
  for attr in tests failures errors disabled; do
    printf '%s ' "$(sed -n "s/.* $attr=\"\([0-9]*\)\".*/\1/p" <<<"$head")"
  done
  grep -c '<testcase [^>]*result="skipped"' "$1" || true
}

# Runs a gtest binary (optionally through wine) and adds its counts to the totals. RUN (linux or windows) picks
# the skips tests/allowed_skips.txt allows; each other skip counts as a failure.
run_gtest() {  # run_gtest LABEL XML RUN COMMAND...
  local label="$1" xml="$2" run="$3"; shift 3
  log "tests: $label"
  rm -f "$xml"
  local rc=0
  NO_COLOR=1 "$@" --gtest_brief=1 --gtest_output="xml:$xml" || rc=$?
  if [ ! -f "$xml" ]; then
    echo "$label: the test binary produced no results (exit $rc)" >&2
    FAILED=$((FAILED + 1)); FAILURES+=("$label (no results, exit $rc)")
    return
  fi
  local tests failures errors disabled skipped
  read -r tests failures errors disabled skipped < <(gtest_counts "$xml")
  local bad=$((failures + errors))
  # Skips for a reason tests/allowed_skips.txt does not allow for this run are failures (an unreadable list or
  # report: one).
  local out src=0 unexpected=0
  out=$(tests/check_skips.py "$run" "$xml" 2>&1) || src=$?
  if [ "$src" -ne 0 ]; then
    printf '%s\n' "$out" >&2
    unexpected=$(grep -c '^skipped for a reason' <<<"$out" || true)
    [ "$unexpected" -gt 0 ] || unexpected=1
    FAILURES+=("$label ($unexpected skip(s) not allowed by tests/allowed_skips.txt)")
    [ "$unexpected" -le "$skipped" ] || skipped=$unexpected
  fi
  PASSED=$((PASSED + tests - bad - disabled - skipped))
  SKIPPED=$((SKIPPED + skipped - unexpected))
  FAILED=$((FAILED + bad + unexpected))
  if [ "$rc" -ne 0 ] && [ "$bad" -eq 0 ]; then
    FAILED=$((FAILED + 1)); FAILURES+=("$label (exit $rc)")
  fi
  [ "$bad" -gt 0 ] && FAILURES+=("$label ($bad failed)")
  echo "$label: $((tests - bad - disabled - skipped)) passed, $((skipped - unexpected)) skipped (allowed)," \
    "$((bad + unexpected)) failed" >&2
}

# The fuzz smoke run of the test command: every target replays the inputs that once crashed it
# (tests/fixtures/fuzz_regressions/<target>/), then runs FUZZ_RUNS inputs from its seeds (at most FUZZ_SECONDS),
# JOBS targets at once: the same work every time (a fresh work folder, a fixed -seed; fuzz/campaign.sh).
# A failure: a target that crashes, a target of fuzz/targets.txt that leaves no stats (not built, never run),
# or the runner failing (exit status not 0) without a crash that says why.
run_fuzzers() {
  log "fuzz/campaign.sh's own test"
  if fuzz/campaign_test.sh; then
    PASSED=$((PASSED + 1))
  else
    FAILED=$((FAILED + 1)); FAILURES+=("fuzz/campaign_test.sh")
  fi
  fuzz/gather_seeds.sh build/fuzz/seeds >/dev/null
  rm -rf build/fuzz/smoke
  local rc=0
  log "fuzz: every target, ${FUZZ_RUNS} runs or ${FUZZ_SECONDS} s each, ${JOBS} at a time"
  fuzz/campaign.sh -b build/fuzz/fuzz -s build/fuzz/seeds -w build/fuzz/smoke -j "$JOBS" \
    -r "$FUZZ_RUNS" -t "$FUZZ_SECONDS" -R tests/fixtures/fuzz_regressions >&2 || rc=$?
  local stats name crashes crashed=0
  while read -r name _; do
    case "$name" in '' | '#'*) continue ;; esac
    stats="build/fuzz/smoke/stats/$name"
    if [ ! -f "$stats" ]; then
      FAILED=$((FAILED + 1)); FAILURES+=("fuzz $name (no stats: not built or not run)")
      continue
    fi
    crashes=$(awk '{ print $5 }' "$stats")
    if [ "$crashes" = "0" ]; then
      PASSED=$((PASSED + 1))
    else
      crashed=1
      FAILED=$((FAILED + 1)); FAILURES+=("fuzz $name (see build/fuzz/smoke/logs/$name.log)")
      grep -E 'ERROR|SUMMARY|crashes again|Test unit written' "build/fuzz/smoke/logs/$name.log" | head -n 8 >&2 || true
    fi
  done < fuzz/targets.txt
  if [ "$rc" -ne 0 ] && [ "$crashed" -eq 0 ]; then
    FAILED=$((FAILED + 1)); FAILURES+=("fuzz/campaign.sh (exit $rc)")
  fi
}

# Every C++ source is laid out as .clang-format says; a file that is not counts as one failure.
check_format() {
  log "source layout (clang-format)"
  local bad
  bad=$(find src tests/unit fuzz tools -name '*.cpp' -o -name '*.h' | sort |
        xargs clang-format --dry-run 2>&1 | sed -n 's/^\([^:]*\):[0-9]*:[0-9]*: warning:.*/\1/p' | sort -u)
  if [ -n "$bad" ]; then
    echo "not laid out as .clang-format says (fix: clang-format -i FILE):" >&2
    echo "$bad" | sed 's/^/  /' >&2
    FAILED=$((FAILED + 1)); FAILURES+=("source layout ($(echo "$bad" | wc -l) files)")
  else
    PASSED=$((PASSED + 1)); echo "every source file is laid out as .clang-format says" >&2
  fi
}

cmd_test() {
  install_missing "${RUN_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
  local start=$SECONDS

  check_format
  log "tests/check_skips.py's own test"
  if tests/check_skips_test.sh; then
    PASSED=$((PASSED + 1))
  else
    FAILED=$((FAILED + 1)); FAILURES+=("tests/check_skips_test.sh")
  fi

  stage_done "installs, layout and check_skips"
  build dev
  stage_done "build dev"
  run_gtest "native (g++, -Werror)" build/dev/results.xml linux ./build/dev/tests/gpudoctor_tests
  stage_done "tests dev"

  build asan
  stage_done "build asan"
  ASAN_OPTIONS=detect_leaks=1:abort_on_error=0 UBSAN_OPTIONS=print_stacktrace=1:halt_on_error=1 \
    run_gtest "native ASan+UBSan" build/asan/results.xml linux ./build/asan/tests/gpudoctor_tests \
    --gtest_filter='-PortCorpus.*:PortRealCorpus.*'  # hipcc compiling the translated corpora is the native run's; it tests no code of ours

  stage_done "tests asan"
  build windows
  stage_done "build windows"
  export WINEPREFIX="$PWD/build/windows/wineprefix" WINEDEBUG=-all WINEDLLOVERRIDES="mscoree,mshtml="
  run_gtest "windows (mingw-w64, under wine)" build/windows/results.xml windows wine ./build/windows/tests/gpudoctor_tests.exe
  stage_done "tests windows"

  # The packaging scripts on the builds above (the release build's packages are `./dev.sh package`'s).
  log "packages (from the dev and windows builds), installed and run"
  if make_packages build/dev build/windows build/dev/packages && packaging/test_packages.sh build/dev/packages; then
    PASSED=$((PASSED + 1))
  else
    FAILED=$((FAILED + 1)); FAILURES+=("packages")
  fi

  stage_done "packages"
  build fuzz
  stage_done "build fuzz"
  run_fuzzers
  stage_done "fuzz"

  log "all configurations done in $((SECONDS - start)) s"
  printf '%s\n' "${STAGE_TIMES[@]}" >&2
  if [ ${#FAILURES[@]} -gt 0 ]; then
    printf 'failed: %s\n' "${FAILURES[@]}" >&2
  fi
  echo "${PASSED} passed, ${SKIPPED} skipped, ${FAILED} failed"
  [ "$FAILED" -eq 0 ]
}

# Rewrites the golden files (tests/golden/<machine>.{txt,json,check.txt}) from the dev build's output: the golden
# tests run with the test binary's --update-goldens argument (tests/unit/golden_test_util.h). Without it no
# test writes a golden file, whatever the environment holds. Read the diff line by line before committing:
# each changed line must follow from a changed fact or a fix.
cmd_update_goldens() {
  install_missing "${RUN_PACKAGES[@]}" googletest
  build dev
  log "rewriting tests/golden/ (the golden tests with --update-goldens)"
  NO_COLOR=1 ./build/dev/tests/gpudoctor_tests --gtest_brief=1 \
    --gtest_filter='Fixtures/RecordedMachineTest.*:Fixtures/CheckRecordedMachine.*:Fixtures/SetupRecordedMachine.*:SetupGolden.*' \
    --update-goldens
  git status --short -- tests/golden >&2
}

# Every C++ compiler on this machine (g++-N and clang++-N on PATH, or those named in COMPILERS), each building
# every target, tests included, with warnings as errors (the dev preset's settings; BUILD_TYPE, default Debug:
# Release shows GCC's flow-based warnings such as -Warray-bounds) in build/compilers/NAME-TYPE, then running
# the unit tests; a table of the results at the end. Not part of `test`: a full build per compiler.
cmd_compilers() {
  local type="${BUILD_TYPE:-Debug}" compilers=()
  if [ -n "${COMPILERS:-}" ]; then
    read -r -a compilers <<<"$COMPILERS"
  else
    mapfile -t compilers < <(compgen -c | grep -E '^(g|clang)\+\+-[0-9]+$' | sort -u | sort -t- -k1,1 -k2,2n)
  fi
  install_missing "${RUN_PACKAGES[@]}" "${TEST_PACKAGES[@]}"
  local rows=() cxx version dir rc counts tests failures errors disabled skipped first bad=0
  for cxx in "${compilers[@]}"; do
    if ! command -v "$cxx" >/dev/null 2>&1; then
      rows+=("$cxx|absent|skipped|-|-|-"); continue
    fi
    version=$("$cxx" --version 2>/dev/null | head -n 1 | grep -oE '[0-9]+\.[0-9]+(\.[0-9]+)?' | head -n 1 || true)
    dir="build/compilers/$cxx-$type"
    log "$cxx $version ($type): configure and build every target into $dir (log: $dir.log)"
    mkdir -p build/compilers
    rc=0
    { cmake -S . -B "$dir" -G Ninja -DCMAKE_BUILD_TYPE="$type" -DCMAKE_CXX_COMPILER="$cxx" \
        -DGPUDOCTOR_TESTS=ON -DGPUDOCTOR_WERROR=ON && cmake --build "$dir" -j "$JOBS" -- -k 0; } > "$dir.log" 2>&1 || rc=$?
    if [ "$rc" -ne 0 ]; then
      first=$(grep -m 1 -E 'error:|Error' "$dir.log" || tail -n 1 "$dir.log")
      errors=$(grep -c 'error:' "$dir.log" || true)
      echo "$cxx: build failed ($errors compiler errors); the first: $first" >&2
      rows+=("$cxx|$version|FAILED|-|-|-"); bad=1; continue
    fi
    log "$cxx: unit tests"
    rm -f "$dir/results.xml"
    NO_COLOR=1 "$dir/tests/gpudoctor_tests" --gtest_brief=1 --gtest_output="xml:$dir/results.xml" >&2 || true
    if [ ! -f "$dir/results.xml" ]; then
      rows+=("$cxx|$version|ok|no results|-|-"); bad=1; continue
    fi
    read -r tests failures errors disabled skipped < <(gtest_counts "$dir/results.xml")
    counts=$((failures + errors))
    rows+=("$cxx|$version|ok|$((tests - counts - disabled - skipped))|$skipped|$counts")
    [ "$counts" -eq 0 ] || bad=1
  done
  [ ${#rows[@]} -gt 0 ] || { echo "no g++-N or clang++-N compiler on PATH" >&2; return 1; }
  printf '\n%-12s %-10s %-20s %-13s %-8s %s\n' compiler version "build ($type)" "tests passed" skipped failed
  local row
  for row in "${rows[@]}"; do
    IFS='|' read -r cxx version rc tests skipped counts <<<"$row"
    printf '%-12s %-10s %-20s %-13s %-8s %s\n' "$cxx" "$version" "$rc" "$tests" "$skipped" "$counts"
  done
  return "$bad"
}

# A fuzz campaign: every target for SECONDS (default 600) on all cores, corpora kept in .fuzz/ between runs,
# each crash minimized and saved under tests/fixtures/fuzz_regressions/<target>/, where the smoke run replays it.
# The campaign's corpus and run totals live in .fuzz/ (git ignores it: it changes with every campaign). The
# corpus is not kept in git (35 MB that changed with every campaign; a fresh one regrows from the seeds in
# minutes); the run totals are, as text in fuzz/totals/ (issue 20's goal counts runs over every campaign): a
# fresh .fuzz/ starts its totals from them, and after a campaign `cp .fuzz/totals/* fuzz/totals/` records it.
restore_fuzz_work() {
  if [ ! -d .fuzz/totals ] && [ -d fuzz/totals ]; then
    mkdir -p .fuzz && cp -r fuzz/totals .fuzz/
    log "started .fuzz/ with the run totals of fuzz/totals/; the corpus grows from the seeds"
  fi
}

cmd_fuzz() {
  local seconds="${1:-600}"
  restore_fuzz_work
  install_missing "${RUN_PACKAGES[@]}" "${FUZZ_PACKAGES[@]}"
  build fuzz
  fuzz/gather_seeds.sh build/fuzz/seeds >/dev/null
  local rc=0
  fuzz/campaign.sh -b build/fuzz/fuzz -s build/fuzz/seeds -w .fuzz -j "$JOBS" -t "$seconds" \
    -R tests/fixtures/fuzz_regressions -m || rc=$?
  local crash target saved=0
  for crash in .fuzz/crashes/*/*.min; do
    [ -f "$crash" ] || continue
    target=$(basename "$(dirname "$crash")")
    mkdir -p "tests/fixtures/fuzz_regressions/$target"
    cp "$crash" "tests/fixtures/fuzz_regressions/$target/$(basename "$crash" .min)"
    rm -f "$crash" "${crash%.min}"
    saved=$((saved + 1))
  done
  [ "$saved" -eq 0 ] || log "saved $saved minimized crash input(s) under tests/fixtures/fuzz_regressions/: fix, then commit them"
  return "$rc"
}

# Prunes the kept corpora of .fuzz/ with the ASan build (fuzz/prune_corpus.sh): every input runs once under
# AddressSanitizer, those that add no coverage go, those that crash land in .fuzz/crashes/<target>/, where the next
# `./dev.sh fuzz` replays and minimizes them. Run it after bringing back a campaign from the device machine (whose
# binaries have no ASan), before recording its totals in fuzz/totals/.
cmd_fuzz_prune() {
  restore_fuzz_work
  install_missing "${RUN_PACKAGES[@]}" "${FUZZ_PACKAGES[@]}"
  build fuzz
  fuzz/prune_corpus.sh -b build/fuzz/fuzz -w .fuzz -j "$JOBS"
}

# Packs stripped libFuzzer binaries (no ASan: -fsanitize=fuzzer,undefined, -O2) with their seeds, dictionaries
# and fuzz/campaign.sh into build/gpudoctor-fuzz.tar.xz, for a long campaign on a machine without clang:
#   tar xf gpudoctor-fuzz.tar.xz && gpudoctor-fuzz/campaign.sh -j 16 -g 10000000 -t 1800  (a goal of runs per target)
# The campaign corpus kept in .fuzz/corpus and its run totals (.fuzz/totals) go in as the pack's work folder
# (work/corpus, work/totals), so the campaign there goes on from them and its table counts every run over that
# corpus; bring gpudoctor-fuzz/work/{corpus,totals} back into .fuzz/ (cp -a) to go on here or in the next pack.
cmd_fuzz_pack() {
  install_missing "${RUN_PACKAGES[@]}" "${FUZZ_PACKAGES[@]}"
  restore_fuzz_work
  build fuzz-pack
  local pack=build/fuzz-pack/gpudoctor-fuzz
  rm -rf "$pack" && mkdir -p "$pack/bin"
  local t
  while read -r t _; do
    case "$t" in '' | '#'*) continue ;; esac
    [ -x "build/fuzz-pack/fuzz/$t" ] && cp "build/fuzz-pack/fuzz/$t" "$pack/bin/"
  done < fuzz/targets.txt
  fuzz/gather_seeds.sh "$pack/seeds" >/dev/null
  mkdir -p "$pack/work/corpus" "$pack/work/totals"
  for t in "$pack"/bin/*; do
    t="$(basename "$t")"
    [ -d ".fuzz/corpus/$t" ] && cp -r ".fuzz/corpus/$t" "$pack/work/corpus/"
    [ -f ".fuzz/totals/$t" ] && cp ".fuzz/totals/$t" "$pack/work/totals/"
  done
  cp -r fuzz/dicts fuzz/targets.txt fuzz/campaign.sh "$pack/"
  tar -C build/fuzz-pack -cJf build/gpudoctor-fuzz.tar.xz gpudoctor-fuzz
  log "packed build/gpudoctor-fuzz.tar.xz ($(du -h build/gpudoctor-fuzz.tar.xz | cut -f1); $(ls "$pack/bin" | wc -l)" \
    "targets, $(find "$pack/work/corpus" -type f | wc -l) corpus inputs from .fuzz/corpus); on the other machine:"
  echo "  tar xf gpudoctor-fuzz.tar.xz && gpudoctor-fuzz/campaign.sh -j \$(nproc) -g 10000000 -t SECONDS" >&2
  echo "  (or on the device machine: bench/device/fuzz_campaign.sh, carrying build/gpudoctor-fuzz.tar.xz)" >&2
}

case "${1:-}" in
  run) shift; cmd_run "$@" ;;
  test) shift; cmd_test "$@" ;;
  fuzz) shift; cmd_fuzz "$@" ;;
  fuzz-pack) shift; cmd_fuzz_pack "$@" ;;
  fuzz-prune) shift; cmd_fuzz_prune "$@" ;;
  package) shift; cmd_package "$@" ;;
  compilers) shift; cmd_compilers "$@" ;;
  update-goldens) shift; cmd_update_goldens "$@" ;;
  deps) install_missing "${RUN_PACKAGES[@]}" "${TEST_PACKAGES[@]}" "${PACKAGE_PACKAGES[@]}" ;;
  *) echo "usage: ./dev.sh run [gpudoctor args...] | ./dev.sh test | ./dev.sh package | ./dev.sh compilers | ./dev.sh update-goldens | ./dev.sh fuzz [SECONDS] | ./dev.sh fuzz-pack | ./dev.sh fuzz-prune | ./dev.sh deps" >&2
     exit 3 ;;
esac
