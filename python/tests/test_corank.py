"""corank's Python functions against NumPy references, on every backend of conftest.py."""
import numpy as np
import pytest

import corank

KEY_DTYPES = [np.int8, np.int16, np.int32, np.int64, np.uint8, np.uint16, np.uint32, np.uint64,
              np.float32, np.float64]
# Tile boundaries of the GPU kernels and the CPU's sequential cut-off, +-1, and the trivial sizes.
SIZES = [0, 1, 2, 3, 31, 32, 33, 255, 256, 257, 4095, 4096, 4097, 65535, 65536, 65537, 200003]
SMALL_SIZES = [0, 1, 2, 33, 1000, 4097]


def random_keys(rng, n, dtype, distinct=None):
    """Keys of dtype over a range of `distinct` values (many duplicates when small)."""
    dtype = np.dtype(dtype)
    if distinct is None:
        distinct = max(1, n // 4)
    if dtype.kind == "f":
        return (rng.integers(-distinct, distinct + 1, n) / 4).astype(dtype)
    info = np.iinfo(dtype)
    low = max(int(info.min), -distinct)
    high = min(int(info.max), low + 2 * distinct)
    return rng.integers(low, high + 1, n).astype(dtype)


def stable_order(keys, descending=False):
    """Indices of the stable sort of keys (ties in their original order)."""
    if not descending:
        return np.argsort(keys, kind="stable")
    rank = np.unique(keys, return_inverse=True)[1].reshape(-1)
    return np.lexsort((np.arange(len(keys)), -rank))


def narrow_values_refused(backend, value_dtype, call):
    """The GPU module takes 4- and 8-byte values: narrower ones are a TypeError there."""
    if backend.gpu and np.dtype(value_dtype).itemsize < 4:
        with pytest.raises(TypeError, match="4 or 8 bytes"):
            call()
        return True
    return False


def poisoned(backend, n, dtype):
    """An output filled with a value no result holds where written (every item must be)."""
    dtype = np.dtype(dtype)
    fill = np.iinfo(dtype).max if dtype.kind in "iu" else np.nan
    return backend.to_device(np.full(n, fill, dtype))


# --- merge ---------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", KEY_DTYPES)
@pytest.mark.parametrize("m,n", [(0, 0), (0, 5), (5, 0), (1, 1), (31, 33), (4096, 4097),
                                 (65537, 1000), (100000, 100003)])
def test_merge_matches_a_stable_sort_of_both(backend, rng, dtype, m, n):
    a = np.sort(random_keys(rng, m, dtype))
    b = np.sort(random_keys(rng, n, dtype))
    got = corank.merge(backend.to_device(a), backend.to_device(b))
    np.testing.assert_array_equal(backend.to_numpy(got), np.sort(np.concatenate([a, b]),
                                                                 kind="stable"))


@pytest.mark.parametrize("value_dtype", [np.int8, np.float16, np.int32, np.float64])
@pytest.mark.parametrize("descending", [False, True])
def test_merge_moves_values_and_takes_a_first_on_ties(backend, rng, value_dtype, descending):
    m, n = 5000, 7001
    both = random_keys(rng, m + n, np.int32, distinct=50)
    a, b = both[:m], both[m:]
    a = a[stable_order(a, descending)]
    b = b[stable_order(b, descending)]
    va = np.arange(m).astype(value_dtype)
    vb = np.arange(m, m + n).astype(value_dtype)
    args = list(map(backend.to_device, (a, b, va, vb)))
    if narrow_values_refused(backend, value_dtype,
                             lambda: corank.merge(*args, descending=descending)):
        return
    keys, values = corank.merge(*args, descending=descending)
    order = stable_order(np.concatenate([a, b]), descending)
    np.testing.assert_array_equal(backend.to_numpy(keys), np.concatenate([a, b])[order])
    np.testing.assert_array_equal(backend.to_numpy(values), np.concatenate([va, vb])[order])


@pytest.mark.parametrize("m,n", [(0, 0), (3, 0), (1000, 1001), (70000, 3)])
def test_argmerge_indexes_the_concatenation(backend, rng, m, n):
    a = np.sort(random_keys(rng, m, np.float32, distinct=30))
    b = np.sort(random_keys(rng, n, np.float32, distinct=30))
    got = backend.to_numpy(corank.argmerge(backend.to_device(a), backend.to_device(b)))
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, stable_order(np.concatenate([a, b])))


def test_argmerge_into_out_which_must_be_int64(backend, rng):
    a = np.sort(random_keys(rng, 3000, np.int32, distinct=40))
    b = np.sort(random_keys(rng, 2001, np.int32, distinct=40))
    out = poisoned(backend, 5001, np.int64)
    assert corank.argmerge(backend.to_device(a), backend.to_device(b), out=out) is out
    np.testing.assert_array_equal(backend.to_numpy(out), stable_order(np.concatenate([a, b])))
    with pytest.raises(TypeError, match="out must be int64"):
        corank.argmerge(backend.to_device(a), backend.to_device(b),
                        out=backend.to_device(np.zeros(5001, np.int32)))


def test_merge_all_equal_keys_keeps_a_before_b(backend):
    a, b = np.full(5000, 7, np.uint16), np.full(3000, 7, np.uint16)
    got = backend.to_numpy(corank.argmerge(backend.to_device(a), backend.to_device(b)))
    np.testing.assert_array_equal(got, np.arange(8000))


def test_merge_into_out(backend, rng):
    a = np.sort(random_keys(rng, 1000, np.int64))
    b = np.sort(random_keys(rng, 999, np.int64))
    out = poisoned(backend, 1999, np.int64)
    got = corank.merge(backend.to_device(a), backend.to_device(b), out=out)
    assert got is out
    np.testing.assert_array_equal(backend.to_numpy(out), np.sort(np.concatenate([a, b])))


def test_merge_check_refuses_unsorted_inputs(backend):
    a = backend.to_device(np.array([1, 3, 2], np.int32))
    b = backend.to_device(np.array([1, 2], np.int32))
    with pytest.raises(ValueError, match="not sorted"):
        corank.merge(a, b, check=True)
    with pytest.raises(ValueError, match="not sorted"):
        corank.merge(b, a, check=True)
    corank.merge(a, b)  # unchecked: an unspecified permutation, no error
    with pytest.raises(ValueError, match="not sorted"):
        corank.merge(b, b, check=True, descending=True)


def test_merge_check_refuses_nan_float32_keys(backend):
    # float32 and float64 keys are compared with <: a NaN has no place, so check=True says so.
    for dtype in (np.float32, np.float64):
        a = backend.to_device(np.array([1, 2, np.nan], dtype))
        b = backend.to_device(np.array([0, 3], dtype))
        for call in (corank.merge, corank.argmerge):
            with pytest.raises(ValueError, match="NaN keys"):
                call(a, b, check=True)
            with pytest.raises(ValueError, match="NaN keys"):
                call(b, a, check=True)


# --- sort ----------------------------------------------------------------------------------


@pytest.mark.parametrize("dtype", KEY_DTYPES)
@pytest.mark.parametrize("n", SIZES)
def test_sort_matches_numpy(backend, rng, dtype, n):
    x = random_keys(rng, n, dtype)
    if n % 2:  # odd sizes into a poisoned out= (an item left unwritten shows)
        out = poisoned(backend, n, dtype)
        assert corank.sort(backend.to_device(x), out=out) is out
        got = out
    else:
        got = corank.sort(backend.to_device(x))
    np.testing.assert_array_equal(backend.to_numpy(got), np.sort(x))


@pytest.mark.parametrize("dtype", [np.int8, np.uint32, np.float64])
@pytest.mark.parametrize("n", SMALL_SIZES + [65537])
@pytest.mark.parametrize("descending", [False, True])
def test_argsort_is_stable(backend, rng, dtype, n, descending):
    x = random_keys(rng, n, dtype, distinct=20)
    got = backend.to_numpy(corank.argsort(backend.to_device(x), descending=descending))
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, stable_order(x, descending))


@pytest.mark.parametrize("index_bits", [32, 64])
@pytest.mark.parametrize("n", [0, 1, 4097, 100003])
def test_argsort_with_32_and_64_bit_indices_and_out(backend, rng, monkeypatch, index_bits, n):
    # Below corank._INDEX32_LIMIT items argsort sorts 32-bit indices and widens them; lowered to
    # 0, every size takes the 64-bit path. Both write int64 results, into out= too.
    if index_bits == 64:
        monkeypatch.setattr(corank, "_INDEX32_LIMIT", 0)
    x = random_keys(rng, n, np.int16, distinct=50)
    want = stable_order(x)
    got = corank.argsort(backend.to_device(x))
    assert backend.to_numpy(got).dtype == np.int64
    np.testing.assert_array_equal(backend.to_numpy(got), want)
    out = poisoned(backend, n, np.int64)
    assert corank.argsort(backend.to_device(x), out=out) is out
    np.testing.assert_array_equal(backend.to_numpy(out), want)


def test_argsort_refuses_a_wrong_out(backend):
    x = backend.to_device(np.arange(10, dtype=np.int32))
    with pytest.raises(TypeError, match="int64"):
        corank.argsort(x, out=backend.to_device(np.zeros(10, np.int32)))
    with pytest.raises(ValueError, match="expected 10"):
        corank.argsort(x, out=backend.to_device(np.zeros(9, np.int64)))
    if backend.gpu:
        with pytest.raises(ValueError, match="not on a CUDA device"):
            corank.argsort(x, out=np.zeros(10, np.int64))


@pytest.mark.parametrize("value_dtype", [np.uint8, np.int16, np.float32, np.int64])
@pytest.mark.parametrize("n", [0, 1, 4097, 100003])
def test_sort_moves_values_stably(backend, rng, value_dtype, n):
    x = random_keys(rng, n, np.float32, distinct=100)
    v = np.arange(n).astype(value_dtype)
    args = backend.to_device(x), backend.to_device(v)
    if narrow_values_refused(backend, value_dtype, lambda: corank.sort(*args)):
        return
    keys, values = corank.sort(*args)
    order = stable_order(x)
    np.testing.assert_array_equal(backend.to_numpy(keys), x[order])
    np.testing.assert_array_equal(backend.to_numpy(values), v[order])


def test_sort_descending_and_in_place(backend, rng):
    x = random_keys(rng, 30000, np.int16)
    d = backend.to_device(x)
    assert corank.sort(d, out=d, descending=True) is d
    np.testing.assert_array_equal(backend.to_numpy(d), np.sort(x)[::-1])


def test_sort_all_equal_and_presorted(backend):
    for x in (np.full(70001, 3, np.int32), np.arange(70001, dtype=np.int32),
              np.arange(70001, dtype=np.int32)[::-1].copy()):
        np.testing.assert_array_equal(backend.to_numpy(corank.sort(backend.to_device(x))),
                                      np.sort(x))
        np.testing.assert_array_equal(backend.to_numpy(corank.argsort(backend.to_device(x))),
                                      np.argsort(x, kind="stable"))


# --- segmented sort ------------------------------------------------------------------------


def random_offsets(rng, n, segments):
    """CSR offsets over n items: random cuts, empty segments included."""
    cuts = np.sort(rng.integers(0, n + 1, max(segments - 1, 0)))
    return np.concatenate([[0], cuts, [n]]).astype(np.int64)


def segment_reference(x, offsets, f):
    out = x.copy()
    for s in range(len(offsets) - 1):
        out[offsets[s]:offsets[s + 1]] = f(x[offsets[s]:offsets[s + 1]])
    return out


@pytest.mark.parametrize("dtype", KEY_DTYPES)
@pytest.mark.parametrize("n,segments", [(0, 1), (1, 1), (100, 1), (5000, 10), (20000, 3000),
                                        (100003, 7)])
@pytest.mark.parametrize("stable", [True, False])
def test_sort_segments_matches_numpy(backend, rng, dtype, n, segments, stable):
    x = random_keys(rng, n, dtype)
    offsets = random_offsets(rng, n, segments)
    out = None if stable else poisoned(backend, n, dtype)  # an item left unwritten shows
    got = corank.sort_segments(backend.to_device(x), backend.to_device(offsets), stable=stable,
                               out=out)
    assert out is None or got is out
    np.testing.assert_array_equal(backend.to_numpy(got),
                                  segment_reference(x, offsets, np.sort))


@pytest.mark.parametrize("descending", [False, True])
def test_sort_segments_moves_values_stably(backend, rng, descending):
    n = 30000
    x = random_keys(rng, n, np.uint8, distinct=5)
    v = np.arange(n, dtype=np.int32)
    offsets = random_offsets(rng, n, 100).astype(np.int32)  # converted to int64 inside
    keys, values = corank.sort_segments(backend.to_device(x), backend.to_device(offsets),
                                        backend.to_device(v), descending=descending)
    order = segment_reference(np.arange(n), offsets,
                              lambda idx: idx[stable_order(x[idx], descending)])
    np.testing.assert_array_equal(backend.to_numpy(keys), x[order])
    np.testing.assert_array_equal(backend.to_numpy(values), v[order])


@pytest.mark.parametrize("shape", [(0, 5), (5, 0), (1, 1), (7, 1000), (1000, 33), (3, 70000)])
def test_sort_segments_sorts_the_rows_of_a_2d_array(backend, rng, shape):
    x = random_keys(rng, shape[0] * shape[1], np.float64).reshape(shape)
    got = corank.sort_segments(backend.to_device(x))
    assert tuple(got.shape) == shape
    np.testing.assert_array_equal(backend.to_numpy(got), np.sort(x, axis=1))


def segment_argsort_reference(x, offsets, descending=False):
    """Indices into x that sort each segment stably: np.argsort(kind="stable") per segment."""
    return segment_reference(np.arange(len(x)), offsets,
                             lambda idx: idx[stable_order(x[idx], descending)])


@pytest.mark.parametrize("dtype", [np.int8, np.uint16, np.int32, np.uint64, np.float32,
                                   np.float64])
@pytest.mark.parametrize("n,segments", [(0, 1), (1, 1), (100, 1), (5000, 10), (20000, 3000),
                                        (100003, 7)])
@pytest.mark.parametrize("descending", [False, True])
def test_argsort_segments_is_numpys_stable_argsort_per_segment(backend, rng, dtype, n, segments,
                                                               descending):
    x = random_keys(rng, n, dtype, distinct=30)
    offsets = random_offsets(rng, n, segments)
    got = backend.to_numpy(corank.argsort_segments(backend.to_device(x),
                                                   backend.to_device(offsets),
                                                   descending=descending))
    assert got.dtype == np.int64
    np.testing.assert_array_equal(got, segment_argsort_reference(x, offsets, descending))


@pytest.mark.parametrize("shape", [(0, 5), (5, 0), (1, 1), (7, 1000), (1000, 33), (3, 70000)])
@pytest.mark.parametrize("descending", [False, True])
def test_argsort_segments_of_rows_is_numpys_argsort_along_rows(backend, rng, shape, descending):
    x = random_keys(rng, shape[0] * shape[1], np.int16, distinct=20).reshape(shape)
    got = backend.to_numpy(corank.argsort_segments(backend.to_device(x), descending=descending))
    assert got.dtype == np.int64 and got.shape == shape
    want = np.argsort(-x.astype(np.int32) if descending else x, axis=1, kind="stable")
    np.testing.assert_array_equal(got, want)


@pytest.mark.parametrize("index_bits", [32, 64])
@pytest.mark.parametrize("rows", [False, True])
def test_argsort_segments_with_32_and_64_bit_indices_and_out(backend, rng, monkeypatch,
                                                             index_bits, rows):
    # As argsort: corank._INDEX32_LIMIT lowered to 0 sends every size down the 64-bit path.
    if index_bits == 64:
        monkeypatch.setattr(corank, "_INDEX32_LIMIT", 0)
    x = random_keys(rng, 40 * 501, np.float32, distinct=25)
    if rows:
        x = x.reshape(40, 501)
        want, offsets = np.argsort(x, axis=1, kind="stable"), None
    else:
        offsets = random_offsets(rng, x.size, 40)
        want = segment_argsort_reference(x, offsets)
    args = (backend.to_device(x),) if rows else (backend.to_device(x), backend.to_device(offsets))
    np.testing.assert_array_equal(backend.to_numpy(corank.argsort_segments(*args)), want)
    out = poisoned(backend, x.size, np.int64)
    out = out.reshape(x.shape)
    assert corank.argsort_segments(*args, out=out) is out
    np.testing.assert_array_equal(backend.to_numpy(out), want)
    with pytest.raises(TypeError, match="out must be int64"):
        corank.argsort_segments(*args, out=backend.to_device(np.zeros(x.shape, np.int32)))
    with pytest.raises(ValueError, match="out has shape"):
        corank.argsort_segments(*args, out=backend.to_device(np.zeros(x.size + 1, np.int64)))


def test_argsort_segments_unstable_still_sorts_each_segment(backend, rng):
    n = 50000
    x = random_keys(rng, n, np.int32, distinct=10)
    offsets = random_offsets(rng, n, 500)
    got = backend.to_numpy(corank.argsort_segments(backend.to_device(x),
                                                   backend.to_device(offsets), stable=False))
    np.testing.assert_array_equal(x[got], segment_reference(x, offsets, np.sort))
    for s in range(len(offsets) - 1):  # a permutation of each segment's own indices
        segment = got[offsets[s]:offsets[s + 1]]
        np.testing.assert_array_equal(np.sort(segment), np.arange(offsets[s], offsets[s + 1]))


def test_argsort_segments_refuses_bad_offsets(backend):
    x = backend.to_device(np.arange(10, dtype=np.int32))
    for offsets in ([0, 5, 3, 10], [1, 10], [0, 9]):
        with pytest.raises(ValueError, match="offsets"):
            corank.argsort_segments(x, backend.to_device(np.array(offsets)), check=True)
    with pytest.raises(ValueError, match="2-D"):
        corank.argsort_segments(x)


# --- segmented scan ------------------------------------------------------------------------

SCAN_DTYPES = [np.int32, np.int64, np.uint32, np.uint64, np.float32, np.float64]
ACCUMULATE = {"add": np.add, "max": np.maximum, "min": np.minimum}


def scan_reference(x, offsets, op, exclusive, init):
    def scan(seg):
        if len(seg) == 0:
            return seg
        out = ACCUMULATE[op].accumulate(seg, dtype=x.dtype)
        if exclusive:
            out = np.concatenate([[init], ACCUMULATE[op](init, out[:-1], dtype=x.dtype)])
        return out.astype(x.dtype)

    with np.errstate(over="ignore"):
        return segment_reference(x, offsets, scan)


@pytest.mark.parametrize("dtype", SCAN_DTYPES)
@pytest.mark.parametrize("op", ["add", "max", "min"])
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("n,segments", [(0, 1), (1, 1), (4097, 1), (65537, 300), (200003, 20000)])
def test_segmented_scan_matches_numpy(backend, rng, dtype, op, exclusive, n, segments):
    # Small integral values: float sums are exact in any order, integer ones wrap alike.
    x = random_keys(rng, n, dtype, distinct=8)
    offsets = random_offsets(rng, n, segments)
    out = poisoned(backend, n, dtype) if exclusive else None  # an item left unwritten shows
    got = corank.segmented_scan(backend.to_device(x), backend.to_device(offsets), op, exclusive,
                                out=out)
    assert out is None or got is out
    init = corank._identity(x, op)
    np.testing.assert_array_equal(backend.to_numpy(got),
                                  scan_reference(x, offsets, op, exclusive, init))


def test_segmented_scan_small_ints_and_initial_on_the_cpu(rng):
    x = random_keys(rng, 10000, np.int8, distinct=100)
    offsets = random_offsets(rng, 10000, 30)
    got = corank.segmented_scan(x, offsets, "add", exclusive=True, initial=5)
    np.testing.assert_array_equal(got, scan_reference(x, offsets, "add", True, np.int8(5)))


def test_segmented_scan_rows_and_in_place(backend, rng):
    x = random_keys(rng, 3 * 5000, np.int64).reshape(3, 5000)
    d = backend.to_device(x)
    assert corank.segmented_scan(d, out=d) is d
    np.testing.assert_array_equal(backend.to_numpy(d), np.cumsum(x, axis=1))


# --- the sparse-matrix iteration -----------------------------------------------------------


def spmv_reference(data, indices, indptr, x, iterations):
    a = data.astype(np.float64)
    scale = x[indices].astype(np.float64)
    for _ in range(iterations):
        a = segment_reference(a * scale, indptr, np.cumsum)
    return a


@pytest.mark.parametrize("dtype", [np.float32, np.float64])
@pytest.mark.parametrize("iterations", [0, 1, 7, 40])
def test_spmv_scan_matches_a_double_reference(backend, rng, dtype, iterations):
    scipy_sparse = pytest.importorskip("scipy.sparse")
    matrix = scipy_sparse.random(300, 200, density=0.05, format="csr", dtype=np.float64,
                                 random_state=int(rng.integers(2**31)))
    x = rng.uniform(0.5, 1.0, 200) / 4
    data, indices, indptr = (matrix.data.astype(dtype), matrix.indices, matrix.indptr)
    got = corank.spmv_scan(tuple(map(backend.to_device, (data, indices, indptr))),
                           backend.to_device(x.astype(dtype)), iterations)
    want = spmv_reference(data, indices, indptr, x.astype(dtype), iterations)
    # The CPU iteration flushes subnormals: each flushed term of a row's sum loses under one
    # smallest-normal, so a row may be off by its length in those, absolutely.
    subnormal_slack = np.finfo(dtype).tiny * max(np.diff(indptr).max(initial=0), 1)
    np.testing.assert_allclose(backend.to_numpy(got), want, rtol=1e-4 if dtype == np.float32
                               else 1e-10, atol=subnormal_slack)
    if backend.name == "cupy":  # a CuPy CSR matrix
        cupyx_sparse = pytest.importorskip("cupyx.scipy.sparse")
        gpu_matrix = cupyx_sparse.csr_matrix(matrix.astype(dtype))
        np.testing.assert_allclose(
            backend.to_numpy(corank.spmv_scan(gpu_matrix, backend.to_device(x.astype(dtype)),
                                              iterations)),
            spmv_reference(gpu_matrix.data.get(), gpu_matrix.indices.get(),
                           gpu_matrix.indptr.get(), x.astype(dtype), iterations),
            rtol=1e-4 if dtype == np.float32 else 1e-10, atol=subnormal_slack)
    if backend.name == "numpy":  # the SciPy matrix itself
        np.testing.assert_allclose(corank.spmv_scan(matrix, x, iterations),
                                   spmv_reference(matrix.data, indices, indptr, x, iterations),
                                   rtol=1e-10)


# --- bad input: clear errors ---------------------------------------------------------------


def test_unsupported_dtypes_are_type_errors(backend):
    # float16 and bfloat16: test_half_floats.py
    for dtype in (np.bool_, np.complex64):
        try:
            x = backend.to_device(np.zeros(4, dtype))
        except (TypeError, ValueError, RuntimeError):
            continue  # the array library itself lacks it
        with pytest.raises(TypeError, match="keys must be"):
            corank.sort(x)
        with pytest.raises(TypeError, match="keys must be"):
            corank.merge(x, x)


def test_mixed_dtypes_sizes_and_shapes(backend):
    a = backend.to_device(np.arange(4, dtype=np.int32))
    b = backend.to_device(np.arange(4, dtype=np.int64))
    with pytest.raises(TypeError, match="differ in dtype"):
        corank.merge(a, b)
    with pytest.raises(ValueError, match="expected 8"):
        corank.merge(a, a, out=backend.to_device(np.zeros(7, np.int32)))
    with pytest.raises(ValueError, match="1-D"):
        corank.sort(backend.to_device(np.zeros((2, 2), np.int32)))
    with pytest.raises(ValueError, match="both inputs"):
        corank.merge(a, a, a)
    with pytest.raises(ValueError, match="op must be"):
        corank.segmented_scan(a, backend.to_device(np.array([0, 4])), op="mul")


def test_mixed_devices_are_refused(backend):
    if not backend.gpu:
        pytest.skip("a GPU array against a CPU one")
    gpu = backend.to_device(np.arange(4, dtype=np.int32))
    cpu = np.arange(4, dtype=np.int32)
    with pytest.raises(ValueError, match="not on a CUDA device"):
        corank.merge(gpu, cpu)
    with pytest.raises(ValueError, match="not on the CPU"):
        corank.merge(cpu, gpu)


def test_non_contiguous_arrays_are_refused(backend):
    x = backend.to_device(np.arange(10, dtype=np.int32))
    with pytest.raises(ValueError, match="contiguous"):
        corank.sort(x[::2])
    x2 = backend.to_device(np.arange(12, dtype=np.int32).reshape(3, 4))
    with pytest.raises(ValueError, match="contiguous"):
        corank.sort_segments(x2.T)


def test_overlapping_output_is_refused(backend):
    x = backend.to_device(np.arange(10, dtype=np.int32))
    with pytest.raises(ValueError, match="overlaps"):
        corank.merge(x[:5], x[5:], out=x)


def test_bad_offsets_are_value_errors(backend):
    x = backend.to_device(np.arange(10, dtype=np.int32))
    for offsets in ([0, 5, 3, 10], [1, 10], [0, 9], [0, 11]):
        with pytest.raises(ValueError, match="offsets"):
            corank.sort_segments(x, backend.to_device(np.array(offsets)), check=True)
        with pytest.raises(ValueError, match="offsets"):
            corank.segmented_scan(x, backend.to_device(np.array(offsets)), check=True)


def test_offsets_must_be_integer_arrays(backend):
    x = backend.to_device(np.arange(5, dtype=np.int32))
    for offsets in (np.array([0.0, 2.5, 5.0]), np.array([False, True])):
        with pytest.raises(TypeError, match="offsets must be integers"):
            corank.segmented_scan(x, backend.to_device(offsets))
        with pytest.raises(TypeError, match="offsets must be integers"):
            corank.sort_segments(x, backend.to_device(offsets))
    with pytest.raises(TypeError, match="expected a NumPy"):
        corank.segmented_scan(x, [0, 5])
    narrow = corank.segmented_scan(x, backend.to_device(np.array([0, 2, 5], np.int32)))
    np.testing.assert_array_equal(backend.to_numpy(narrow), [0, 1, 2, 5, 9])


def test_initial_must_fit_the_dtype(backend):
    x = backend.to_device(np.arange(5, dtype=np.int32))
    offsets = backend.to_device(np.array([0, 5]))
    with pytest.raises(ValueError, match="does not fit int32"):
        corank.segmented_scan(x, offsets, exclusive=True, initial=2**31)
    with pytest.raises(TypeError, match="must be an integer"):
        corank.segmented_scan(x, offsets, exclusive=True, initial=1.5)
    got = corank.segmented_scan(x, offsets, exclusive=True, initial=np.int64(-3))
    np.testing.assert_array_equal(backend.to_numpy(got), [-3, -3, -2, 0, 3])
    f = backend.to_device(np.ones(3, np.float32))
    with pytest.raises(TypeError, match="must be a number"):
        corank.segmented_scan(f, backend.to_device(np.array([0, 3])), exclusive=True, initial="1")


def test_row_forms_want_arrays_of_the_same_shape(backend):
    x = backend.to_device(np.zeros((2, 3), np.float32))
    wrong = backend.to_device(np.zeros((3, 2), np.float32))
    with pytest.raises(ValueError, match=r"values has shape \(3, 2\), expected \(2, 3\)"):
        corank.sort_segments(x, values=wrong)
    with pytest.raises(ValueError, match="out has shape"):
        corank.sort_segments(x, out=wrong)
    with pytest.raises(ValueError, match="out has shape"):
        corank.segmented_scan(x, out=wrong)


def test_arguments_that_would_be_ignored_are_refused(backend):
    x = backend.to_device(np.arange(6, dtype=np.int32))
    offsets = backend.to_device(np.array([0, 3, 6]))
    with pytest.raises(ValueError, match="values_out without values"):
        corank.sort_segments(x, offsets, values_out=backend.to_device(np.zeros(6, np.int32)))
    with pytest.raises(ValueError, match="exclusive=True"):
        corank.segmented_scan(x, offsets, initial=3)


def test_spmv_scan_wants_a_csr_matrix_and_an_x_per_column(backend):
    scipy_sparse = pytest.importorskip("scipy.sparse")
    matrix = scipy_sparse.random(30, 20, density=0.2, format="csr", random_state=1)
    with pytest.raises(TypeError, match="CSR form"):
        corank.spmv_scan(matrix.tocsc(), np.ones(20))
    with pytest.raises(ValueError, match="x has 19 items, the matrix 20 columns"):
        corank.spmv_scan(matrix, np.ones(19))
    data, indices, indptr = (backend.to_device(a) for a in (matrix.data, matrix.indices,
                                                             matrix.indptr))
    with pytest.raises(ValueError, match=r"column indices must lie in \[0, 19\)"):
        corank.spmv_scan((data, indices, indptr), backend.to_device(np.ones(19)), check=True)


def test_streams_are_integers_or_objects_holding_one():
    class CuPyLike:
        ptr = 12

    class TorchLike:
        cuda_stream = 34

    class NumbaLike:
        def __int__(self):
            return 56

    assert [corank._stream_handle(s) for s in (7, CuPyLike(), TorchLike(), NumbaLike())] == \
        [7, 12, 34, 56]
    with pytest.raises(TypeError, match="stream= takes"):
        corank._stream_handle("default")


@pytest.mark.parametrize("how", ["stream=", "current stream"])
def test_gpu_calls_queue_all_their_work_on_the_callers_stream(backend, rng, how):
    # A non-blocking side stream, given as stream= or made current: the library's own work of a
    # call (argsort's arange and widening copy, int32 offsets' conversion, spmv_scan's gather)
    # must be queued there too, or it races with corank's kernels (a widening copy on the
    # default stream reads indices still being sorted). Only that stream is synchronised.
    if not backend.gpu:
        pytest.skip("streams: GPU arrays")
    import contextlib

    n = 3_000_000
    x = random_keys(rng, n, np.int32, distinct=1000)
    a, b = np.sort(x[:n // 2]), np.sort(x[n // 2:])
    offsets = random_offsets(rng, n, 3000)
    rows = x.reshape(3000, 1000)
    dx, da, db, doffsets, drows = map(backend.to_device, (x, a, b, offsets.astype(np.int32), rows))
    if backend.name == "cupy":
        import cupy

        cupy.cuda.Device().synchronize()  # the inputs are ready before the side stream starts
        stream = cupy.cuda.Stream(non_blocking=True)
        handle, current = stream.ptr, stream  # an integer; CuPy's streams are contexts
    else:
        import torch

        torch.cuda.synchronize()
        stream = torch.cuda.Stream()  # non-blocking
        handle, current = stream, torch.cuda.stream(stream)  # a torch.cuda.Stream
    context = current if how == "current stream" else contextlib.nullcontext()
    given = {"stream": handle} if how == "stream=" else {}
    with context:
        got = {
            "argsort": corank.argsort(dx, **given),
            "argmerge": corank.argmerge(da, db, **given),
            "argsort_segments": corank.argsort_segments(dx, doffsets, **given),
            "rows": corank.argsort_segments(drows, **given),
            "sort_segments": corank.sort_segments(dx, doffsets, **given),
            "scan": corank.segmented_scan(dx, doffsets, "max", **given),
        }
    stream.synchronize()
    want = {
        "argsort": stable_order(x),
        "argmerge": stable_order(np.concatenate([a, b])),
        "argsort_segments": segment_argsort_reference(x, offsets),
        "rows": np.argsort(rows, axis=1, kind="stable"),
        "sort_segments": segment_reference(x, offsets, np.sort),
        "scan": scan_reference(x, offsets, "max", False, 0),
    }
    for name in want:
        np.testing.assert_array_equal(backend.to_numpy(got[name]), want[name], err_msg=name)


def test_every_function_runs_in_the_context_of_the_given_stream(monkeypatch, rng):
    # The rerouting of stream= on the CPU: NumPy given a stand-in on_stream (GPU libraries make
    # the stream current there); every function must run inside it, with its result intact.
    import contextlib

    entered = []

    @contextlib.contextmanager
    def on_stream(self, x, stream):
        entered.append(stream)
        yield

    monkeypatch.setattr(type(corank._library(np.zeros(1))), "on_stream", on_stream)
    x = random_keys(rng, 3000, np.int32, distinct=50)
    offsets = random_offsets(rng, 3000, 20)
    a, b = np.sort(x[:1000]), np.sort(x[1000:])
    data, indices, indptr = np.ones(4), np.array([0, 1, 1, 0]), np.array([0, 2, 4])
    calls = {
        "merge": (lambda s: corank.merge(a, b, stream=s), np.sort(x)),
        "argmerge": (lambda s: corank.argmerge(a, b, stream=s),
                     stable_order(np.concatenate([a, b]))),
        "sort": (lambda s: corank.sort(x, stream=s), np.sort(x)),
        "argsort": (lambda s: corank.argsort(x, stream=s), stable_order(x)),
        "sort_segments": (lambda s: corank.sort_segments(x, offsets, stream=s),
                          segment_reference(x, offsets, np.sort)),
        "argsort_segments": (lambda s: corank.argsort_segments(x, offsets, stream=s),
                             segment_argsort_reference(x, offsets)),
        "segmented_scan": (lambda s: corank.segmented_scan(x, offsets, stream=s),
                           scan_reference(x, offsets, "add", False, 0)),
        "spmv_scan": (lambda s: corank.spmv_scan((data, indices, indptr), np.ones(2), 1,
                                                 stream=s), np.array([1, 2, 1, 2.0])),
    }
    for number, (name, (call, want)) in enumerate(calls.items()):
        np.testing.assert_array_equal(call(100 + number), want, err_msg=name)
        assert entered == [100 + number], name
        np.testing.assert_array_equal(call(None), want, err_msg=name)  # no stream: no context
        assert entered == [100 + number], name
        entered.clear()


def test_dlpack_arrays_of_other_libraries_get_clear_errors():
    # A DLPack array of no library corank knows (conftest's DLPackBits): computed on with out=,
    # but the row form, check=True and the index functions' scratch need a known library.
    from conftest import DLPackBits

    x = DLPackBits(np.array([0x3f80, 0x4000, 0x3f80, 0x4000], np.uint16), "float16")
    with pytest.raises(TypeError, match="check=True takes NumPy, CuPy or PyTorch"):
        corank.merge(x, x, out=DLPackBits(np.zeros(8, np.uint16), "float16"), check=True)
    with pytest.raises(TypeError, match="scratch space"):
        corank.argsort(x, out=np.zeros(4, np.int64))
    with pytest.raises(TypeError, match="scratch space"):
        corank.argsort_segments(x, np.array([0, 4]), out=np.zeros(4, np.int64))
    x.shape = (2, 2)  # as a 2-D array of another library would say
    with pytest.raises(TypeError, match="row form"):
        corank.sort_segments(x, out=DLPackBits(np.zeros(4, np.uint16), "float16"))


def test_the_comparison_example_runs(tmp_path):
    # python/examples/compare.py on a small size (NumPy here; CuPy and PyTorch where present).
    import os
    import pathlib
    import subprocess
    import sys

    example = pathlib.Path(__file__).resolve().parents[1] / "examples" / "compare.py"
    package_root = os.path.dirname(os.path.dirname(os.path.abspath(corank.__file__)))  # this one
    env = dict(os.environ, PYTHONPATH=os.pathsep.join(
        [package_root] + [p for p in os.environ.get("PYTHONPATH", "").split(os.pathsep) if p]))
    run = subprocess.run([sys.executable, str(example), "20000"], capture_output=True, text=True,
                         timeout=300, cwd=tmp_path, env=env)
    assert run.returncode == 0, run.stderr
    assert "corank" in run.stdout


@pytest.mark.parametrize("dtype", [object, "datetime64[s]", "timedelta64[s]", "U1", "S1"])
def test_arrays_dlpack_cannot_carry_are_named(dtype):
    x = np.zeros(2, dtype)
    with pytest.raises(TypeError, match="not supported"):
        corank.sort(x)
    with pytest.raises(TypeError, match="not supported"):
        corank.merge(x, x)


def test_the_stubs_match_the_functions():
    # corank/__init__.pyi names every public function with the parameters it has.
    import ast
    import inspect
    import pathlib

    stubs = ast.parse(pathlib.Path(corank.__file__).with_suffix(".pyi").read_text())
    signatures = {}
    for node in stubs.body:
        if isinstance(node, ast.FunctionDef):
            a = node.args
            signatures[node.name] = ([p.arg for p in a.posonlyargs + a.args],
                                     [p.arg for p in a.kwonlyargs])
    assert set(signatures) == set(corank.__all__)
    for name, (positional, keyword) in signatures.items():
        parameters = inspect.signature(getattr(corank, name)).parameters.values()
        assert [p.name for p in parameters if p.kind != p.KEYWORD_ONLY] == positional, name
        assert [p.name for p in parameters if p.kind == p.KEYWORD_ONLY] == keyword, name


def test_not_an_array_is_a_type_error():
    with pytest.raises(TypeError, match="expected a NumPy"):
        corank.sort([3, 1, 2])


def test_read_only_output_is_refused():
    x = np.arange(4, dtype=np.int32)
    out = np.zeros(4, np.int32)
    out.flags.writeable = False
    with pytest.raises(TypeError):
        corank.sort(x, out=out)
    ro = np.arange(4, dtype=np.int32)
    ro.flags.writeable = False
    np.testing.assert_array_equal(corank.sort(ro), ro)  # read-only inputs are fine


# --- arrays that speak only __cuda_array_interface__ (Numba's device arrays, ...) ----------


class CudaArrayOnly:
    """A GPU array that speaks __cuda_array_interface__ and not DLPack (as Numba's do)."""

    def __init__(self, interface, keep=None):
        self.__cuda_array_interface__ = interface
        self.keep = keep  # the memory's owner


def test_cuda_array_interface_only_needs_cupy(monkeypatch):
    fake = CudaArrayOnly({"shape": (4,), "typestr": "<i4", "data": (0, False), "version": 3})
    monkeypatch.setitem(__import__("sys").modules, "cupy", None)  # import cupy fails
    for call in (lambda: corank.sort(fake), lambda: corank.merge(fake, fake),
                 lambda: corank.segmented_scan(fake, fake),
                 lambda: corank.spmv_scan((fake, fake, fake), fake)):
        with pytest.raises(TypeError, match="speaks only __cuda_array_interface__: install CuPy"):
            call()


def test_cuda_array_interface_only_arrays_go_through_cupy_and_come_back(monkeypatch, rng):
    # The rerouting on the CPU: a stand-in "cupy" whose asarray hands back the NumPy array a
    # CudaArrayOnly describes (zero-copy), so every function's arguments, out= and results pass
    # through _through_cupy as on the GPU.
    fake_cupy = __import__("types").ModuleType("cupy")
    fake_cupy.asarray = lambda wrapper: wrapper.keep
    monkeypatch.setitem(__import__("sys").modules, "cupy", fake_cupy)

    def only_cai(array):
        return CudaArrayOnly({"shape": array.shape, "typestr": array.dtype.str,
                              "data": (array.ctypes.data, False), "version": 3}, array)

    x = random_keys(rng, 5000, np.int32, distinct=40)
    np.testing.assert_array_equal(corank.sort(only_cai(x)), np.sort(x))
    out = only_cai(np.empty(5000, np.int32))
    assert corank.sort(only_cai(x), out=out, descending=True) is out
    np.testing.assert_array_equal(out.keep, np.sort(x)[::-1])
    np.testing.assert_array_equal(corank.argsort(only_cai(x)), stable_order(x))
    a, b = np.sort(x[:2000]), np.sort(x[2000:])
    keys, values = corank.merge(only_cai(a), only_cai(b), only_cai(np.arange(2000)),
                                only_cai(np.arange(2000, 5000)), check=True)
    np.testing.assert_array_equal(values, stable_order(np.concatenate([a, b])))
    np.testing.assert_array_equal(corank.argmerge(only_cai(a), only_cai(b)), values)
    offsets = random_offsets(rng, 5000, 30)
    np.testing.assert_array_equal(corank.sort_segments(only_cai(x), only_cai(offsets)),
                                  segment_reference(x, offsets, np.sort))
    np.testing.assert_array_equal(corank.sort_segments(only_cai(x.reshape(50, 100))),
                                  np.sort(x.reshape(50, 100), axis=1))
    np.testing.assert_array_equal(
        corank.segmented_scan(only_cai(x), only_cai(offsets), "max", exclusive=True),
        scan_reference(x, offsets, "max", True, corank._identity(x, "max")))
    data, x_col = rng.uniform(0.5, 1, 6), rng.uniform(0.5, 1, 3)
    indices, indptr = np.array([0, 2, 1, 0, 1, 2]), np.array([0, 2, 2, 6])
    np.testing.assert_allclose(
        corank.spmv_scan((only_cai(data), only_cai(indices), only_cai(indptr)), only_cai(x_col),
                         3),
        spmv_reference(data, indices, indptr, x_col, 3), rtol=1e-12)


def test_cuda_array_interface_only_arrays_are_wrapped_by_cupy(rng):
    cupy = pytest.importorskip("cupy")
    if not corank.gpu_available():
        pytest.skip("no GPU")
    x = random_keys(rng, 10000, np.int32)
    owner = cupy.asarray(x)
    cai = CudaArrayOnly(owner.__cuda_array_interface__, owner)
    got = corank.sort(cai)  # an unknown kind: a CuPy array
    np.testing.assert_array_equal(cupy.asnumpy(got), np.sort(x))
    out_owner = cupy.zeros(10000, cupy.int32)
    out = CudaArrayOnly(out_owner.__cuda_array_interface__, out_owner)
    assert corank.sort(cai, out=out, descending=True) is out
    np.testing.assert_array_equal(cupy.asnumpy(out_owner), np.sort(x)[::-1])
    offsets = np.array([0, 5000, 10000])
    offsets_owner = cupy.asarray(offsets)
    scanned = corank.segmented_scan(cai, CudaArrayOnly(offsets_owner.__cuda_array_interface__,
                                                       offsets_owner))
    np.testing.assert_array_equal(cupy.asnumpy(scanned), scan_reference(x, offsets, "add",
                                                                        False, 0))
    try:
        from numba import cuda
    except ImportError:
        return
    numba_x = cuda.to_device(x)
    if hasattr(numba_x, "__dlpack__"):
        return  # a Numba that speaks DLPack: the DLPack path's business
    got = corank.argsort(numba_x)
    assert type(got).__module__.startswith("numba")  # the caller's kind
    np.testing.assert_array_equal(got.copy_to_host(), np.argsort(x, kind="stable"))
