#!/usr/bin/env bash
# Every highlighting grammar on pathological code: a 96 KB fenced block of one pattern (a run
# of `(`, `[`, `{`, `<div>`, quotes, `#`, `- `…) per grammar and pattern, printed with colour by
# BIN. Reports each case that did not exit 0 and the slowest ones. This is how the crashes
# and freezes of issue 31 were found and how the bounds (`HighlightBudget`, the runtime
# patches) were checked; the worst cases are regression tests in HighlightCrasherTests.
#
#   scripts/highlight-attack.sh BIN [ASAN_GRAMMARS_DIR]
#
# With ASAN_GRAMMARS_DIR (grammars and runtime built with AddressSanitizer:
#   GRAMMAR_CFLAGS="-O1 -g -fsanitize=address" RUNTIME_CFLAGS="$GRAMMAR_CFLAGS" \
#     scripts/build-grammars.sh DIR
# ) libasan is preloaded and any memory error fails its case.
set -uo pipefail
bin="${1:?usage: scripts/highlight-attack.sh BIN [ASAN_GRAMMARS_DIR]}"
asan="${2:-}"
work="$(mktemp -d)"
trap 'rm -rf "$work"' EXIT
python3 - "$work" <<'PY'
import sys
langs = ("bash c cpp css dockerfile go html java javascript json kotlin lua make markdown python "
         "ruby rust sql swift toml typescript yaml diff").split()
pats = {'paren': '(', 'bracket': '[', 'brace': '{', 'div': '<div>', 'dq': '"', 'sq': "'", 'bt': '`',
        'cmt': '/*', 'dollar': '${', 'lt': '<', 'xparen': 'x(', 'nlindent': '\n ', 'backslash': '\\',
        'hash': '#', 'dash': '- ', 'colon': 'a: ', 'eq': '=', 'angle': '<<'}
for l in langs:
    for name, p in pats.items():
        body = (p * (96000 // len(p)))[:96000]
        open(f'{sys.argv[1]}/{l}-{name}.md', 'w').write('```' + l + '\n' + body + '\n```\n')
PY
env=()
if [ -n "$asan" ]; then
  env=(LD_PRELOAD="$(gcc -print-file-name=libasan.so)" ASAN_OPTIONS=detect_leaks=0:halt_on_error=1 FOLIO_GRAMMARS="$asan")
fi
failed=0
: > "$work/times"
for f in "$work"/*.md; do
  start=$(date +%s%N)
  env "${env[@]}" timeout 120 "$bin" --print --color=always "$f" > /dev/null 2> "$work/err"
  rc=$?
  ms=$(( ($(date +%s%N) - start) / 1000000 ))
  echo "$ms $(basename "$f" .md)" >> "$work/times"
  if [ $rc -ne 0 ]; then
    failed=$((failed + 1))
    echo "FAILED (status $rc): $(basename "$f" .md)"; head -3 "$work/err"
  fi
done
echo "$(wc -l < "$work/times") cases, $failed failed; slowest (ms):"
sort -n -r "$work/times" | head -5
[ $failed -eq 0 ]
