#!/usr/bin/env python3
"""Writes the link order of folio's start-up code (Sources/Link/startup-order.txt).

  scripts/startup-order.py FOLIO OUTPUT      (`make startup-order` builds FOLIO and runs this)

Runs FOLIO under valgrind's callgrind, in a 30x100 pseudo-terminal, on what a user opens most:
a large Markdown file (its preview), a small one, a text file, a pipe, `-F` on a short file and
`--version`. Each run quits (`q`) as soon as its first screen is out. Every function of FOLIO
that ran is written to OUTPUT, one symbol a line, sorted.

The link (Package.swift, `startupOrder`) puts those functions first and together, so the pages
of code a start touches are few and contiguous: each first touch of a 64 KB block of code costs
a page fault. The Swift standard library's code is one section in its archive and keeps its
own order; the names of its functions in the list are ignored by the linker. A function renamed
since the list was written falls back to its usual place: regenerate the list when start-up
figures drift (docs/benchmarks.md, "Start-up").
"""
import os, pty, re, select, shlex, shutil, struct, subprocess, sys, tempfile, time, fcntl, termios

def run_in_pty(argv, env, piped=None):
    """Runs argv (its input piped from the file `piped`, if given) and quits it after its first screen."""
    if piped:
        argv = ["sh", "-c", f"cat {shlex.quote(piped)} | exec {shlex.join(argv)}"]
    pid, fd = pty.fork()
    if pid == 0:
        fcntl.ioctl(0, termios.TIOCSWINSZ, struct.pack("HHHH", 30, 100, 0, 0))
        os.execvpe(argv[0], argv, env)
    sent = False; seen = b""; deadline = time.time() + 120
    while time.time() < deadline:
        r, _, _ = select.select([fd], [], [], 1.0)
        if not r:
            if seen and not sent: os.write(fd, b"q"); sent = True
            continue
        try: data = os.read(fd, 65536)
        except OSError: break
        if not data: break
        seen += data
        if not sent and b"\x1b[?2026l" in seen:  # the end of the first (synchronised) frame
            os.write(fd, b"q"); sent = True
    os.waitpid(pid, 0); os.close(fd)

def functions(callgrind_out, binary):
    """The functions of `binary` that callgrind saw run, in the order of the file."""
    names, objects, current, out = {}, {}, None, []
    for line in open(callgrind_out, errors="replace"):
        m = re.match(r"^(ob|cob|fn|cfn)=\((\d+)\)(?: (.*))?$", line.rstrip("\n"))
        if not m: continue
        kind, key, name = m.groups()
        if kind in ("ob", "cob"):
            if name: objects[key] = name
            if kind == "ob": current = objects.get(key)
            continue
        if name: names[key] = name
        if kind == "fn" and current == binary:
            out.append(re.sub(r"'\d+$", "", names[key]))  # (callgrind marks recursion: f'2)
    return [n for n in out if not n.startswith("0x")]

def main():
    if len(sys.argv) != 3: sys.exit(__doc__)
    folio, output = os.path.abspath(sys.argv[1]), sys.argv[2]
    if not shutil.which("valgrind"): sys.exit("startup-order: needs valgrind (apt-get install valgrind)")
    root = os.path.dirname(os.path.dirname(os.path.abspath(__file__)))
    work = tempfile.mkdtemp(prefix="folio-order.")
    try:
        binary = os.path.join(work, "folio")
        # valgrind 3.19 cannot read the DWARF 5 clang writes: the symbols are enough.
        subprocess.run(["objcopy", "--strip-debug", folio, binary], check=True)
        docs = os.path.join(root, "SampleDocs")
        samples = sorted(os.path.join(docs, f) for f in os.listdir(docs) if f.endswith(".md"))
        big = os.path.join(work, "big.md")
        with open(big, "wb") as out:
            while out.tell() < 512 << 10:  # over the preview's threshold
                for s in samples: out.write(open(s, "rb").read())
        log = os.path.join(work, "big.log")
        with open(log, "w") as out:
            for i in range(40000): out.write(f"2026-01-01 12:00:{i % 60:02} host service[{i}]: request {i} served in {i % 97} ms\n")
        short = os.path.join(work, "short.txt")
        with open(short, "w") as out: out.write("one\ntwo\n")
        env = dict(os.environ, XDG_STATE_HOME=os.path.join(work, "state"), XDG_CONFIG_HOME=os.path.join(work, "config"),
                   TERM="xterm-256color", LESS="", FOLIO="", LESSOPEN="", PAGER="")
        env.pop("NO_COLOR", None)
        runs = [
            ([binary, "--theme=dark", big], None),
            ([binary, big], None),
            ([binary, os.path.join(docs, "tour.md")], None),
            ([binary, log], None),
            ([binary], log),
            ([binary, "-F", short], None),
            ([binary, "--version"], None),
        ]
        order, have = [], set()
        for i, (argv, piped) in enumerate(runs):
            out = os.path.join(work, f"callgrind.{i}")
            run_in_pty(["valgrind", "--tool=callgrind", "--demangle=no", f"--callgrind-out-file={out}", *argv], env, piped)
            for name in functions(out, binary):
                if name not in have: have.add(name); order.append(name)
        if len(order) < 500: sys.exit(f"startup-order: only {len(order)} functions seen; is valgrind working?")
        # Sorted: the set is what counts (it is laid out together); sorted, a new list differs
        # from the last only by the functions that changed.
        with open(output, "w") as f:
            f.write("".join(n + "\n" for n in sorted(order)))
        print(f"startup-order: {len(order)} functions written to {output}")
    finally:
        shutil.rmtree(work, ignore_errors=True)

main()
