// The nanobind layer of corank._cpu and corank._cuda (one source, built once per backend): takes
// DLPack arrays without copying them, checks them (dtype, 1-D contiguous, device, sizes,
// overlap), and calls the operations of ops.hpp for the keys' dtype with the GIL released. The
// Python package (corank/__init__.py) allocates results with the caller's array library and picks
// the stream.
#include <nanobind/nanobind.h>
#include <nanobind/ndarray.h>
#include <nanobind/stl/optional.h>
#include <nanobind/stl/string.h>

#include <chrono>
#include <cstdint>
#include <initializer_list>
#include <optional>
#include <stdexcept>
#include <string>
#include <type_traits>

#include "built_keys.hpp"
#include "ops.hpp"

#if CORANK_PY_CUDA
#include <cuda_runtime_api.h>
#define CORANK_PY_MODULE _cuda
#else
#define CORANK_PY_MODULE _cpu
#endif

namespace nb = nanobind;
using namespace nb::literals;

namespace corank_py {
namespace {

using input = nb::ndarray<nb::ro>;
using output = nb::ndarray<>;

#if CORANK_PY_CUDA
constexpr int backend_device = nb::device::cuda::value;
constexpr const char* backend_name = "a CUDA device";
#else
constexpr int backend_device = nb::device::cpu::value;
constexpr const char* backend_name = "the CPU";
#endif

/// A checked 1-D contiguous array: its data, item count, dtype and device.
struct view {
  void* data;
  std::size_t size;
  nb::dlpack::dtype dtype;
  int device_id;
  std::size_t bytes() const { return size * (dtype.bits / 8); }
};

template <class Array>
view checked(const Array& a, const char* name) {
  if (a.ndim() != 1)
    throw nb::value_error(
        (std::string(name) + " must be 1-D (got " + std::to_string(a.ndim()) + " dimensions)")
            .c_str());
  if (a.shape(0) > 1 && a.stride(0) != 1)
    throw nb::value_error((std::string(name) + " must be contiguous").c_str());
  if (a.device_type() != backend_device)
    throw nb::value_error((std::string(name) + " is not on " + backend_name).c_str());
  if (a.dtype().lanes != 1 || a.dtype().bits % 8 != 0)
    throw nb::type_error((std::string(name) + ": unsupported dtype").c_str());
  return {const_cast<void*>(static_cast<const void*>(a.data())), a.shape(0), a.dtype(),
          a.device_id()};
}

void same_device(const view& a, const view& b, const char* name_a, const char* name_b) {
  if (a.device_id != b.device_id)
    throw nb::value_error(
        (std::string(name_a) + " and " + name_b + " are on different devices").c_str());
}

void same_dtype(const view& a, const view& b, const char* name_a, const char* name_b) {
  if (a.dtype != b.dtype)
    throw nb::type_error((std::string(name_a) + " and " + name_b + " differ in dtype").c_str());
}

void sized(const view& a, std::size_t size, const char* name) {
  if (a.size != size)
    throw nb::value_error((std::string(name) + " has " + std::to_string(a.size) +
                           " items, expected " + std::to_string(size))
                              .c_str());
}

/// Refuses an output that overlaps an input without being it (`exact_ok`: in place allowed).
void apart(const view& out, const view& in, const char* name_out, const char* name_in,
           bool exact_ok = false) {
  if (!out.size || !in.size) return;
  const auto o = reinterpret_cast<std::uintptr_t>(out.data),
             i = reinterpret_cast<std::uintptr_t>(in.data);
  if (exact_ok && o == i && out.bytes() == in.bytes()) return;
  if (o < i + in.bytes() && i < o + out.bytes())
    throw nb::value_error((std::string(name_out) + " overlaps " + name_in).c_str());
}

/// f(K{}) when this module has K (CORANK_PYTHON_KEYS), else TypeError.
template <class K, class F>
void if_built(const char* what, F&& f) {
  if constexpr (built_key<K>)
    f(K{});
  else
    throw nb::type_error(
        (std::string("corank.") + what + ": this build of corank leaves out this dtype").c_str());
}

/// Calls f(K{}) for the keys' dtype, or raises TypeError.
template <class F>
void with_key_type(nb::dlpack::dtype t, const char* what, F&& f) {
  using code = nb::dlpack::dtype_code;
  const auto c = static_cast<code>(t.code);
  if (c == code::Int) {
    switch (t.bits) {
      case 8:
        return if_built<std::int8_t>(what, f);
      case 16:
        return if_built<std::int16_t>(what, f);
      case 32:
        return if_built<std::int32_t>(what, f);
      case 64:
        return if_built<std::int64_t>(what, f);
    }
  } else if (c == code::UInt) {
    switch (t.bits) {
      case 8:
        return if_built<std::uint8_t>(what, f);
      case 16:
        return if_built<std::uint16_t>(what, f);
      case 32:
        return if_built<std::uint32_t>(what, f);
      case 64:
        return if_built<std::uint64_t>(what, f);
    }
  } else if (c == code::Float) {
    switch (t.bits) {
      case 16:
        return if_built<float16>(what, f);
      case 32:
        return if_built<float>(what, f);
      case 64:
        return if_built<double>(what, f);
    }
  } else if (c == code::Bfloat && t.bits == 16) {
    return if_built<bfloat16>(what, f);
  }
  throw nb::type_error((std::string("corank.") + what +
                        ": keys must be int8-int64, uint8-uint64, float16, bfloat16, float32 or "
                        "float64")
                           .c_str());
}

void check_offsets(const view& offsets, std::size_t n) {
  if (offsets.dtype != nb::dtype<std::int64_t>()) throw nb::type_error("offsets must be int64");
  if (offsets.size == 0) throw nb::value_error("offsets must hold at least one entry (0)");
#if !CORANK_PY_CUDA
  // On the CPU the check costs one read of the offsets; on the GPU the Python layer checks them
  // when asked (check=True), since that waits for the device.
  const auto* o = static_cast<const std::int64_t*>(offsets.data);
  if (o[0] != 0) throw nb::value_error("offsets[0] must be 0");
  for (std::size_t s = 1; s < offsets.size; ++s)
    if (o[s] < o[s - 1])
      throw nb::value_error(("offsets must be non-decreasing (offsets[" + std::to_string(s) +
                             "] < offsets[" + std::to_string(s - 1) + "])")
                                .c_str());
  if (std::uint64_t(o[offsets.size - 1]) != n)
    throw nb::value_error(("offsets[-1] must be the item count " + std::to_string(n)).c_str());
#else
  (void)n;
#endif
}

std::size_t value_bytes_of(const view& v) {
  const std::size_t bytes = v.dtype.bits / 8;
#if CORANK_PY_CUDA
  // The GPU module is built for 4- and 8-byte values only (choices.hpp says why).
  if (bytes != 4 && bytes != 8)
    throw nb::type_error(
        "values must have 4 or 8 bytes per item on the GPU (int32, uint32, float32, int64, ...)");
#else
  if (bytes != 1 && bytes != 2 && bytes != 4 && bytes != 8)
    throw nb::type_error("values must have 1, 2, 4 or 8 bytes per item");
#endif
  return bytes;
}

/// Runs f on the arrays' device with the GIL released.
template <class F>
void on_device(int device_id, F&& f) {
#if CORANK_PY_CUDA
  int previous = 0;
  if (cudaGetDevice(&previous) != cudaSuccess) throw std::runtime_error("no CUDA device");
  if (previous != device_id && cudaSetDevice(device_id) != cudaSuccess)
    throw std::runtime_error("cannot select the arrays' CUDA device");
  struct restore {
    int previous, current;
    ~restore() {
      if (previous != current) cudaSetDevice(previous);
    }
  } restore_device{previous, device_id};
#else
  (void)device_id;
#endif
  nb::gil_scoped_release no_gil;
  f();
}

void merge(const input& a_in, const input& b_in, const output& out_in,
           const std::optional<input>& va_in, const std::optional<input>& vb_in,
           const std::optional<output>& vout_in, bool descending, std::uintptr_t stream) {
  const view a = checked(a_in, "a"), b = checked(b_in, "b"), out = checked(out_in, "out");
  same_dtype(a, b, "a", "b");
  same_dtype(a, out, "a", "out");
  same_device(a, b, "a", "b");
  same_device(a, out, "a", "out");
  sized(out, a.size + b.size, "out");
  apart(out, a, "out", "a");
  apart(out, b, "out", "b");
  const bool values = va_in.has_value();
  if (values != vb_in.has_value() || values != vout_in.has_value())
    throw nb::value_error("merge: give values for both inputs and an output for them, or none");
  view va{}, vb{}, vout{};
  std::size_t value_bytes = 0;
  if (values) {
    va = checked(*va_in, "values_a"), vb = checked(*vb_in, "values_b"),
    vout = checked(*vout_in, "values out");
    same_dtype(va, vb, "values_a", "values_b");
    same_dtype(va, vout, "values_a", "values out");
    for (const view* v : std::initializer_list<const view*>{&va, &vb, &vout})
      same_device(a, *v, "a", "the values");
    sized(va, a.size, "values_a");
    sized(vb, b.size, "values_b");
    sized(vout, out.size, "values out");
    for (const view* v : std::initializer_list<const view*>{&a, &b, &va, &vb, &out})
      apart(vout, *v, "values out", "an input");
    apart(out, va, "out", "values_a");
    apart(out, vb, "out", "values_b");
    value_bytes = value_bytes_of(va);
  }
  with_key_type(a.dtype, "merge", [&](auto key) {
    using K = decltype(key);
    on_device(a.device_id, [&] {
      merge_ops<K>::merge(static_cast<const K*>(a.data), a.size, static_cast<const K*>(b.data),
                          b.size, static_cast<K*>(out.data), va.data, vb.data, vout.data,
                          value_bytes, descending, stream);
    });
  });
}

/// The sorts' common part: keys (and values, or the indices of an argsort) copied from the
/// sources into the outputs (unless they are the same arrays), then sorted there.
template <class Run>
void sort_common(const input& keys_in, const output& out_in, const std::optional<input>& vals_in,
                 const std::optional<output>& vout_in, bool argsort, const char* what, Run run) {
  const view keys = checked(keys_in, "x"), out = checked(out_in, "out");
  same_dtype(keys, out, "x", "out");
  same_device(keys, out, "x", "out");
  sized(out, keys.size, "out");
  apart(out, keys, "out", "x", true);
  view vals{}, vout{};
  std::size_t value_bytes = 0;
  if (vout_in) {
    vout = checked(*vout_in, "values out");
    same_device(keys, vout, "x", "values out");
    sized(vout, keys.size, "values out");
    apart(vout, keys, "values out", "x");
    apart(vout, out, "values out", "out");
    value_bytes = value_bytes_of(vout);
    if (vals_in) {
      vals = checked(*vals_in, "values");
      same_dtype(vals, vout, "values", "values out");
      same_device(keys, vals, "x", "values");
      sized(vals, keys.size, "values");
      apart(vout, vals, "values out", "values", true);
      apart(out, vals, "out", "values");
    } else if (!argsort) {
      throw nb::value_error("sort: values out without values");
    } else if (vout.dtype != nb::dtype<std::int64_t>()) {
      throw nb::type_error("argsort: the indices' output must be int64");
    }
  } else if (vals_in) {
    throw nb::value_error("sort: values without an output for them");
  }
  with_key_type(keys.dtype, what, [&](auto key) {
    using K = decltype(key);
    on_device(keys.device_id, [&] {
      run(key, static_cast<const K*>(keys.data), static_cast<K*>(out.data), vals.data, vout.data,
          value_bytes, keys.size);
    });
  });
}

void sort(const input& keys, const output& out, const std::optional<input>& vals,
          const std::optional<output>& vout, bool argsort, bool descending, std::uintptr_t stream) {
  sort_common(
      keys, out, vals, vout, argsort, "sort",
      [&](auto key, auto src, auto dst, const void* sv, void* dv, std::size_t vb, std::size_t n) {
        sort_ops<decltype(key)>::sort(src, dst, sv, dv, vb, n, descending, stream);
      });
}

void sort_segments(const input& keys_in, const input& offsets_in, const output& out,
                   const std::optional<input>& vals, const std::optional<output>& vout, bool stable,
                   bool descending, std::uintptr_t stream) {
  const view keys = checked(keys_in, "x"), offsets = checked(offsets_in, "offsets");
  same_device(keys, offsets, "x", "offsets");
  check_offsets(offsets, keys.size);
  sort_common(
      keys_in, out, vals, vout, false, "sort_segments",
      [&](auto key, auto src, auto dst, const void* sv, void* dv, std::size_t vb, std::size_t n) {
        segment_ops<decltype(key)>::sort_segments(src, dst, sv, dv, vb, n,
                                                  static_cast<const std::int64_t*>(offsets.data),
                                                  offsets.size - 1, stable, descending, stream);
      });
}

/// `init` as K: Python passes a number that fits (the package computes the identities).
template <class K>
K number_as(nb::handle init) {
  if (init.is_none()) return K{};
  if constexpr (is_half_float<K>)
    return K::from(static_cast<float>(nb::cast<double>(init)));
  else if constexpr (std::is_floating_point_v<K>)
    return static_cast<K>(nb::cast<double>(init));
  else
    return nb::cast<K>(init);
}

void check_scan_dtype([[maybe_unused]] const view& x, [[maybe_unused]] const char* what) {
#if CORANK_PY_CUDA
  if (x.dtype.bits < 32)
    throw nb::type_error((std::string("corank.") + what +
                          " on the GPU takes 4- or 8-byte values (int32, int64, uint32, uint64, "
                          "float32, float64)")
                             .c_str());
#endif
}

void segmented_scan(const input& x_in, const input& offsets_in, const output& out_in, int op,
                    bool exclusive, nb::handle init, std::uintptr_t stream) {
  const view x = checked(x_in, "x"), offsets = checked(offsets_in, "offsets"),
             out = checked(out_in, "out");
  same_dtype(x, out, "x", "out");
  same_device(x, out, "x", "out");
  same_device(x, offsets, "x", "offsets");
  sized(out, x.size, "out");
  apart(out, x, "out", "x", true);
  apart(out, offsets, "out", "offsets");
  check_offsets(offsets, x.size);
  if (op < 0 || op > 2) throw nb::value_error("op must be 'add', 'max' or 'min'");
  with_key_type(x.dtype, "segmented_scan", [&](auto key) {
    using K = decltype(key);
    check_scan_dtype(x, "segmented_scan");
    const K first = number_as<K>(init);
    on_device(x.device_id, [&] {
      scan_ops<K>::segmented_scan(static_cast<const K*>(x.data), x.size,
                                  static_cast<const std::int64_t*>(offsets.data), offsets.size - 1,
                                  static_cast<K*>(out.data), static_cast<scan_op>(op), exclusive,
                                  first, stream);
    });
  });
}

void spmv_scan(const output& a_in, const input& scale_in, const input& offsets_in,
               long long iterations, std::uintptr_t stream) {
  const view a = checked(a_in, "a"), scale = checked(scale_in, "scale"),
             offsets = checked(offsets_in, "offsets");
  same_dtype(a, scale, "a", "scale");
  same_device(a, scale, "a", "scale");
  same_device(a, offsets, "a", "offsets");
  sized(scale, a.size, "scale");
  apart(a, scale, "a", "scale");
  check_offsets(offsets, a.size);
  if (iterations < 0) throw nb::value_error("iterations must be at least 0");
  with_key_type(a.dtype, "spmv_scan", [&](auto key) {
    using K = decltype(key);
    if constexpr (is_half_float<K>)
      throw nb::type_error("corank.spmv_scan: float16 and bfloat16 values are not supported");
    check_scan_dtype(a, "spmv_scan");
    on_device(a.device_id, [&] {
      scan_ops<K>::spmv_scan(static_cast<K*>(a.data), static_cast<const K*>(scale.data), a.size,
                             static_cast<const std::int64_t*>(offsets.data), offsets.size - 1,
                             iterations, stream);
    });
  });
}

/// For python/bench/bench.py: `reps` calls of the C++ operation in a row, no Python between them
/// (the baseline of the per-call overhead and throughput comparisons). Returns the host seconds
/// the calls took to return (on the GPU: to be queued; the caller times the device with events).
double time_calls(const std::string& what, const input& a_in, const input& b_in,
                  const output& out_in, int reps, std::uintptr_t stream) {
  const view a = checked(a_in, "a"), b = checked(b_in, "b"), out = checked(out_in, "out");
  same_dtype(a, out, "a", "out");
  const bool merging = what == "merge";
  if (!merging && what != "sort") throw nb::value_error("time_calls: 'merge' or 'sort'");
  sized(out, merging ? a.size + b.size : a.size, "out");
  double seconds = 0;
  with_key_type(a.dtype, "time_calls", [&](auto key) {
    using K = decltype(key);
    on_device(a.device_id, [&] {
      const auto start = std::chrono::steady_clock::now();
      for (int rep = 0; rep < reps; ++rep) {
        if (merging)
          merge_ops<K>::merge(static_cast<const K*>(a.data), a.size, static_cast<const K*>(b.data),
                              b.size, static_cast<K*>(out.data), nullptr, nullptr, nullptr, 0,
                              false, stream);
        else
          sort_ops<K>::sort(static_cast<const K*>(a.data), static_cast<K*>(out.data), nullptr,
                            nullptr, 0, a.size, false, stream);
      }
      seconds = std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count();
    });
  });
  return seconds;
}

}  // namespace
}  // namespace corank_py

NB_MODULE(CORANK_PY_MODULE, m) {
  using namespace corank_py;
  m.doc() = "corank's low-level bindings: use the functions of the corank package instead.";
  const auto none = nb::none();
  m.def("merge", &merge, "a"_a, "b"_a, "out"_a, "values_a"_a = none, "values_b"_a = none,
        "values_out"_a = none, "descending"_a = false, "stream"_a = 0);
  m.def("sort", &sort, "x"_a, "out"_a, "values"_a = none, "values_out"_a = none,
        "argsort"_a = false, "descending"_a = false, "stream"_a = 0);
  m.def("sort_segments", &sort_segments, "x"_a, "offsets"_a, "out"_a, "values"_a = none,
        "values_out"_a = none, "stable"_a = true, "descending"_a = false, "stream"_a = 0);
  m.def("segmented_scan", &segmented_scan, "x"_a, "offsets"_a, "out"_a, "op"_a = 0,
        "exclusive"_a = false, "init"_a = none, "stream"_a = 0);
  m.def("time_calls", &time_calls, "what"_a, "a"_a, "b"_a, "out"_a, "reps"_a, "stream"_a = 0);
  m.def("spmv_scan", &spmv_scan, "a"_a, "scale"_a, "offsets"_a, "iterations"_a, "stream"_a = 0);
#if CORANK_PY_CUDA
  m.def("device_count", [] {
    int count = 0;
    return cudaGetDeviceCount(&count) == cudaSuccess ? count : 0;
  });
#endif
}
