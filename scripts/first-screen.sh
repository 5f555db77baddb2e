#!/usr/bin/env bash
# Time to first screen, folio vs less, measured in a private tmux server by polling the pane
# until the expected text shows (not a blind sleep). Usage:
#   scripts/first-screen.sh FOLIO_BIN FILE "text that appears on the first screen" [runs]
# Prints min/median per program in milliseconds (the polling itself costs ~2–5 ms a look).
set -uo pipefail
bin=$1; file=$2; needle=$3; runs=${4:-10}
. "$(dirname "$0")/timing-lib.sh"
timing_server "folio-first-screen-$$"
measure() {  # $1 = command line
  local times=()
  for _ in $(seq "$runs"); do
    t respawn-pane -k -t 0 "clear; sleep 1000"
    sleep 0.2
    local start end tries=0
    start=$(date +%s%N)
    t respawn-pane -k -t 0 "$1"
    while ! t capture-pane -p -t 0 | grep -qF -- "$needle"; do
      tries=$((tries + 1)); [ $tries -lt 3000 ] || { echo "never saw: $needle" >&2; return 1; }
    done
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  summary "${times[@]}"
}
state=$(mktemp -d)
echo "folio: $(measure "FOLIO_STATE_DIR=$state $bin --no-restore '$file'")"
echo "less:  $(measure "less '$file'")"
rm -rf "$state"
