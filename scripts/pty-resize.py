#!/usr/bin/env python3
"""Resize latency in a pseudo-terminal: from the window size change (TIOCSWINSZ + SIGWINCH to
the process) to the end of the next frame (`ESC [?2026l`).

  scripts/pty-resize.py [--runs N] 'SHELL COMMAND'

Starts the command in a 100x30 pty, waits for the first frame and 1 s more, then changes
the size N times, alternating 100x30 / 90x24 (a width and a height change each time), 0.3 s
apart, and prints each latency, the median and the worst.
"""
import argparse, fcntl, os, pty, select, signal, struct, termios, time

p = argparse.ArgumentParser()
p.add_argument("--runs", type=int, default=20)
p.add_argument("command")
a = p.parse_args()
END = b"\x1b[?2026l"

def setsize(fd, rows, cols):
    fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", rows, cols, 0, 0))

pid, fd = pty.fork()
if pid == 0:
    os.execvp("sh", ["sh", "-c", a.command])
setsize(fd, 30, 100)

def read_until(deadline):
    buf = b""
    while time.monotonic() < deadline:
        r, _, _ = select.select([fd], [], [], 0.01)
        if r:
            try:
                buf += os.read(fd, 1 << 16)
            except OSError:
                break
            if END in buf:
                return buf
    return None

read_until(time.monotonic() + 5)
time.sleep(1)
while select.select([fd], [], [], 0)[0]:
    os.read(fd, 1 << 16)
times = []
for k in range(a.runs):
    rows, cols = (24, 90) if k % 2 == 0 else (30, 100)
    start = time.monotonic()
    setsize(fd, rows, cols)
    os.killpg(os.getpgid(pid), signal.SIGWINCH)
    if read_until(start + 2) is None:
        print("no frame after resize", k)
        continue
    times.append((time.monotonic() - start) * 1000)
    time.sleep(0.3)
    while select.select([fd], [], [], 0)[0]:
        os.read(fd, 1 << 16)
os.kill(pid, signal.SIGTERM)
times.sort()
print("resize: " + " ".join("%.1f" % t for t in times) + "  median %.1f ms  worst %.1f ms" % (times[len(times) // 2], times[-1]))
