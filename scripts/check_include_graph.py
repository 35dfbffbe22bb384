#!/usr/bin/env python3
"""The include graph stands in layers: checks every #include of the source tree against RULES
(the tools' folders in build order, the library apart from the tools, the product apart from the
study).

    usage: scripts/check_include_graph.py [ROOT]      (default: the repository holding this script)
           scripts/check_include_graph.py --self-test (each rule catches a planted edge)

An include is resolved as the compilers resolve it: a quoted one next to the including file first,
then in the include roots (include/, tools/, tests/), an angled one in the roots alone; includes
that resolve to no file of the tree (the standard library, CUDA, CUB, GoogleTest) are left alone.
Each rule sees every edge (including file, included file, the include as written) and returns a
complaint or None; a new rule is one function added to RULES.
"""
import os
import re
import sys
import tempfile

SOURCE_DIRS = ("include", "tools", "tests", "examples", "python")
INCLUDE_ROOTS = ("include", "tools", "tests")
SUFFIXES = (".h", ".hpp", ".cuh", ".c", ".cpp", ".cu")
INCLUDE = re.compile(r'^\s*#\s*include\s*([<"])([^>"]+)[>"]')

# The tools' folders in build order: a folder may include from those before it, never after.
TOOLS_ORDER = ("support", "bench", "cli")


def no_upward_path(src, dst, written):
    """Includes name a path from a root or the file's own folder, never one climbing out of it."""
    if "../" in written or written.startswith(".."):
        return "an include runs upward ('../'); include it relative to its root"
    return None


def library_includes_no_tools(src, dst, written):
    """The library's headers stand alone: nothing of tools/ or tests/ is included from include/."""
    if src.startswith("include/") and dst and not dst.startswith("include/"):
        return "include/ includes %s, outside the library" % dst
    return None


def tools_in_build_order(src, dst, written):
    """tools/support <- tools/bench <- tools/cli: no folder includes one built after it."""
    def tools_folder(path):
        parts = path.split("/")
        if len(parts) > 2 and parts[0] == "tools" and parts[1] in TOOLS_ORDER:
            return parts[1]
        return None

    src_folder, dst_folder = tools_folder(src), tools_folder(dst or "")
    if src_folder and dst_folder and TOOLS_ORDER.index(dst_folder) > TOOLS_ORDER.index(src_folder):
        return "tools/%s includes tools/%s, built after it (order: %s)" % (
            src_folder, dst_folder, " <- ".join(TOOLS_ORDER))
    return None


def product_includes_no_study(src, dst, written):
    """The product stands without the study: no header of include/corank outside the study wing
    (include/corank/study/, corank/study.cuh) includes one of it; the study builds on the product."""
    def in_study(path):
        return path.startswith("include/corank/study/") or path == "include/corank/study.cuh"

    if src.startswith("include/") and not in_study(src) and dst and in_study(dst):
        return "the product includes the study's %s" % dst
    return None


RULES = [no_upward_path, library_includes_no_tools, tools_in_build_order,
         product_includes_no_study]


def source_files(root):
    for top in SOURCE_DIRS:
        for folder, dirs, files in os.walk(os.path.join(root, top)):
            dirs[:] = sorted(d for d in dirs if not d.startswith("."))
            for name in sorted(files):
                if name.endswith(SUFFIXES):
                    yield os.path.relpath(os.path.join(folder, name), root).replace(os.sep, "/")


def resolve(root, src, quote, written):
    """The tree's file an include names (relative to root), or None outside the tree."""
    candidates = [os.path.join(os.path.dirname(src), written)] if quote == '"' else []
    candidates += [os.path.join(top, written) for top in INCLUDE_ROOTS]
    for candidate in candidates:
        if os.path.isfile(os.path.join(root, candidate)):
            return os.path.normpath(candidate).replace(os.sep, "/")
    return None


def check(root, counts=None):
    """The complaints; counts (a dict), when given, gets the number of includes read and of those
    that name a file of the tree."""
    complaints = []
    read = in_tree = 0
    for src in source_files(root):
        with open(os.path.join(root, src), encoding="utf-8", errors="replace") as f:
            for number, line in enumerate(f, 1):
                match = INCLUDE.match(line)
                if not match:
                    continue
                quote, written = match.groups()
                dst = resolve(root, src, quote, written)
                read, in_tree = read + 1, in_tree + (dst is not None)
                for rule in RULES:
                    complaint = rule(src, dst, written)
                    if complaint:
                        complaints.append("%s:%d: #include %s%s%s: %s" % (
                            src, number, quote, written, '"' if quote == '"' else ">", complaint))
    if counts is not None:
        counts.update(read=read, in_tree=in_tree)
    return complaints


def self_test():
    """Plants one edge per rule in a small tree and expects each to be caught, and a clean tree."""
    planted = {
        "include/corank/a.hpp": '#include "corank/b.hpp"\n#include <vector>\n',
        "include/corank/b.hpp": "",
        "include/corank/study.cuh": '#include "corank/study/s.cuh"\n',
        "include/corank/study/s.cuh": '#include "corank/b.hpp"\n',
        "tools/support/io/f.hpp": '#include "corank/a.hpp"\n',
        "tools/bench/r.hpp": '#include "support/io/f.hpp"\n',
        "tools/cli/c.cpp": '#include "bench/r.hpp"\n#include "support/io/f.hpp"\n',
    }
    bad = {
        "include/corank/c.hpp": ('#include "support/io/f.hpp"\n', "outside the library"),
        "tools/support/io/g.hpp": ('#include "bench/r.hpp"\n', "built after it"),
        "tools/bench/s.hpp": ('#include "cli/c.cpp"\n', "built after it"),
        "tools/cli/d.cpp": ('#include "../bench/r.hpp"\n', "runs upward"),
        "include/corank/cuda/p.cuh": ('#include "corank/study/s.cuh"\n', "the study's"),
        "include/corank/cuda/q.cuh": ('#include "corank/study.cuh"\n', "the study's"),
    }
    failures = 0
    with tempfile.TemporaryDirectory() as root:
        def write(path, text):
            os.makedirs(os.path.dirname(os.path.join(root, path)), exist_ok=True)
            with open(os.path.join(root, path), "w") as f:
                f.write(text)

        for path, text in planted.items():
            write(path, text)
        clean = check(root)
        if clean:
            print("self-test: a clean tree drew complaints:\n  " + "\n  ".join(clean))
            failures += 1
        for path, (text, expected) in bad.items():
            write(path, text)
            found = [c for c in check(root) if c.startswith(path + ":") and expected in c]
            if not found:
                print("self-test: %s (%s) was not caught" % (path, expected))
                failures += 1
            os.remove(os.path.join(root, path))
    print("self-test: %s" % ("failed" if failures else "every planted edge caught"))
    return 1 if failures else 0


def main(argv):
    if argv[1:] == ["--self-test"]:
        return self_test()
    root = argv[1] if len(argv) > 1 else os.path.join(os.path.dirname(__file__), "..")
    counts = {}
    complaints = check(os.path.abspath(root), counts)
    for complaint in complaints:
        print(complaint)
    print("include graph: %d edge(s) against the rules, of %d includes read (%d name a file of "
          "the tree)" % (len(complaints), counts["read"], counts["in_tree"]))
    return 1 if complaints else 0


if __name__ == "__main__":
    sys.exit(main(sys.argv))
