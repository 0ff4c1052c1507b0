#!/usr/bin/env bash
# Tests what `./dev.sh package` wrote (docs/packaging.md), offline:
#  - the Linux wheel installs into a fresh venv with `pip install --no-index`, and the `gpudoctor` it put
#    on PATH prints its version and reads a recorded machine;
#  - the .deb holds the binary, the man page and the bash/zsh/fish completions, and its extracted
#    binary runs; its control file names the glibc floor;
#  - the Windows wheel and zip hold the .exe (and the zip the README and the license);
#  - every package carries the license (wheel METADATA and dist-info/LICENSE, the .deb's copyright file);
#  - the wheel's Project-URL lines are packaging/project_urls.txt's (none while it lists none), and a set
#    address lands in METADATA as `Project-URL: Label, URL` (a wheel made here from a list of two).
#   packaging/test_packages.sh PACKAGES_DIR
# Prints one line per check; exits 1 at the first failure.
set -euo pipefail
dir="$1"
machine="tests/fixtures/sysroot/rx7900xtx-raphael"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
one() { local matches=("$dir"/$1); [ -f "${matches[0]}" ] || fail "no $1 in $dir"; echo "${matches[0]}"; }
metadata_of() {  # metadata_of WHEEL: its dist-info/METADATA
  python3 -c 'import sys, zipfile; z = zipfile.ZipFile(sys.argv[1]); print(z.read(next(n for n in z.namelist() if n.endswith(".dist-info/METADATA"))).decode())' "$1"
}

wheel=$(one 'gpudoctor-*-py3-none-manylinux_2_34_x86_64.whl')
python3 -m venv "$tmp/venv"
"$tmp/venv/bin/pip" install --quiet --no-index --disable-pip-version-check "$wheel" ||
  fail "pip could not install $wheel"
[ -x "$tmp/venv/bin/gpudoctor" ] || fail "the wheel put no executable gpudoctor into the venv's bin/"
# Outputs are kept whole before grep reads them: `grep -q` closing a pipe early is no failure of theirs.
version=$("$tmp/venv/bin/gpudoctor" --version) || fail "the installed gpudoctor --version"
grep -q '^gpudoctor ' <<<"$version" || fail "the installed gpudoctor --version printed: $version"
info=$("$tmp/venv/bin/gpudoctor" info --sysroot "$machine") || fail "the installed gpudoctor info --sysroot $machine"
grep -q 'Radeon RX 7900 XTX' <<<"$info" || fail "the installed gpudoctor info did not read $machine"
shown=$("$tmp/venv/bin/pip" show gpudoctor 2>/dev/null) || fail "pip show gpudoctor"
grep -q '^Summary: .' <<<"$shown" || fail "pip show: the wheel has no summary"
grep -q '^License: MIT$' <<<"$shown" || fail "pip show: the wheel does not say its license (MIT)"
python3 -c 'import sys, zipfile; names = zipfile.ZipFile(sys.argv[1]).namelist(); sys.exit(not any(n.endswith(".dist-info/LICENSE") for n in names))' "$wheel" ||
  fail "$wheel has no dist-info/LICENSE"
echo "wheel: $(basename "$wheel") installs offline; gpudoctor --version and info --sysroot run"

# Project URLs: the wheel lists exactly packaging/project_urls.txt's `Label = URL` lines ...
want=$(sed -n 's/^[[:space:]]*\([^#=[:space:]][^=]*[^=[:space:]]\)[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/Project-URL: \1, \2/p' \
       packaging/project_urls.txt)
got=$(metadata_of "$wheel" | grep '^Project-URL: ' || true)
[ "$got" = "$want" ] || fail "$wheel's Project-URL lines are not packaging/project_urls.txt's: got '$got', want '$want'"
# ... and a set address lands in METADATA (a wheel made here from a list of two), a malformed line is refused.
printf '#!/bin/sh\n' > "$tmp/tiny"  # the binary is not what these wheels test: a small one keeps them fast
printf '# set for the test\nHomepage = https://example.org/gpudoctor\n\nIssues = https://example.org/gpudoctor/issues\n' \
  > "$tmp/urls.txt"
url_wheel=$(python3 packaging/make_wheel.py --binary "$tmp/tiny" --platform manylinux_2_34_x86_64 \
            --version 0.0.1 --readme README.md --project-urls "$tmp/urls.txt" --out "$tmp/urls") ||
  fail "make_wheel.py --project-urls $tmp/urls.txt"
meta=$(metadata_of "$url_wheel")
grep -qFx 'Project-URL: Homepage, https://example.org/gpudoctor' <<<"$meta" &&
  grep -qFx 'Project-URL: Issues, https://example.org/gpudoctor/issues' <<<"$meta" ||
  fail "a wheel made with --project-urls lacks its Project-URL lines: $(grep '^Project-URL' <<<"$meta")"
echo 'Homepage https://example.org/gpudoctor' > "$tmp/bad_urls.txt"
if err=$(python3 packaging/make_wheel.py --binary "$tmp/tiny" --platform manylinux_2_34_x86_64 \
           --version 0.0.1 --readme README.md --project-urls "$tmp/bad_urls.txt" --out "$tmp/urls" 2>&1); then
  fail "make_wheel.py took a project URL line without '=': $err"
fi
grep -q 'bad_urls.txt:1: expected' <<<"$err" || fail "make_wheel.py's message for a malformed URL line: $err"
echo "wheel: Project-URL lines as packaging/project_urls.txt lists them ($(grep -c . <<<"$got" || true)); a set address lands in METADATA"

deb=$(one 'gpudoctor_*_amd64.deb')
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/gpudoctor ./usr/share/man/man1/gpudoctor.1 ./usr/share/bash-completion/completions/gpudoctor \
         ./usr/share/zsh/vendor-completions/_gpudoctor ./usr/share/fish/vendor_completions.d/gpudoctor.fish \
         ./usr/share/doc/gpudoctor/copyright; do
  grep -q " $f\$" <<<"$contents" || fail "$deb has no $f"
done
dpkg-deb -f "$deb" Depends | grep -q 'libc6 (>= 2.34)' || fail "$deb does not name the glibc floor"
homepage=$(sed -n 's/^[[:space:]]*Homepage[[:space:]]*=[[:space:]]*\([^[:space:]]*\).*/\1/p' packaging/project_urls.txt)
[ "$(dpkg-deb -f "$deb" Homepage)" = "$homepage" ] ||
  fail "$deb's Homepage is '$(dpkg-deb -f "$deb" Homepage)', packaging/project_urls.txt's '$homepage'"
dpkg-deb -x "$deb" "$tmp/root"
version=$("$tmp/root/usr/bin/gpudoctor" --version) || fail "the .deb's gpudoctor --version"
grep -q '^gpudoctor ' <<<"$version" || fail "the .deb's gpudoctor --version printed: $version"
grep -q '^\.TH GPUDOCTOR 1' "$tmp/root/usr/share/man/man1/gpudoctor.1" || fail "the .deb's man page"
echo "deb: $(basename "$deb") holds the binary, man page and completions; the extracted binary runs"

win_wheel=$(one 'gpudoctor-*-py3-none-win_amd64.whl')
python3 -c 'import sys, zipfile; names = zipfile.ZipFile(sys.argv[1]).namelist(); sys.exit(not any(n.endswith(".data/scripts/gpudoctor.exe") for n in names))' "$win_wheel" ||
  fail "$win_wheel has no scripts/gpudoctor.exe"
zip=$(one 'gpudoctor-*-windows-x86_64.zip')
python3 -c 'import sys, zipfile; names = [n.split("/")[-1] for n in zipfile.ZipFile(sys.argv[1]).namelist()]; sys.exit(not {"gpudoctor.exe", "README.md", "LICENSE.txt"} <= set(names))' "$zip" ||
  fail "$zip lacks gpudoctor.exe, README.md or LICENSE.txt"
echo "windows: $(basename "$win_wheel") and $(basename "$zip") hold gpudoctor.exe"
