#!/usr/bin/env python3
"""corank beside the sorts and merges your array libraries offer, on this machine.

  python compare.py [N]      (default 10_000_000 int32 keys)

NumPy on the CPU always; CuPy and PyTorch on the GPU when they and a GPU are present. Each line:
the median of 5 timed calls after one warm-up (GPU: CUDA events; the results are checked against
each other first). For the C++-side comparison and the per-call cost see python/bench/bench.py.
"""
import statistics
import sys
import time

import numpy as np

import corank


# The timers are written out here, not imported from python/bench/bench.py: this file is meant to
# run on its own (and be copied) wherever corank is installed.
def timed_cpu(fn, reps=5):
    fn()
    times = []
    for _ in range(reps):
        start = time.perf_counter()
        fn()
        times.append(time.perf_counter() - start)
    return statistics.median(times) * 1e3


def timed_gpu(fn, reps=5):
    import cupy

    fn()
    start, end = cupy.cuda.Event(), cupy.cuda.Event()
    times = []
    for _ in range(reps):
        start.record()
        fn()
        end.record()
        end.synchronize()
        times.append(cupy.cuda.get_elapsed_time(start, end))
    return statistics.median(times)


def show(label, ms, n):
    print(f"  {label:42s} {ms:9.2f} ms  {n / ms / 1e6:7.2f} G keys/s")


def main():
    n = int(float(sys.argv[1])) if len(sys.argv) > 1 else 10_000_000
    rng = np.random.default_rng(0)
    keys = rng.integers(0, 2**31 - 1, n, dtype=np.int32)
    a, b = np.sort(keys[: n // 2]), np.sort(keys[n // 2:])
    print(f"CPU, {n} int32 keys")
    assert np.array_equal(corank.sort(keys), np.sort(keys))
    assert np.array_equal(corank.merge(a, b), np.sort(keys))
    show("corank.sort", timed_cpu(lambda: corank.sort(keys)), n)
    show("numpy.sort", timed_cpu(lambda: np.sort(keys)), n)
    show("numpy.sort(kind='stable')", timed_cpu(lambda: np.sort(keys, kind="stable")), n)
    show("corank.argsort", timed_cpu(lambda: corank.argsort(keys)), n)
    show("numpy.argsort(kind='stable')", timed_cpu(lambda: np.argsort(keys, kind="stable")), n)
    show("corank.merge", timed_cpu(lambda: corank.merge(a, b)), n)
    show("numpy: sort of the concatenation",
         timed_cpu(lambda: np.sort(np.concatenate([a, b]), kind="stable")), n)

    if not corank.gpu_available():
        print("GPU: none (or corank was built without nvcc)")
        return
    try:
        import cupy
        import torch
    except ImportError as missing:
        print(f"GPU: skipped ({missing.name} is not installed)")
        return
    d_keys, d_a, d_b = cupy.asarray(keys), cupy.asarray(a), cupy.asarray(b)
    t_keys, t_a, t_b = (torch.from_dlpack(v) for v in (d_keys, d_a, d_b))
    print(f"GPU ({cupy.cuda.runtime.getDeviceProperties(0)['name'].decode()}), {n} int32 keys")
    assert bool((corank.sort(d_keys) == cupy.sort(d_keys)).all())
    assert torch.equal(corank.merge(t_a, t_b), torch.sort(t_keys).values)
    show("corank.sort (cupy array)", timed_gpu(lambda: corank.sort(d_keys)), n)
    show("corank.sort (torch tensor)", timed_gpu(lambda: corank.sort(t_keys)), n)
    show("cupy.sort", timed_gpu(lambda: cupy.sort(d_keys)), n)
    show("torch.sort", timed_gpu(lambda: torch.sort(t_keys)), n)
    show("torch.sort(stable=True)", timed_gpu(lambda: torch.sort(t_keys, stable=True)), n)
    show("corank.argsort (torch tensor)", timed_gpu(lambda: corank.argsort(t_keys)), n)
    show("torch.argsort(stable=True)", timed_gpu(lambda: torch.argsort(t_keys, stable=True)), n)
    show("corank.merge (torch tensors)", timed_gpu(lambda: corank.merge(t_a, t_b)), n)

    def searchsorted_merge():
        out = torch.empty_like(t_keys)
        out[torch.arange(t_a.numel(), device="cuda") + torch.searchsorted(t_b, t_a)] = t_a
        out[torch.arange(t_b.numel(), device="cuda") + torch.searchsorted(t_a, t_b, right=True)] = t_b
        return out

    assert torch.equal(searchsorted_merge(), corank.merge(t_a, t_b))
    show("torch.searchsorted merge", timed_gpu(searchsorted_merge), n)
    show("torch.sort of the concatenation", timed_gpu(lambda: torch.sort(torch.cat([t_a, t_b]))), n)


if __name__ == "__main__":
    main()
