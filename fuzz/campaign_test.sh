#!/usr/bin/env bash
# Test of fuzz/campaign.sh, run by the test command before the fuzz smoke run (a second or two): a stand-in fuzz
# target (a shell script that prints what libFuzzer prints) is run by two campaigns over one work folder, and the
# table and totals/<target> must sum both; a third campaign in which the target crashes must exit 1 and count the
# crash. Prints what failed and exits 1, or exits 0.
#   fuzz/campaign_test.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d /tmp/gpudoctor-campaign-test.XXXXXX)"
trap 'rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/seeds/fake_fuzz"
echo seed > "$tmp/seeds/fake_fuzz/one"
# The stand-in: RUNS inputs (from -runs=RUNS), or a crash when the file CRASH exists beside it.
cat > "$tmp/bin/fake_fuzz" <<'FAKE'
#!/usr/bin/env bash
runs=0
for a in "$@"; do case "$a" in -runs=*) runs="${a#-runs=}" ;; esac; done
printf '#%d\tDONE   cov: 7 ft: 9 corp: 1/5b lim: 4 exec/s: 0 rss: 30Mb\n' "$runs"
if [ -f "$(dirname "$0")/CRASH" ]; then echo "==1==ERROR: libFuzzer: deadly signal"; exit 1; fi
echo "stat::number_of_executed_units: $runs"
FAKE
chmod +x "$tmp/bin/fake_fuzz"

failures=0
fail() { echo "campaign_test: $*" >&2; failures=$((failures + 1)); }
campaign() {  # campaign RUNS: one campaign over the shared work folder; prints the table's line for fake_fuzz
  "$here/campaign.sh" -b "$tmp/bin" -s "$tmp/seeds" -w "$tmp/work" -j 1 -r "$1" fake_fuzz 2> "$tmp/stderr" |
    awk '$1 == "fake_fuzz"'
}

line="$(campaign 1000)"
read -r _ runs _ total _ campaigns _ <<< "$line"
[ "$runs" = 1000 ] && [ "$total" = 1000 ] && [ "$campaigns" = 1 ] || fail "first campaign's line: $line"
line="$(campaign 500)"
read -r _ runs _ total _ campaigns cov _ _ crashes <<< "$line"
[ "$runs" = 500 ] && [ "$total" = 1500 ] && [ "$campaigns" = 2 ] || fail "second campaign's line: $line"
[ "$cov" = 7 ] && [ "$crashes" = 0 ] || fail "second campaign's coverage or crashes: $line"
read -r t_runs _ t_campaigns t_since < "$tmp/work/totals/fake_fuzz"
[ "$t_runs" = 1500 ] && [ "$t_campaigns" = 2 ] && [ "$t_since" = "$(date -u +%Y-%m-%d)" ] ||
  fail "totals/fake_fuzz: $(cat "$tmp/work/totals/fake_fuzz")"
grep -q "since $t_since" "$tmp/stderr" || fail "no 'since' note under the table: $(cat "$tmp/stderr")"

touch "$tmp/bin/CRASH"
rc=0
"$here/campaign.sh" -b "$tmp/bin" -s "$tmp/seeds" -w "$tmp/work" -j 1 -r 100 fake_fuzz > "$tmp/table" 2>&1 || rc=$?
read -r _ _ _ total _ campaigns _ _ _ crashes <<< "$(awk '$1 == "fake_fuzz"' "$tmp/table")"
[ "$rc" = 1 ] && [ "$crashes" = 1 ] || fail "a crashing target: exit $rc, crashes '$crashes' (want 1 and 1)"
[ "$total" = 1600 ] && [ "$campaigns" = 3 ] || fail "a crashing campaign's runs are counted too: $(cat "$tmp/table")"

[ "$failures" -eq 0 ] && echo "campaign_test: ok" >&2
[ "$failures" -eq 0 ]
