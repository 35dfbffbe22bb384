"""corank: merge, sort, segmented sort and segmented scan on NumPy, CuPy and PyTorch arrays.

Every function takes 1-D contiguous arrays (2-D for the row forms) that speak DLPack: NumPy
arrays and PyTorch CPU tensors run on the CPU (OpenMP, all cores), CuPy arrays and PyTorch CUDA
tensors on their GPU. Nothing is copied in: the C++ library reads the caller's memory. Results
are new arrays of the caller's library on the same device (allocated by that library, so its
memory pool serves them), or the arrays given as ``out=``. GPU arrays that speak only
``__cuda_array_interface__`` (Numba's device arrays) are wrapped by CuPy without a copy when CuPy
is installed (else TypeError); results come back as Numba arrays for Numba's, else as CuPy's.

GPU work is queued on the array library's current stream (CuPy's current stream,
``torch.cuda.current_stream()``) or on ``stream=`` (an integer handle, or an object with ``.ptr``
or ``.cuda_stream``), and nothing waits for it: the call returns once the work is queued.
``check=True`` checks preconditions the fast path trusts (sorted merge inputs, well-formed GPU
offsets); on the GPU that waits for the stream.

Keys: int8-int64, uint8-uint64, float16 (NumPy, CuPy, PyTorch), bfloat16 (PyTorch), float32,
float64. Values (moved with their keys): any dtype of 1, 2, 4 or 8 bytes (4 or 8 on the GPU).
float16 and bfloat16 keys are ordered alike on both devices: -0.0 and +0.0 tie (stable sorts keep
them in input order), and NaNs tie with each other after +inf (ascending; first when descending),
where NumPy and PyTorch sort them. They are scanned in float32 with each output rounded to the
dtype, as PyTorch's cumsum does (NumPy's float16 cumsum rounds every step and stops growing at 2048
for a run of ones); on the CPU only: the GPU scans take 4- and 8-byte values. float32 and float64
keys are compared with ``<``, for which a NaN is neither smaller nor larger than anything: NaN keys
break the order the sorts and merges need, and the result is then unspecified (on the GPU it may
not even be a permutation of the input). Keep NaNs out of float32 and float64 keys.
"""
from __future__ import annotations

import contextlib

from . import _cpu

try:
    from . import _cuda
except ImportError:  # built without nvcc, or no CUDA driver here
    _cuda = None

__all__ = [
    "merge",
    "argmerge",
    "sort",
    "argsort",
    "sort_segments",
    "argsort_segments",
    "segmented_scan",
    "spmv_scan",
    "gpu_available",
]
__version__ = "0.1.0"

_SCAN_OPS = {"add": 0, "max": 1, "min": 2}


def gpu_available() -> bool:
    """Whether the CUDA module was built and a CUDA device is present."""
    return _cuda is not None and _cuda.device_count() > 0


# --- The array libraries: how to allocate like an array, and which stream it uses ------------


class _NumPy:
    name = "numpy"
    export = None  # arrays go to nanobind as they are (DLPack)
    on_stream = None  # no streams on the CPU: stream= is ignored

    def __init__(self):
        import numpy

        self.np = numpy
        self.int64 = numpy.int64

    def module(self, x):
        return _cpu

    def empty(self, like, shape, dtype=None):
        return self.np.empty(shape, dtype=like.dtype if dtype is None else dtype)

    def arange(self, like, stop, step):
        return self.np.arange(0, stop, step, dtype=self.np.int64)

    def as_int64(self, x):
        return self.np.ascontiguousarray(x, dtype=self.np.int64)

    index32_limit = 2**32

    def arange32(self, like, n):
        return self.np.arange(n, dtype=self.np.uint32)

    def stream(self, x, stream):
        return 0

    def item_size(self, x):
        return x.dtype.itemsize


class _CuPy:
    name = "cupy"
    export = None

    def __init__(self):
        import cupy

        self.cp = cupy
        self.int64 = cupy.int64

    def module(self, x):
        if _cuda is None:
            raise RuntimeError("corank was built without its CUDA module (no nvcc at build time)")
        return _cuda

    def empty(self, like, shape, dtype=None):
        with like.device:
            return self.cp.empty(shape, dtype=like.dtype if dtype is None else dtype)

    def arange(self, like, stop, step):
        with like.device:
            return self.cp.arange(0, stop, step, dtype=self.cp.int64)

    def as_int64(self, x):
        return self.cp.ascontiguousarray(x, dtype=self.cp.int64)

    index32_limit = 2**32

    def arange32(self, like, n):
        with like.device:
            return self.cp.arange(n, dtype=self.cp.uint32)

    def stream(self, x, stream):
        if stream is not None:
            return _stream_handle(stream)
        return self.cp.cuda.get_current_stream(x.device.id).ptr

    @contextlib.contextmanager
    def on_stream(self, x, stream):
        """stream= as CuPy's current stream on x's device, for CuPy's own work of the call."""
        with x.device, self.cp.cuda.ExternalStream(_stream_handle(stream)):
            yield

    def item_size(self, x):
        return x.dtype.itemsize


class _Torch:
    name = "torch"

    def __init__(self):
        import torch
        import torch.utils.dlpack

        self.torch = torch
        self.int64 = torch.int64
        # Tensor.__dlpack__ is Python code (stream checks) costing several microseconds a tensor;
        # to_dlpack is the C function under it. Subclasses of Tensor take __dlpack__ (_call).
        self.export = torch.utils.dlpack.to_dlpack
        self.array_type = torch.Tensor
        self.raw_stream = getattr(torch._C, "_cuda_getCurrentRawStream", None)

    def module(self, x):
        if x.is_cuda:
            if _cuda is None:
                raise RuntimeError("corank was built without its CUDA module (no nvcc at build)")
            return _cuda
        return _cpu

    def empty(self, like, shape, dtype=None):
        return self.torch.empty(shape, dtype=like.dtype if dtype is None else dtype,
                                device=like.device)

    def arange(self, like, stop, step):
        return self.torch.arange(0, stop, step, dtype=self.torch.int64, device=like.device)

    def as_int64(self, x):
        return x.to(self.torch.int64).contiguous()

    index32_limit = 2**31  # int32: PyTorch's uint32 has too few operations to rely on

    def arange32(self, like, n):
        return self.torch.arange(n, dtype=self.torch.int32, device=like.device)

    def stream(self, x, stream):
        if not x.is_cuda:
            return 0
        if stream is not None:
            return _stream_handle(stream)
        if self.raw_stream is not None:  # the current stream's handle without a Stream object
            try:
                return self.raw_stream(x.get_device())
            except (TypeError, RuntimeError):  # a torch without it in this form: the public way
                self.raw_stream = None
        return self.torch.cuda.current_stream(x.device).cuda_stream

    @contextlib.contextmanager
    def on_stream(self, x, stream):
        """stream= as PyTorch's current stream on x's device, for PyTorch's own work of the call
        (CPU tensors: nothing to do)."""
        if not x.is_cuda:
            yield
            return
        cuda = self.torch.cuda
        if not isinstance(stream, cuda.Stream):
            stream = cuda.ExternalStream(_stream_handle(stream), device=x.device)
        with cuda.stream(stream):
            yield

    def item_size(self, x):
        return x.element_size()


class _Other:
    """Any other DLPack array: computed on, but results need ``out=``."""

    name = "dlpack"
    export = None
    on_stream = None  # the package queues no work of its own for these: stream= goes to C++

    def module(self, x):
        device = x.__dlpack_device__()[0]
        if device == 2:
            if _cuda is None:
                raise RuntimeError("corank was built without its CUDA module")
            return _cuda
        return _cpu

    def empty(self, like, shape, dtype=None):
        raise TypeError(
            f"corank: cannot allocate an array like a {type(like).__name__}: pass out= for "
            "results (NumPy, CuPy and PyTorch arrays get results of their own kind); argsort, "
            "argmerge and argsort_segments need scratch space of x's kind too"
        )

    arange = empty

    def as_int64(self, x):
        raise TypeError(f"corank: offsets of a {type(x).__name__} must be int64 already")

    index32_limit = 0  # results need out=: argsort writes its 64-bit indices there directly

    def stream(self, x, stream):
        return _stream_handle(stream) if stream is not None else 0


_LIBRARIES = {}


def _library(x, stream=None):
    """The adapter of x's array library (cached by type). A public function's first call passes
    its stream= and catches _Rerouted: calls that run again another way (below)."""
    kind = type(x)
    lib = _LIBRARIES.get(kind)
    if lib is not None:
        if stream is not None and lib.on_stream is not None:
            raise _GivenStream(lib, x, stream)
        return lib
    root = kind.__module__.split(".")[0]
    if root == "numpy":
        lib = _NumPy()
    elif root == "cupy":
        lib = _CuPy()
    elif root == "torch":
        lib = _Torch()
    elif hasattr(x, "__dlpack__") and hasattr(x, "__dlpack_device__"):
        lib = _Other()
    elif hasattr(x, "__cuda_array_interface__"):
        raise _CudaArrayOnly(kind)  # not cached: such calls go through _through_cupy
    else:
        raise TypeError(
            f"corank: expected a NumPy, CuPy or PyTorch array (or any DLPack array), "
            f"got {kind.__name__}"
        )
    _LIBRARIES[kind] = lib
    return _library(x, stream)


def _call(lib, function, *args):
    """function(*args) with each array in the form its library hands over fastest."""
    export = lib.export
    if export is not None:
        kind = lib.array_type
        args = [export(a) if type(a) is kind else a for a in args]
    try:
        function(*args)
    except TypeError:  # nanobind's "incompatible function arguments": say which array
        for a in args:
            kind = getattr(getattr(a, "dtype", None), "kind", None)
            if isinstance(kind, str) and kind in "OMmSUV":  # NumPy's objects, times, strings
                raise TypeError(
                    f"corank.{function.__name__}: arrays of dtype {a.dtype} are not supported "
                    "(keys: int8-int64, uint8-uint64, float16, bfloat16, float32, float64)"
                ) from None
        raise


def _stream_handle(stream):
    if isinstance(stream, int):
        return stream
    for attribute in ("ptr", "cuda_stream", "handle"):
        handle = getattr(stream, attribute, None)
        if isinstance(handle, int):
            return handle
    if hasattr(type(stream), "__int__"):  # Numba's streams
        return int(stream)
    raise TypeError("stream= takes an integer handle or a CuPy, PyTorch or Numba stream")


def _flat(x, name):
    """x as 1-D: 2-D arrays are the row forms' business; others are refused."""
    if len(x.shape) != 1:
        raise ValueError(f"{name} must be 1-D (got shape {tuple(x.shape)})")
    return x


def _rows_flat(lib, x, name):
    """A 2-D array's items as one 1-D view (refused unless contiguous: reshape would copy)."""
    if len(x.shape) == 1:
        return x
    if lib.name == "dlpack":
        raise TypeError(f"corank: the row form (2-D {name}) takes NumPy, CuPy or PyTorch arrays; "
                        f"pass a {type(x).__name__} as 1-D data with offsets")
    contiguous = x.is_contiguous() if lib.name == "torch" else x.flags.c_contiguous
    if not contiguous:
        raise ValueError(f"{name} must be contiguous")
    return x.reshape(-1)


def _size(x):
    return x.shape[0]


def _dtype_name(x):
    """x's dtype as NumPy names it ("int64", "bfloat16"; PyTorch's without "torch.")."""
    return str(x.dtype).split(".")[-1]


def _shaped_like(x, arrays):
    """The row forms' other arrays must have x's shape (the binding sees only item counts)."""
    for name, a in arrays.items():
        if a is not None and tuple(a.shape) != tuple(x.shape):
            raise ValueError(f"{name} has shape {tuple(a.shape)}, expected {tuple(x.shape)}")


def _check_sorted(lib, x, descending, name, what):
    """check=True's verification of a merge input, in the order the library sorts by: float16 and
    bfloat16 NaNs tie after +inf (first when descending); float32 and float64 NaNs have no place
    in `<`'s order, so they are refused."""
    if _size(x) < 2:
        return
    if lib.name == "dlpack":
        raise TypeError(f"corank.{what}: check=True takes NumPy, CuPy or PyTorch arrays "
                        f"(got a {type(x).__name__})")
    order = "descending" if descending else "ascending"
    kind = _dtype_name(x)
    if kind.startswith(("float", "bfloat")):
        nan = x != x
        if kind in ("float32", "float64"):
            if bool(nan.any()):
                raise ValueError(f"corank.{what}: {name} holds NaN keys ({kind} keys are compared "
                                 "with <, which gives NaN no place)")
        else:
            misplaced = (~nan[:-1] & nan[1:]) if descending else (nan[:-1] & ~nan[1:])
            if bool(misplaced.any()):
                raise ValueError(f"corank.{what}: {name} is not sorted ({order}: NaNs "
                                 f"{'first' if descending else 'last'})")
    unsorted = (x[1:] > x[:-1]) if descending else (x[1:] < x[:-1])
    if bool(unsorted.any()):
        raise ValueError(f"corank.{what}: {name} is not sorted ({order})")


def _check_offsets_on_device(offsets, n):
    """The CPU module checks offsets itself; on the GPU this is check=True's (it waits)."""
    if _size(offsets) == 0 or int(offsets[0]) != 0:
        raise ValueError("offsets[0] must be 0")
    if int(offsets[-1]) != n:
        raise ValueError(f"offsets[-1] must be the item count {n}")
    if _size(offsets) > 1 and bool((offsets[1:] < offsets[:-1]).any()):
        raise ValueError("offsets must be non-decreasing")


# --- Arrays that speak only __cuda_array_interface__ (Numba's, ...) ---------------------------


class _Rerouted(Exception):
    """Raised by a public function's first _library call for a call that runs again another way;
    the function returns ``rerouted.call(itself, locals())`` (a try costs nothing while nothing
    is raised, so the other calls pay nothing for these paths)."""

    def call(self, function, arguments):
        return self.run(function, {name: value for name, value in arguments.items()
                                   if name != "rerouted"})


class _CudaArrayOnly(_Rerouted, TypeError):
    """An array that speaks __cuda_array_interface__ and not DLPack: through CuPy
    (_through_cupy), or this TypeError where CuPy is not installed."""

    def __init__(self, kind):
        super().__init__(
            f"corank: a {kind.__name__} speaks only __cuda_array_interface__: install CuPy "
            "(corank wraps such arrays with it, without a copy), or pass a DLPack array"
        )

    def run(self, function, arguments):
        return _through_cupy(function, arguments)


class _GivenStream(_Rerouted):
    """stream= with a GPU array library: the stream is made the library's current stream for the
    call, so the library's own work in it (allocations, the index functions' aranges and widening
    copies, offsets' conversions, spmv_scan's gather) is queued in order with corank's kernels,
    as when the caller makes it current (CuPy's ``with stream``, ``torch.cuda.stream``)."""

    def __init__(self, lib, x, stream):
        super().__init__()
        self.lib, self.x, self.stream = lib, x, stream

    def run(self, function, arguments):
        with self.lib.on_stream(self.x, self.stream):
            return function(**dict(arguments, stream=None))


def _speaks_only_cai(x):
    return hasattr(x, "__cuda_array_interface__") and not hasattr(x, "__dlpack__")


def _cai_only_arrays(arguments):
    for value in arguments.values():
        for item in value if isinstance(value, tuple) else (value,):  # spmv_scan's matrix tuple
            if _speaks_only_cai(item):
                yield item


def _through_cupy(function, arguments):
    """function(**arguments) with every array that speaks only __cuda_array_interface__ wrapped
    by CuPy (zero-copy; CuPy synchronises with the stream the array names, as the interface's
    version 3 asks), so queued on CuPy's current stream or stream=. Results come back as the
    caller's out= arrays, as Numba device arrays for Numba's arrays (zero-copy views of CuPy's
    memory, which they keep alive), else as CuPy arrays."""
    caller_kind = type(next(_cai_only_arrays(arguments)))
    try:
        import cupy
    except ImportError:
        raise _CudaArrayOnly(caller_kind) from None

    def wrapped(value):
        if isinstance(value, tuple):
            return tuple(map(wrapped, value))
        return cupy.asarray(value) if _speaks_only_cai(value) else value

    converted = {name: wrapped(value) for name, value in arguments.items()}
    given = {id(converted[name]): arguments[name] for name in ("out", "values_out")
             if arguments.get(name) is not None}  # returned as the caller gave them
    result = function(**converted)

    def back(r):
        if id(r) in given:
            return given[id(r)]
        if caller_kind.__module__.split(".")[0] == "numba":
            from numba import cuda

            return cuda.as_cuda_array(r)
        return r

    return tuple(map(back, result)) if isinstance(result, tuple) else back(result)


# --- Merge ---------------------------------------------------------------------------------


def merge(a, b, values_a=None, values_b=None, *, descending=False, check=False, out=None,
          values_out=None, stream=None):
    """Stable merge of sorted 1-D arrays ``a`` and ``b`` (ties take ``a``'s items first).

    With ``values_a`` and ``values_b`` (one value per key), returns ``(keys, values)`` with the
    values moved alongside their keys; else the merged keys. Inputs must be sorted ascending
    (descending with ``descending=True``); ``check=True`` verifies it (ValueError otherwise; on
    the GPU this waits for the stream), else an unsorted input gives an unspecified permutation.
    ``out``/``values_out``: arrays of ``len(a) + len(b)`` items to write into.
    """
    try:
        lib = _library(a, stream)
    except _Rerouted as rerouted:
        return rerouted.call(merge, locals())  # the arguments, as called
    module = lib.module(a)
    _flat(a, "a"), _flat(b, "b")
    if check:
        _check_sorted(lib, a, descending, "a", "merge")
        _check_sorted(lib, b, descending, "b", "merge")
    total = _size(a) + _size(b)
    if out is None:
        out = lib.empty(a, total)
    if values_a is None and values_b is None:
        if values_out is not None:
            raise ValueError("corank.merge: values_out without values_a and values_b")
        _call(lib, module.merge, a, b, out, None, None, None, descending, lib.stream(a, stream))
        return out
    if values_a is None or values_b is None:
        raise ValueError("corank.merge: give values for both inputs, or none")
    if values_out is None:
        values_out = _library(values_a).empty(values_a, total)
    _call(lib, module.merge, a, b, out, values_a, values_b, values_out, descending,
          lib.stream(a, stream))
    return out, values_out


def argmerge(a, b, *, descending=False, check=False, out=None, stream=None):
    """Where each item of the stable merge of ``a`` and ``b`` comes from: int64 indices into
    their concatenation (``i < len(a)``: ``a[i]``, else ``b[i - len(a)]``), as
    ``argsort(concatenate([a, b]), stable)`` would give for sorted inputs."""
    try:
        lib = _library(a, stream)
    except _Rerouted as rerouted:
        return rerouted.call(argmerge, locals())  # the arguments, as called
    module = lib.module(a)
    _flat(a, "a"), _flat(b, "b")
    if check:
        _check_sorted(lib, a, descending, "a", "argmerge")
        _check_sorted(lib, b, descending, "b", "argmerge")
    _int64_out(out, "argmerge")
    m, total = _size(a), _size(a) + _size(b)
    indices = lib.arange(a, total, 1)
    keys = lib.empty(a, total)
    if out is None:
        out = lib.empty(a, total, lib.int64)
    _call(lib, module.merge, a, b, keys, indices[:m], indices[m:], out, descending,
          lib.stream(a, stream))
    return out


# --- Sorts ---------------------------------------------------------------------------------


def sort(x, values=None, *, stable=True, descending=False, out=None, values_out=None,
         stream=None):
    """Sorted copy of 1-D ``x`` (a stable merge sort, whatever ``stable`` says: it is the fastest
    here). With ``values``, returns ``(keys, values)``, the values moved with their keys.
    ``out=x`` (and ``values_out=values``) sorts in place."""
    try:
        lib = _library(x, stream)
    except _Rerouted as rerouted:
        return rerouted.call(sort, locals())  # the arguments, as called
    module = lib.module(x)
    _flat(x, "x")
    if out is None:
        out = lib.empty(x, x.shape)
    s = lib.stream(x, stream)
    if values is None:
        if values_out is not None:
            raise ValueError("corank.sort: values_out without values")
        _call(lib, module.sort, x, out, None, None, False, descending, s)
        return out
    if values_out is None:
        values_out = _library(values).empty(values, values.shape)
    _call(lib, module.sort, x, out, values, values_out, False, descending, s)
    return out, values_out


# argsort sorts 32-bit indices below this many items (then widens them into its int64 result):
# each pass of the sort moves 4 bytes less per item. Tests lower it to reach the 64-bit path.
_INDEX32_LIMIT = 2**32


def argsort(x, *, stable=True, descending=False, out=None, stream=None):
    """int64 indices that sort 1-D ``x`` stably (ties in their original order). Below 2^32 items
    (2^31 for PyTorch tensors) the sort moves 32-bit indices, widened into the result at the
    end."""
    try:
        lib = _library(x, stream)
    except _Rerouted as rerouted:
        return rerouted.call(argsort, locals())  # the arguments, as called
    module = lib.module(x)
    _flat(x, "x")
    n = _size(x)
    keys = lib.empty(x, x.shape)
    s = lib.stream(x, stream)
    if n < min(lib.index32_limit, _INDEX32_LIMIT) and (out is None or _index_out_like(out, x)):
        indices = lib.arange32(x, n)
        _call(lib, module.sort, x, keys, indices, indices, False, descending, s)
        if out is None:
            return lib.as_int64(indices)
        _copy_into(lib, out, indices)
        return out
    if out is None:
        out = lib.empty(x, x.shape, lib.int64)
    _call(lib, module.sort, x, keys, None, out, True, descending, s)  # checks out= too
    return out


def _int64_out(out, what):
    """An indices' out= must be int64 (TypeError before anything is written)."""
    if out is not None and _dtype_name(out) != "int64":
        raise TypeError(f"corank.{what}: out must be int64 (got {_dtype_name(out)})")


def _index_out_like(out, x):
    """Whether out= is an int64 array of x's kind, shape and device (anything else takes
    argsort's 64-bit path, whose checks report what is wrong with it)."""
    return (type(out) is type(x) and _dtype_name(out) == "int64"
            and tuple(out.shape) == tuple(x.shape)
            and getattr(out, "device", None) == getattr(x, "device", None))


def _segments(lib, x, offsets, check, module):
    """(flat x, int64 offsets) for the 1-D + offsets form or the rows of a 2-D x."""
    if offsets is None:
        if len(x.shape) != 2:
            raise ValueError("without offsets, x must be 2-D (each row is a segment)")
        rows, cols = x.shape
        flat = _rows_flat(lib, x, "x")
        return flat, lib.arange(x, rows * cols + 1, cols) if cols else lib.arange(x, 1, 1)
    _flat(x, "x")
    offsets_lib = _library(offsets)  # TypeError for a list
    if len(offsets.shape) != 1:
        raise ValueError("offsets must be 1-D")
    dtype = _dtype_name(offsets)
    if dtype != "int64":
        if not dtype.startswith(("int", "uint")):
            raise TypeError(f"offsets must be integers (got {dtype})")
        offsets = offsets_lib.as_int64(offsets)
    if check and module is not _cpu:
        _check_offsets_on_device(offsets, _size(x))
    return x, offsets


def sort_segments(x, offsets=None, values=None, *, stable=True, descending=False, check=False,
                  out=None, values_out=None, stream=None):
    """Each segment ``x[offsets[s]:offsets[s + 1]]`` sorted (CSR offsets: ``offsets[0] == 0``,
    non-decreasing, ``offsets[-1] == len(x)``), or, with a 2-D ``x`` and no offsets, each row.

    With ``values``, returns ``(keys, values)``. ``stable=False`` promises no order of ties
    (the GPU's unstable call takes the stable sort today: it was faster). Offsets of another integer dtype are converted to int64 (a copy of
    the offsets only). On the GPU, ``check=True`` verifies the offsets (and waits); unchecked
    malformed offsets there are undefined behaviour."""
    try:
        lib = _library(x, stream)
    except _Rerouted as rerouted:
        return rerouted.call(sort_segments, locals())  # the arguments, as called
    module = lib.module(x)
    flat, offsets = _segments(lib, x, offsets, check, module)
    _shaped_like(x, {"out": out, "values": values, "values_out": values_out})
    if out is None:
        out = lib.empty(x, x.shape)
    out_flat = _rows_flat(lib, out, "out")
    s = lib.stream(x, stream)
    if values is None:
        if values_out is not None:
            raise ValueError("corank.sort_segments: values_out without values")
        _call(lib, module.sort_segments, flat, offsets, out_flat, None, None, stable, descending, s)
        return out
    if values_out is None:
        values_out = _library(values).empty(values, values.shape)
    _call(lib, module.sort_segments, flat, offsets, out_flat, _rows_flat(lib, values, "values"),
                         _rows_flat(lib, values_out, "values_out"), stable, descending, s)
    return out, values_out


def argsort_segments(x, offsets=None, *, stable=True, descending=False, check=False, out=None,
                     stream=None):
    """int64 indices that sort each segment stably (ties in their original order). With 1-D
    ``x`` and CSR ``offsets``: indices into ``x``, so ``x[result]`` is ``sort_segments(x,
    offsets)`` and ``values[result]`` moves any values alongside. With a 2-D ``x`` and no
    offsets: each row's indices into the row, as ``numpy.argsort(x, axis=1, kind="stable")``
    (``take_along_axis`` applies them). ``stable=False`` lets the GPU use its unstable segmented
    sort (then ties come in any order). Below 2^32 items (2^31 for PyTorch tensors) the sort moves
    32-bit indices, widened into the result at the end. Offsets and ``check`` as in
    ``sort_segments``."""
    try:
        lib = _library(x, stream)
    except _Rerouted as rerouted:
        return rerouted.call(argsort_segments, locals())  # the arguments, as called
    module = lib.module(x)
    rows = offsets is None
    flat, offsets = _segments(lib, x, offsets, check, module)
    _shaped_like(x, {"out": out})
    _int64_out(out, "argsort_segments")
    n, columns = _size(flat), (x.shape[1] if rows else 0)
    keys = lib.empty(flat, flat.shape)  # the sorted keys: scratch
    s = lib.stream(x, stream)
    if n < min(lib.index32_limit, _INDEX32_LIMIT) and (out is None or _index_out_like(out, x)):
        indices = lib.arange32(x, n)
        if columns:
            indices %= columns  # each row's own positions
        _call(lib, module.sort_segments, flat, offsets, keys, indices, indices, stable, descending,
              s)
        widened = lib.as_int64(indices).reshape(x.shape)
        if out is None:
            return widened
        _copy_into(lib, out, widened)
        return out
    # 64-bit indices, sorted where they end: in out, filled by out's own library.
    if out is None:
        out_flat = lib.arange(flat, n, 1)
        out = out_flat.reshape(x.shape)
    else:
        out_lib = _library(out)
        out_flat = _rows_flat(out_lib, out, "out")
        _copy_into(out_lib, out_flat, out_lib.arange(out_flat, n, 1))
    if columns:
        out_flat %= columns
    _call(lib, module.sort_segments, flat, offsets, keys, out_flat, out_flat, stable, descending, s)
    return out


# --- Scans ---------------------------------------------------------------------------------


def _identity(x, op):
    """The exclusive scan's start: 0 for add, the lowest/highest value for max/min."""
    if op == "add":
        return 0
    import numpy

    kind = _dtype_name(x)
    if kind == "bfloat16" or numpy.dtype(kind).kind == "f":  # NumPy has no bfloat16
        return -numpy.inf if op == "max" else numpy.inf
    info = numpy.iinfo(numpy.dtype(kind))
    return int(info.min) if op == "max" else int(info.max)


def _initial(x, initial):
    """initial= checked against x's dtype: an integer in range for integer dtypes."""
    import numbers

    import numpy

    kind = _dtype_name(x)
    if kind == "bfloat16" or numpy.dtype(kind).kind == "f":
        if not isinstance(initial, numbers.Real):
            raise TypeError(f"initial must be a number (got {type(initial).__name__})")
        return float(initial)
    if not isinstance(initial, numbers.Integral):
        raise TypeError(f"initial must be an integer for {kind} (got {initial!r})")
    info = numpy.iinfo(numpy.dtype(kind))
    if not info.min <= initial <= info.max:
        raise ValueError(f"initial={initial} does not fit {kind} ({info.min} to {info.max})")
    return int(initial)


def segmented_scan(x, offsets=None, op="add", exclusive=False, *, initial=None, check=False,
                   out=None, stream=None):
    """Scan of each segment (CSR offsets, or the rows of a 2-D ``x``) by ``op`` ("add", "max",
    "min"), in ``x``'s dtype (integers wrap as in ``numpy.cumsum(x, dtype=x.dtype)``; float16 and
    bfloat16 accumulate in float32, each output rounded to the dtype).
    ``exclusive=True`` starts each segment at ``initial`` (default: 0 for add, the dtype's
    lowest/highest value for max/min). ``out=x`` scans in place. The GPU takes 4- and 8-byte
    dtypes."""
    if op not in _SCAN_OPS:
        raise ValueError(f"op must be 'add', 'max' or 'min' (got {op!r})")
    if initial is not None and not exclusive:
        raise ValueError("initial= starts exclusive scans: pass exclusive=True")
    try:
        lib = _library(x, stream)
    except _Rerouted as rerouted:
        return rerouted.call(segmented_scan, locals())  # the arguments, as called
    module = lib.module(x)
    flat, offsets = _segments(lib, x, offsets, check, module)
    _shaped_like(x, {"out": out})
    if out is None:
        out = lib.empty(x, x.shape)
    init = None
    if exclusive:
        init = _identity(x, op) if initial is None else _initial(x, initial)
    _call(lib, module.segmented_scan, flat, offsets, _rows_flat(lib, out, "out"), _SCAN_OPS[op],
          exclusive, init, lib.stream(x, stream))
    return out


def spmv_scan(matrix, x, iterations=1, *, check=False, out=None, stream=None):
    """The study's sparse-matrix iteration: starting from the matrix's values ``a``, ``iterations``
    times ``a = segmented inclusive sum-scan of a * x[column]`` over each row. ``matrix`` is a
    SciPy or CuPy CSR matrix or ``(data, indices, indptr)``; returns the final ``a`` (one value
    per stored entry, in ``data``'s order), in ``out`` if given. ``check=True`` also verifies
    that the column indices lie within ``x`` (a CuPy gather would wrap). On the CPU the iteration
    flushes subnormal values to zero (an x86 core takes a microcode assist on every subnormal
    operation), so results below the dtype's smallest normal number may read as zero."""
    if isinstance(matrix, tuple):
        data, indices, indptr = matrix
    else:
        form = getattr(matrix, "format", "csr")
        if form != "csr":  # a CSC matrix has the same three arrays, read by columns
            raise TypeError(f"matrix must be in CSR form (got {form}: convert it with .tocsr())")
        columns = getattr(matrix, "shape", (0, len(x)))[1]
        if len(x) != columns:
            raise ValueError(f"x has {len(x)} items, the matrix {columns} columns")
        try:
            data, indices, indptr = matrix.data, matrix.indices, matrix.indptr
        except AttributeError:
            raise TypeError("matrix must be a CSR matrix or (data, indices, indptr)") from None
    if isinstance(iterations, bool) or not isinstance(iterations, int) or iterations < 0:
        raise ValueError("iterations must be an integer >= 0")
    try:
        lib = _library(data, stream)
    except _Rerouted as rerouted:
        return rerouted.call(spmv_scan, dict(matrix=matrix, x=x, iterations=iterations,
                                             check=check, out=out, stream=stream))
    module = lib.module(data)
    _flat(data, "data"), _flat(x, "x")
    if _size(indices) != _size(data):
        raise ValueError("indices and data differ in length")
    if _dtype_name(x) != _dtype_name(data):
        raise TypeError(f"x ({x.dtype}) and the matrix's values ({data.dtype}) differ in dtype")
    if check and _size(indices) and not (0 <= int(indices.min()) and int(indices.max()) < _size(x)):
        raise ValueError(f"column indices must lie in [0, {_size(x)}): x's items")
    scale = x[indices]
    if out is None:
        out = lib.empty(data, data.shape)
    _, offsets = _segments(lib, data, indptr, check, module)
    s = lib.stream(data, stream)
    _copy_into(lib, out, data)
    _call(lib, module.spmv_scan, out, scale, offsets, iterations, s)
    return out


def _copy_into(lib, dst, src):
    if lib.name == "torch":
        dst.copy_(src)
    else:
        dst[...] = src
