#!/usr/bin/env bash
# The Debian package of `make deb`, packed by CPack from BUILD into a temporary directory: its
# name, its control fields and its files (dpkg-deb -I / -c); what Debian policy asks of its
# documentation (a machine-readable copyright file, the man page compressed with `gzip -9n`); and
# its Depends — derived by dpkg-shlibdeps — naming exactly the packages that hold the shared
# libraries `ldd` lists for the packed executable and the compile backend library it loads.
# usage: deb_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$(cd "$1" && pwd)
SOURCE=$(cd "$2" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() {
  echo "deb_test: $*" >&2
  exit 1
}

version=$("$BUILD/harness/tujit" version | sed -n 's/^tujit \([0-9][^ ]*\) .*/\1/p')
[ -n "$version" ] || fail "tujit version printed no version"
arch=$(dpkg --print-architecture)
cpack --config "$BUILD/CPackConfig.cmake" -G DEB -B "$TMP" >"$TMP/cpack.log" 2>&1 || {
  cat "$TMP/cpack.log"
  fail "cpack failed"
}
deb=$TMP/tujit_${version}_${arch}.deb
[ -f "$deb" ] || fail "no $(basename "$deb"): $(ls "$TMP")"

field() { dpkg-deb -f "$deb" "$1"; }
[ "$(field Package)" = tujit ] || fail "Package: $(field Package)"
[ "$(field Version)" = "$version" ] || fail "Version: $(field Version), tujit says $version"
[ "$(field Architecture)" = "$arch" ] || fail "Architecture: $(field Architecture)"
[ -n "$(field Description)" ] || fail "no Description"

dpkg-deb -c "$deb" | awk '{print $NF}' >"$TMP/files"
DOC=./usr/share/doc/tujit
MAN=./usr/share/man/man1/tujit.1.gz
for f in ./usr/bin/tujit "$MAN" ./usr/share/bash-completion/completions/tujit \
  "$DOC"/copyright "$DOC"/README.md "$DOC"/docs/cli.md "$DOC"/docs/errors.md; do
  grep -q -x -F "$f" "$TMP/files" || fail "the package holds no $f"
done
# No uncompressed man page beside it.
if grep -E '^\./usr/share/man/.*[^z]$' "$TMP/files" | grep -v '/$'; then fail "uncompressed man pages"; fi
# Nothing outside /usr (no build tree, no test binary).
if grep -v -E '^\./(usr/.*)?$' "$TMP/files"; then fail "files outside /usr"; fi
[ "$(grep -c '^\./usr/bin/.' "$TMP/files")" = 1 ] || fail "more than one executable: $(grep '/bin/.' "$TMP/files")"

# Depends: "pkg (>= v), pkg2 (>= w)" → its package names.
depends=$(field Depends)
[ -n "$depends" ] || fail "no Depends"
tr ',' '\n' <<<"$depends" | sed 's/^ *//; s/[ (:].*//' | sort -u >"$TMP/depends"

# The packed (stripped) executable runs and knows what it is.
dpkg-deb -x "$deb" "$TMP/root"
"$TMP/root/usr/bin/tujit" version | grep -q "^tujit $version " || fail "the packed tujit does not run"

# The copyright file: the repository's packaging/copyright, in the machine-readable format (DEP-5):
# a Format header, then a `Files: *` paragraph with Copyright and License.
COPYRIGHT=$TMP/root/usr/share/doc/tujit/copyright
cmp -s "$COPYRIGHT" "$SOURCE/packaging/copyright" || fail "the packed copyright is not packaging/copyright"
head -n 1 "$COPYRIGHT" | grep -q -x -F 'Format: https://www.debian.org/doc/packaging-manuals/copyright-format/1.0/' ||
  fail "copyright: first line is not the DEP-5 Format: $(head -n 1 "$COPYRIGHT")"
awk -v RS= '/(^|\n)Files: \*(\n|$)/ && /\nCopyright: ./ && /\nLicense: ./ {found = 1} END {exit !found}' \
  "$COPYRIGHT" || fail "copyright: no 'Files: *' paragraph with Copyright and License"

# The man page as `gzip -9n` writes it (RFC 1952 header): magic 1f 8b, method 8 (deflate), no
# flags (so no file name), time stamp 0, extra flags 2 (maximum compression); and inside, exactly
# the page the packed tujit prints.
header=$(od -A n -t x1 -N 9 "$TMP/root/${MAN#./}" | tr -d ' \n')
[ "$header" = 1f8b08000000000002 ] || fail "man page header $header, not gzip -9n's 1f8b08000000000002"
gzip -d -c "$TMP/root/${MAN#./}" >"$TMP/tujit.1" || fail "the man page does not decompress"
"$TMP/root/usr/bin/tujit" help --man | cmp -s - "$TMP/tujit.1" ||
  fail "the compressed man page is not the page \`tujit help --man\` prints"

# The package of each library the packed executable loads (ldd), by the file dpkg installed.
owner() {
  local path=$1 p
  for p in "$path" "$(readlink -f "$path")" "/usr$path" "${path#/usr}"; do
    dpkg -S "$p" 2>/dev/null | head -n 1 | cut -d: -f1 && return 0
  done
  return 1
}
# The compile backend tujit loads on a cache miss (codegen/CMakeLists.txt): packed, and its
# libraries are the package's dependencies too.
mapfile -t backend < <(find "$TMP/root/usr/lib" -name libtujit_llvm.so)
[ "${#backend[@]}" = 1 ] || fail "the package holds ${#backend[@]} compile backend libraries"
: >"$TMP/needed"
while read -r lib path; do
  # The loader and the kernel's vDSO are the system itself, not a dependency.
  case $lib in linux-vdso.so.* | */ld-linux* | ld-linux*) continue ;; esac
  [ -f "$path" ] || fail "ldd: $lib not found"
  pkg=$(owner "$path") || fail "no installed package holds $path"
  echo "$pkg" >>"$TMP/needed"
done < <(for f in "$TMP/root/usr/bin/tujit" "${backend[@]}"; do ldd "$f"; done |
  awk '$2 == "=>" {print $1, $3} $2 != "=>" {print $1, $1}')
sort -u -o "$TMP/needed" "$TMP/needed"
[ -s "$TMP/needed" ] || fail "ldd listed no library"
if ! diff -u "$TMP/needed" "$TMP/depends" >"$TMP/diff"; then
  cat "$TMP/diff"
  fail "Depends ($depends) differs from the packages of ldd's libraries (- ldd, + Depends)"
fi
echo "deb_test: ok: $(basename "$deb"), Depends: $depends"
