#!/usr/bin/env python3
"""Checks the relative links of the repository's Markdown files: every [text](target) and
![alt](target) outside code must name a file or folder that exists, and a #fragment into a
Markdown file must name one of its headings (GitHub's anchors). Links with a scheme (https:,
mailto:) are not followed.

usage: scripts/check_doc_links.py [REPO_ROOT]   (default: the folder above this script)
Exits 1 and lists each broken link as FILE:LINE: TARGET (why) when any is broken."""
import pathlib
import re
import subprocess
import sys

LINK = re.compile(r"!?\[[^\]]*\]\(([^)\s]+)(?:\s+\"[^\"]*\")?\)")
FENCE = re.compile(r"^\s*(```|~~~)")


def markdown_files(root):
    listed = subprocess.run(["git", "-C", str(root), "ls-files", "-co", "--exclude-standard", "*.md"],
                            capture_output=True, text=True)
    if listed.returncode == 0:
        return [root / p for p in listed.stdout.split() if (root / p).is_file()]
    return [p for p in root.rglob("*.md") if "build" not in p.parts and ".git" not in p.parts]


def anchor(heading):
    """GitHub's anchor of a heading: lower case, punctuation dropped, spaces to hyphens."""
    text = re.sub(r"`|\*|_(?=\w)|(?<=\w)_", "", heading.strip().lower())
    text = re.sub(r"[^\w\- ]", "", text)
    return text.replace(" ", "-")


def anchors(path):
    found, seen, in_code = set(), {}, False
    for line in path.read_text(encoding="utf-8").splitlines():
        if FENCE.match(line):
            in_code = not in_code
        elif not in_code and line.startswith("#"):
            base = anchor(line.lstrip("#"))
            n = seen.get(base, 0)
            seen[base] = n + 1
            found.add(base if n == 0 else f"{base}-{n}")
    return found


def links(path):
    in_code = False
    for number, line in enumerate(path.read_text(encoding="utf-8").splitlines(), 1):
        if FENCE.match(line):
            in_code = not in_code
            continue
        if in_code:
            continue
        for match in LINK.finditer(re.sub(r"`[^`]*`", "", line)):
            yield number, match.group(1)


def main():
    root = pathlib.Path(sys.argv[1] if len(sys.argv) > 1 else pathlib.Path(__file__).parent.parent).resolve()
    broken, checked = [], 0
    for md in sorted(markdown_files(root)):
        for number, target in links(md):
            if re.match(r"^[a-z][a-z0-9+.-]*:", target):
                continue
            checked += 1
            file_part, _, fragment = target.partition("#")
            dest = (md.parent / file_part).resolve() if file_part else md
            where = f"{md.relative_to(root)}:{number}: {target}"
            if not dest.exists():
                broken.append(f"{where} (no such file)")
            elif fragment and dest.suffix == ".md" and fragment not in anchors(dest):
                broken.append(f"{where} (no heading #{fragment} in {dest.name})")
    for b in broken:
        print(b)
    print(f"{checked} relative links checked, {len(broken)} broken")
    return 1 if broken else 0


if __name__ == "__main__":
    sys.exit(main())
