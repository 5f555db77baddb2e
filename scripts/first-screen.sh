#!/usr/bin/env bash
# Time to first screen, folio vs less, measured in a private tmux server by polling the pane
# until the expected text shows (not a blind sleep). Usage:
#   scripts/first-screen.sh FOLIO_BIN FILE "text that appears on the first screen" [runs]
# Prints min/median per program in milliseconds. Needs tmux and less.
set -euo pipefail
bin=$1; file=$2; needle=$3; runs=${4:-10}
sock="folio-bench-$$"
t() { tmux -L "$sock" -f /dev/null "$@"; }
trap 't kill-server 2>/dev/null || true' EXIT
measure() {  # $1 = command line
  local times=()
  for _ in $(seq "$runs"); do
    t kill-server 2>/dev/null || true
    t new-session -d -x 100 -y 30 "sleep 100"
    sleep 0.1
    local start end
    start=$(date +%s%N)
    t respawn-pane -k -t 0 "$1"
    while ! t capture-pane -p -t 0 | grep -qF -- "$needle"; do :; done
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  printf '%s\n' "${times[@]}" | sort -n | awk '{a[NR]=$1} END {printf "min %d ms  median %d ms  (n=%d)\n", a[1], a[int((NR+1)/2)], NR}'
}
echo "folio: $(measure "FOLIO_STATE_DIR=$(mktemp -d) $bin --no-restore '$file'")"
echo "less:  $(measure "less '$file'")"
