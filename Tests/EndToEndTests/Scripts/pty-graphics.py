#!/usr/bin/env python3
"""Runs a command in a pseudo-terminal that answers folio's graphics query as a chosen
terminal would, and saves what the command wrote, one file per phase.

  pty-graphics.py --answer kitty|sixel|iterm|none --out PREFIX [--cell WxH] [--no-pixels]
                  [--keys K]... -- COMMAND...

The terminal answers kitty's query (ESC _ G i=31 ...) with OK when --answer kitty, DA1
(ESC [ c) with attribute 4 (sixel) when --answer sixel or iterm, and XTVERSION (ESC [ > 0 q)
with "iTerm2 3.5.0" when --answer iterm. Its cells are --cell pixels (10x20), said in
TIOCGWINSZ's pixel fields, or only in the answer to CSI 16 t with --no-pixels. Phase 0 is everything up to the
first quiet moment after a frame that drew a picture's rows (or 5 s); then each --keys is
typed and what follows, up to the next quiet moment, is the next phase. PREFIX.N holds
phase N's bytes. Used by ImagesEndToEndTests (tmux cannot answer for kitty or sixel).
"""
import argparse, os, pty, select, struct, fcntl, termios, time, signal, sys

ap = argparse.ArgumentParser()
ap.add_argument("--answer", choices=["kitty", "sixel", "iterm", "none"], required=True)
ap.add_argument("--cell", default="10x20")
ap.add_argument("--no-pixels", action="store_true")
ap.add_argument("--out", required=True)
ap.add_argument("--keys", action="append", default=[])
ap.add_argument("--rows", type=int, default=24)
ap.add_argument("--cols", type=int, default=80)
ap.add_argument("--ready", default="[image:", help="text whose arrival ends the wait for the first frame")
ap.add_argument("command", nargs=argparse.REMAINDER)
a = ap.parse_args()
cmd = a.command[1:] if a.command and a.command[0] == "--" else a.command

pid, fd = pty.fork()
if pid == 0:
    os.execvp(cmd[0], cmd)
# 10 x 20 pixels a cell by default, as kitty and most graphical terminals report them.
cw, ch = (int(n) for n in a.cell.split("x"))
px = (0, 0) if a.no_pixels else (a.cols * cw, a.rows * ch)
fcntl.ioctl(fd, termios.TIOCSWINSZ, struct.pack("HHHH", a.rows, a.cols, *px))

def read_until_quiet(buf, quiet=0.4, limit=8.0, want=None):
    start = time.time(); last = time.time(); answered_kitty = answered_da1 = answered_cell = answered_name = False
    while time.time() - start < limit:
        r, _, _ = select.select([fd], [], [], 0.05)
        if r:
            try:
                data = os.read(fd, 65536)
            except OSError:
                return False
            if not data:
                return False
            buf += data; last = time.time()
            if b"\x1b_Gi=31" in buf and not answered_kitty and a.answer == "kitty":
                os.write(fd, b"\x1b_Gi=31;OK\x1b\\"); answered_kitty = True
            if b"\x1b[16t" in buf and not answered_cell:
                os.write(fd, f"\x1b[6;{ch};{cw}t".encode()); answered_cell = True
            if b"\x1b[>0q" in buf and not answered_name and a.answer == "iterm":
                os.write(fd, b"\x1bP>|iTerm2 3.5.0\x1b\\"); answered_name = True
            if b"\x1b[c" in buf and not answered_da1:
                os.write(fd, b"\x1b[?62;4;22c" if a.answer in ("sixel", "iterm") else b"\x1b[?62;22c"); answered_da1 = True
        elif time.time() - last > quiet and (want is None or want in buf):
            return True
    return True

phases = []
buf = bytearray(); read_until_quiet(buf, quiet=1.0, want=a.ready.encode()); phases.append(bytes(buf))
for keys in a.keys:
    os.write(fd, keys.encode().decode("unicode_escape").encode("latin-1"))
    buf = bytearray(); read_until_quiet(buf, quiet=0.6); phases.append(bytes(buf))
os.write(fd, b"q")
buf = bytearray(); read_until_quiet(buf, quiet=0.5, limit=3); phases.append(bytes(buf))
try:
    os.kill(pid, signal.SIGTERM)
except ProcessLookupError:
    pass
try:
    os.waitpid(pid, 0)
except ChildProcessError:
    pass
for i, p in enumerate(phases):
    with open(f"{a.out}.{i}", "wb") as f:
        f.write(p)
