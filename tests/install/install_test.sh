#!/usr/bin/env bash
# `cmake --install BUILD --prefix TMP`, then the installed tujit as a user runs it: from another
# directory, on a spec copied out of the source tree, with its object cache in a fresh
# $XDG_CACHE_HOME — `check`, `run --verify`, `cycles`. Then what the install put beside it: the
# man page and the bash completion name every subcommand and every option of its --help, the
# completion completes, the reference is there, and nothing in the executable's loaded data names
# the source tree.
# usage: install_test.sh BUILD_DIR SOURCE_DIR
set -euo pipefail
BUILD=$1
SOURCE=$(cd "$2" && pwd)
TMP=$(mktemp -d)
trap 'rm -rf "$TMP"' EXIT
fail() {
  echo "install_test: $*" >&2
  exit 1
}

cmake --install "$BUILD" --prefix "$TMP/prefix" >"$TMP/install.log" || {
  cat "$TMP/install.log"
  fail "cmake --install failed"
}
TUJIT=$TMP/prefix/bin/tujit
MAN_GZ=$TMP/prefix/share/man/man1/tujit.1.gz
COMPLETION=$TMP/prefix/share/bash-completion/completions/tujit
DOC=$TMP/prefix/share/doc/tujit
for f in "$TUJIT" "$MAN_GZ" "$COMPLETION" "$DOC"/README.md "$DOC"/docs/cli.md "$DOC"/docs/errors.md \
  "$DOC"/copyright; do
  [ -f "$f" ] || fail "not installed: ${f#"$TMP"/prefix/}"
done
# The man page is installed gzip-compressed (man reads it as it is); the checks below read it plain.
MAN=$TMP/tujit.1
gzip -d -c "$MAN_GZ" >"$MAN" || fail "the installed man page is not gzip data"

# A user's directory outside the tree, and the book's batched matmul copied into it.
mkdir "$TMP/work"
cp "$SOURCE/specs/bmatmul_m_in_time.rs" "$TMP/work/kernel.rs"
cd "$TMP/work"
unset TUJIT_CACHE_DIR
export XDG_CACHE_HOME=$TMP/cache HOME=$TMP/home
"$TUJIT" check kernel.rs >check.out || fail "check: $(cat check.out)"
grep -q "^1 kernel: 1 ok" check.out || fail "check did not pass the kernel: $(cat check.out)"
"$TUJIT" run kernel.rs --verify >run.out || fail "run --verify: $(cat run.out)"
grep -q "jit vs interp: bit-exact" run.out && grep -q "oracle: ok" run.out ||
  fail "run --verify did not agree: $(cat run.out)"
"$TUJIT" cycles kernel.rs >cycles.out || fail "cycles: $(cat cycles.out)"
grep -q -E "^  kernel: [0-9]+ cycles analytic, [0-9]+ trace" cycles.out ||
  fail "cycles printed no kernel total: $(cat cycles.out)"
# The JIT's object cache went where docs/cli.md §6 says, not into the source or build tree.
[ -n "$(ls -A "$XDG_CACHE_HOME/tujit" 2>/dev/null)" ] || fail "no object cache in \$XDG_CACHE_HOME/tujit"
"$TUJIT" version | grep -q "^commit " || fail "tujit version names no commit"

# No path into the source tree in the data the executable loads (its debug sections may name
# the sources; they are never read).
for section in .rodata .data .data.rel.ro; do
  if readelf -p "$section" "$TUJIT" 2>/dev/null | grep -F -q "$SOURCE/"; then
    fail "the installed tujit's $section names the source tree $SOURCE"
  fi
done

# Every subcommand (from `tujit --help`) in the man page and the completion, with every option
# its --help lists.
mapfile -t commands < <("$TUJIT" --help | sed -n '/^commands:/,/^$/p' | awk 'NF > 1 {print $1}')
[ "${#commands[@]}" -ge 10 ] || fail "tujit --help lists ${#commands[@]} commands"
for c in "${commands[@]}"; do
  grep -q -F ".SS \"tujit $c\"" "$MAN" || fail "man page: no section for $c"
  grep -q -E "^  $c\) options=" "$COMPLETION" || fail "completion: no case for $c"
  mapfile -t options < <("$TUJIT" "$c" --help | grep -o -E '^  (-[a-z] \[ )?--[a-z0-9-]+' |
    grep -o -E -- '--[a-z0-9-]+')
  [ "${#options[@]}" -ge 2 ] || fail "$c --help lists ${#options[@]} options"
  for o in "${options[@]}"; do
    grep -q -F "\\fB${o//-/\\-}\\fR" "$MAN" || fail "man page: $c has no $o"
    grep -E "^  $c\) options=" "$COMPLETION" | grep -q -E -- "(\"| )$o( |\")" ||
      fail "completion: $c has no $o"
  done
done
# The page is ASCII (other characters as groff escapes) and renders without a warning.
if LC_ALL=C grep -n -P '[^\x00-\x7F]' "$MAN" | head -n 3 | grep .; then
  fail "man page: characters outside ASCII"
fi
groff -man -Tutf8 -ww -z "$MAN" 2>"$TMP/groff.err" || fail "groff failed: $(cat "$TMP/groff.err")"
[ ! -s "$TMP/groff.err" ] || fail "groff: $(cat "$TMP/groff.err")"

# The completion completes: a subcommand from its prefix, an option of that subcommand.
complete_words() {
  bash -c 'source "$1"; shift; COMP_WORDS=("$@"); COMP_CWORD=$(($# - 1)); _tujit
           printf "%s\n" "${COMPREPLY[@]}"' _ "$COMPLETION" "$@"
}
[ "$(complete_words tujit cyc)" = cycles ] || fail "completion of 'tujit cyc': $(complete_words tujit cyc)"
[ "$(complete_words tujit run kernel.rs --veri)" = --verify ] ||
  fail "completion of 'tujit run kernel.rs --veri': $(complete_words tujit run kernel.rs --veri)"
echo "install_test: ok (${#commands[@]} commands)"
