#!/usr/bin/env python3
"""Every C code block of README.md and docs/*.md is true code.

A ```c block passes when it is either
  - an excerpt of an example program: its lines appear, in order and
    contiguous, in a file under examples/ (which CTest builds and runs), or
  - a whole translation unit: it compiles on its own (cc -fsyntax-only
    -std=c11 with gcut's include folders).
Anything else (a fragment with undeclared variables, an outdated call) fails
with the file and line of the block.

    code_blocks.py ROOT CC [-I DIR ...]
"""
import os
import re
import subprocess
import sys
import tempfile


def blocks(path):
    """(line, text) of each ```c block of a Markdown file."""
    out, cur, start = [], None, 0
    with open(path, encoding="utf-8") as f:
        for i, line in enumerate(f, 1):
            if cur is None and re.match(r"^\s*```c\s*$", line):
                cur, start = [], i + 1
            elif cur is not None and re.match(r"^\s*```\s*$", line):
                out.append((start, "".join(cur)))
                cur = None
            elif cur is not None:
                cur.append(line)
    return out


def norm(text):
    return [l.rstrip() for l in text.strip("\n").splitlines()]


def excerpt_of(lines, examples):
    for name, body in examples.items():
        n = len(lines)
        for i in range(len(body) - n + 1):
            if body[i:i + n] == lines:
                return name
    return None


def main():
    if len(sys.argv) < 3:
        print(__doc__)
        return 2
    root, cc, flags = sys.argv[1], sys.argv[2], sys.argv[3:]
    exdir = os.path.join(root, "examples")
    examples = {}
    # examples/ and its folders (examples/mpi/: the programs that need MPI)
    for dirpath, dirnames, files in sorted(os.walk(exdir)):
        dirnames.sort()
        for f in sorted(files):
            if f.endswith(".c"):
                rel = os.path.relpath(os.path.join(dirpath, f), root)
                with open(os.path.join(dirpath, f), encoding="utf-8") as fh:
                    examples[rel] = [l.rstrip() for l in fh.read().splitlines()]
    pages = [os.path.join(root, "README.md")] + sorted(
        os.path.join(root, "docs", f) for f in os.listdir(os.path.join(root, "docs"))
        if f.endswith(".md"))
    failed = total = 0
    for page in pages:
        for line, text in blocks(page):
            total += 1
            rel = os.path.relpath(page, root)
            lines = norm(text)
            src = excerpt_of(lines, examples) if lines else None
            if src:
                print(f"ok   {rel}:{line}: an excerpt of {src}")
                continue
            with tempfile.NamedTemporaryFile("w", suffix=".c", delete=False) as tmp:
                tmp.write(text)
            try:
                r = subprocess.run([cc, "-std=c11", "-fsyntax-only", "-Wall", "-Werror",
                                    *flags, tmp.name],
                                   capture_output=True, text=True)
            finally:
                os.unlink(tmp.name)
            if r.returncode == 0:
                print(f"ok   {rel}:{line}: compiles")
            else:
                failed += 1
                first = (r.stderr.strip().splitlines() or ["?"])[0]
                first = first.replace(tmp.name, "block")
                print(f"FAIL {rel}:{line}: neither an excerpt of examples/ nor a whole "
                      f"program: {first}")
    print(f"{total - failed} of {total} C blocks are true code")
    return 1 if failed else 0


if __name__ == "__main__":
    sys.exit(main())
