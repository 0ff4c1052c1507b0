#!/usr/bin/env bash
# Test of fuzz/campaign.sh, run by the test command before the fuzz smoke run (a second or two): a stand-in fuzz
# target (a shell script that prints what libFuzzer prints) is run by two campaigns over one work folder, and the
# table and totals/<target> must sum both; a third campaign in which the target crashes must exit 1 and count the
# crash. Then a campaign with a goal (-g) over three stand-ins, one at the goal already, one a few runs short and
# one far short: the first must be skipped, the second reach the goal, the third get the spare cores and stay
# short. Then fuzz/prune_corpus.sh over stand-ins of libFuzzer's merge. Prints what failed and exits 1, or exits 0.
#   fuzz/campaign_test.sh
set -uo pipefail
here="$(cd "$(dirname "$0")" && pwd)"
tmp="$(mktemp -d /tmp/gpudoctor-campaign-test.XXXXXX)"
trap '[ -n "${KEEP:-}" ] || rm -rf "$tmp"' EXIT
mkdir -p "$tmp/bin" "$tmp/seeds/fake_fuzz"
echo seed > "$tmp/seeds/fake_fuzz/one"
# The stand-in: RUNS inputs (from -runs=RUNS), or a crash when the file CRASH exists beside it. Where a file
# <name>.rate beside it holds a rate, it runs at that rate for -max_total_time seconds: without -runs it sleeps
# that long and prints rate x seconds, with -runs it prints at most that at once.
cat > "$tmp/bin/fake_fuzz" <<'FAKE'
#!/usr/bin/env bash
runs="" time=""
for a in "$@"; do case "$a" in -runs=*) runs="${a#-runs=}" ;; -max_total_time=*) time="${a#-max_total_time=}" ;; esac; done
rate_file="$0.rate"
if [ -f "$rate_file" ] && [ -n "$time" ]; then
  can=$(($(cat "$rate_file") * time))
  if [ -z "$runs" ]; then sleep "$time"; runs="$can"; elif [ "$runs" -gt "$can" ]; then runs="$can"; fi
fi
runs="${runs:-0}"
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
read -r _ runs _ total _ campaigns cov _ _ crashes _ <<< "$line"
[ "$runs" = 500 ] && [ "$total" = 1500 ] && [ "$campaigns" = 2 ] || fail "second campaign's line: $line"
[ "$cov" = 7 ] && [ "$crashes" = 0 ] || fail "second campaign's coverage or crashes: $line"
read -r t_runs _ t_campaigns t_since < "$tmp/work/totals/fake_fuzz"
[ "$t_runs" = 1500 ] && [ "$t_campaigns" = 2 ] && [ "$t_since" = "$(date -u +%Y-%m-%d)" ] ||
  fail "totals/fake_fuzz: $(cat "$tmp/work/totals/fake_fuzz")"
grep -q "since $t_since" "$tmp/stderr" || fail "no 'since' note under the table: $(cat "$tmp/stderr")"

touch "$tmp/bin/CRASH"
rc=0
"$here/campaign.sh" -b "$tmp/bin" -s "$tmp/seeds" -w "$tmp/work" -j 1 -r 100 fake_fuzz > "$tmp/table" 2>&1 || rc=$?
read -r _ _ _ total _ campaigns _ _ _ crashes _ <<< "$(awk '$1 == "fake_fuzz"' "$tmp/table")"
[ "$rc" = 1 ] && [ "$crashes" = 1 ] || fail "a crashing target: exit $rc, crashes '$crashes' (want 1 and 1)"
[ "$total" = 1600 ] && [ "$campaigns" = 3 ] || fail "a crashing campaign's runs are counted too: $(cat "$tmp/table")"

# A goal of 10000 runs, 10 s, 4 cores, 1 s of measuring: fake_c is there already, fake_b needs ~100 runs more
# after its measuring (1 process), fake_a needs ~9900 at 100 a second (3 processes, all it can get).
rm -f "$tmp/bin/CRASH"
for t in fake_a fake_b fake_c; do cp "$tmp/bin/fake_fuzz" "$tmp/bin/$t"; echo 100 > "$tmp/bin/$t.rate"; done
mkdir -p "$tmp/goal/totals"
echo "9800 60 1 2026-01-01" > "$tmp/goal/totals/fake_b"
echo "20000 60 1 2026-01-01" > "$tmp/goal/totals/fake_c"
rc=0
"$here/campaign.sh" -b "$tmp/bin" -s "$tmp/seeds" -w "$tmp/goal" -j 4 -g 10000 -c 1 -t 10 fake_a fake_b fake_c \
  > "$tmp/table" 2> "$tmp/stderr" || rc=$?
goal_line() { awk -v t="$1" '$1 == t' "$tmp/table"; }
[ "$rc" = 0 ] || fail "the goal campaign exits $rc: $(cat "$tmp/table" "$tmp/stderr")"
read -r _ runs _ total _ campaigns _ _ _ _ reached <<< "$(goal_line fake_c)"
[ "$runs" = 0 ] && [ "$total" = 20000 ] && [ "$campaigns" = 1 ] && [ "$reached" = reached ] ||
  fail "a target at the goal must not run: $(goal_line fake_c)"
read -r _ runs _ total _ campaigns _ _ _ _ reached <<< "$(goal_line fake_b)"
[ "$total" = 10000 ] && [ "$campaigns" = 2 ] && [ "$reached" = reached ] ||
  fail "a target a few runs short must stop at the goal: $(goal_line fake_b)"
read -r _ runs _ total _ campaigns _ _ _ _ reached <<< "$(goal_line fake_a)"
[ "$runs" = "$total" ] && [ "$runs" -gt 1000 ] && [ "$campaigns" = 1 ] && [ "$reached" = short ] ||
  fail "the target far short must run on its share and stay short: $(goal_line fake_a)"
grep -q "^  fake_a 3 " "$tmp/stderr" || fail "fake_a should get the 3 cores fake_b does not need: $(cat "$tmp/stderr")"

# prune_corpus.sh over two stand-ins that do what libFuzzer's -merge=1 does (OUT gets the inputs of IN that add
# something: here, each distinct content once; an input "boom" crashes and is written under -artifact_prefix, as
# libFuzzer does before it goes on): fake_p's corpus of 5 inputs (two repeats, one crash) must become its 2 distinct
# ones, the crash saved under crashes/, and the exit status 1; fake_q's merge fails, so its corpus stays whole.
cat > "$tmp/bin/fake_p" <<'FAKE'
#!/usr/bin/env bash
[ -f "$0.fails" ] && exit 1
prefix="" dirs=()
for a in "$@"; do case "$a" in -artifact_prefix=*) prefix="${a#-artifact_prefix=}" ;; -*) ;; *) dirs+=("$a") ;; esac; done
for f in "${dirs[1]}"/*; do
  content=$(cat "$f")
  if [ "$content" = boom ]; then cp "$f" "${prefix}crash-${f##*/}"; continue; fi
  [ -e "${dirs[0]}/$content" ] || cp "$f" "${dirs[0]}/$content"
done
FAKE
chmod +x "$tmp/bin/fake_p" && cp "$tmp/bin/fake_p" "$tmp/bin/fake_q" && touch "$tmp/bin/fake_q.fails"
mkdir -p "$tmp/prune/corpus/fake_p" "$tmp/prune/corpus/fake_q" "$tmp/prune/totals"
for i in 1 2 3; do echo one > "$tmp/prune/corpus/fake_p/a$i"; echo "$i" > "$tmp/prune/corpus/fake_q/q$i"; done
echo two > "$tmp/prune/corpus/fake_p/b" && echo boom > "$tmp/prune/corpus/fake_p/c"
echo "5 1 1 2026-01-01" > "$tmp/prune/totals/fake_p"
rc=0
"$here/prune_corpus.sh" -b "$tmp/bin" -w "$tmp/prune" -j 2 > "$tmp/table" 2> "$tmp/stderr" || rc=$?
prune_line() { awk -v t="$1" '$1 == t { print $2, $3, $4, $5 }' "$tmp/table"; }
[ "$rc" = 1 ] || fail "a pruning with a crash and a failed merge must exit 1, not $rc: $(cat "$tmp/table" "$tmp/stderr")"
[ "$(prune_line fake_p)" = "5 2 1 pruned" ] || fail "fake_p's line: $(prune_line fake_p) (want 5 2 1 pruned)"
[ "$(ls "$tmp/prune/corpus/fake_p" | sort | tr '\n' ' ')" = "one two " ] ||
  fail "fake_p's pruned corpus: $(ls "$tmp/prune/corpus/fake_p")"
[ -f "$tmp/prune/crashes/fake_p/crash-c" ] || fail "fake_p's crash input is not under crashes/fake_p/"
[ "$(prune_line fake_q)" = "3 3 0 failed" ] || fail "fake_q's line: $(prune_line fake_q) (want 3 3 0 failed)"
[ "$(ls "$tmp/prune/corpus/fake_q" | wc -l)" = 3 ] || fail "a failed merge must leave the corpus whole"
[ "$(cat "$tmp/prune/totals/fake_p")" = "5 1 1 2026-01-01" ] || fail "pruning must not touch totals/"
[ ! -e "$tmp/prune/prune" ] || fail "prune_corpus left its scratch folder behind"
rm -f "$tmp/bin/fake_q.fails"
rc=0
"$here/prune_corpus.sh" -b "$tmp/bin" -w "$tmp/prune" -j 1 fake_q > "$tmp/table" 2> "$tmp/stderr" || rc=$?
[ "$rc" = 0 ] && [ "$(prune_line fake_q)" = "3 3 0 pruned" ] ||
  fail "a clean pruning of one named target: exit $rc, $(prune_line fake_q)"

[ "$failures" -eq 0 ] && echo "campaign_test: ok" >&2
[ "$failures" -eq 0 ]
