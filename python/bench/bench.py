#!/usr/bin/env python3
"""corank from Python against the same C++ calls and the array libraries' own functions.

  python bench.py [--sizes 10M,100M] [--json FILE] [--no-cpu] [--no-gpu]

1. Per-call cost (1K elements): host microseconds per call of corank.merge / corank.sort from
   Python (CuPy arrays, PyTorch tensors, NumPy arrays), against the same operation called from
   C++ in a loop inside the extension (corank._cuda.time_calls: no Python between calls). Calls
   run in batches of 200 below the launch queue's depth; the median batch is reported.
2. Throughput at each size: device time (CUDA events on the null stream, which CuPy and PyTorch
   use by default) per call of 10 calls queued back to back (median of 7), of corank from Python,
   the same C++ calls, and torch.sort / torch.argsort / cupy.sort / searchsorted merges; NumPy on
   the CPU (median of 9 after 3 warm-up calls).
Prints Markdown tables last; --json writes every row.
"""
import argparse
import json
import statistics
import time

import numpy as np

import corank
from corank import _cpu

try:
    from corank import _cuda
except ImportError:
    _cuda = None

ROWS = []


def size_arg(text):
    scale = {"K": 10**3, "M": 10**6, "G": 10**9}
    return int(float(text[:-1]) * scale[text[-1]]) if text[-1] in scale else int(text)


def row(table, case, impl, value, unit, n=None, extra=None):
    entry = {"table": table, "case": case, "impl": impl, "value": value, "unit": unit, "n": n}
    entry.update(extra or {})
    ROWS.append(entry)
    print(f"  {table:10s} {case:28s} {impl:44s} {value:10.3f} {unit}", flush=True)
    return value


# --- timing helpers ------------------------------------------------------------------------


def host_us_per_call(fn, sync, batch=200, batches=25):
    fn(), fn()
    sync()
    times = []
    for _ in range(batches):
        start = time.perf_counter()
        for _ in range(batch):
            fn()
        times.append(time.perf_counter() - start)
        sync()
    return statistics.median(times) / batch * 1e6


def cpp_us_per_call(module, what, a, b, out, stream, sync, batch=200, batches=25):
    module.time_calls(what, a, b, out, 2, stream)
    sync()
    times = []
    for _ in range(batches):
        times.append(module.time_calls(what, a, b, out, batch, stream))
        sync()
    return statistics.median(times) / batch * 1e6


BACK_TO_BACK = 10


def device_ms(fn, reps=7, warm=2, calls=BACK_TO_BACK):
    """Device time of one call: `calls` calls back to back between two events, so that the host
    queues ahead of the device as in a pipeline (a single call between events would add its own
    launch latency: the per-call table measures that), divided by `calls`; median of `reps`.
    fn(k) makes k calls."""
    import cupy

    fn(warm)
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(reps):
        start.record()
        fn(calls)
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end) / calls)
    return statistics.median(times)


def repeated(call):
    """fn(k) for device_ms from a single call."""

    def calls(k):
        for _ in range(k):
            call()

    return calls


def cpu_ms(fn, reps=9, warm=3):
    for _ in range(warm):
        fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


# --- the peers' merges -----------------------------------------------------------------------


def torch_searchsorted_merge(a, b, out):
    import torch

    # Stable: a's items go before equal items of b (left), b's after equal items of a (right).
    pos_a = torch.arange(a.numel(), device=a.device) + torch.searchsorted(b, a, right=False)
    pos_b = torch.arange(b.numel(), device=b.device) + torch.searchsorted(a, b, right=True)
    out[pos_a] = a
    out[pos_b] = b
    return out


def cupy_searchsorted_merge(a, b, out):
    import cupy

    pos_a = cupy.arange(a.size) + cupy.searchsorted(b, a, side="left")
    pos_b = cupy.arange(b.size) + cupy.searchsorted(a, b, side="right")
    out[pos_a] = a
    out[pos_b] = b
    return out


# --- 1. per-call cost ------------------------------------------------------------------------


def overhead_gpu():
    import cupy
    import torch

    n = 1000
    rng = np.random.default_rng(1)
    a_h = np.sort(rng.integers(0, 1 << 30, n // 2, dtype=np.uint32).astype(np.int32))
    b_h = np.sort(rng.integers(0, 1 << 30, n // 2, dtype=np.uint32).astype(np.int32))
    x_h = rng.integers(0, 1 << 30, n, dtype=np.int32)
    sync = cupy.cuda.Device().synchronize
    a, b, x = cupy.asarray(a_h), cupy.asarray(b_h), cupy.asarray(x_h)
    out, sorted_out = cupy.empty(n, cupy.int32), cupy.empty(n, cupy.int32)
    ta, tb, tx = (torch.from_numpy(v.copy()).cuda() for v in (a_h, b_h, x_h))
    tout, tsorted = torch.empty(n, dtype=torch.int32, device="cuda"), torch.empty_like(tx)
    stream = cupy.cuda.get_current_stream().ptr
    cases = [
        ("merge 500+500", "merge", (a, b, out), [
            ("corank.merge(a, b, out=out) cupy", lambda: corank.merge(a, b, out=out)),
            ("corank.merge(a, b) cupy (allocates)", lambda: corank.merge(a, b)),
            ("corank.merge(a, b, out=out) torch", lambda: corank.merge(ta, tb, out=tout)),
            ("corank.merge(a, b) torch (allocates)", lambda: corank.merge(ta, tb)),
        ]),
        ("sort 1000 (copy + sort)", "sort", (x, x, sorted_out), [
            ("corank.sort(x, out=y) cupy", lambda: corank.sort(x, out=sorted_out)),
            ("corank.sort(x) cupy (allocates)", lambda: corank.sort(x)),
            ("corank.sort(x, out=y) torch", lambda: corank.sort(tx, out=tsorted)),
            ("corank.sort(x) torch (allocates)", lambda: corank.sort(tx)),
            ("torch.sort(x) (for scale)", lambda: torch.sort(tx)),
            ("cupy.sort(x) (for scale)", lambda: cupy.sort(x)),
        ]),
    ]
    for case, what, args, calls in cases:
        base = row("per-call", case, "C++ call (in-extension loop)",
                   cpp_us_per_call(_cuda, what, *args, stream, sync), "us/call", n)
        for name, fn in calls:
            us = host_us_per_call(fn, sync)
            row("per-call", case, name, us, "us/call", n, {"above_cpp_us": us - base})


def overhead_cpu():
    n = 1000
    rng = np.random.default_rng(1)
    a = np.sort(rng.integers(0, 1 << 30, n // 2).astype(np.int32))
    b = np.sort(rng.integers(0, 1 << 30, n // 2).astype(np.int32))
    out = np.empty(n, np.int32)
    base = row("per-call", "CPU merge 500+500", "C++ call (in-extension loop)",
               cpp_us_per_call(_cpu, "merge", a, b, out, 0, lambda: None), "us/call", n)
    for name, fn in [("corank.merge(a, b, out=out) numpy", lambda: corank.merge(a, b, out=out)),
                     ("corank.merge(a, b) numpy (allocates)", lambda: corank.merge(a, b))]:
        us = host_us_per_call(fn, lambda: None)
        row("per-call", "CPU merge 500+500", name, us, "us/call", n, {"above_cpp_us": us - base})


# --- 2. throughput ---------------------------------------------------------------------------


def throughput_gpu(n):
    import cupy
    import torch

    keys = cupy.asarray(np.random.default_rng(7).integers(0, 1 << 31, n, dtype=np.int32))
    half = n // 2
    a, b = cupy.sort(keys[:half]), cupy.sort(keys[half:])
    out = cupy.empty(n, cupy.int32)
    ta, tb, tkeys = (torch.from_dlpack(v) for v in (a, b, keys))
    tout = torch.empty(n, dtype=torch.int32, device="cuda")
    stream = 0
    per_s = lambda ms: n / ms / 1e6  # noqa: E731  (G items/s)
    label = f"{n // 10**6}M int32"

    def report(case, impl, fn, baseline=None, batched=False):
        ms = device_ms(fn if batched else repeated(fn))
        extra = {"g_items_per_s": per_s(ms)}
        if baseline:
            extra["vs_cpp"] = ms / baseline
        row("throughput", f"{case} {label}", impl, ms, "ms", n, extra)
        return ms

    base = report("merge", "C++ corank::cuda::merge",
                  lambda k: _cuda.time_calls("merge", a, b, out, k, stream), batched=True)
    report("merge", "corank.merge(a, b, out=out) cupy", lambda: corank.merge(a, b, out=out), base)
    report("merge", "corank.merge(a, b) torch", lambda: corank.merge(ta, tb), base)
    report("merge", "torch.searchsorted merge", lambda: torch_searchsorted_merge(ta, tb, tout))
    report("merge", "cupy.searchsorted merge", lambda: cupy_searchsorted_merge(a, b, out))
    report("merge", "torch.sort(torch.cat([a, b]))", lambda: torch.sort(torch.cat([ta, tb])))

    base = report("sort", "C++ cudaMemcpyAsync + stable_sort",
                  lambda k: _cuda.time_calls("sort", keys, keys, out, k, stream), batched=True)
    report("sort", "corank.sort(x, out=y) cupy", lambda: corank.sort(keys, out=out), base)
    report("sort", "corank.sort(x) torch", lambda: corank.sort(tkeys), base)
    report("sort", "torch.sort(x, stable=True)", lambda: torch.sort(tkeys, stable=True))
    report("sort", "torch.sort(x)", lambda: torch.sort(tkeys))
    report("sort", "cupy.sort(x)", lambda: cupy.sort(keys))

    report("argsort", "corank.argsort(x) torch", lambda: corank.argsort(tkeys))
    report("argsort", "corank.argsort(x) cupy", lambda: corank.argsort(keys))
    report("argsort", "corank.argsort(x) torch, 64-bit indices",
           lambda: with_index_limit(0, lambda: corank.argsort(tkeys)))
    report("argsort", "torch.argsort(x, stable=True)", lambda: torch.argsort(tkeys, stable=True))
    report("argsort", "cupy.argsort(x)", lambda: cupy.argsort(keys))

    rows = keys.reshape(-1, 1000)
    trows = tkeys.reshape(-1, 1000)
    report("rows of 1000", "corank.sort_segments(x) cupy", lambda: corank.sort_segments(rows))
    report("rows of 1000", "corank.sort_segments(x, stable=False)",
           lambda: corank.sort_segments(rows, stable=False))
    report("rows of 1000", "torch.sort(x, dim=1)", lambda: torch.sort(trows, dim=1))
    report("rows of 1000", "cupy.sort(x, axis=1)", lambda: cupy.sort(rows, axis=1))
    report("rows of 1000", "corank.argsort_segments(x) torch",
           lambda: corank.argsort_segments(trows))
    report("rows of 1000", "torch.argsort(x, dim=1, stable=True)",
           lambda: torch.argsort(trows, dim=1, stable=True))

    halves = cupy.asarray(np.random.default_rng(8).standard_normal(n).astype(np.float16))
    thalves = torch.from_dlpack(halves)
    tbf16 = thalves.to(torch.bfloat16)
    report("sort f16", "corank.sort(x) cupy f16", lambda: corank.sort(halves))
    report("sort f16", "cupy.sort(x) f16", lambda: cupy.sort(halves))
    report("sort f16", "torch.sort(x) f16", lambda: torch.sort(thalves))
    report("sort f16", "corank.sort(x) torch bf16", lambda: corank.sort(tbf16))
    report("sort f16", "torch.sort(x) bf16", lambda: torch.sort(tbf16))
    # The 2-byte integer keys for scale: the same item size, compared as integers.
    shorts = cupy.asarray(np.random.default_rng(9).integers(-2**15, 2**15, n, dtype=np.int16))
    report("sort f16", "corank.sort(x) cupy int16", lambda: corank.sort(shorts))
    del halves, thalves, tbf16, shorts

    values = keys.astype(cupy.float32).reshape(-1, 1000)
    tvalues = torch.from_dlpack(values)
    report("scan rows 1000", "corank.segmented_scan(x) cupy f32",
           lambda: corank.segmented_scan(values))
    report("scan rows 1000", "torch.cumsum(x, dim=1) f32", lambda: torch.cumsum(tvalues, dim=1))
    report("scan rows 1000", "cupy.cumsum(x, axis=1) f32", lambda: cupy.cumsum(values, axis=1))
    del keys, a, b, out, ta, tb, tkeys, tout, rows, trows, values, tvalues
    cupy.get_default_memory_pool().free_all_blocks()
    torch.cuda.empty_cache()


def with_index_limit(limit, fn):
    """fn() with argsort's 32-bit index limit set to `limit` (0: always 64-bit indices)."""
    saved, corank._INDEX32_LIMIT = corank._INDEX32_LIMIT, limit
    try:
        return fn()
    finally:
        corank._INDEX32_LIMIT = saved


def throughput_cpu(n):
    rng = np.random.default_rng(7)
    keys = rng.integers(0, 1 << 31, n).astype(np.int32)
    a, b = np.sort(keys[: n // 2]), np.sort(keys[n // 2:])
    out = np.empty(n, np.int32)
    label = f"CPU {n // 10**6}M int32"

    def report(case, impl, fn, baseline=None):
        ms = cpu_ms(fn)
        extra = {"g_items_per_s": n / ms / 1e6}
        if baseline:
            extra["vs_cpp"] = ms / baseline
        row("throughput", f"{case} {label}", impl, ms, "ms", n, extra)
        return ms

    base = report("merge", "C++ corank::cpu::merge", lambda: _cpu.time_calls("merge", a, b, out, 1))
    report("merge", "corank.merge(a, b, out=out)", lambda: corank.merge(a, b, out=out), base)
    report("merge", "numpy.sort(concatenate, stable)",
           lambda: np.sort(np.concatenate([a, b]), kind="stable"))
    base = report("sort", "C++ copy + corank::cpu::stable_sort",
                  lambda: _cpu.time_calls("sort", keys, keys, out, 1))
    report("sort", "corank.sort(x, out=y)", lambda: corank.sort(keys, out=out), base)
    report("sort", "numpy.sort(x)", lambda: np.sort(keys))
    report("sort", "numpy.sort(x, kind='stable')", lambda: np.sort(keys, kind="stable"))
    report("argsort", "corank.argsort(x)", lambda: corank.argsort(keys))
    report("argsort", "corank.argsort(x), 64-bit indices",
           lambda: with_index_limit(0, lambda: corank.argsort(keys)))
    report("argsort", "numpy.argsort(x, kind='stable')", lambda: np.argsort(keys, kind="stable"))


def main():
    parser = argparse.ArgumentParser(description=__doc__.splitlines()[0])
    parser.add_argument("--sizes", default="10M,100M")
    parser.add_argument("--cpu-sizes", default="10M")
    parser.add_argument("--json")
    parser.add_argument("--no-cpu", action="store_true")
    parser.add_argument("--no-gpu", action="store_true")
    args = parser.parse_args()
    gpu = not args.no_gpu and corank.gpu_available()
    if gpu:
        overhead_gpu()
    if not args.no_cpu:
        overhead_cpu()
    if gpu:
        for n in map(size_arg, args.sizes.split(",")):
            throughput_gpu(n)
    if not args.no_cpu:
        for n in map(size_arg, args.cpu_sizes.split(",")):
            throughput_cpu(n)
    if args.json:
        with open(args.json, "w") as f:
            json.dump(ROWS, f, indent=1)
    print("\n| table | case | implementation | value | vs C++ / above C++ |")
    print("|---|---|---|---:|---:|")
    for r in ROWS:
        rel = ""
        if "above_cpp_us" in r:
            rel = f"+{r['above_cpp_us']:.2f} us"
        elif "vs_cpp" in r:
            rel = f"{(r['vs_cpp'] - 1) * 100:+.1f}%"
        print(f"| {r['table']} | {r['case']} | {r['impl']} | {r['value']:.3f} {r['unit']} | {rel} |")


if __name__ == "__main__":
    main()
