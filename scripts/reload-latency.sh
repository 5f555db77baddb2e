#!/usr/bin/env bash
# Key latency while a watched Markdown file reloads (issue 11: keys never wait for a parse):
#   scripts/reload-latency.sh FOLIO_BIN FILE.md [ROUNDS]
# Opens a copy of FILE in a private tmux server (100x30), waits for its full parse, then
# ROUNDS times (default 3): appends a line to the copy (folio notices within 0.25 s and
# reloads it) and sends 30 `j`, timing each from the send until the top row changes. Prints
# every latency and the worst. Times include ~2-5 ms of pane polling; an idle `j` is ~7 ms.
set -uo pipefail
bin=$(realpath "$1"); source_file=$2; rounds=${3:-3}
here=$(dirname "$0")
. "$here/timing-lib.sh"
timing_server "folio-reload-latency-$$"
timing_dirs
doc=$work/doc.md
cp "$source_file" "$doc"

t respawn-pane -k -t 0 "'$bin' --theme=dark '$doc'"
until t capture-pane -p -t 0 | tail -1 | grep -q "doc.md.*p1/[0-9]"; do sleep 0.05; done
sleep 1
all=(); worst=0
for round in $(seq "$rounds"); do
  echo "edited $round" >> "$doc"
  sleep 0.3
  for _ in $(seq 30); do
    before=$(t capture-pane -p -t 0 | head -1)
    start=$(date +%s%N); t send-keys -t 0 j
    while [ "$(t capture-pane -p -t 0 | head -1)" == "$before" ]; do :; done
    ms=$(( ($(date +%s%N) - start) / 1000000 ))
    all+=("$ms"); [ "$ms" -gt "$worst" ] && worst=$ms
  done
  sleep 3
done
echo "j during reloads (ms): ${all[*]}"
echo "reloads of $(basename "$source_file"): $(summary "${all[@]}"), worst $worst ms"
