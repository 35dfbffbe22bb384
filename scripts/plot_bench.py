#!/usr/bin/env python3
"""Figures from the JSON of `corank bench all` (or of any `corank bench ... --json`).

    scripts/plot_bench.sh bench.json -o figures/ [--format png,svg]

Draws what the document holds and says what it skips (a CPU-only run has no GPU figures):
  1. cpu_merge_speedup       CPU parallel merges over std::merge by size
  2. gpu_merge_throughput    GPU merge GB/s by size (keys, pairs), the copy as a line
  3. gpu_merge_speedup       each corank kernel over thrust::merge and over CUB by size
  4. gpu_merge_optimisations the study's two optimisations on each studied kernel
  5. sort_speedup, gpu_sorts sorts over std::sort by size; corank's sorts against CUB's
  6. segmented_scan, spmv_scan(.md)  GB/s by mean segment length; the per-matrix iteration table
Error bars span the fastest and slowest timed run (the dot is the median).
Needs only matplotlib (Debian's python3-matplotlib): without it in this Python, the script runs
again with /usr/bin/python3.
"""
import argparse
import io
import json
import math
import os
import re
import sys

try:
    import matplotlib
except ImportError:
    # Debian's python3-matplotlib lives in the system Python, which a pyenv or venv python3 first
    # on PATH does not see: run again with it.
    SYSTEM_PYTHON = "/usr/bin/python3"
    if os.path.exists(SYSTEM_PYTHON) and os.path.realpath(sys.executable) != os.path.realpath(SYSTEM_PYTHON):
        os.execv(SYSTEM_PYTHON, [SYSTEM_PYTHON] + sys.argv)
    sys.exit("plot_bench: matplotlib not found (scripts/setup.sh installs python3-matplotlib)")

matplotlib.use("Agg")
import matplotlib.pyplot as plt  # noqa: E402


def human(n):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= scale:
            v = n / scale
            return f"{v:.0f}{unit}" if v == int(v) else f"{v:.1f}{unit}"
    return str(n)


class Doc:
    def __init__(self, data):
        self.data = data
        # A single report written by report::write_json has the same shape.
        self.experiments = {e["experiment"]: e for e in data.get("experiments", [])}

    def rows(self, experiment, group=None, contender=None):
        e = self.experiments.get(experiment)
        if not e:
            return []
        return [r for r in e["rows"]
                if (group is None or r.get("group", "") == group)
                and (contender is None or r["contender"] == contender)]

    def title_suffix(self):
        m = self.data.get("machine", {})
        gpu = self.data.get("gpu")
        cpu = f"{m.get('cpu_model', '?')}, {m.get('omp_threads', '?')} threads"
        return f"{gpu['name']} / {cpu}" if gpu else cpu


def speedup_points(rows, baselines):
    """(size, median speed-up, low, high) of each row over the baseline of its size."""
    base = {b["size"]: b["median_ms"] for b in baselines}
    pts = []
    for r in sorted(rows, key=lambda r: r["size"]):
        b = base.get(r["size"])
        if b and r["median_ms"] > 0:
            pts.append((r["size"], b / r["median_ms"], b / r["max_ms"], b / max(r["min_ms"], 1e-12)))
    return pts


def gbps_points(rows):
    pts = []
    for r in sorted(rows, key=lambda r: r["size"]):
        if r["median_ms"] <= 0:
            continue
        volume = r["bytes"] * r.get("iterations", 1) / 1e6  # GB/s = MB / ms
        pts.append((r["size"], volume / r["median_ms"], volume / r["max_ms"],
                    volume / max(r["min_ms"], 1e-12)))
    return pts


def draw(ax, pts, label, **style):
    if not pts:
        return
    label = label.lstrip("_")  # matplotlib hides labels that start with "_" (__gnu_parallel)
    xs, ys, lo, hi = zip(*pts)
    ax.errorbar(xs, ys, yerr=[[y - l for y, l in zip(ys, lo)], [h - y for y, h in zip(ys, hi)]],
                label=label, marker=style.pop("marker", "o"), capsize=3, **style)


def save_png(fig, path):
    """A 64-colour palette PNG: the figures are committed (docs/figures), and a plot of a few
    line colours keeps its look at a quarter of the size of matplotlib's RGBA file. Octree, not
    median cut: median cut merged matplotlib's orange into its red."""
    try:
        from PIL import Image  # a dependency of matplotlib, but keep the plain file if absent
    except ImportError:
        return fig.savefig(path, dpi=120)
    FASTOCTREE = getattr(Image, "Quantize", Image).FASTOCTREE  # the enum is Pillow >= 9.1
    buf = io.BytesIO()
    fig.savefig(buf, format="png", dpi=120)
    buf.seek(0)
    Image.open(buf).convert("RGB").quantize(colors=64, method=FASTOCTREE).save(
        path, optimize=True)


# One colour per contender in every panel of a figure (CUB is the same colour for keys and pairs).
MERGE_COLOURS = {"corank automatic": "C0", "corank tiled": "C1", "corank circular": "C2",
                 "corank basic": "C3", "cub::DeviceMerge": "C4", "thrust::merge": "C5",
                 "thrust::merge_by_key": "C5"}


def legend_outside(ax, fontsize=8):
    """Legend right of the axes: inside, it covers points of crowded plots (5a, 6a)."""
    ax.legend(fontsize=fontsize, loc="upper left", bbox_to_anchor=(1.01, 1), borderaxespad=0)


def size_axis(ax, xlabel):
    ax.set_xscale("log")
    ax.set_xlabel(xlabel)
    ax.grid(True, which="both", alpha=0.3)


class Plotter:
    def __init__(self, doc, out_dir, formats):
        self.doc, self.out_dir, self.formats = doc, out_dir, formats
        self.made, self.skipped = [], []

    def save(self, fig, name, title):
        fig.suptitle(f"{title}\n{self.doc.title_suffix()}", fontsize=10)
        fig.tight_layout()
        for fmt in self.formats:
            path = os.path.join(self.out_dir, f"{name}.{fmt}")
            if fmt == "png":
                save_png(fig, path)
            else:
                fig.savefig(path, dpi=120)
            self.made.append(path)
        plt.close(fig)

    def skip(self, name, why):
        self.skipped.append(f"{name}: {why}")

    # 1 -----------------------------------------------------------------------------------------
    def cpu_merge(self):
        rows = self.doc.rows("cpu merge")
        if not rows:
            return self.skip("cpu_merge_speedup", "no 'cpu merge' experiment")
        base = [r for r in rows if r["role"] == "baseline"]
        fig, ax = plt.subplots(figsize=(7, 4.5))
        for name in dict.fromkeys(r["contender"] for r in rows if r["role"] == "contender"):
            threads = max(r["threads"] for r in rows if r["contender"] == name)
            draw(ax, speedup_points([r for r in rows if r["contender"] == name], base),
                 f"{name} ({threads} thread{'s' if threads != 1 else ''})")
        ax.axhline(1, color="grey", lw=1)
        size_axis(ax, "items per input (u32, sorted uniform)")
        ax.set_ylabel(f"speed-up over {base[0]['contender'] if base else 'baseline'}")
        ax.legend()
        self.save(fig, "cpu_merge_speedup", "1. CPU parallel merge over sequential merge")

    # 2, 3, 4 -------------------------------------------------------------------------------------
    KERNELS = ["corank automatic", "corank tiled", "corank circular", "corank basic"]
    PEERS = ["cub::DeviceMerge", "thrust::merge", "thrust::merge_by_key"]

    def gpu_merge(self):
        rows = self.doc.rows("gpu merge")
        if not rows:
            for name in ("gpu_merge_throughput", "gpu_merge_speedup", "gpu_merge_optimisations"):
                self.skip(name, "no 'gpu merge' experiment (CPU-only run?)")
            return
        groups = [g for g in ("keys", "pairs") if any(r["group"] == g for r in rows)]
        copy = [r for r in rows if r["role"] == "copy"]
        fig, axes = plt.subplots(1, len(groups), figsize=(6.5 * len(groups), 4.5), squeeze=False)
        for ax, group in zip(axes[0], groups):
            for name in self.KERNELS + self.PEERS:
                draw(ax, gbps_points(self.doc.rows("gpu merge", group, name)), name,
                     color=MERGE_COLOURS.get(name))
            if copy:
                xs, ys, _, _ = zip(*gbps_points(copy))
                ax.plot(xs, ys, "k--", label="device copy of the keys' bytes (same run)")
            size_axis(ax, "items per input")
            ax.set_yscale("log")  # 1K to 100M spans about 1 to 3000 GB/s
            ax.set_ylabel("GB/s (bytes read + written)")
            ax.set_title(f"{group} (u32{' / u32 values' if group == 'pairs' else ''})")
            legend_outside(ax)
        self.save(fig, "gpu_merge_throughput", "2. GPU merge throughput by size")

        fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
        for ax, peer in zip(axes, ("thrust::merge", "cub::DeviceMerge")):
            base = self.doc.rows("gpu merge", "keys", peer)
            for name in self.KERNELS:
                draw(ax, speedup_points(self.doc.rows("gpu merge", "keys", name), base), name,
                     color=MERGE_COLOURS.get(name))
            ax.axhline(1, color="grey", lw=1)
            size_axis(ax, "items per input (keys)")
            ax.set_ylabel(f"speed-up over {peer}")
            ax.legend(fontsize=8)
        self.save(fig, "gpu_merge_speedup", "3. Speed-up of each kernel over thrust and CUB")

        variant = re.compile(r"^corank (basic|tiled|circular)(?: \((.*)\))?$")
        studied = {}
        for r in rows:
            m = variant.match(r["contender"])
            if m and r["group"] == "keys":
                studied.setdefault(m.group(1), {}).setdefault(m.group(2) or "both", []).append(r)
        if not studied:
            return self.skip("gpu_merge_optimisations", "no studied kernels in 'gpu merge'")
        labels = {"both": "both optimisations", "no neighbour reuse": "branch-free only",
                  "branchy": "one co-rank per thread only"}
        kernels = [k for k in ("basic", "tiled", "circular") if k in studied]
        fig, axes = plt.subplots(1, len(kernels), figsize=(5 * len(kernels), 4.2), squeeze=False)
        for ax, kernel in zip(axes[0], kernels):
            base = studied[kernel].get("neither", [])
            for key, label in labels.items():
                draw(ax, speedup_points(studied[kernel].get(key, []), base), label)
            ax.axhline(1, color="grey", lw=1)
            size_axis(ax, "items per input (keys)")
            ax.set_ylabel("speed-up over neither optimisation")
            ax.set_title(f"corank {kernel}")
            ax.legend(fontsize=8)
        self.save(fig, "gpu_merge_optimisations",
                  "4. One co-rank per thread (neighbour reuse) and branch-free merge/search")

    # 5 -----------------------------------------------------------------------------------------
    def sorts(self):
        gpu = self.doc.rows("gpu sort vs std::sort")
        cpu = self.doc.rows("cpu sort")
        if gpu or cpu:
            fig, ax = plt.subplots(figsize=(10.5, 4.8))
            for rows in (gpu, cpu):
                base = [r for r in rows if r["role"] == "baseline"]
                for name in dict.fromkeys(r["contender"] for r in rows if r["role"] == "contender"):
                    if re.search(r": (H2D|D2H)$", name):
                        continue  # the transfers alone are no sort
                    mine = [r for r in rows if r["contender"] == name]
                    where = mine[0]["backend"]
                    if where == "cpu":
                        threads = mine[0]["threads"]
                        where += f", {threads} thread{'s' if threads != 1 else ''}"
                    draw(ax, speedup_points(mine, base), f"{name} ({where})")
            ax.set_yscale("log")
            ax.axhline(1, color="grey", lw=1)
            size_axis(ax, "keys (u32 uniform)")
            ax.set_ylabel("speed-up over std::sort (one core)")
            legend_outside(ax)
            self.save(fig, "sort_speedup", "5a. Sorts over CPU std::sort by size")
        else:
            self.skip("sort_speedup", "no 'gpu sort vs std::sort' or 'cpu sort' experiment")

        whole = self.doc.rows("gpu sort")
        seg = self.doc.rows("gpu segmented sort")
        if not whole and not seg:
            return self.skip("gpu_sorts", "no 'gpu sort' experiment (CPU-only run?)")
        panels = [(g, [r for r in whole if r["group"] == g]) for g in ("keys", "pairs")
                  if any(r["group"] == g for r in whole)]
        if seg:
            panels.append(("segmented", seg))
        fig, axes = plt.subplots(1, len(panels), figsize=(5.5 * len(panels), 4.5), squeeze=False)
        for ax, (title, rows) in zip(axes[0], panels):
            rows = [r for r in rows if r["role"] != "copy"]
            xkey = "group" if title == "segmented" else "size"
            cats = list(dict.fromkeys(r[xkey] for r in rows))
            names = list(dict.fromkeys(r["contender"] for r in rows))
            width = 0.8 / max(len(names), 1)
            for i, name in enumerate(names):
                ys = []
                for c in cats:
                    match = [r for r in rows if r[xkey] == c and r["contender"] == name]
                    ys.append(match[0]["elements_per_s"] / 1e9 if match else 0)
                ax.bar([j + i * width for j in range(len(cats))], ys, width, label=name)
            ax.set_xticks([j + 0.4 - width / 2 for j in range(len(cats))])
            ax.set_xticklabels([human(c) if xkey == "size" else c.replace("segments ", "")
                                for c in cats], fontsize=8)
            ax.set_ylabel("Gkeys/s")
            ax.set_title(title if title != "segmented" else
                         f"segmented ({human(rows[0]['size'])} keys in all)")
            ax.grid(True, axis="y", alpha=0.3)
            ax.legend(fontsize=7)
        self.save(fig, "gpu_sorts", "5b. corank's sorts against CUB merge, radix and segmented sort")

    # 6 -----------------------------------------------------------------------------------------
    def scans(self):
        rows = self.doc.rows("gpu segmented scan")
        if rows:
            fig, ax = plt.subplots(figsize=(9, 4.5))
            groups = list(dict.fromkeys(r["group"] for r in rows if r["group"]))
            lengths = [int(g.split()[-1]) for g in groups]
            for name in dict.fromkeys(r["contender"] for r in rows if r["role"] != "copy"):
                pts = []
                for g, L in zip(groups, lengths):
                    p = gbps_points(self.doc.rows("gpu segmented scan", g, name))
                    if p:
                        pts.append((L,) + p[0][1:])
                draw(ax, pts, name)
            copy = [r for r in rows if r["role"] == "copy"]
            if copy:
                ax.axhline(gbps_points(copy)[0][1], color="k", ls="--", label="device copy")
            size_axis(ax, "mean segment length")
            ax.set_xticks(lengths)  # three lengths: label them, not 10^k
            ax.set_xticklabels([str(L) for L in lengths])
            ax.minorticks_off()
            ax.set_ylabel("GB/s (values + offsets, same for all)")
            legend_outside(ax)
            self.save(fig, "segmented_scan",
                      f"6a. Segmented scan of {human(rows[-1]['size'])} f32 by mean segment length")
        else:
            self.skip("segmented_scan", "no 'gpu segmented scan' experiment (CPU-only run?)")

        tables = [(e, self.doc.rows(e)) for e in ("gpu spmv-scan", "cpu spmv-scan")]
        tables = [(e, rows) for e, rows in tables if rows]
        if not tables:
            return self.skip("spmv_scan", "no spmv-scan experiment")
        lines = ["# The study's iteration a = scan(a * xbar) per matrix", "",
                 f"Machine: {self.doc.title_suffix()}. ms: the study's iteration count, median "
                 "(min-max). Floor: 12 bytes per element per step at the copy bandwidth measured "
                 "in the same run; '% floor' = floor time / time (above 100%: faster than moving "
                 "the data once per step, as passes of several steps do).", ""]
        fig, axes = plt.subplots(len(tables), 1, figsize=(11, 3.6 * len(tables)), squeeze=False)
        ours_names = ("corank fused", "corank fused, one step per pass", "corank::cpu fused pass",
                      "corank::cpu fused, one step per pass")
        for ax, (experiment, rows) in zip(axes[:, 0], tables):
            copy = [r for r in rows if r["role"] == "copy"]
            copy_gbps = gbps_points(copy)[0][1] if copy else None
            base = {r["group"]: r for r in rows if r["role"] == "baseline"}
            lines += [f"## {experiment}" + (f" (copy {copy_gbps:.0f} GB/s)" if copy_gbps else ""), "",
                      "| matrix | contender | nnz | iters | ms | ms/iter | % floor | baseline ms | speed-up |",
                      "|---|---|---|---|---|---|---|---|---|"]
            contenders = [c for c in ours_names if any(r["contender"] == c for r in rows)]
            bars = {c: ([], []) for c in contenders}
            for r in rows:
                if r["contender"] not in contenders:
                    continue
                floor_ms = 12 * r["size"] * r["iterations"] / (copy_gbps * 1e6) if copy_gbps else None
                frac = floor_ms / r["median_ms"] if floor_ms else float("nan")
                b = base.get(r["group"])
                lines.append(
                    f"| {r['group']} | {r['contender']} | {human(r['size'])} | {r['iterations']} | "
                    f"{r['median_ms']:.4g} ({r['min_ms']:.4g}-{r['max_ms']:.4g}) | "
                    f"{r['median_ms'] / r['iterations']:.4g} | {100 * frac:.0f}% | "
                    + (f"{b['median_ms']:.4g} | {b['median_ms'] / r['median_ms']:.2f}x |" if b
                       else "- | - |"))
                bars[r["contender"]][0].append(r["group"])
                bars[r["contender"]][1].append(frac)
            lines.append("")
            baseline_name = next(iter(base.values()))["contender"] if base else "baseline"
            lines.append(f"Baseline: {baseline_name}.")
            lines.append("")
            width = 0.8 / max(1, len(contenders))
            for i, c in enumerate(contenders):
                names, fractions = bars[c]
                ax.bar([x + (i - (len(contenders) - 1) / 2) * width for x in range(len(names))],
                       [0 if math.isnan(f) else 100 * f for f in fractions], width, label=c)
                ax.set_xticks(range(len(names)), names)
            ax.axhline(100, color="gray", linewidth=0.8, linestyle="--")
            ax.set_ylabel("% of the 12 B/element floor")
            ax.set_title(experiment, fontsize=9)
            ax.tick_params(axis="x", labelrotation=45, labelsize=8)
            ax.grid(True, axis="y", alpha=0.3)
            legend_outside(ax)
        self.save(fig, "spmv_scan", "6b. The study's iteration per matrix: fraction of the floor")
        path = os.path.join(self.out_dir, "spmv_scan.md")
        with open(path, "w") as f:
            f.write("\n".join(lines))
        self.made.append(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", help="output of corank bench all --json FILE")
    ap.add_argument("-o", "--out", default="figures", help="directory for the figures")
    ap.add_argument("--format", default="png", help="comma-separated: png, svg")
    args = ap.parse_args()
    with open(args.json) as f:
        doc = Doc(json.load(f))
    os.makedirs(args.out, exist_ok=True)
    p = Plotter(doc, args.out, [f.strip() for f in args.format.split(",") if f.strip()])
    for step in (p.cpu_merge, p.gpu_merge, p.sorts, p.scans):
        step()
    for path in p.made:
        print(f"wrote {path}")
    for line in p.skipped:
        print(f"skipped {line}")
    if not p.made:
        print("plot_bench: nothing to draw in " + args.json, file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
