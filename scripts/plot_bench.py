#!/usr/bin/env python3
"""Figures from the JSON of `corank bench all` (or of any `corank bench ... --json`).

    scripts/plot_bench.sh bench.json [more.json ...] -o figures/ [--format png,svg]

Several documents (pieces of one run) are read as one. Draws what they hold and says what it
skips (a CPU-only run has no GPU figures):
  1. cpu_merge_speedup       CPU parallel merges over std::merge by size
  2. gpu_merge_throughput    GPU merge GB/s by size (u32 uniform keys, pairs), the copy as a line
  3. gpu_merge_speedup       each corank kernel over thrust::merge and over CUB by size
  4. gpu_merge_optimisations the study's two optimisations on each studied kernel
  5. sort_speedup, gpu_sorts sorts over std::sort by size; corank's sorts against CUB's
  6. spmv_scan(.md)          the per-matrix iteration table
  7. sweeps: gpu_merge_sweep, gpu_sort_sweep (time of the newest CUB / ours, by key type and
     input shape, one line per size), gpu_merge_size_sweep (u32 uniform by size),
     segmented_scan_sweep (by segment length and pattern, against the faster of the newest
     CUB's two segmented scans), segmented_sort_sweep (Gkeys/s and speed-up over the newest
     CUB's DeviceSegmentedSort by segment length), and sweep_summary.md, the tables of the
     targets
  8. toolbox_cpu, toolbox_gpu  the co-rank toolbox at the largest size: each contender's speed-up
     over its primitive's baseline, and its GB/s as a fraction of the copy's
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
import matplotlib.ticker  # noqa: E402


def human(n):
    for unit, scale in (("G", 1e9), ("M", 1e6), ("K", 1e3)):
        if n >= scale:
            v = n / scale
            return f"{v:.0f}{unit}" if v == int(v) else f"{v:.1f}{unit}"
    return str(n)


class Doc:
    def __init__(self, docs):
        self.data = docs[0]  # machine, GPU and versions: the first document's
        # A single report written by report::write_json has the same shape.
        self.experiments = {}
        for data in docs:
            for e in data.get("experiments", []):
                if e["experiment"] in self.experiments:  # the same experiment in pieces
                    self.experiments[e["experiment"]]["rows"] += e["rows"]
                else:
                    self.experiments[e["experiment"]] = e

    def sweep(self, prefix):
        """The experiments of one sweep by key type: {"u32": rows, ...} of "<prefix> u32" ..."""
        return {name[len(prefix) + 1:]: e["rows"] for name, e in self.experiments.items()
                if name.startswith(prefix + " ") and name[len(prefix) + 1:] in KEY_TYPES}

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


KEY_TYPES = ["u32", "u64", "f32", "f64", "record16"]
SHAPES = ["uniform", "presorted", "reverse", "nearly sorted", "few distinct", "all equal", "zipf",
          "unaligned"]


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
MERGE_COLOURS = {"corank merge": "C0", "corank automatic": "C0", "corank tiled": "C1", "corank circular": "C2",
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
    KERNELS = ["corank merge", "corank automatic", "corank tiled", "corank circular", "corank basic"]

    def gpu_merge(self):
        # The study's figures: u32 uniform keys of the merge sweep.
        experiment = "gpu merge u32"
        rows = [dict(r, group=r["group"].replace("uniform ", "")) for r in self.doc.rows(experiment)
                if r["group"] in ("uniform keys", "uniform pairs", "")]
        if not rows:  # a document before the sweep: "gpu merge", groups keys and pairs
            experiment = "gpu merge"
            rows = self.doc.rows(experiment)
        if not rows:
            for name in ("gpu_merge_throughput", "gpu_merge_speedup", "gpu_merge_optimisations"):
                self.skip(name, f"no '{experiment}' experiment (CPU-only run?)")
            return
        peers = list(dict.fromkeys(r["contender"] for r in rows if not r["contender"].startswith(
            "corank") and r["role"] != "copy"))
        newest = next((r["contender"] for r in rows if r["role"] == "baseline"), None)

        def of(group, name):
            return [r for r in rows if r["group"] == group and r["contender"] == name]
        groups = [g for g in ("keys", "pairs") if any(r["group"] == g for r in rows)]
        copy = [r for r in rows if r["role"] == "copy"]
        fig, axes = plt.subplots(1, len(groups), figsize=(6.5 * len(groups), 4.5), squeeze=False)
        for ax, group in zip(axes[0], groups):
            for i, name in enumerate(self.KERNELS + peers):
                draw(ax, gbps_points(of(group, name)), name,
                     color=MERGE_COLOURS.get(name, f"C{4 + i % 6}"))
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
        thrust = next((p for p in peers if p.startswith("thrust::merge")), None)
        for ax, peer in zip(axes, (thrust, newest)):
            base = of("keys", peer)
            for name in self.KERNELS:
                draw(ax, speedup_points(of("keys", name), base), name,
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
            if m and r["group"] == "keys" and r["size"] >= 1000:
                studied.setdefault(m.group(1), {}).setdefault(m.group(2) or "both", []).append(r)
        if not studied:
            return self.skip("gpu_merge_optimisations", f"no studied kernels in '{experiment}'")
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

        whole = [dict(r, group=r["group"].replace("uniform ", ""))
                 for r in self.doc.rows("gpu sort u32")
                 if r["group"] in ("uniform keys", "uniform pairs")]
        whole = whole or self.doc.rows("gpu sort")  # a document before the sweep
        seg = self.doc.rows("gpu segmented sort")
        if not whole and not seg:
            return self.skip("gpu_sorts", "no 'gpu sort u32' experiment (CPU-only run?)")
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
        # 6a, documents before the sweep (groups "mean length L"; the sweep draws 7d).
        rows = [r for r in self.doc.rows("gpu segmented scan")
                if r["group"].startswith("mean length") or not r["group"]]
        if len(rows) > 1:
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
            self.skip("segmented_scan", "no mean-length 'gpu segmented scan' rows (the sweep: 7d)")

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

    # 7 -----------------------------------------------------------------------------------------
    def shape_sweep(self, prefix, name, title, ours, target, extra=()):
        """Rows keys/pairs, a column per key type; x: the input shape; y: the newest CUB's time
        over each contender's, one colour per size (ours solid, `extra` contenders dashed)."""
        sweep = self.doc.sweep(prefix)
        if not sweep:
            return self.skip(name, f"no '{prefix} <type>' experiments")
        types = [t for t in KEY_TYPES if t in sweep]
        # Sizes with every shape (u32 alone goes below: gpu_merge_size_sweep draws those).
        all_sizes = sorted({r["size"] for t in types for r in sweep[t]
                            if r["role"] == "baseline" and r["size"] >= 1000000})
        fig, axes = plt.subplots(2, len(types), figsize=(3.6 * len(types) + 1.5, 7.5), squeeze=False,
                                 sharey="row")
        for col, t in enumerate(types):
            rows = sweep[t]
            sizes = [z for z in all_sizes if any(r["size"] == z for r in rows)]
            for row_i, kind in enumerate(("keys", "pairs")):
                ax = axes[row_i][col]
                shapes = [sh for sh in SHAPES if any(r["group"] == f"{sh} {kind}" for r in rows)]
                for size in sizes:
                    si = all_sizes.index(size)
                    base = {r["group"]: r for r in rows
                            if r["role"] == "baseline" and r["size"] == size}
                    for contender, style in [(c, "-") for c in ours] + [(c, "--") for c in extra]:
                        pts = []
                        for x, sh in enumerate(shapes):
                            b = base.get(f"{sh} {kind}")
                            match = [r for r in rows if r["group"] == f"{sh} {kind}"
                                     and r["size"] == size and contender(r["contender"], kind)]
                            if b and match and match[0]["median_ms"] > 0:
                                pts.append((x, b["median_ms"] / match[0]["median_ms"]))
                        if pts:
                            xs, ys = zip(*pts)
                            label = next(r["contender"] for r in rows
                                         if contender(r["contender"], kind))
                            ax.plot(xs, ys, style, marker="o" if style == "-" else "x",
                                    color=f"C{si}", ms=4, lw=1.2 if style == "-" else 0.8,
                                    label=f"{label}, {human(size)}")
                ax.axhline(1, color="grey", lw=1)
                ax.axhline(target, color="k", lw=0.8, ls=":")
                ax.set_xticks(range(len(shapes)))
                ax.set_xticklabels(shapes, rotation=60, ha="right", fontsize=7)
                ax.set_title(f"{t} {kind}", fontsize=9)
                ax.grid(True, alpha=0.3)
                if col == 0:
                    baseline = next((r["contender"] for r in rows if r["role"] == "baseline"), "")
                    ax.set_ylabel(f"{baseline} time / time")
            axes[1][-1].legend(fontsize=6, loc="upper left", bbox_to_anchor=(1.01, 1))
        self.save(fig, name, title + f" (dotted: the target, {target}x)")

    def sweeps(self):
        corank_merge = lambda c, kind: c == "corank merge"
        old_cub = lambda algo: (lambda c, kind: c.endswith(algo) and c.startswith("CUB") and
                                not self.is_newest(c))
        self.shape_sweep("gpu merge", "gpu_merge_sweep",
                         "7a. Merge by key type and input shape: the newest CUB's DeviceMerge time "
                         "over ours (solid; dashed: the toolkit's CUB)",
                         [corank_merge], 1.3, [old_cub("DeviceMerge")])
        plain = lambda c, kind: c == ("corank stable_sort" if kind == "keys"
                                      else "corank stable_sort_by_key")
        self.shape_sweep("gpu sort", "gpu_sort_sweep",
                         "7b. Sort by key type and input shape: the newest CUB's DeviceMergeSort "
                         "time over ours, plain call (solid; dashed: the toolkit's CUB)",
                         [plain], 1.5, [old_cub("DeviceMergeSort")])
        self.merge_size_sweep()
        self.scan_sweep()
        self.segsort_sweep()
        self.summary()

    # 8 -----------------------------------------------------------------------------------------
    def toolbox(self):
        for backend in ("cpu", "gpu"):
            name, rows = f"toolbox_{backend}", self.doc.rows(f"{backend} toolbox")
            if not rows:
                self.skip(name, f"no '{backend} toolbox' experiment")
                continue
            size = max(r["size"] for r in rows)
            rows = [r for r in rows if r["size"] == size]
            copy = next((r for r in rows if r["role"] == "copy"), None)
            groups = list(dict.fromkeys(r["group"] for r in rows if r["role"] != "copy"))
            bars = []  # (label, speed-up or None, % copy or None), grouped by primitive
            for g in groups:
                mine = [r for r in rows if r["group"] == g]
                base = next((r for r in mine if r["role"] == "baseline"), None)
                for r in mine:
                    where = f", {r['threads']} thr" if backend == "cpu" else ""
                    up = base["median_ms"] / r["median_ms"] if base and r is not base else None
                    frac = (100 * (r["bytes"] / r["median_ms"]) / (copy["bytes"] / copy["median_ms"])
                            if copy else None)
                    bars.append((f"{g}: {r['contender']}{where}", up, frac, r["contender"]))
            fig, axes = plt.subplots(1, 2, figsize=(15, 0.28 * len(bars) + 1.5), sharey=True)
            ys = list(range(len(bars)))[::-1]
            colours = [("C0" if c.startswith("corank") else "C7") for _, _, _, c in bars]
            axes[0].barh(ys, [b[1] or 0 for b in bars], color=colours)
            for y, b in zip(ys, bars):
                if b[1] is None:
                    axes[0].text(1, y, " baseline" if b[2] is not None else "", va="center",
                                 fontsize=7)
            axes[0].set_xscale("log")
            ups = [b[1] for b in bars if b[1]]
            if ups:  # labelled powers of two: a span of 0.5x to 8x has no power of ten inside
                axes[0].set_xticks([2.0 ** e for e in range(math.floor(math.log2(min(ups + [1]))),
                                                            math.ceil(math.log2(max(ups))) + 1)])
                axes[0].xaxis.set_major_formatter(matplotlib.ticker.FormatStrFormatter("%gx"))
                axes[0].xaxis.set_minor_formatter(matplotlib.ticker.NullFormatter())
            axes[0].axvline(1, color="grey", lw=1)
            axes[0].set_xlabel("speed-up over the primitive's baseline (log)")
            axes[0].set_yticks(ys)
            axes[0].set_yticklabels([b[0] for b in bars], fontsize=7)
            axes[1].barh(ys, [b[2] or 0 for b in bars], color=colours)
            axes[1].set_xlabel("% of the copy's GB/s (bytes each primitive must move, same run)")
            for ax in axes:
                ax.grid(True, axis="x", which="both", alpha=0.3)
            self.save(fig, name, f"8. The co-rank toolbox, {backend.upper()}, {human(size)} u32 "
                      "per input (blue: corank)")

    def is_newest(self, contender):
        """Whether a CUB row is the newest CUB's (the baseline's version)."""
        for e in self.doc.experiments.values():
            for r in e["rows"]:
                if r["role"] == "baseline" and r["contender"].startswith("CUB"):
                    return contender.split()[1] == r["contender"].split()[1]
        return False

    def merge_size_sweep(self):
        rows = self.doc.rows("gpu merge u32")
        if not rows:
            return self.skip("gpu_merge_size_sweep", "no 'gpu merge u32' experiment")
        copy = {r["size"]: r for r in rows if r["role"] == "copy"}
        fig, axes = plt.subplots(1, 2, figsize=(13, 4.5))
        for ax_i, kind in enumerate(("keys", "pairs")):
            group = [r for r in rows if r["group"] == f"uniform {kind}"]
            base = [r for r in group if r["role"] == "baseline"]
            names = [n for n in dict.fromkeys(r["contender"] for r in group)
                     if n == "corank merge" or not n.startswith("corank")]
            for i, n in enumerate(names):
                mine = [r for r in group if r["contender"] == n]
                pts = speedup_points(mine, base)
                if pts:
                    xs, ys, _, _ = zip(*pts)
                    axes[0].plot(xs, ys, "-" if kind == "keys" else "--", marker="o", color=f"C{i}",
                                 label=f"{n} ({kind})")
                frac = [(r["size"], 100 * (r["bytes"] / r["median_ms"]) /
                         (copy[r["size"]]["bytes"] / copy[r["size"]]["median_ms"]))
                        for r in sorted(mine, key=lambda r: r["size"]) if r["size"] in copy]
                if frac:
                    xs, ys = zip(*frac)
                    axes[1].plot(xs, ys, "-" if kind == "keys" else "--", marker="o", color=f"C{i}",
                                 label=f"{n} ({kind})")
        axes[0].axhline(1, color="grey", lw=1)
        axes[0].set_ylabel(f"{base[0]['contender'] if base else 'baseline'} time / time")
        axes[1].axhline(90, color="k", lw=0.8, ls=":")
        axes[1].set_ylabel("% of the device copy's GB/s (same run)")
        for ax in axes:
            size_axis(ax, "items per input (u32 uniform; pairs: u32 values)")
            legend_outside(ax, 7)
        self.save(fig, "gpu_merge_size_sweep", "7c. Merge by size: against the newest CUB, and "
                  "the fraction of the copy (dotted: the targets)")

    @staticmethod
    def scan_length(group):
        m = re.match(r"^fixed (\d+)$", group)
        return int(m.group(1)) if m else None

    def scan_sweep(self):
        rows = self.doc.rows("gpu segmented scan")
        if not rows or not any(self.scan_length(r["group"]) for r in rows):
            return self.skip("segmented_scan_sweep", "no segmented-scan sweep")
        copy = next((r for r in rows if r["role"] == "copy"), None)
        groups = list(dict.fromkeys(r["group"] for r in rows if r["group"]))
        best = self.scan_best_peer(rows)
        names = [n for n in dict.fromkeys(r["contender"] for r in rows if r["role"] != "copy")
                 if n.startswith("corank") or n.startswith("CUB")]
        fixed = [g for g in groups if self.scan_length(g)]
        others = [g for g in groups if not self.scan_length(g)]
        fig, axes = plt.subplots(3, 1, figsize=(12, 12))
        for i, n in enumerate(names):
            style = "-" if n.startswith("corank") else "--"
            sp, frac, other = [], [], []
            for g in fixed:
                m = [r for r in rows if r["group"] == g and r["contender"] == n]
                if m and g in best:
                    sp.append((self.scan_length(g), best[g] / m[0]["median_ms"]))
                    if copy:
                        frac.append((self.scan_length(g), 100 * (m[0]["bytes"] / m[0]["median_ms"])
                                     / (copy["bytes"] / copy["median_ms"])))
            for x, g in enumerate(others):
                m = [r for r in rows if r["group"] == g and r["contender"] == n]
                if m and g in best:
                    other.append((x, best[g] / m[0]["median_ms"]))
            for ax, pts in ((axes[0], sp), (axes[1], frac), (axes[2], other)):
                if pts:
                    xs, ys = zip(*pts)
                    ax.plot(xs, ys, style, marker="o", ms=3, color=f"C{i}", label=n)
        for ax in axes[:2]:
            size_axis(ax, "segment length (fixed; int32 offsets)")
        axes[0].axhline(1.4, color="k", lw=0.8, ls=":")
        axes[0].set_yscale("log")
        axes[0].set_ylabel("faster newest-CUB time / time")
        axes[1].axhline(88, color="k", lw=0.8, ls=":")
        axes[1].set_ylabel("% of the device copy's GB/s")
        axes[2].axhline(1.4, color="k", lw=0.8, ls=":")
        axes[2].set_yscale("log")
        axes[2].set_xticks(range(len(others)))
        axes[2].set_xticklabels(others, rotation=30, ha="right", fontsize=8)
        axes[2].set_ylabel("faster newest-CUB time / time")
        axes[2].grid(True, alpha=0.3)
        for ax in axes:
            legend_outside(ax, 7)
        self.save(fig, "segmented_scan_sweep",
                  f"7d. Segmented scan of {human(rows[-1]['size'])} f32 by segment pattern: against "
                  "the faster of the newest CUB's two (dotted: the targets)")

    @staticmethod
    def segsort_length(group):
        m = re.match(r"^keys, length (\d+)$", group)
        return int(m.group(1)) if m else None

    def segsort_sweep(self):
        rows = self.doc.rows("gpu segmented sort sweep")
        if not rows or not any(self.segsort_length(r["group"]) for r in rows):
            return self.skip("segmented_sort_sweep", "no segmented-sort sweep")
        base = {r["group"]: r["median_ms"] for r in rows if r["role"] == "baseline"}
        names = [n for n in dict.fromkeys(r["contender"] for r in rows)
                 if n.startswith("CUB") or n.startswith("corank")]
        fig, axes = plt.subplots(2, 1, figsize=(12, 9))
        for i, n in enumerate(names):
            style = "-" if n.startswith("corank") else "--"
            rate, speed = [], []
            for r in rows:
                length = self.segsort_length(r["group"])
                if length is None or r["contender"] != n or r["median_ms"] <= 0:
                    continue
                rate.append((length, r["items"] / r["median_ms"] / 1e6))  # Gkeys/s
                if r["group"] in base:
                    speed.append((length, base[r["group"]] / r["median_ms"]))
            for ax, pts in ((axes[0], sorted(rate)), (axes[1], sorted(speed))):
                if pts:
                    xs, ys = zip(*pts)
                    ax.plot(xs, ys, style, marker="o", ms=3, color=f"C{i}", label=n)
        for ax in axes:
            size_axis(ax, "segment length (equal segments; int64 offsets)")
            legend_outside(ax, 7)
        axes[0].set_yscale("log")
        axes[0].set_ylabel("Gkeys/s")
        axes[1].set_yscale("log")
        axes[1].axhline(1.5, color="k", lw=0.8, ls=":")
        axes[1].set_ylabel("newest CUB's DeviceSegmentedSort time / time")
        n = rows[0]["items"]
        self.save(fig, "segmented_sort_sweep",
                  f"7e. Segmented sort of {human(n)} u32 keys by segment length (dotted: the "
                  "target)")

    def scan_best_peer(self, rows):
        """Per group: the faster median of the newest CUB's two segmented scans."""
        best = {}
        for r in rows:
            if r["contender"].startswith("CUB") and self.is_newest(r["contender"]):
                best[r["group"]] = min(best.get(r["group"], float("inf")), r["median_ms"])
        return best

    def summary(self):
        """sweep_summary.md: the targets' tables (worst case over the shapes, and where)."""
        lines = ["# Sweep summary", "", f"Machine: {self.doc.title_suffix()}. Speed-up: the "
                 "newest CUB's median time over ours (plain call unless named); % copy: our GB/s "
                 "over the device copy's of the same size, same run. 'worst' is over the shapes "
                 "of the row, with the shape that gives it.", ""]
        for prefix, ours, unit in (("gpu merge", {"keys": "corank merge", "pairs": "corank merge"},
                                    "per input"),
                                   ("gpu sort", {"keys": "corank stable_sort",
                                                 "pairs": "corank stable_sort_by_key"}, "keys")):
            sweep = self.doc.sweep(prefix)
            if not sweep:
                continue
            lines += [f"## {prefix}", "",
                      "| key | kind | size | worst speed-up (shape) | uniform speed-up | "
                      "worst % copy (shape) | caller's buffer speed-up, uniform |",
                      "|---|---|---|---|---|---|---|"]
            for t in [t for t in KEY_TYPES if t in sweep]:
                rows = sweep[t]
                copy = {r["size"]: r for r in rows if r["role"] == "copy"}
                for kind in ("keys", "pairs"):
                    for size in sorted({r["size"] for r in rows if r["role"] == "baseline"}):
                        sp, frac = [], []
                        uni = buf = None
                        for r in rows:
                            if r["size"] != size or not r["group"].endswith(" " + kind):
                                continue
                            shape = r["group"][:-len(kind) - 1]
                            base = next((b for b in rows if b["role"] == "baseline" and
                                         b["group"] == r["group"] and b["size"] == size), None)
                            if not base:
                                continue
                            x = base["median_ms"] / r["median_ms"]
                            if r["contender"] == ours[kind]:
                                sp.append((x, shape))
                                if size in copy:
                                    frac.append((100 * (r["bytes"] / r["median_ms"]) /
                                                 (copy[size]["bytes"] / copy[size]["median_ms"]),
                                                 shape))
                                if shape == "uniform":
                                    uni = x
                            if r["contender"] == ours[kind] + " (caller's buffer)" and \
                                    shape == "uniform":
                                buf = x
                        if not sp:
                            continue
                        w, f = min(sp), min(frac) if frac else (float("nan"), "-")
                        lines.append(f"| {t} | {kind} | {human(size)} | {w[0]:.2f}x ({w[1]}) | "
                                     f"{uni:.2f}x | {f[0]:.0f}% ({f[1]}) | "
                                     + (f"{buf:.2f}x |" if buf else "- |"))
            lines.append("")
            if prefix == "gpu sort":
                lines += ["Presorted and nearly sorted against uniform random input, the same "
                          "size (random time / time, plain call; target >= 3x):", "",
                          "| key | kind | size | presorted | nearly sorted | reverse |",
                          "|---|---|---|---|---|---|"]
                for t in [t for t in KEY_TYPES if t in sweep]:
                    rows = sweep[t]
                    for kind in ("keys", "pairs"):
                        for size in sorted({r["size"] for r in rows if r["role"] == "baseline"}):
                            ms = {r["group"][:-len(kind) - 1]: r["median_ms"] for r in rows
                                  if r["size"] == size and r["contender"] == ours[kind]
                                  and r["group"].endswith(" " + kind)}
                            if "uniform" not in ms:
                                continue
                            cells = [f"{ms['uniform'] / ms[sh]:.2f}x" if sh in ms else "-"
                                     for sh in ("presorted", "nearly sorted", "reverse")]
                            lines.append(f"| {t} | {kind} | {human(size)} | " + " | ".join(cells)
                                         + " |")
                lines.append("")
        rows = self.doc.rows("gpu segmented scan")
        best = self.scan_best_peer(rows) if rows else {}
        copy = next((r for r in rows if r["role"] == "copy"), None)
        if best:
            lines += ["## gpu segmented scan", "",
                      f"Against the faster of the newest CUB's InclusiveScanByKey and "
                      f"DeviceSegmentedScan, {human(rows[-1]['size'])} f32.", "",
                      "| contender | groups | worst speed-up (group) | median speed-up | "
                      "worst % copy (group) | groups below 1.4x | groups below 88% copy |",
                      "|---|---|---|---|---|---|---|"]
            for n in dict.fromkeys(r["contender"] for r in rows if r["contender"].startswith("corank")):
                sp = [(best[r["group"]] / r["median_ms"], r["group"]) for r in rows
                      if r["contender"] == n and r["group"] in best]
                fr = [(100 * (r["bytes"] / r["median_ms"]) / (copy["bytes"] / copy["median_ms"]),
                       r["group"]) for r in rows if r["contender"] == n and copy]
                if not sp:
                    continue
                med = sorted(x for x, _ in sp)[len(sp) // 2]
                lines.append(f"| {n} | {len(sp)} | {min(sp)[0]:.2f}x ({min(sp)[1]}) | {med:.2f}x | "
                             f"{min(fr)[0]:.0f}% ({min(fr)[1]}) | "
                             f"{sum(x < 1.4 for x, _ in sp)} | {sum(x < 88 for x, _ in fr)} |")
            lines.append("")
        if len(lines) == 4:
            return self.skip("sweep_summary.md", "no sweeps")
        path = os.path.join(self.out_dir, "sweep_summary.md")
        with open(path, "w") as f:
            f.write("\n".join(lines))
        self.made.append(path)


def main():
    ap = argparse.ArgumentParser(description=__doc__, formatter_class=argparse.RawDescriptionHelpFormatter)
    ap.add_argument("json", nargs="+", help="output of corank bench ... --json FILE (several: one run"
                    " in pieces)")
    ap.add_argument("-o", "--out", default="figures", help="directory for the figures")
    ap.add_argument("--format", default="png", help="comma-separated: png, svg")
    args = ap.parse_args()
    docs = []
    for path in args.json:
        with open(path) as f:
            docs.append(json.load(f))
    doc = Doc(docs)
    os.makedirs(args.out, exist_ok=True)
    p = Plotter(doc, args.out, [f.strip() for f in args.format.split(",") if f.strip()])
    for step in (p.cpu_merge, p.gpu_merge, p.sorts, p.scans, p.sweeps, p.toolbox):
        step()
    for path in p.made:
        print(f"wrote {path}")
    for line in p.skipped:
        print(f"skipped {line}")
    if not p.made:
        print("plot_bench: nothing to draw in " + " ".join(args.json), file=sys.stderr)
        return 1
    return 0


if __name__ == "__main__":
    sys.exit(main())
