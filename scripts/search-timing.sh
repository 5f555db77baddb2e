#!/usr/bin/env bash
# Search latency, folio vs less: open FILE in a private tmux server, wait until it is fully
# loaded, type /PATTERN, and time from Enter to the match showing on screen (polling).
#   [READY=TEXT] scripts/search-timing.sh FOLIO_BIN FILE PATTERN [runs]   (READY: text on the first screen)
set -uo pipefail
bin=$1; file=$2; pattern=$3; runs=${4:-5}
. "$(dirname "$0")/timing-lib.sh"
timing_server "folio-search-timing-$$"
state=$(mktemp -d)
measure() {  # $1 = command, $2 = text showing the document is ready
  local times=()
  for _ in $(seq "$runs"); do
    t respawn-pane -k -t 0 "$1"
    local tries=0
    until t capture-pane -p -t 0 | grep -qF -- "$2"; do
      tries=$((tries + 1)); [ $tries -lt 5000 ] || { echo "not ready" >&2; return 1; }
    done
    sleep 3  # let folio finish the full parse after its preview (less reads lazily anyway)
    t send-keys -t 0 -l "/$pattern"
    sleep 0.5
    local start end
    start=$(date +%s%N)
    t send-keys -t 0 Enter
    tries=0
    # The match is on screen and the prompt is gone.
    until t capture-pane -p -t 0 | grep -F -- "$pattern" | grep -vqF -- "/$pattern"; do
      tries=$((tries + 1)); [ $tries -lt 20000 ] || { echo "no match shown" >&2; return 1; }
    done
    end=$(date +%s%N)
    times+=($(( (end - start) / 1000000 )))
  done
  summary "${times[@]}"
}
ready=${READY:-tidepool}  # text on the first screen of FILE
echo "folio: $(measure "FOLIO_STATE_DIR=$state $bin --no-restore --no-scrollbar '$file'" "$ready")"
echo "less:  $(measure "less '$file'" "$ready")"
rm -rf "$state"
