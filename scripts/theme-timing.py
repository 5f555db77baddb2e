#!/usr/bin/env python3
"""Time to first screen of folio on a pseudo-terminal that never answers the colour query
(or answers it at once, with --answer), so --theme=auto's timeout path can be measured.

Usage: scripts/theme-timing.py FOLIO_BIN FILE NEEDLE [runs] [--answer] -- [folio options]
Prints min / median / max in milliseconds from spawn until NEEDLE (text of the status row,
the last thing a frame writes) has been written to the terminal.
"""
import fcntl, os, select, statistics, struct, subprocess, sys, tempfile, termios, time

args = sys.argv[1:]
extra = args[args.index("--") + 1:] if "--" in args else []
args = args[:args.index("--")] if "--" in args else args
answer = "--answer" in args
args = [a for a in args if a != "--answer"]
binary, path, needle = args[0], args[1], args[2].encode()
runs = int(args[3]) if len(args) > 3 else 20
REPLY = b"\x1b]10;rgb:0000/0000/0000\x1b\\\x1b]11;rgb:ffff/ffff/ffff\x1b\\\x1b[?64;1c"

def once(state):
    master, slave = os.openpty()
    fcntl.ioctl(slave, termios.TIOCSWINSZ, struct.pack("HHHH", 40, 100, 0, 0))
    env = dict(os.environ, TERM="xterm-256color", FOLIO_STATE_DIR=state, NO_COLOR="")
    env.pop("COLORFGBG", None)
    start = time.monotonic()
    proc = subprocess.Popen([binary, "--no-restore"] + extra + [path], stdin=slave, stdout=slave,
                            stderr=slave, env=env, start_new_session=True,
                            preexec_fn=lambda: fcntl.ioctl(0, termios.TIOCSCTTY, 0))
    os.close(slave)
    seen, answered, elapsed = b"", False, None
    while elapsed is None:
        ready, _, _ = select.select([master], [], [], 5)
        if not ready:
            raise SystemExit("never saw the needle")
        chunk = os.read(master, 65536)
        seen += chunk
        if answer and not answered and b"\x1b]11;?" in seen:
            os.write(master, REPLY); answered = True
        if needle in seen:
            elapsed = (time.monotonic() - start) * 1000
    os.write(master, b"q")
    try:
        while select.select([master], [], [], 1)[0] and os.read(master, 65536):
            pass
    except OSError:
        pass
    proc.wait(timeout=5)
    os.close(master)
    return elapsed

with tempfile.TemporaryDirectory() as state:
    times = sorted(once(state) for _ in range(runs))
print(f"min {times[0]:.1f} ms  median {statistics.median(times):.1f} ms  max {times[-1]:.1f} ms  ({runs} runs)")
