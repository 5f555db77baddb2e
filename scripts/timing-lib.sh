# Shared by the timing scripts (sourced, not run): a private tmux server, never the default
# socket, killed on exit; `t` talks to it; `summary` prints min/median of the times given
# as arguments (milliseconds).
timing_server() {  # $1 = a socket name unique to this run
  sock=$1
  trap 't kill-server 2>/dev/null || true' EXIT
  t new-session -d -x 100 -y 30 -e TERM=xterm-256color "sleep 1000"
  t set -g remain-on-exit on
}
t() { tmux -L "$sock" -f /dev/null "$@"; }
# timing_dirs: a work folder ($work) and a private state folder ($state, FOLIO_STATE_DIR), both
# removed on exit with the tmux server (call after timing_server: this trap replaces its own).
timing_dirs() {
  work=$(mktemp -d); state=$(mktemp -d)
  trap 't kill-server 2>/dev/null || true; rm -rf "$work" "$state"' EXIT
  export FOLIO_STATE_DIR=$state
}
summary() {
  printf '%s\n' "$@" | sort -n | awk '{a[NR]=$1} END {printf "min %d ms  median %d ms  (n=%d)\n", a[1], a[int((NR+1)/2)], NR}'
}
