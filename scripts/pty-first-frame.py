#!/usr/bin/env python3
"""First-frame and per-key timing in a pseudo-terminal of 100x30 (no tmux polling in the figure).

  scripts/pty-first-frame.py [--runs N] [--end SEQ] [--keys N [--key K] [--after S]] 'SHELL COMMAND'

Runs `sh -c COMMAND` in a new pty N times and prints the milliseconds from the spawn until the
output contains SEQ: by default `ESC [?2026l`, the end of folio's (synchronised) frame; for less,
pass --end ':\\x1b[K' (its prompt, written after the screen). With --keys, after the first frame
(and --after S seconds) sends K (default `j`) N times, 30 ms apart, and reports the latency from
each write to the end of the next frame.

  scripts/pty-first-frame.py --runs 15 'cat big.diff | folio'
  scripts/pty-first-frame.py --runs 15 --end ':\\x1b[K' 'cat big.diff | less -R'
  scripts/pty-first-frame.py --keys 100 --after 2 'exec folio --no-restore big.log'
"""
import fcntl, os, pty, select, signal, statistics, struct, sys, termios, time

args = sys.argv[1:]
end = b"\x1b[?2026l"; keys = 0; runs = 1; key = b"j"; after = 0.0
while args and args[0].startswith("--"):
    a = args.pop(0)
    if a == "--keys": keys = int(args.pop(0))
    elif a == "--runs": runs = int(args.pop(0))
    elif a == "--key": key = args.pop(0).encode()
    elif a == "--after": after = float(args.pop(0))
    elif a == "--end": end = args.pop(0).encode().decode("unicode_escape").encode("latin-1")
    else: sys.exit(__doc__)
if len(args) != 1: sys.exit(__doc__)
command = args[0]

def run():
    pid, fd = pty.fork()
    if pid == 0:
        os.environ.setdefault("TERM", "xterm-256color")
        os.execvp("sh", ["sh", "-c", command])
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
    start = time.perf_counter()
    pending = b""
    def wait_for_end(deadline):
        nonlocal pending
        while time.perf_counter() < deadline:
            ready, _, _ = select.select([fd], [], [], 0.005)
            if not ready: continue
            try: pending += os.read(fd, 1 << 16)
            except OSError: return False
            if end in pending:
                pending = pending[pending.rindex(end) + len(end):]
                return True
        return False
    first = (time.perf_counter() - start) * 1000 if wait_for_end(start + 10) else None
    latencies = []
    if keys:
        quiet = time.perf_counter() + after
        while time.perf_counter() < quiet: wait_for_end(quiet)
        for _ in range(keys):
            sent = time.perf_counter(); os.write(fd, key)
            if wait_for_end(sent + 2): latencies.append((time.perf_counter() - sent) * 1000)
            time.sleep(0.03)
    os.kill(pid, signal.SIGTERM)
    try: os.waitpid(pid, 0)
    except ChildProcessError: pass
    os.close(fd)
    return first, latencies

firsts = []
for _ in range(runs):
    first, latencies = run()
    if first is not None: firsts.append(first)
    if latencies:
        latencies.sort()
        print("keys: n=%d median %.2f ms  p90 %.2f ms  max %.2f ms" % (
            len(latencies), statistics.median(latencies), latencies[int(len(latencies) * 0.9) - 1], latencies[-1]))
firsts.sort()
print("first frame: " + " ".join("%.1f" % x for x in firsts) + ("  median %.1f ms" % statistics.median(firsts) if firsts else "  (never seen)"))
