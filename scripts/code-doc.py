#!/usr/bin/env python3
"""Writes a Markdown document of about SIZE bytes of which about 30 % is fenced code, for
timing print mode with and without syntax highlighting (issue: highlighted print ≤ 1.3×).

Usage: scripts/code-doc.py SIZE_MB OUT [CODE_FRACTION]

Prose comes from this repository's Markdown (README, DEVELOPERS, SampleDocs); code from its
own sources: Swift, Python and shell, cut into blocks of 10–40 lines, each block fenced with
its language. The mix repeats until SIZE is reached; nothing is fetched.
"""
import os, random, sys

root = os.path.join(os.path.dirname(os.path.abspath(__file__)), "..")
size = int(float(sys.argv[1]) * 1_000_000)
out = sys.argv[2]
fraction = float(sys.argv[3]) if len(sys.argv) > 3 else 0.30
rng = random.Random(7)

prose = []
for name in ["README.md", "DEVELOPERS.md"] + sorted(
        os.path.join("SampleDocs", f) for f in os.listdir(os.path.join(root, "SampleDocs")) if f.endswith(".md")):
    text = open(os.path.join(root, name), encoding="utf-8", errors="replace").read()
    # Paragraph-sized pieces, fences kept whole so prose never opens a code block.
    chunks, cur, fenced = [], [], False
    for line in text.split("\n"):
        if line.lstrip().startswith("```"):
            fenced = not fenced
        cur.append(line)
        if not fenced and line.strip() == "":
            chunks.append("\n".join(cur)); cur = []
    if cur and not fenced:
        chunks.append("\n".join(cur))
    prose += [c for c in chunks if c.strip()]

code = []
langs = {".swift": "swift", ".py": "python", ".sh": "bash"}
for dirpath, _, files in os.walk(root):
    if "/." in dirpath.replace(root, ""):
        continue
    for f in sorted(files):
        ext = os.path.splitext(f)[1]
        if ext not in langs:
            continue
        lines = open(os.path.join(dirpath, f), encoding="utf-8", errors="replace").read().split("\n")
        i = 0
        while i < len(lines):
            n = rng.randint(10, 40)
            block = "\n".join(lines[i:i + n]).replace("```", "'''")
            if block.strip():
                code.append("```" + langs[ext] + "\n" + block + "\n```\n")
            i += n

parts, written, code_bytes = [], 0, 0
while written < size:
    if code_bytes < fraction * max(written, 1):
        c = rng.choice(code); code_bytes += len(c.encode())
    else:
        c = rng.choice(prose) + "\n"
    parts.append(c + "\n"); written += len(c.encode()) + 1
open(out, "w", encoding="utf-8").write("".join(parts))
print(f"wrote {written} bytes, {100 * code_bytes / written:.0f} % code, to {out}")
