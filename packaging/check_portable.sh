#!/usr/bin/env bash
# Checks that a Linux gpudoctor binary runs on every distribution with glibc >= the documented floor
# (docs/packaging.md): it needs no shared libstdc++ (linked in statically), only the system's glibc and
# libgcc_s, and no glibc symbol version above the floor. Reads the binary's dynamic section and versioned symbols with readelf
# and objdump; exits 1, naming what is wrong, when it would not run there.
#   packaging/check_portable.sh build/release/src/gpudoctor [FLOOR]     (FLOOR default 2.34)
set -euo pipefail
binary="$1"
floor="${2:-2.34}"
[ -f "$binary" ] || { echo "check_portable: no binary at $binary" >&2; exit 3; }

needed=$(readelf -d "$binary" | sed -n 's/.*(NEEDED).*\[\(.*\)\]/\1/p' | sort)
newest=$(objdump -T "$binary" | grep -o 'GLIBC_[0-9][0-9.]*' | sed 's/GLIBC_//' | sort -uV | tail -1)
cxx_versions=$(objdump -T "$binary" | grep -o 'GLIBCXX_[0-9.]*\|CXXABI_[0-9.]*' | sort -u | tr '\n' ' ' || true)
gcc_newest=$(objdump -T "$binary" | grep -o 'GCC_[0-9][0-9.]*' | sed 's/GCC_//' | sort -uV | tail -1 || true)

echo "$binary: needs $(echo "$needed" | tr '\n' ' '); newest glibc symbol version $newest (floor $floor)," \
  "newest libgcc_s ${gcc_newest:-none}"
status=0
for lib in $needed; do
  case "$lib" in
    libc.so.6 | libm.so.6 | ld-linux-x86-64.so.2 | libdl.so.2 | libpthread.so.0 | librt.so.1 | libgcc_s.so.1) ;;
    *) echo "  not portable: needs $lib (link it statically, or load it at run time with dlopen)" >&2; status=1 ;;
  esac
done
if [ -n "$cxx_versions" ]; then
  echo "  not portable: uses the shared C++ runtime ($cxx_versions): link with -static-libstdc++" >&2
  status=1
fi
if [ "$(printf '%s\n%s\n' "$newest" "$floor" | sort -V | tail -1)" != "$floor" ]; then
  echo "  not portable: needs glibc $newest, above the floor $floor; these symbols:" >&2
  objdump -T "$binary" | grep "GLIBC_$newest" | awk '{print "    " $NF}' >&2
  status=1
fi
if [ -n "$gcc_newest" ] && [ "$(printf '%s\n%s\n' "$gcc_newest" 7.0.0 | sort -V | tail -1)" != 7.0.0 ]; then
  echo "  not portable: needs libgcc_s GCC_$gcc_newest, newer than GCC 7's (RHEL 9 and Ubuntu 22.04 have more)" >&2
  status=1
fi
[ "$status" -eq 0 ] && echo "  portable: runs with glibc >= $newest, no shared C++ runtime"
exit "$status"
