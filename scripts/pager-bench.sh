#!/usr/bin/env bash
# The pager figures of the text and stream issues, folio beside less in the same run:
#   scripts/pager-bench.sh FOLIO_BIN [WORK_DIR]
#   ONLY="log git yes tiny slow markdown" picks parts (default: all).
# Generates its inputs in WORK_DIR (default: a new temp dir; about 1.3 GB), drives both pagers
# in a private tmux server (100x30) and polls the pane for the text each step must show, so
# every time includes ~2-5 ms of polling. Memory is read from /proc/PID/status.
#   - 1 GB log: first screen, G, g, a search for a word only on the last line, RssAnon after.
#   - 50 MB `git log -p`-style stream piped in: first screen.
#   - `yes |`: first screen, VmHWM and RssAnon after 10 s idle.
#   - 100 MB of `y` lines piped, then G: time to the end, VmHWM and RssAnon.
#   - slow pipe: first line on screen while the writer is still sleeping.
#   - 20 MB and 100 MB Markdown (folio-bench's document): first screen, the worst of 20 `j`
#     latencies sent right after the first screen (while the full parse runs), VmHWM after G
#     and a resize.
set -uo pipefail
bin=$(realpath "$1"); work=${2:-$(mktemp -d)}
mkdir -p "$work"
here=$(dirname "$0")
. "$here/timing-lib.sh"
timing_server "folio-pager-bench-$$"
state=$(mktemp -d)
export FOLIO_STATE_DIR=$state LESSHISTFILE=- LESS=

want() { [ -z "${ONLY:-}" ] || [[ " $ONLY " == *" $1 "* ]]; }
ms() { echo $(( ($(date +%s%N) - $1) / 1000000 )); }
# wait_for NEEDLE [tries]: poll the pane until NEEDLE shows; fails loudly after ~60 s.
wait_for() {
  local tries=0 limit=${2:-20000}
  until t capture-pane -p -t 0 | grep -qF -- "$1"; do
    tries=$((tries + 1)); [ $tries -lt "$limit" ] || { echo "never saw: $1" >&2; return 1; }
  done
}
open() { t respawn-pane -k -t 0 "clear; sleep 1000"; sleep 0.2; start=$(date +%s%N); t respawn-pane -k -t 0 "$1"; }
newest() { pgrep -n -x "$1"; }
mem() { grep -E "^($2):" "/proc/$1/status" | awk '{printf "%s %d MB  ", $1, $2/1024}'; }

# --- inputs ---------------------------------------------------------------------------------
log=$work/big.log
if [ ! -s "$log" ]; then
  python3 - "$log" <<'EOF'
import sys, random
random.seed(7)
lines = []
for i in range(12000):
    lines.append("2026-11-23T12:%02d:%02d.%06d+00:00 web-%02d api[%d]: GET /api/v1/items/%d status=%d took=%dms user=%s\n" % (
        i // 60 % 60, i % 60, random.randrange(10**6), i % 16, 1000 + i % 97, random.randrange(10**6),
        random.choice([200, 200, 200, 304, 404, 500]), random.randrange(900), random.choice(["ana", "bo", "cy", "dee"])))
block = "".join(lines).encode()
with open(sys.argv[1], "wb") as f:
    f.write(b"BEGIN-OF-LOG first line\n")
    n = 0
    while n < 1 << 30:
        f.write(block); n += len(block)
    f.write(b"2026-11-23T23:59:59.999999+00:00 web-00 api[1]: zebracorn shutdown complete\n")
EOF
fi
gitlog=$work/gitlog.diff
if [ ! -s "$gitlog" ]; then
  one=$(mktemp); git -C "$here/.." log -p --color=always > "$one"
  while [ "$(stat -c %s "$gitlog" 2>/dev/null || echo 0)" -lt 52428800 ]; do cat "$one" >> "$gitlog"; done
  rm -f "$one"
fi
md20=$work/big20.md; md100=$work/big100.md
if [ ! -s "$md20" ]; then
  benchbin=$(dirname "$bin")/folio-bench
  "$benchbin" --write-doc "$md20" > /dev/null
  for _ in 1 2 3 4 5; do cat "$md20"; done > "$md100"
fi
printf 'inputs: log %d MB, git log -p %d MB, Markdown %d MB and %d MB\n' \
  $(( $(stat -c %s "$log") >> 20 )) $(( $(stat -c %s "$gitlog") >> 20 )) \
  $(( $(stat -c %s "$md20") >> 20 )) $(( $(stat -c %s "$md100") >> 20 ))

# --- 1 GB log -------------------------------------------------------------------------------
want log && for who in folio less; do
  cmd=$([ $who = folio ] && echo "exec $bin --no-restore '$log'" || echo "exec less '$log'")
  first=(); for _ in 1 2 3 4 5; do open "$cmd"; wait_for "BEGIN-OF-LOG"; first+=("$(ms "$start")"); done
  open "$cmd"; wait_for "BEGIN-OF-LOG"
  start=$(date +%s%N); t send-keys -t 0 G; wait_for "zebracorn"; g_end=$(ms "$start")
  start=$(date +%s%N); t send-keys -t 0 g; wait_for "BEGIN-OF-LOG"; g_top=$(ms "$start")
  t send-keys -t 0 -l "/zebracorn"; sleep 0.3
  start=$(date +%s%N); t send-keys -t 0 Enter
  until t capture-pane -p -t 0 | grep -F "zebracorn shutdown" | grep -vqF "/zebracorn"; do :; done
  search=$(ms "$start")
  pid=$(newest $who)
  echo "1 GB log, $who: first screen $(summary "${first[@]}"); G ${g_end} ms; g ${g_top} ms; search last line ${search} ms; $(mem "$pid" 'RssAnon|VmHWM')"
done

# --- 50 MB git log -p, piped ---------------------------------------------------------------
want git && for who in folio less; do
  cmd=$([ $who = folio ] && echo "cat '$gitlog' | $bin" || echo "cat '$gitlog' | less -R")
  first=(); for _ in 1 2 3 4 5; do open "$cmd"; wait_for "commit "; first+=("$(ms "$start")"); done
  echo "50 MB git log -p | $who: first screen $(summary "${first[@]}")"
done

# --- yes | --------------------------------------------------------------------------------
want yes && for who in folio less; do
  first=(); for _ in 1 2 3 4 5; do open "yes | $([ $who = folio ] && echo "$bin" || echo less)"; wait_for "y"; first+=("$(ms "$start")"); done
  pid=$(newest $who); a=$(mem "$pid" 'VmRSS'); sleep 10
  echo "yes | $who: first screen $(summary "${first[@]}"); $a-> after 10 s $(mem "$pid" 'VmRSS|VmHWM|RssAnon')"
done

# --- tiny lines ----------------------------------------------------------------------------
# 100 MB of 2-byte lines piped, then G: the memory a line index costs (issue 27, item 9).
tiny=$work/tiny.txt
[ -s "$tiny" ] || { yes | head -c 104857600 > "$tiny"; echo TINY-END >> "$tiny"; }
want tiny && for who in folio less; do
  open "cat '$tiny' | $([ $who = folio ] && echo "$bin" || echo less)"; wait_for "y"
  s=$(date +%s%N); t send-keys -t 0 G; wait_for "TINY-END" 2000000; g=$(ms "$s")
  pid=$(newest $who); sleep 2
  echo "100 MB of 2-byte lines | $who: G shows the end after $g ms; $(mem "$pid" 'VmHWM|RssAnon')"
done

# --- slow pipe ------------------------------------------------------------------------------
want slow && for who in folio less; do
  open "(echo first-line-arrived; sleep 5; echo done) | $([ $who = folio ] && echo "$bin" || echo less)"
  wait_for "first-line-arrived"; echo "slow pipe | $who: first line on screen after $(ms "$start") ms (writer sleeps 5 s after it)"
done

# --- Markdown -------------------------------------------------------------------------------
want markdown && for md in "$md20" "$md100"; do
  size=$(( $(stat -c %s "$md") >> 20 ))
  for who in folio less; do
    cmd=$([ $who = folio ] && echo "exec $bin --no-restore '$md'" || echo "exec less '$md'")
    first=(); for _ in 1 2 3; do open "$cmd"; wait_for "tidepool"; first+=("$(ms "$start")"); done
    worst=0
    if [ $who = folio ]; then
      open "$cmd"; wait_for "tidepool"
      for _ in $(seq 20); do
        before=$(t capture-pane -p -t 0 | head -n 29)
        s=$(date +%s%N); t send-keys -t 0 j
        until [ "$(t capture-pane -p -t 0 | head -n 29)" != "$before" ]; do :; done
        l=$(ms "$s"); [ "$l" -gt "$worst" ] && worst=$l
      done
    fi
    t send-keys -t 0 G; wait_for "xylophone-terminus" 200000
    t resize-window -t 0 -x 90; sleep 3; t resize-window -t 0 -x 100; sleep 1
    pid=$(newest $who)
    echo "$size MB Markdown, $who: first screen $(summary "${first[@]}"); $( [ $who = folio ] && echo "worst j latency during the parse ${worst} ms; ")after G + resize $(mem "$pid" 'VmHWM|RssAnon')"
  done
done
rm -rf "$state"
