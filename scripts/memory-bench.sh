#!/usr/bin/env bash
# Memory of the Markdown pager on a large real changelog (issue 11, item 6):
#   scripts/memory-bench.sh FOLIO_BIN [COPIES...]        (default copies: 24)
#   SOURCE=file.md picks the Markdown repeated (default: Rust's releases.md from the
#   toolchain, `rustc --print sysroot`; else folio-bench's generated document).
#   MODES="file stdin" picks how folio gets it (default: both).
# For each size, in a private tmux server (100x30): the first screen, the worst of 20 `j`
# sent right after it (while the full parse runs), VmHWM and RssAnon once the parse is done,
# after `G`, and after a resize to 70x20 (then the worst of 10 `k` sent at once after the
# resize, and of 10 more once folio is idle). Memory is read from /proc/PID/status; times
# include ~2-5 ms of pane polling. "idle" = folio's CPU time unchanged for 1 s.
set -uo pipefail
bin=$(realpath "$1"); shift
copies=("${@:-24}")
here=$(dirname "$0")
. "$here/timing-lib.sh"
timing_server "folio-memory-bench-$$"
timing_dirs

source=${SOURCE:-}
if [ -z "$source" ] && command -v rustc > /dev/null; then
  source=$(rustc --print sysroot)/share/doc/rust/html/releases.md
fi
if [ -z "$source" ] || [ ! -s "$source" ]; then
  source=$work/generated.md
  "$(dirname "$bin")/folio-bench" --write-doc "$source" > /dev/null
fi

ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
wait_for() {
  local tries=0
  until t capture-pane -p -t 0 | grep -qF -- "$1"; do
    tries=$((tries + 1)); [ $tries -lt 200000 ] || { echo "never saw: $1" >&2; return 1; }
  done
}
open() { t respawn-pane -k -t 0 "clear; sleep 1000"; sleep 0.2; start=$(date +%s%N); t respawn-pane -k -t 0 "$1"; }
folio_pid() {  # the pane's process, or its child, running $bin
  local pane p; pane=$(t display -p -t 0 '#{pane_pid}')
  for p in "$pane" $(pgrep -P "$pane"); do
    [ "$(readlink "/proc/$p/exe")" = "$bin" ] && { echo "$p"; return; }
  done
}
mem() { grep -E "^(VmHWM|RssAnon):" "/proc/$1/status" | awk '{printf "%s %d MB  ", $1, $2/1024}'; }
cpu() { awk '{print $14 + $15}' "/proc/$1/stat"; }
idle() {  # waits until folio's CPU time stops changing for 1 s (twice 0.5 s)
  local last now quiet=0; last=$(cpu "$1")
  while [ $quiet -lt 2 ]; do
    sleep 0.5; now=$(cpu "$1")
    if [ "$now" = "$last" ]; then quiet=$((quiet + 1)); else quiet=0; last=$now; fi
  done
}
# worst_keys N KEY: the worst time from KEY to the changed screen, over N keys.
worst_keys() {
  local worst=0 before s l
  for _ in $(seq "$1"); do
    before=$(t capture-pane -p -t 0)
    s=$(date +%s%N); t send-keys -t 0 "$2"
    until [ "$(t capture-pane -p -t 0)" != "$before" ]; do :; done
    l=$(ms "$s"); [ "$l" -gt "$worst" ] && worst=$l
  done
  echo "$worst"
}

for n in "${copies[@]}"; do
  md=$work/changelog-$n.md
  for _ in $(seq "$n"); do cat "$source"; printf '\n'; done > "$md"
  printf '\nxylophone-terminus\n' >> "$md"
  mb=$(( $(stat -c %s "$md") >> 20 ))
  for mode in ${MODES:-file stdin}; do
    cmd=$([ "$mode" = file ] && echo "exec $bin --no-restore '$md'" || echo "cat '$md' | $bin --no-restore")
    first=(); for _ in 1 2 3; do open "$cmd"; wait_for "Release Notes"; first+=("$(ms "$start")"); done
    open "$cmd"; wait_for "Release Notes"
    during=$(worst_keys 20 j)
    pid=$(folio_pid); idle "$pid"
    parsed=$(mem "$pid")
    s=$(date +%s%N); t send-keys -t 0 G; wait_for "xylophone-terminus"; g=$(ms "$s"); idle "$pid"
    after_g=$(mem "$pid")
    t resize-window -t 0 -x 70 -y 20
    resize_keys=$(worst_keys 10 k)
    idle "$pid"
    after_resize=$(mem "$pid")
    idle_keys=$(worst_keys 10 k)
    echo "$mb MB Markdown ($n copies), $mode: first screen $(summary "${first[@]}")"
    echo "  worst j during the parse ${during} ms; G ${g} ms; worst k after the resize ${resize_keys} ms, idle ${idle_keys} ms"
    echo "  parsed: $parsed"
    echo "  after G: $after_g"
    hwm=$(awk '/^VmHWM:/ {print $2 * 1024}' "/proc/$pid/status")
    echo "  after resize: $after_resize= $(awk -v a="$hwm" -v b="$(stat -c %s "$md")" 'BEGIN {printf "%.1f", a / b}')x the file"
    t resize-window -t 0 -x 100 -y 30
  done
done
