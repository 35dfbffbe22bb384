#!/usr/bin/env python3
"""Short table of a `corank bench segmented-sort` JSON: per shape the CUBs' and corank's median ms,
corank stable against each CUB, and the stable sort's time per key at L+1 over L."""
import json, re, sys

doc = json.load(open(sys.argv[1]))
rows = [r for e in doc["experiments"] for r in e["rows"]]
shapes = {}
for r in rows:
    shapes.setdefault(r["group"], {})[r["contender"]] = r
def pick(d, pat):
    for k, r in d.items():
        if re.search(pat, k):
            return r
    return None
print("shape | cub3.6 | cub3.0 | stable | merge-only | unstable | vs3.6 | vs3.0 | L+1/L | ok")
prev = None
for g, d in shapes.items():
    c6 = pick(d, r"CUB 3\.6.*DeviceSegmentedSort"); c0 = pick(d, r"CUB 3\.0.*DeviceSegmentedSort")
    st = pick(d, r"stable_sort_segments(_by_key)?$"); mo = pick(d, r"merge windows only")
    un = pick(d, r"corank sort_segments"); base = pick(d, r"stable_sort \(whole")
    ms = lambda r: "%.3f" % r["median_ms"] if r else "-"
    ref6 = c6 or base
    ratio = lambda a, b: "%.2fx" % (a["median_ms"] / b["median_ms"]) if a and b else "-"
    m = re.match(r"keys, length (\d+)$", g)
    cliff = ""
    if m and st:
        L = int(m.group(1))
        if prev and prev[0] == L - 1:
            cliff = "%.2f" % (st["median_ms"] / prev[1])
        prev = (L, st["median_ms"])
    ok = all(r["verified"] for r in d.values())
    print(f"{g} | {ms(c6)} | {ms(c0)} | {ms(st)} | {ms(mo)} | {ms(un)} | {ratio(ref6, st)} | "
          f"{ratio(c0, st)} | {cliff} | {'ok' if ok else 'WRONG'}")
