#!/usr/bin/env python3
"""Runs the README's command-line block (the ```sh block under "## The command-line tool") line
by line in a fresh folder, as a user pastes it: `corank` is the built tool, `scripts/` the
repository's. Every line must succeed, with two exceptions that keep the test short and runnable
anywhere: benchmarks run with --quick and the tuner at one size, 1M (the same arguments, small
sizes: the documented ones take minutes), and without a GPU a line that needs one must fail with
a message naming the GPU (it is then reported as skipped, not run).

  usage: scripts/readme_cli.py README.md CORANK_BINARY
Exits 1 naming each failed line."""
import os
import pathlib
import re
import subprocess
import sys
import tempfile

HEADING = "## The command-line tool"


def cli_block(markdown):
    """The lines of the first ```sh block after HEADING."""
    lines = markdown.splitlines()
    start = lines.index(HEADING)
    opening = next(i for i in range(start, len(lines)) if lines[i].strip() == "```sh")
    closing = next(i for i in range(opening + 1, len(lines)) if lines[i].startswith("```"))
    return [(i + 1, lines[i]) for i in range(opening + 1, closing) if lines[i].strip()]


def as_run(line):
    """The line as the test runs it: a benchmark gets --quick, the tuner --sizes 1M."""
    command = line.partition("  #")[0].rstrip()
    if re.match(r"\s*corank bench\b", command) and "--quick" not in command:
        command += " --quick"
    if re.match(r"\s*corank tune\b", command) and "--sizes" not in command:
        command += " --sizes 1M"
    return command


def main():
    readme, corank = pathlib.Path(sys.argv[1]).resolve(), pathlib.Path(sys.argv[2]).resolve()
    scripts = readme.parent / "scripts"
    failures, skipped, ran = [], [], 0
    with tempfile.TemporaryDirectory() as work:
        tools = pathlib.Path(work) / "bin"
        tools.mkdir()
        (tools / "corank").symlink_to(corank)
        (pathlib.Path(work) / "scripts").symlink_to(scripts)
        env = dict(os.environ, PATH=f"{tools}{os.pathsep}{os.environ.get('PATH', '')}")
        info = subprocess.run([str(corank), "info"], capture_output=True, text=True)
        has_gpu = info.returncode == 0 and "gpu         : none" not in info.stdout
        for number, line in cli_block(readme.read_text()):
            command = as_run(line)
            result = subprocess.run(["bash", "-c", command], cwd=work, env=env,
                                    capture_output=True, text=True)
            said = result.stdout + result.stderr
            if result.returncode == 0:
                ran += 1
                print(f"README.md:{number}: ok: {command}")
            elif not has_gpu and re.search(r"\bGPU\b", said):
                skipped.append(number)
                print(f"README.md:{number}: skipped (no GPU): {command}\n    "
                      + said.strip().splitlines()[-1])
            else:
                failures.append(number)
                print(f"README.md:{number}: FAILED (exit {result.returncode}): {command}\n{said}")
    print(f"README command-line block: {ran} ran, {len(skipped)} skipped without a GPU, "
          f"{len(failures)} failed")
    return 1 if failures or ran == 0 else 0


if __name__ == "__main__":
    sys.exit(main())
