#!/usr/bin/env bash
# Tests what `./dev.sh package` wrote (docs/packaging.md), offline:
#  - the Linux wheel installs into a fresh venv with `pip install --no-index`, and the `gpudoctor` it put
#    on PATH prints its version and reads a recorded machine;
#  - the .deb holds the binary, the man page and the bash/zsh/fish completions, and its extracted
#    binary runs; its control file names the glibc floor;
#  - the Windows wheel and zip hold the .exe (and the zip the README and the license);
#  - every package carries the license (wheel METADATA and dist-info/LICENSE, the .deb's copyright file).
#   packaging/test_packages.sh PACKAGES_DIR
# Prints one line per check; exits 1 at the first failure.
set -euo pipefail
dir="$1"
machine="tests/fixtures/sysroot/rx7900xtx-raphael"
tmp=$(mktemp -d)
trap 'rm -rf "$tmp"' EXIT
fail() { echo "FAIL: $*" >&2; exit 1; }
one() { local matches=("$dir"/$1); [ -f "${matches[0]}" ] || fail "no $1 in $dir"; echo "${matches[0]}"; }

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

deb=$(one 'gpudoctor_*_amd64.deb')
contents=$(dpkg-deb -c "$deb")
for f in ./usr/bin/gpudoctor ./usr/share/man/man1/gpudoctor.1 ./usr/share/bash-completion/completions/gpudoctor \
         ./usr/share/zsh/vendor-completions/_gpudoctor ./usr/share/fish/vendor_completions.d/gpudoctor.fish \
         ./usr/share/doc/gpudoctor/copyright; do
  grep -q " $f\$" <<<"$contents" || fail "$deb has no $f"
done
dpkg-deb -f "$deb" Depends | grep -q 'libc6 (>= 2.34)' || fail "$deb does not name the glibc floor"
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
