#!/usr/bin/env bash
# Test of tests/check_skips.py, run by the test command before the test binaries (a second): gtest XML reports
# written as GoogleTest writes them, one with only allowed skips (exit 0), one with a skip for a missing
# package (exit 1, the test named), one allowed only in the other run, and a broken allow list (exit 2). Prints
# what failed and exits 1, or exits 0.
#   tests/check_skips_test.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d "${TMPDIR:-/tmp}/gpudoctor-check-skips-test.XXXXXX")"
trap 'rm -rf "$tmp"' EXIT

failures=0
fail() { echo "check_skips_test: $*" >&2; failures=$((failures + 1)); }

xml() {  # xml FILE MESSAGE... : a report with one passed test and one skipped test per message
  local file="$1" i=0 message; shift
  {
    echo '<?xml version="1.0" encoding="UTF-8"?>'
    echo "<testsuites tests=\"$(($# + 1))\" failures=\"0\" disabled=\"0\" errors=\"0\" name=\"AllTests\">"
    echo '  <testsuite name="S" tests="1"><testcase name="Passes" status="run" result="completed" classname="S" /></testsuite>'
    for message in "$@"; do
      i=$((i + 1))
      echo "  <testsuite name=\"T$i\" tests=\"1\" skipped=\"1\">"
      echo "    <testcase name=\"Case\" status=\"run\" result=\"skipped\" classname=\"T$i\">"
      echo "      <skipped message=\"tests/unit/t$i.cpp:7&#x0A;$message\"><![CDATA[tests/unit/t$i.cpp:7"
      echo "$message]]></skipped>"
      echo "    </testcase>"
      echo "  </testsuite>"
    done
    echo '</testsuites>'
  } > "$file"
}

check() {  # check WANT_EXIT RUN XML [LIST]: runs check_skips.py, its output in $tmp/out
  local want="$1" rc=0; shift
  "$here/check_skips.py" "$@" > "$tmp/out" 2>&1 || rc=$?
  [ "$rc" = "$want" ] || fail "check_skips.py $*: exit $rc, want $want: $(cat "$tmp/out")"
}

xml "$tmp/allowed.xml" "no NVIDIA or AMD GPU in this environment (no /dev/nvidiactl, no /dev/kfd): skipped" \
  "Windows builds only"
check 0 linux "$tmp/allowed.xml"

xml "$tmp/missing.xml" "no NVIDIA or AMD GPU in this environment (no /dev/nvidiactl, no /dev/kfd): skipped" \
  "chromium is not installed (apt-get install chromium): the report is not opened in a browser"
check 1 linux "$tmp/missing.xml"
grep -q "T2.Case: chromium is not installed" "$tmp/out" || fail "the missing package's test is not named: $(cat "$tmp/out")"
grep -q "T1.Case" "$tmp/out" && fail "an allowed skip is reported: $(cat "$tmp/out")"

# A reason allowed in the Windows run only (no links under wine) fails the Linux runs, and the reverse.
xml "$tmp/links.xml" "this build cannot see symbolic links, which the recorded trees use"
check 0 windows "$tmp/links.xml"
check 1 linux "$tmp/links.xml"
check 1 windows "$tmp/allowed.xml"

# The reason must start with the prefix: the same words later in a message are not enough.
xml "$tmp/inside.xml" "zsh is not installed; Windows builds only"
check 1 linux "$tmp/inside.xml"

# No skip at all passes; a broken list or a missing report is an error (2), never a pass.
xml "$tmp/none.xml"
check 0 linux "$tmp/none.xml"
printf 'everywhere | no GPU\n' > "$tmp/bad_list.txt"
check 2 linux "$tmp/allowed.xml" "$tmp/bad_list.txt"
check 2 linux "$tmp/absent.xml"

# The project's list itself parses.
check 0 linux "$tmp/none.xml" "$here/allowed_skips.txt"

[ "$failures" -eq 0 ] || exit 1
echo "check_skips_test: all cases passed"
