#!/usr/bin/env python3
"""Writes every ```cpp block of a Markdown file as a program of its own, so the documented
examples compile and run as tests (as CUB compiles its documented examples).

A block is a fragment a user would paste into a function: its #include lines go to the top of the
file, the rest becomes the body of main(). A block that includes <corank/cuda.cuh> is written as a
.cu file; its main() returns 77 (CTest's skip code here) when no GPU is present, so it still
compiles everywhere and runs where it can.

  usage: readme_snippets.py README.md OUT_DIR     (prints the files it wrote, one per line)
"""
import pathlib
import re
import sys

GPU_GUARD = """  int devices = 0;
  if (cudaGetDeviceCount(&devices) != cudaSuccess || devices == 0) return 77;  // no GPU: skip
"""


def blocks(markdown, language="cpp"):
    """(first line number, lines) of every fenced block of `language` (python/tests reads the
    ```python ones)."""
    found, current, start = [], None, 0
    for number, line in enumerate(markdown.splitlines(), 1):
        fence = re.match(r"^```(\w*)\s*$", line)
        if current is None and fence and fence.group(1) == language:
            current, start = [], number + 1
        elif current is not None and line.startswith("```"):
            found.append((start, current))
            current = None
        elif current is not None:
            current.append(line)
    return found


def program(source_name, start, lines):
    includes = [l for l in lines if l.lstrip().startswith("#include")]
    body = [l for l in lines if not l.lstrip().startswith("#include")]
    gpu = any("corank/cuda.cuh" in l for l in includes)
    text = [f"// Generated from {source_name}, the block at line {start}. Edit the Markdown."]
    text += includes + ["", "int main() {"]
    if gpu:
        text.append(GPU_GUARD.rstrip("\n"))
    text += [f"#line {start} \"{source_name}\""]
    text += ["  " + l if l else l for l in body]
    text += ["  return 0;", "}", ""]
    return gpu, "\n".join(text)


def main():
    readme, out_dir = pathlib.Path(sys.argv[1]), pathlib.Path(sys.argv[2])
    out_dir.mkdir(parents=True, exist_ok=True)
    for old in out_dir.glob("readme_block_*"):
        old.unlink()
    for start, lines in blocks(readme.read_text()):
        gpu, text = program(readme.name, start, lines)
        path = out_dir / f"readme_block_{start:04d}.{'cu' if gpu else 'cpp'}"
        path.write_text(text)
        print(path)


if __name__ == "__main__":
    main()
