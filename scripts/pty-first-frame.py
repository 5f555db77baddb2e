#!/usr/bin/env python3
"""First-frame and per-key timing in a pseudo-terminal of 100x30 (no tmux polling in the figure).

  scripts/pty-first-frame.py [--runs N] [--end SEQ] [--cpu NAME] [--keys N [--key K] [--after S]]
                             [--gap S] [--also SEQ 'OTHER COMMAND']... 'SHELL COMMAND'

Runs `sh -c COMMAND` in a new pty N times and prints the milliseconds from the spawn until the
output contains SEQ: by default `ESC [?2026l`, the end of folio's (synchronised) frame; for less,
pass --end ':\\x1b[K' (its prompt, written after the screen). With --keys, after the first frame
(and --after S seconds) sends K (default `j`) N times, 30 ms apart, and reports the latency from
each write to the end of the next frame. With --cpu NAME, also reports the CPU time the process
called NAME (under the shell) had used when the first frame ended (all threads, from
/proc/PID/task/*/schedstat): unlike the wall time, it does not grow with the machine's load.

  scripts/pty-first-frame.py --runs 15 'cat big.diff | folio'
  scripts/pty-first-frame.py --runs 15 --end ':\\x1b[K' 'cat big.diff | less -R'
  scripts/pty-first-frame.py --keys 100 --after 2 'exec folio --no-restore big.log'

Runs are --gap S seconds apart (0.3): a pager killed after its first frame may still be
saving its position, and would otherwise compete with the next run for the CPU. With --also,
each run starts the command and then every other command in turn (interleaved,
so a machine whose speed drifts affects all alike), and each gets its own line of figures:

  scripts/pty-first-frame.py --runs 41 --also ':\\x1b[K' 'cat big.diff | less -R' 'cat big.diff | folio'
"""
import fcntl, os, pty, select, signal, statistics, struct, sys, termios, time

args = sys.argv[1:]
end = b"\x1b[?2026l"; cpu_name = None; keys = 0; runs = 1; key = b"j"; after = 0.0
others = []  # (command, end sequence) of --also
gap = 0.3  # seconds between runs (--gap)
def sequence(text): return text.encode().decode("unicode_escape").encode("latin-1")
while args and args[0].startswith("--"):
    a = args.pop(0)
    if a == "--keys": keys = int(args.pop(0))
    elif a == "--runs": runs = int(args.pop(0))
    elif a == "--key": key = args.pop(0).encode()
    elif a == "--after": after = float(args.pop(0))
    elif a == "--cpu": cpu_name = args.pop(0)
    elif a == "--end": end = sequence(args.pop(0))
    elif a == "--gap": gap = float(args.pop(0))
    elif a == "--also": seq = sequence(args.pop(0)); others.append((args.pop(0), seq))
    else: sys.exit(__doc__)
if len(args) != 1: sys.exit(__doc__)
command = args[0]

def cpu_ms(root, name):
    """CPU milliseconds used so far by the descendant of `root` called `name` (all threads)."""
    children = {}
    for p in os.listdir("/proc"):
        if not p.isdigit(): continue
        try:
            stat = open("/proc/%s/stat" % p).read()
            comm = stat[stat.index("(") + 1:stat.rindex(")")]
            ppid = int(stat[stat.rindex(")") + 2:].split()[1])
        except (OSError, ValueError): continue
        children.setdefault(ppid, []).append((int(p), comm))
    todo = [root]
    try:  # the command itself, when the shell execs it (`exec folio …`)
        if open("/proc/%d/comm" % root).read().strip() == name: children.setdefault(-1, []).append((root, name)); todo = [-1]
    except OSError: pass
    while todo:
        for pid, comm in children.get(todo.pop(), []):
            if comm == name:
                total = 0
                for t in os.listdir("/proc/%d/task" % pid):
                    try: total += int(open("/proc/%d/task/%s/schedstat" % (pid, t)).read().split()[0])
                    except OSError: pass  # a thread that ended meanwhile
                return total / 1e6
            todo.append(pid)
    return None

def run(command, end, cpus):
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
    if cpu_name and first is not None:
        used = cpu_ms(pid, cpu_name)
        if used is not None: cpus.append(used)
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
    # The pager may still be saving its position or its reader finishing when the shell is
    # gone: let it end, so that it does not compete with the next run for the CPU.
    time.sleep(gap)
    return first, latencies

commands = [(command, end)] + others
firsts = [[] for _ in commands]
cpus = [[] for _ in commands]
for _ in range(runs):
    for i, (c, e) in enumerate(commands):
        first, latencies = run(c, e, cpus[i])
        if first is not None: firsts[i].append(first)
        if latencies:
            latencies.sort()
            print("keys: n=%d median %.2f ms  p90 %.2f ms  max %.2f ms" % (
                len(latencies), statistics.median(latencies), latencies[int(len(latencies) * 0.9) - 1], latencies[-1]))
for i, (c, _) in enumerate(commands):
    f = sorted(firsts[i])
    label = ("%s: " % c) if others else ""
    print(label + "first frame: " + " ".join("%.1f" % x for x in f) + ("  median %.1f ms" % statistics.median(f) if f else "  (never seen)"))
    if cpus[i]:
        u = sorted(cpus[i])
        print("CPU of %s at the first frame: min %.2f ms  median %.2f ms" % (cpu_name, u[0], statistics.median(u)))
