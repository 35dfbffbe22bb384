"""Type stubs of corank: functions on NumPy, CuPy and PyTorch arrays (see corank/__init__.py)."""
from typing import Any, Literal, Optional, Tuple, TypeVar, Union, overload

# numpy.ndarray, cupy.ndarray, torch.Tensor, another DLPack array, or a GPU array that speaks only
# __cuda_array_interface__ (a Numba device array: through CuPy). Keys: int8-int64, uint8-uint64,
# float16, bfloat16, float32, float64 (scans of 2-byte floats: on the CPU).
Array = TypeVar("Array")
Stream = Union[int, Any]  # an integer handle, an object with .ptr / .cuda_stream, a Numba stream
ScanOp = Literal["add", "max", "min"]

__version__: str

def gpu_available() -> bool: ...
@overload
def merge(a: Array, b: Array, values_a: None = None, values_b: None = None, *,
          descending: bool = False, check: bool = False, out: Optional[Array] = None,
          values_out: None = None, stream: Optional[Stream] = None) -> Array: ...
@overload
def merge(a: Array, b: Array, values_a: Any, values_b: Any, *, descending: bool = False,
          check: bool = False, out: Optional[Array] = None, values_out: Any = None,
          stream: Optional[Stream] = None) -> Tuple[Array, Any]: ...
def argmerge(a: Array, b: Array, *, descending: bool = False, check: bool = False,
             out: Optional[Array] = None, stream: Optional[Stream] = None) -> Array: ...
@overload
def sort(x: Array, values: None = None, *, stable: bool = True, descending: bool = False,
         out: Optional[Array] = None, values_out: None = None,
         stream: Optional[Stream] = None) -> Array: ...
@overload
def sort(x: Array, values: Any, *, stable: bool = True, descending: bool = False,
         out: Optional[Array] = None, values_out: Any = None,
         stream: Optional[Stream] = None) -> Tuple[Array, Any]: ...
def argsort(x: Array, *, stable: bool = True, descending: bool = False,
            out: Optional[Array] = None, stream: Optional[Stream] = None) -> Array: ...
@overload
def sort_segments(x: Array, offsets: Optional[Any] = None, values: None = None, *,
                  stable: bool = True, descending: bool = False, check: bool = False,
                  out: Optional[Array] = None, values_out: None = None,
                  stream: Optional[Stream] = None) -> Array: ...
@overload
def sort_segments(x: Array, offsets: Optional[Any], values: Any, *, stable: bool = True,
                  descending: bool = False, check: bool = False, out: Optional[Array] = None,
                  values_out: Any = None,
                  stream: Optional[Stream] = None) -> Tuple[Array, Any]: ...
def argsort_segments(x: Array, offsets: Optional[Any] = None, *, stable: bool = True,
                     descending: bool = False, check: bool = False, out: Optional[Array] = None,
                     stream: Optional[Stream] = None) -> Array: ...
def segmented_scan(x: Array, offsets: Optional[Any] = None, op: ScanOp = "add",
                   exclusive: bool = False, *, initial: Optional[Union[int, float]] = None,
                   check: bool = False, out: Optional[Array] = None,
                   stream: Optional[Stream] = None) -> Array: ...
def spmv_scan(matrix: Any, x: Array, iterations: int = 1, *, check: bool = False,
              out: Optional[Array] = None, stream: Optional[Stream] = None) -> Array: ...
