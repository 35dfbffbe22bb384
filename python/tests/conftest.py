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


# --- 2-byte floats: float16 (NumPy, PyTorch) and bfloat16 (PyTorch, or DLPackBits) -----------

HALF_DTYPES = ["float16", "bfloat16"]


class DLPackBits:
    """A 1-D CPU array of 2-byte floats that NumPy cannot hold (bfloat16): the bits in a NumPy
    uint16 array, handed over through DLPack with the float type code. corank computes on it and
    writes results into one given as out= (it cannot allocate its like)."""

    _CODES = {"float16": 2, "bfloat16": 4}  # kDLFloat, kDLBfloat

    def __init__(self, bits, dtype):
        self.bits = np.ascontiguousarray(bits, dtype=np.uint16)
        self.dtype = dtype
        self.shape = self.bits.shape

    def __dlpack_device__(self):
        return (1, 0)  # kDLCPU

    def __dlpack__(self, **_):
        import ctypes

        class Device(ctypes.Structure):
            _fields_ = [("device_type", ctypes.c_int32), ("device_id", ctypes.c_int32)]

        class DataType(ctypes.Structure):
            _fields_ = [("code", ctypes.c_uint8), ("bits", ctypes.c_uint8),
                        ("lanes", ctypes.c_uint16)]

        class Tensor(ctypes.Structure):
            _fields_ = [("data", ctypes.c_void_p), ("device", Device), ("ndim", ctypes.c_int32),
                        ("dtype", DataType), ("shape", ctypes.POINTER(ctypes.c_int64)),
                        ("strides", ctypes.c_void_p), ("byte_offset", ctypes.c_uint64)]

        class Managed(ctypes.Structure):  # DLManagedTensor, no deleter: self keeps it alive
            _fields_ = [("tensor", Tensor), ("manager_ctx", ctypes.c_void_p),
                        ("deleter", ctypes.c_void_p)]

        shape = (ctypes.c_int64 * 1)(self.bits.shape[0])
        managed = Managed(Tensor(self.bits.ctypes.data, Device(1, 0), 1,
                                 DataType(self._CODES[self.dtype], 16, 1), shape, None, 0),
                          None, None)
        self._alive = (shape, managed)
        new_capsule = ctypes.pythonapi.PyCapsule_New
        new_capsule.restype = ctypes.py_object
        new_capsule.argtypes = [ctypes.c_void_p, ctypes.c_char_p, ctypes.c_void_p]
        return new_capsule(ctypes.addressof(managed), b"dltensor", None)


def bfloat16_bits(x):
    """float32 values rounded to bfloat16 (to nearest, ties to even; past the largest value to
    infinity; NaN stays NaN), as bits: the two candidates compared in float64, a reference apart
    from the library's integer code."""
    x = np.asarray(x, np.float32)
    down = (x.view(np.uint32) >> 16).astype(np.uint16)
    up = down + np.uint16(1)

    def value(b):
        v = (b.astype(np.uint32) << 16).view(np.float32).astype(np.float64)
        beyond = 2.0**128 * np.where(b & 0x8000, -1.0, 1.0)  # where rounding up gives infinity
        return np.where((b & 0x7fff) == 0x7f80, beyond, v)

    with np.errstate(invalid="ignore"):
        exact = x.astype(np.float64)
        low, high = np.abs(exact - value(down)), np.abs(value(up) - exact)
        take_up = (high < low) | ((high == low) & (down % 2 == 1))
        rounded = np.where(take_up & (value(down) != exact) & ~np.isinf(x), up, down)
    return np.where(np.isnan(x), np.uint16(0x7fc0) | (down & np.uint16(0x8000)), rounded)


class HalfArrays:
    """How a backend holds 2-byte floats: to_device takes float32 values (rounded to the dtype),
    to_numpy gives them back as float32; `bits` reads the raw bits. `empty` is the out= the
    DLPackBits form needs (None elsewhere: corank allocates)."""

    def __init__(self, backend, dtype):
        self.dtype, self.backend = dtype, backend
        if backend.name.startswith("torch"):
            import torch

            self.torch_dtype = getattr(torch, dtype)
            self.kind = "torch"
        elif backend.name == "cupy":
            self.kind = "cupy"
        else:
            self.kind = "numpy" if dtype == "float16" else "dlpack"

    def to_device(self, values):
        values = np.asarray(values, np.float32)
        if self.kind == "numpy":
            return values.astype(np.float16)
        if self.kind == "dlpack":
            return DLPackBits(bfloat16_bits(values), "bfloat16")
        if self.kind == "torch":
            import torch

            return torch.from_numpy(values.copy()).to(self.torch_dtype).to(
                "cuda" if self.backend.gpu else "cpu")
        if self.dtype == "bfloat16":
            pytest.skip("CuPy has no bfloat16")
        return self.backend.to_device(values.astype(np.float16))

    def bits(self, array):
        if self.kind == "dlpack":
            return array.bits.copy()
        if self.kind == "torch":
            import torch

            return array.cpu().view(torch.int16).numpy().view(np.uint16)
        return self.backend.to_numpy(array).view(np.uint16)

    def to_numpy(self, array):
        bits = self.bits(array)
        if self.dtype == "float16":
            return bits.view(np.float16).astype(np.float32)
        return (bits.astype(np.uint32) << 16).view(np.float32)

    def empty(self, n):
        """An out= for the DLPackBits form, else None."""
        return DLPackBits(np.full(n, 0x7fff, np.uint16), "bfloat16") if self.kind == "dlpack" \
            else None
