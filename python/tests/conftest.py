"""Backends the suite runs on: NumPy always; PyTorch CPU tensors when torch is installed; CuPy
and PyTorch CUDA tensors when there is a GPU (those tests skip cleanly otherwise).

Each test draws fresh random inputs; the seed is printed (shown by pytest on failure). Replay
with CORANK_TEST_SEED=<seed> pytest python/tests -k <test>."""
import os
import random

import numpy as np
import pytest

import corank


class Backend:
    def __init__(self, name, to_device, to_numpy, gpu):
        self.name, self.to_device, self.to_numpy, self.gpu = name, to_device, to_numpy, gpu

    def __repr__(self):
        return self.name


def _numpy():
    return Backend("numpy", lambda a: np.array(a, copy=True, order="C"), np.asarray, False)


def _cupy():
    try:
        import cupy
    except ImportError:
        return None
    if not corank.gpu_available():
        return None
    return Backend("cupy", cupy.asarray, cupy.asnumpy, True)


def _torch(device):
    try:
        import torch
    except ImportError:
        return None
    if device == "cuda" and not (torch.cuda.is_available() and corank.gpu_available()):
        return None

    def to_device(a):
        a = np.ascontiguousarray(a)
        if a.dtype in (np.uint16, np.uint32, np.uint64) and not hasattr(torch, "uint16"):
            pytest.skip("this torch has no unsigned 16-64-bit dtypes")
        return torch.from_numpy(a.copy()).to(device)

    return Backend(f"torch-{device}", to_device, lambda t: t.cpu().numpy(), device == "cuda")


_MAKERS = {
    "numpy": _numpy,
    "cupy": _cupy,
    "torch-cpu": lambda: _torch("cpu"),
    "torch-cuda": lambda: _torch("cuda"),
}


@pytest.fixture(params=list(_MAKERS))
def backend(request):
    made = _MAKERS[request.param]()
    if made is None:
        pytest.skip(f"{request.param}: not installed, or no GPU")
    return made


@pytest.fixture
def rng():
    seed = int(os.environ.get("CORANK_TEST_SEED", random.randrange(2**32)))
    print(f"CORANK_TEST_SEED={seed}")
    return np.random.default_rng(seed)
