"""float16 and bfloat16 keys, ordered alike on the CPU and the GPU: as numbers (-0.0 == +0.0, ties
in input order), every NaN after +inf (first when descending); scans (the CPU only) accumulated in
float32 with each output rounded to the dtype. float16 on NumPy, CuPy and PyTorch; bfloat16 on
PyTorch, and through DLPack (conftest's DLPackBits) where PyTorch is not installed."""
import numpy as np
import pytest
from conftest import HALF_DTYPES, DLPackBits, HalfArrays, bfloat16_bits

import corank

SIZES = [0, 1, 2, 33, 4095, 4097, 65537, 100003]


@pytest.fixture(params=HALF_DTYPES)
def half(request, backend):
    return HalfArrays(backend, request.param)


@pytest.fixture
def cpu_scans(half, backend):
    """The scans of 2-byte floats run on the CPU: the GPU scans take 4- and 8-byte values and
    say so."""
    if backend.gpu:
        x = half.to_device(np.arange(4, dtype=np.float32))
        with pytest.raises(TypeError, match="4- or 8-byte"):
            corank.segmented_scan(x, backend.to_device(np.array([0, 4])))
        pytest.skip("the GPU scans take 4- and 8-byte values")


def half_keys(rng, n, distinct=None):
    """float32 values exact in both 2-byte dtypes (multiples of 1/4 up to 64: 8 significant
    bits), with duplicates and zeros of both signs."""
    if distinct is None:
        distinct = max(1, min(n // 4, 256))
    x = (rng.integers(-distinct, distinct + 1, n) / 4).astype(np.float32)
    x[rng.random(n) < 0.5 / max(distinct, 1)] = -0.0
    return x


def rounded(half, values):
    """float32 values rounded to the dtype (the array library's own rounding where it has one)."""
    values = np.asarray(values, np.float32)
    if half.dtype == "float16":
        return values.astype(np.float16).astype(np.float32)
    return (bfloat16_bits(values).astype(np.uint32) << 16).view(np.float32)


def same_bits(half, got, want_float32):
    """got holds exactly the values want_float32 rounds to, zeros' signs included."""
    want = rounded(half, want_float32)
    np.testing.assert_array_equal(half.to_numpy(got), want)
    np.testing.assert_array_equal(np.signbit(half.to_numpy(got)), np.signbit(want))


def call(half, function, *args, out_size=None, **kwargs):
    """function(*args), with out= where the arrays are DLPackBits (corank cannot allocate them)."""
    if out_size is not None and half.empty(out_size) is not None:
        kwargs["out"] = half.empty(out_size)
    return function(*args, **kwargs)


@pytest.mark.parametrize("n", SIZES)
@pytest.mark.parametrize("descending", [False, True])
def test_sort_orders_as_float32_keys_with_ties_in_input_order(backend, half, rng, n, descending):
    x = half_keys(rng, n)
    order = np.argsort(-x if descending else x, kind="stable")  # -0.0 == +0.0: a tie
    got = call(half, corank.sort, half.to_device(x), out_size=n, descending=descending)
    same_bits(half, got, x[order])


@pytest.mark.parametrize("n", [0, 1, 4097, 65537])
def test_argsort_and_sort_by_key_are_stable(backend, half, rng, n):
    x = half_keys(rng, n, distinct=20)
    want = np.argsort(x, kind="stable")
    if half.kind != "dlpack":  # argsort allocates its key buffer like x
        np.testing.assert_array_equal(backend.to_numpy(corank.argsort(half.to_device(x))), want)
    values = np.arange(n, dtype=np.int32)
    keys_out = half.empty(n)
    keys, moved = corank.sort(half.to_device(x), backend.to_device(values),
                              **({"out": keys_out} if keys_out is not None else {}))
    same_bits(half, keys, x[want])
    np.testing.assert_array_equal(backend.to_numpy(moved), values[want])


@pytest.mark.parametrize("m,n", [(0, 0), (0, 5), (1, 1), (4096, 4097), (70000, 3)])
def test_merge_takes_a_first_on_ties_and_zeros_of_both_signs_tie(backend, half, rng, m, n):
    a = half_keys(rng, m, distinct=30)
    b = half_keys(rng, n, distinct=30)
    a, b = a[np.argsort(a, kind="stable")], b[np.argsort(b, kind="stable")]
    both = np.concatenate([a, b])
    got = call(half, corank.merge, half.to_device(a), half.to_device(b), out_size=m + n,
               check=half.kind != "dlpack")
    same_bits(half, got, both[np.argsort(both, kind="stable")])


@pytest.mark.parametrize("n,segments", [(0, 1), (100, 1), (20000, 3000), (100003, 7)])
def test_sort_segments_sorts_each_segment(backend, half, rng, n, segments):
    x = half_keys(rng, n)
    cuts = np.sort(rng.integers(0, n + 1, segments - 1))
    offsets = np.concatenate([[0], cuts, [n]]).astype(np.int64)
    want = x.copy()
    for s in range(segments):
        seg = x[offsets[s]:offsets[s + 1]]
        want[offsets[s]:offsets[s + 1]] = seg[np.argsort(seg, kind="stable")]
    got = call(half, corank.sort_segments, half.to_device(x), backend.to_device(offsets),
               out_size=n)
    same_bits(half, got, want)


def test_sort_segments_sorts_the_rows_of_a_2d_tensor(backend, half, rng):
    if half.kind not in ("numpy", "torch"):
        pytest.skip("2-D arrays of NumPy float16 or PyTorch")
    x = half_keys(rng, 7 * 1000).reshape(7, 1000)
    got = corank.sort_segments(half.to_device(x.reshape(-1)).reshape(7, 1000))
    same_bits(half, got.reshape(-1), np.sort(x, axis=1, kind="stable").reshape(-1))


def keys_with_nans(half, rng, n):
    """(the device's keys, their values as float32): half_keys with NaNs of both signs,
    infinities and zeros of both signs among them (the values as the array library rounded
    them: PyTorch's bfloat16 drops a NaN's sign)."""
    x = half_keys(rng, n, distinct=12)
    specials = np.array([np.nan, -np.nan, np.inf, -np.inf, 0.0, -0.0], np.float32)
    pick = rng.random(n) < 0.2
    x[pick] = specials[rng.integers(0, len(specials), int(pick.sum()))]
    keys = half.to_device(x)
    return keys, half.to_numpy(keys)


def nan_order(x, descending=False):
    """The stable order with NaNs tied after +inf, as NumPy's stable argsort gives ascending."""
    if not descending:
        return np.argsort(x, kind="stable")
    return np.lexsort((-x, ~np.isnan(x)))  # NaNs first, then -x ascending; stable


@pytest.mark.parametrize("n", [1, 2, 33, 4097, 65537])
@pytest.mark.parametrize("descending", [False, True])
def test_nans_sort_after_infinity_in_input_order(backend, half, rng, n, descending):
    x_keys, x = keys_with_nans(half, rng, n)
    want = nan_order(x, descending)
    if half.kind != "dlpack":
        got = corank.argsort(x_keys, descending=descending)
        np.testing.assert_array_equal(backend.to_numpy(got), want)
    values = np.arange(n, dtype=np.int32)
    keys_out = half.empty(n)
    keys, moved = corank.sort(x_keys, backend.to_device(values), descending=descending,
                              **({"out": keys_out} if keys_out is not None else {}))
    np.testing.assert_array_equal(backend.to_numpy(moved), want)
    same_bits(half, keys, x[want])


@pytest.mark.parametrize("m,n", [(1, 1), (4096, 4097), (70000, 3)])
@pytest.mark.parametrize("descending", [False, True])
def test_merge_and_segments_order_nans_alike(backend, half, rng, m, n, descending):
    a, b = keys_with_nans(half, rng, m)[1], keys_with_nans(half, rng, n)[1]
    a, b = a[nan_order(a, descending)], b[nan_order(b, descending)]
    both = np.concatenate([a, b])
    got = call(half, corank.merge, half.to_device(a), half.to_device(b), out_size=m + n,
               descending=descending, check=half.kind != "dlpack")  # NaNs in place: accepted
    same_bits(half, got, both[nan_order(both, descending)])
    x_keys, x = keys_with_nans(half, rng, m + n)
    offsets = np.array([0, m, m + n])
    order = np.concatenate([nan_order(x[:m], descending), m + nan_order(x[m:], descending)])
    got = call(half, corank.sort_segments, x_keys, backend.to_device(offsets), out_size=m + n,
               descending=descending)
    same_bits(half, got, x[order])
    if half.kind != "dlpack":  # argsort_segments allocates its key buffer like x
        got = corank.argsort_segments(x_keys, backend.to_device(offsets), descending=descending)
        np.testing.assert_array_equal(backend.to_numpy(got), order)


@pytest.mark.parametrize("descending", [False, True])
def test_merge_check_wants_nans_where_the_order_puts_them(backend, half, descending):
    if half.kind == "dlpack":
        pytest.skip("check=True: NumPy, CuPy and PyTorch arrays")
    numbers = [3.0, 1.0, -2.0] if descending else [-2.0, 1.0, 3.0]
    placed = [np.nan] + numbers if descending else numbers + [np.nan]  # NaNs first / last
    misplaced = numbers + [np.nan] if descending else [np.nan] + numbers
    other = half.to_device(np.array(numbers, np.float32))
    corank.merge(half.to_device(np.array(placed, np.float32)), other, check=True,
                 descending=descending)
    for a, b in ((misplaced, numbers), (numbers, misplaced)):
        with pytest.raises(ValueError, match="not sorted"):
            corank.merge(half.to_device(np.array(a, np.float32)),
                         half.to_device(np.array(b, np.float32)), check=True,
                         descending=descending)


@pytest.mark.parametrize("op", ["add", "max", "min"])
@pytest.mark.parametrize("exclusive", [False, True])
@pytest.mark.parametrize("n,segments", [(0, 1), (1, 1), (4097, 1), (65537, 300)])
@pytest.mark.usefixtures("cpu_scans")
def test_segmented_scan_accumulates_in_float32(backend, half, rng, op, exclusive, n, segments):
    # Sums of quarters below 2^24 / 4 are exact in float32 in any order: the reference's float32
    # scan, rounded once per output, is then the only right answer.
    x = half_keys(rng, n, distinct=8)
    cuts = np.sort(rng.integers(0, n + 1, segments - 1))
    offsets = np.concatenate([[0], cuts, [n]]).astype(np.int64)
    ufunc = {"add": np.add, "max": np.maximum, "min": np.minimum}[op]
    init = {"add": 0.0, "max": -np.inf, "min": np.inf}[op]
    want = x.copy()
    for s in range(segments):
        seg = x[offsets[s]:offsets[s + 1]]
        if len(seg):
            scan = ufunc.accumulate(seg, dtype=np.float32)
            want[offsets[s]:offsets[s + 1]] = np.concatenate([[init], scan[:-1]]) if exclusive \
                else scan
    got = call(half, corank.segmented_scan, half.to_device(x), backend.to_device(offsets), op,
               exclusive, out_size=n)
    np.testing.assert_array_equal(half.to_numpy(got), rounded(half, want))


@pytest.mark.usefixtures("cpu_scans")
def test_long_sums_keep_growing(backend, half):
    # 5000 ones: a float16 running sum stops at 2048 (numpy.cumsum), one held in float32 does not.
    x = half.to_device(np.ones(5000, np.float32))
    got = call(half, corank.segmented_scan, x, backend.to_device(np.array([0, 5000])),
               out_size=5000)
    np.testing.assert_array_equal(half.to_numpy(got), rounded(half, np.arange(1, 5001)))


@pytest.mark.usefixtures("cpu_scans")
def test_exclusive_initial_is_rounded_to_the_dtype(backend, half):
    x = half.to_device(np.array([1, 2, 3], np.float32))
    got = call(half, corank.segmented_scan, x, backend.to_device(np.array([0, 3])), "add", True,
               initial=1 / 3, out_size=3)
    first = rounded(half, [1 / 3])[0]
    np.testing.assert_array_equal(half.to_numpy(got), rounded(half, [first, first + 1,
                                                                     first + 3]))


@pytest.mark.usefixtures("cpu_scans")
def test_every_bit_pattern_converts_and_sums_round_to_nearest_even(backend, half, rng):
    # Segments of two items [a, b] scan to [a, round(float(a) + float(b))]: all 65536 patterns as
    # a (subnormals, infinities, NaNs, both zeros) against random b, and pairs near the largest
    # value and the subnormal range.
    a = np.arange(65536, dtype=np.uint16)
    b = rng.integers(0, 65536, 65536).astype(np.uint16)
    if half.dtype == "float16":
        big, tiny = np.uint16(0x7bff), np.uint16(0x0001)
    else:
        big, tiny = np.uint16(0x7f7f), np.uint16(0x0001)
    b[:1024] = big - np.arange(1024, dtype=np.uint16) % 8
    b[1024:2048] = tiny + np.arange(1024, dtype=np.uint16) % 64
    to_float = (lambda v: v.view(np.float16).astype(np.float32)) if half.dtype == "float16" \
        else (lambda v: (v.astype(np.uint32) << 16).view(np.float32))
    pairs = np.stack([to_float(a), to_float(b)], axis=1).reshape(-1)
    offsets = np.arange(0, 2 * 65536 + 1, 2)
    got = half.bits(call(half, corank.segmented_scan, half.to_device(pairs),
                         backend.to_device(offsets), out_size=2 * 65536))
    with np.errstate(over="ignore", invalid="ignore"):
        sums = to_float(a) + to_float(b)
    want = np.stack([a, rounded_bits(half, sums)], axis=1).reshape(-1)
    nan = np.isnan(pairs)
    nan[1::2] = np.isnan(sums)
    np.testing.assert_array_equal(got[~nan], want[~nan])
    exponent_ones = 0x7c00 if half.dtype == "float16" else 0x7f80
    assert np.all((got[nan] & 0x7fff) > exponent_ones)  # NaN stays NaN


def rounded_bits(half, values):
    if half.dtype == "float16":
        with np.errstate(over="ignore"):  # past the largest value: infinity
            return np.asarray(values, np.float32).astype(np.float16).view(np.uint16)
    return bfloat16_bits(values)


def test_spmv_scan_refuses_2_byte_floats(backend, half):
    if half.kind == "dlpack":
        pytest.skip("spmv_scan gathers x[indices]: NumPy, CuPy and PyTorch arrays")
    data = half.to_device(np.ones(4, np.float32))
    with pytest.raises(TypeError, match="float16 and bfloat16"):
        corank.spmv_scan((data, backend.to_device(np.arange(4)), backend.to_device(
            np.array([0, 4]))), data)


def test_bfloat16_through_dlpack_needs_out_or_says_so():
    x = DLPackBits(np.array([0x3f80, 0x4000], np.uint16), "bfloat16")
    with pytest.raises(TypeError, match="pass out="):
        corank.sort(x)
    out = DLPackBits(np.zeros(2, np.uint16), "bfloat16")
    assert corank.sort(x, out=out, descending=True) is out
    np.testing.assert_array_equal(out.bits, [0x4000, 0x3f80])
